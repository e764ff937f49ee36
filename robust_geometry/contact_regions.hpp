#pragma once
// The set-theoretic intersection of two touching polyhedra as contact regions
// (Bouma & Vanecek, Section 3, Lemma 1; Section 4.3, Algorithm FindContacts
// step 3, Eq. 14): the boundary of B, posed in A's frame, is cut into convex
// pieces and classified through A's Brep-index (Intersect: SplitRegions at
// every cut plane, MergeRegions of the pieces that reach the same pair of
// entities), giving
//   I = { (x, y, Pi) : x an entity of A, y an entity of B, x ∩ y ≠ ∅ },
// one region per connected component of x ∩ y, entities being relatively
// open (a face without its edges, an edge without its end vertices).
//
// Touching is degenerate by nature (notes B.6): after a rigid motion in
// floating point, faces that touch are no longer exactly coplanar. The
// tolerance policy (issue 10, item 4), with eps = touch_tolerance, every
// comparison exact (squared distances in rationals), and independent of A's
// Brep-index (balancing on or off, any threshold, any face order) where
// stated:
//   1. Point contacts (regions of dimension 0 whose pair has a vertex of A or
//      of B, or two edges) are decided from exact distances between the
//      closures of the entities, without the tree:
//        - a vertex v of B touches the lowest-dimensional entity y of A whose
//          closure lies within eps of v (then the nearest, then the lowest
//          index): region (y, v, 0) at the point of y nearest to v (which
//          lies in the open y);
//        - a vertex w of A likewise touches an entity of B: region (w, x, 0)
//          at w;
//        - two edges that are not parallel touch iff the closest points of
//          their lines lie inside both edges and are within eps: region at
//          the point on A's edge.
//      So a vertex of B is in contact iff its distance to A's surface is
//      <= eps, and two solids in generic position (closest pair a vertex and
//      a face, edge or vertex, or two crossing edges) touch iff their
//      distance is <= eps. A vertex of B that touches nothing and lies inside
//      A (exactly) is penetrating.
//   2. Regions of dimension 1 and 2 come from B's edges and faces descending
//      A's Brep-index (SplitRegions). Only a support plane of a face of A
//      snaps: a point of a piece is ON it iff the distance from the point's
//      original position (before any projection; for a point constructed
//      where a cut crosses a piece, the same affine combination of the
//      corners' originals) to the plane within the cell (to the plane in 3D,
//      to the line where it meets a 2-cell, to the point where it meets a
//      1-cell) is <= eps; such a point is projected orthogonally within the
//      cell, so that it is always the projection of its original onto the
//      cell's affine hull, and successive snaps never compose beyond eps. A
//      piece goes ON when all its corners do (it then lies within eps of the
//      subspace, by convexity). Balancing and auxiliary cuts are not surfaces
//      of A and decide by the exact sign. The pieces that reach an edge or a
//      face of A are clipped to its closure (exactly), so every region point
//      lies on A and is the projection of a point of B within eps of it.
//      With a tolerance the tree's point pieces are not used (see 1).
//   What remains tree-dependent, in 2 only, at the scale of eps: where a cut
//   that is not A's surface (or the plane of another face) passes within eps
//   of a piece, the piece is split exactly there, and the part on the far
//   side of the cut from the face it is within eps of never meets that
//   face's plane; the region then lacks a sliver of width at most about eps
//   (its pair and dimension are kept as long as another part of the same
//   pair reaches the face). Conversely a piece cut short (length ~eps) by
//   such cuts near a point contact may snap as a whole where the uncut piece
//   would not, giving a region of dimension 1 or 2 of extent ~eps on A next
//   to the point contact. A piece within eps of the planes of two faces of A
//   (near-flat dihedral angles of A, below about eps / size) snaps onto the
//   first one the tree meets. Penetration by B's edges and faces is read
//   from the tree's "inside" leaves after the snaps above.
// With touch_tolerance = 0 every decision is the exact sign and regions are
// the exact intersection set.
// Pieces of B's boundary that reach the interior of A (beyond the tolerance)
// are reported as penetration (assumption 4 of the paper violated), not as
// regions.
//
// Frames and units: A's frame; lengths in the unit of the input coordinates
// (metres in the project's scenes); touch_tolerance in the same unit.
#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

#include "robust_geometry/brep_index.hpp"
#include "core/errors.hpp"
#include "core/rigid_pose.hpp"
#include "robust_geometry/polyhedron.hpp"

