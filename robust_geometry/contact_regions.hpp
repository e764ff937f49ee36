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
// tolerance policy, applied at every cut plane and nowhere else:
//   a point is ON a cut plane iff its distance to the plane, measured within
//   the cell being cut (to the plane in 3D, to the line where the plane
//   meets a 2-cell, to the point where it meets a 1-cell), is at most
//   touch_tolerance; the comparison is exact (squared distances in
//   rationals). A point decided ON is projected exactly onto the plane (within
//   the cell) before it descends into the on-subtree, so every later decision
//   is made on exact data and each decision is made once (design D1 of the
//   notes). With touch_tolerance = 0 every decision is the exact sign.
// A point of B at distance d from a face of A is therefore in contact iff
// d <= touch_tolerance; beyond it, it is apart (above) or penetrating
// (below). Pieces of B's boundary that reach the interior of A (beyond the
// tolerance) are reported as penetration (assumption 4 of the paper violated),
// not as regions.
//
// Frames and units: A's frame; lengths in the unit of the input coordinates
// (metres in the project's scenes); touch_tolerance in the same unit.
#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

#include "robust_geometry/brep_index.hpp"
#include "robust_geometry/errors.hpp"
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
// GeometryInputError starting with `name` (the option the caller read it
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
// coordinates to A's frame (a rigid 4x4 transform, applied exactly to the
// double entries). GeometryInputError for a pose that is not rigid (to 1e-9),
// a bad tolerance (check_touch_tolerance), a mask of the wrong size, or an index built from another
// polyhedron (node count mismatch is not detectable; the caller pairs them).
IntersectionSet intersect(const Polyhedron& a, const BrepIndex& index_a, const Polyhedron& b,
                          const Eigen::Matrix4d& pose_b, const IntersectOptions& options = {},
                          const EntityMask& mask_b = {});

}  // namespace contactref::robust_geometry
