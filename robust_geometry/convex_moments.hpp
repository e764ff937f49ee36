#pragma once
// The intersection moments of two convex polyhedra in double precision
// (Bouchard et al. Eqs. 14-20 and the volume gradient, with
// intersection_volume.hpp's definitions): the fast path for convex pairs
// (boxes, prisms, convex meshes), checked in tests against the exact
// corefinement, which stays the referee and the fallback.
//
// Algorithm. Omega = A ∩ pose_b(B) is the solid with more corners clipped
// by the other's face planes one after the other (half-space clipping of a
// convex polytope: every face polygon is cut by the plane, Sutherland-
// Hodgman, and the section, a convex polygon, is added as a face of the
// plane's solid, its corners ordered by angle about the plane's normal). A
// cut point is computed from the edge's inside end, so both faces of an edge
// get the same double; the boundary stays closed to rounding. The moments are
// then sums over fans of the faces with apex o (moment_sums.hpp, the
// half-space path's formulas), o the centre of the overlap of the two
// bounding boxes, and the gradient (∫ x × n_B dA ; ∫ n_B dA) over the faces
// that come from B. Cost: O(faces of one x corners of the other), a plane
// that misses Omega skipped after one pass over its corners: microseconds
// for two boxes, milliseconds for a 4096-sided prism on a box
// (benchmarks/convex_moments_bench.cpp).
//
// Predicates in double, with a band. A corner's signed distance s to a plane
// is computed with an error of a few eps L (L the largest coordinate about
// o); within tau = 32 eps L of the plane the corner counts as on it. Then:
//   - every corner beyond +tau of one plane: kDisjoint (certain);
//   - a face of one solid with every corner on the other's plane and the same
//     outward normal is flush (the exact path's flush patch of ∂B on ∂A):
//     kept once, with gradient_flush its integral (n_B = n_A there) and gradient =
//     gradient_interior + gradient_flush / 2, the symmetric derivative, as
//     the exact path;
//   - a plane with no corner beyond -tau inside it (Omega within the band of
//     the plane), or a computed volume V of at most 64 tau times Omega's
//     boundary area (what the band may move): kTouching, with no volume and
//     a zero gradient. The solids touch, or overlap by a mean depth below
//     what double resolves (about 1e-12 L), as the half-space path reports a
//     penetration at the level of rounding; the exact path resolves it;
//   - a face on a cutting plane facing it while the plane cuts Omega (a
//     contradiction of the rounding: no convex pair has it): no result
//     (std::nullopt), and the caller takes the exact path.
// Treating corners in the band as on the plane moves Omega's boundary by at
// most tau: V changes by at most tau times the boundary area, the other
// integrals likewise; elsewhere the results carry the rounding of the sums
// (measured against the exact path in tests/robust_geometry/
// convex_moments_test.cpp).
//
// Output as intersection_volume.hpp's (A's frame, the gradient about A's
// origin for B's motion); gradient_touching is always zero (two convex
// solids that touch face to face have no volume, and a kTouching result
// carries no gradient); with
// keep_vertices, vertices holds Omega's corners; boundary_triangles counts
// the fan triangles; rational_evaluation and non_manifold_intersection are
// false.
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/rigid_pose.hpp"
#include "robust_geometry/intersection_volume.hpp"
#include "robust_geometry/polyhedron.hpp"

namespace contactref::robust_geometry {

// A Polyhedron known to be convex (convexity.hpp), in the flat form the
// clipping reads: its corners, its faces' corner loops (counter-clockwise
// seen from outside) and their planes.
class ConvexPolyhedron {
 public:
  // InputError naming the polyhedron unless it is convex.
  explicit ConvexPolyhedron(const Polyhedron& polyhedron);
  // The polyhedron's convex form, or std::nullopt when it is not convex.
  static std::optional<ConvexPolyhedron> if_convex(const Polyhedron& polyhedron);

  const std::string& name() const { return name_; }
  const std::vector<Eigen::Vector3d>& vertices() const { return vertices_; }
  int face_count() const { return int(planes_.size()); }
  // Face f's corners are loop_[face_begin(f) .. face_begin(f + 1)).
  int face_begin(int f) const { return face_begin_[std::size_t(f)]; }
  const std::vector<int>& loops() const { return loops_; }
  const Plane& plane(int f) const { return planes_[std::size_t(f)]; }

 private:
  struct Convex {};  // the polyhedron was found convex
  ConvexPolyhedron(const Polyhedron& polyhedron, Convex);

  std::string name_;
  std::vector<Eigen::Vector3d> vertices_;
  std::vector<int> loops_;
  std::vector<int> face_begin_;  // face_count() + 1 entries
  std::vector<Plane> planes_;
};

// A ∩ pose_b(B) (above); std::nullopt where the double predicates
// contradict each other (the caller then takes intersection_moments).
std::optional<IntersectionMoments> convex_intersection_moments(const ConvexPolyhedron& a, const ConvexPolyhedron& b,
                                                               const RigidPose<double>& pose_b,
                                                               bool keep_vertices = false);

}  // namespace contactref::robust_geometry