namespace contactref::robust_geometry {

enum class EntityKind { vertex = 0, edge = 1, face = 2 };
struct Entity {
  EntityKind kind = EntityKind::vertex;
  int index = -1;
  friend bool operator==(const Entity&, const Entity&) = default;
  friend auto operator<=>(const Entity&, const Entity&) = default;
};
std::string to_string(const Entity& entity);  // "vertex 3", "edge 0", "face 12"
int dimension(EntityKind kind);               // 0, 1, 2

// A region (x, y, Pi) of Lemma 1: entity_a of A, entity_b of B, and Pi.
struct ContactRegion {
  Entity entity_a;
  Entity entity_b;
  // From Pi (Section 3): 0 for one point, 1 for two, 2 for a polygon (no
  // three consecutive points collinear).
  int dimension = 0;
  // Pi in A's frame, rounded to double from the exact points: the point; the
  // segment's two end points (lexicographic order); the polygon's outer
  // boundary, counter-clockwise seen from outside A (against entity_a's
  // outward normal), starting at its lexicographically smallest corner.
  std::vector<Eigen::Vector3d> points;
  // Dimension 2 only: the boundaries of holes, clockwise seen from outside A
  // (the paper joins them to the outer boundary by bridge edges; they are
  // kept apart here).
  std::vector<std::vector<Eigen::Vector3d>> holes;
};

struct IntersectOptions {
  // The touch tolerance (see above); see check_touch_tolerance.
  double touch_tolerance = 0;
};

// The touch tolerances that can mean something for solids a and b: finite,
// >= 0 and below half the shortest edge of either solid (compared exactly: 4
// eps^2 < |p - q|^2, B's edges in B's frame). At half an edge's length the
// point midway along it is within the tolerance of both end vertices, so
// which entity of the solid a point touches is no longer defined; snaps then
// compose along the whole edge and Intersect's pieces multiply without
// bound (issue 10, item 18: a 128-face sphere against itself took minutes).
// The condition is necessary, not sufficient: keep the tolerance to the
// rounding it is meant to absorb (a few ulps of the coordinates). Throws
// InputError starting with `name` (the option the caller read it
// from).
void check_touch_tolerance(double touch_tolerance, const Polyhedron& a, const Polyhedron& b, const std::string& name);

// Which entities of B take part (back-face culling, Section 4.1): vertex,
// edge and face masks indexed like the Polyhedron's; an empty vector keeps
// all of that kind.
struct EntityMask {
  std::vector<bool> vertices, edges, faces;
};

struct IntersectionSet {
  // I, sorted by (entity_a, entity_b, dimension, first point).
  std::vector<ContactRegion> regions;
  // Evidence that the solids overlap in volume (assumption 4 of the paper
  // violated; the regions are then not a touching contact):
  //   penetrating_b: entities of B with a piece in the interior of A beyond
  //     the tolerance, sorted;
  //   flush_faces: (face of A, face of B) pairs with a 2D region whose
  //     outward normals point the same way (the solids on the same side, as
  //     for identical solids), sorted;
  //   a_inside_b: A inside B (nested), the boundaries apart or touching:
  //     no piece of B reaches A's interior, but a point of A lies inside B
  //     farther than the tolerance from B's surface (see contact_regions.cpp;
  //     decided exactly whatever touches).
  std::vector<Entity> penetrating_b;
  std::vector<std::pair<Entity, Entity>> flush_faces;
  bool a_inside_b = false;
  bool penetrating() const { return !penetrating_b.empty() || !flush_faces.empty() || a_inside_b; }
  // Work counters: pieces of B classified (after culling), and piece-plane
  // side tests made during the descent.
  long pieces = 0;
  long plane_tests = 0;
};

// Eq. 14: I = union over the (unculled) entities x of B of Intersect(root of
// A's Brep-index, {x}), merged per pair of entities. pose_b takes B's
// coordinates to A's frame (rigid by its type, applied exactly to the double
// entries). InputError for a bad tolerance (check_touch_tolerance), a mask of
// the wrong size, or an index built from another polyhedron (node count
// mismatch is not detectable; the caller pairs them).
IntersectionSet intersect(const Polyhedron& a, const BrepIndex& index_a, const Polyhedron& b,
                          const RigidPose<double>& pose_b, const IntersectOptions& options = {},
                          const EntityMask& mask_b = {});

}  // namespace contactref::robust_geometry
