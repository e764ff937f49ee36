#pragma once
// Contact analysis of two touching polyhedra (Bouma & Vanecek, Section 3 and
// Algorithm FindContacts, Section 4.3): which regions of the intersection set
// I are needed (Definitions 1-2, Eqs. 3-4, Theorem 1) and their contact
// normals (Conditions 6-8, with temporal coherence from the previous step's
// contacts).
//
// Conventions. A is the solid whose Brep-index classifies B (B posed in A's
// frame); a region's entity_a is the paper's y (of the indexed solid s_j) and
// entity_b its x. Every normal is a unit vector in A's frame pointing from A
// to B: the direction along which B may move away from A at the region.
//
// Selection (Eqs. 3-4). A region r of dimension d < 2 is needed unless, at a
// point p of r (any point: regions are homogeneous, Eq. 2), neither solid
// keeps material near p outside the local approximations H_i (Definition 1)
// of the needed regions of higher dimension adjacent to r:
//   N_{a_i}(p) = K_i(p) minus the union of the H_i(r_j),
// with K_i(p) the tangent cone of solid i at p (local_cones.hpp: a halfspace
// at a face, a wedge at an edge: the intersection of its faces' halfspaces if
// convex, their union if reflex; at a vertex the intersection of its faces'
// halfspaces if convex, else the union of the cells of the arrangement of
// its faces' planes that lie in the solid) and H_i(r_j) as Definition 1
// gives it (the face's halfspace for a 2D region or an edge in a face; the
// edge's wedge for a 1D region on an edge). All cones have their apex at p (the H_i of an adjacent region are
// bounded by planes through p). N is empty iff no open set of directions lies
// in K_i(p) and outside every H_i(r_j): after distributing the union, a finite
// number of systems of strict homogeneous inequalities, each decided exactly
// by Gordan's theorem (M d > 0 has a solution iff 0 is not in the convex hull
// of the rows of M; Caratheodory: iff no 1 to 4 rows contain 0 in their hull).
// Adjacency of regions is the paper's adjacency of entities: r_j is adjacent
// to r iff each entity of r equals, or lies in the boundary of, the
// corresponding entity of r_j. Every decision is exact, so a region is
// dropped only when Theorem 1 allows it.
//
// Normals (Condition 8, new regions; "at most 3 - k normals for a k-D
// region"):
//   2D, and 1D or 0D with a face: the face's support-plane normal (A's face
//     outward, or B's face inward);
//   0D edge-edge (transversal): e_a x e_b, oriented from A to B;
//   1D edge-edge with a reflex edge: the two support-plane normals of the
//     reflex edge's faces (Fig. 7a, b);
//   1D collinear edge-edge, both convex, and 0D vertex-edge, edge-vertex,
//     vertex-vertex with both entities convex: one separating normal (Fig.
//     7c, d), the normalised sum of the unit extreme rays of the cone of
//     separating directions (separating_normals.hpp); for 1D regions the
//     bisector of the two extreme separating directions;
//   0D regions at a reflex edge or a non-convex vertex: up to three support
//     planes of the faces there, one separating each pair of convex pieces of
//     the two tangent cones, at most three kept ("the three maximally
//     transversal planes"; separating_normals.hpp gives the rule).
// Persisting regions (Eq. 6: the same pair of entities in the previous
// contacts) and shrinking ones (Eq. 7: entities equal or adjacent to those of
// a previous contact whose entities both have convex neighbourhoods) keep
// the previous normals. A previous contact matches a region when its pair of
// entities is equal (Eq. 6) or adjacent (Eq. 7); among several (components of
// one pair), the one whose points' centroid is nearest.
#include <Eigen/Core>
#include <array>
#include <vector>

#include "core/rigid_pose.hpp"
#include "robust_geometry/back_face_culling.hpp"
#include "robust_geometry/contact_regions.hpp"

namespace contactref::robust_geometry {

enum class NormalRule {
  face,                // the support plane of a face of the region
  edge_cross,          // e_a x e_b (transversal edges)
  reflex_edge,         // the two faces of a reflex edge
  separating,          // the bisector of the separating directions
  persisting,          // Eq. 6: the previous normals of the same pair
  shrinking,           // Eq. 7: the previous normals of an adjacent pair
  convex_pieces,       // faces separating each pair of convex pieces (non-convex)
  overlapping          // the local cones overlap: no separating direction for some pieces
};
const char* to_string(NormalRule rule);

struct Contact {
  ContactRegion region;
  std::vector<Eigen::Vector3d> normals;  // unit, A's frame, from A to B
  NormalRule rule = NormalRule::face;
};

// R_t from I (Eqs. 3-4), in I's order. pose_b as for intersect().
std::vector<ContactRegion> needed_regions(const Polyhedron& a, const Polyhedron& b, const RigidPose<double>& pose_b,
                                          const std::vector<ContactRegion>& intersection);

// The normals of the needed regions (Conditions 6-8), given the previous
// step's temporary contacts (empty at the first step).
std::vector<Contact> contact_normals(const Polyhedron& a, const Polyhedron& b, const RigidPose<double>& pose_b,
                                     const std::vector<ContactRegion>& needed, const std::vector<Contact>& previous);

struct FindContactsOptions {
  IntersectOptions intersect;
  bool cull = true;          // back-face culling (needs twist_b)
  double cull_margin = 0;    // see back_face_culling.hpp
};

struct ContactAnalysis {
  IntersectionSet intersection;  // I (of the unculled entities)
  std::vector<Contact> contacts;  // R with normals
  std::array<int, 3> kept_after_culling{};  // B's vertices, edges, faces classified
};

// Algorithm FindContacts, steps 2-5: cull B's entities moving away (twist_b:
// B's twist relative to A in A's frame, see back_face_culling.hpp), classify
// the rest through A's Brep-index (I), select R (Eqs. 3-4) and compute the
// normals against the previous contacts. Errors as intersect() and
// cull_back_faces().
ContactAnalysis find_contacts(const Polyhedron& a, const BrepIndex& index_a, const Polyhedron& b,
                              const RigidPose<double>& pose_b, const Vector6d& twist_b,
                              const std::vector<Contact>& previous = {}, const FindContactsOptions& options = {});

}  // namespace contactref::robust_geometry
