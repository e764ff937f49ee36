#pragma once
// Internal to robust_geometry: the contact normals of Condition 8 (Bouma &
// Vanecek, Section 3, "Contact Normals", new regions) for the regions whose
// normal is not a face's or an edge cross product: collinear edges, and the
// 0D regions at vertices and edges.
//
// Directions. For a convex piece P of A's tangent cone and Q of B's (both at
// the contact point, local_cones.hpp), translating B by d makes the two
// overlap iff d lies in the interior of P - Q. Its polar, the separating cone
//   S(P, Q) = {n : n . p <= 0 on P, n . q >= 0 on Q},
// holds the normals n (from A to B) of the halfspaces {n . d >= 0} that keep
// the pieces apart: every n in S(P, Q) is a valid point-on-plane constraint
// for that pair, and S(P, Q) = {0} only if the pieces overlap (the solids
// penetrate within the touch tolerance).
//
// Rules:
//   separating (one piece each, both solids convex at the region, Fig. 7c, d:
//     "a single normal for a halfspace that separates the two"): the
//     normalised sum of the unit extreme rays of S(P, Q) (for a 1D region the
//     bisector of its two extreme separating directions);
//   convex_pieces (a reflex edge or a non-convex vertex, more than one pair):
//     Bouma & Vanecek's normals are support planes of faces (Fig. 7a, b: the
//     two faces of a reflex edge; a corner: "the three maximally transversal
//     planes"). Each pair's candidates are the facet normals of the
//     non-convex side's piece (A's outward, B's inward: support planes of
//     the faces of the corner or the reflex edge) that lie in S(P, Q); if
//     none does, those of the other side; if none does either, the sum of
//     S(P, Q)'s extreme rays (each scaled to the unit box). Normals are
//     chosen to cover every pair (a normal covers a pair when it lies in its
//     S): first every candidate that is the only one of some pair, then
//     repeatedly a candidate covering the most pairs still uncovered; among
//     those, the lexicographically first that no other is strictly less
//     restrictive than (c1 is no stricter than c2 when c1 . d >= 0 follows
//     from c2 . d >= 0 and the normals already chosen: c1 in cone(chosen,
//     c2), Farkas). The covering set keeps B from entering A at the point
//     for every d with n . d >= 0 for all its normals. When it has more than
//     max_normals (3 - k for a k-D region), the max_normals maximally
//     transversal ones are kept (largest |det| of the unit normals), as the
//     paper prescribes; that set no longer covers every pair. In Fig. 5
//     (our reading) this gives the floor and the leaning wall f_3 when
//     alpha <= beta (B may slide along the corner), and the floor, the wall
//     f_2 and the end face f_4 when alpha > beta.
//   overlapping (some pair has S = {0}): the normals covering the other
//     pairs, or, if none, the outward normals of A's faces at the region
//     (maximally transversal, at most max_normals).
// Every choice depends only on the geometry (directions compared exactly),
// never on the order of vertices or faces; normals come out in lexicographic
// order.
#include <Eigen/Core>
#include <optional>
#include <vector>

#include "robust_geometry/local_cones.hpp"

namespace contactref::robust_geometry::detail {

// Rule `separating`; nullopt when S(P, Q) = {0}.
std::optional<Eigen::Vector3d> separating_bisector(const ConvexCone& p, const ConvexCone& q);

struct PieceNormals {
  std::vector<Eigen::Vector3d> normals;  // unit, from A to B, lexicographic
  bool overlapping = false;              // some pair has S = {0}
};
// Rules `convex_pieces` and `overlapping`; a_face_normals are the outward
// normals of A's faces at the region (the overlapping fallback).
PieceNormals piece_normals(const std::vector<ConvexCone>& a_pieces, const std::vector<ConvexCone>& b_pieces,
                           const std::vector<Vec>& a_face_normals, std::size_t max_normals);

}  // namespace contactref::robust_geometry::detail
