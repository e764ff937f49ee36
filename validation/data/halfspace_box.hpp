#pragma once
// A half-space as a solid: the exact intersection paths (intersection_moments,
// intersection_moments_nef) take two closed meshes, so the reference for the
// double half-space path (halfspace_intersection_moments) is A intersected
// with a large box whose top face is the plane. Shared by
// tests/robust_geometry/halfspace_moments_test.cpp,
// benchmarks/intersection_bench.cpp and the geometry audit
// (validation/audit/geometry_audit.cpp).
#include <Eigen/Core>

#include "core/rigid_pose.hpp"
#include "robust_geometry/halfspace_moments.hpp"
#include "robust_geometry/intersection_volume.hpp"

namespace contactref::data {

// The axis-aligned box [lo, hi] as a closed, outward-oriented TriangleSolid
// (8 vertices, each face two triangles). Throws InputError unless
// lo and hi are finite and lo < hi componentwise.
robust_geometry::TriangleSolid box_solid(const Eigen::Vector3d& lo, const Eigen::Vector3d& hi);

// The length of the diagonal of the solid's axis-aligned bounding box (0 for
// a solid without vertices).
double bounding_box_diagonal(const robust_geometry::TriangleSolid& solid);

// H = {x : u · x <= u · t}, u = R e_z, two ways:
//   half_space: for halfspace_intersection_moments (normal u, offset u · t,
//     both as computed in double from R and t);
//   box, pose: the box [-L, L]^2 x [-L, 0] posed by (R, t), for
//     intersection_moments(a, box, pose): its top face is the plane through t
//     spanned by R e_x and R e_y, and it holds every point of H within L of t
//     (so all of A ∩ H when A lies within L of t).
// The two are the same half-space exactly when R e_x × R e_y = R e_z and u · t
// hold without rounding (e.g. R a rotation about e_x or e_y and t, c = cos,
// s = sin with few enough significant bits; see geometry_audit.cpp);
// otherwise their planes differ by R's rounding: a tilt of ~1e-16 about t.
// Throws InputError unless L is positive and finite and (R, t) is a rigid
// pose (RigidPose::from_matrix: R a rotation to 1e-9, its entries kept).
struct HalfSpaceBox {
  robust_geometry::HalfSpace half_space;
  robust_geometry::TriangleSolid box;
  RigidPose<double> pose;
};

HalfSpaceBox halfspace_box(const Eigen::Matrix3d& R, const Eigen::Vector3d& t, double L);

// The same with L four times a's bounding-box diagonal: enough for t within
// that diagonal of a's points (then every point of a is within 2 diagonals).
HalfSpaceBox halfspace_box_around(const robust_geometry::TriangleSolid& a, const Eigen::Matrix3d& R,
                                  const Eigen::Vector3d& t);

}  // namespace contactref::data
