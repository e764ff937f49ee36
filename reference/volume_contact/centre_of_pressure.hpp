#pragma once
// The centre of pressure and its projection onto the contact ellipse
// (Bouchard et al. Sections 5.3-5.4), in the contact frame of
// contact_patch.hpp: origin at the patch's centre c, axes (u, w, n) = (the
// ellipse's major axis, its minor axis, the normal).
//
// Centre of pressure (Section 5.3): the point d of the tangent plane where the
// contact wrench (f, tau), given at c, has no tangential torque. Moving a
// wrench from c to p keeps f and changes the torque to tau - (p - c) x f; with
// p - c = (d_u, d_w, 0) and f_n the normal force, the tangential torque
// vanishes at
//   d = (-tau_w, tau_u) / f_n,
// which is the point a normal force f_n placed at d would have to sit to give
// the torque tau_t (the paper prints (tau_w, -tau_u) / f_n: its tau is the
// torque of the opposite wrench, on the other body).
//
// Projection (Section 5.4): a d outside the ellipse u^2/a^2 + w^2/b^2 <= 1 is
// clamped to the closest point of its boundary ("an iterative root finding
// algorithm"; the paper: 4 to 5 iterations). In the quadrant of d, the closest
// point is p = (a^2 d_u / (t + a^2), b^2 d_w / (t + b^2)) for the root t > 0
// of F(t) = (a d_u / (t + a^2))^2 + (b d_w / (t + b^2))^2 - 1 (the normal at p
// passes through d), which is decreasing on the bracket
//   [-b^2 + b |d_w|, -b^2 + sqrt(a^2 d_u^2 + b^2 d_w^2)]
// (Eberly, "Distance from a point to an ellipse"), found by Boost's TOMS 748
// to round-off. Points on the major axis (d_w = 0) outside the ellipse project
// to its vertex (a, 0); a degenerate ellipse (b = 0: a skinny rod's segment,
// or a = b = 0: a point) is handled as that segment or point.
#include <Eigen/Core>

namespace contactref::volume_contact {

// InputError: f_n not finite and > 0 (a contact that does not push has no
// centre of pressure), a non-finite torque.
Eigen::Vector2d centre_of_pressure(double f_n, const Eigen::Vector2d& tau_t);

// d's projection onto the patch: the ellipse here, the support region of
// support_region.hpp.
struct PatchProjection {
  Eigen::Vector2d point = Eigen::Vector2d::Zero();  // m: p (d itself when inside)
  bool inside = true;                               // d was inside or on the patch
  int iterations = 0;                               // of the ellipse's root finding (0 when none was needed)
};

// semi_axes: (a, b), a >= b >= 0 (m). InputError: a non-finite d, semi-axes
// not finite or not a >= b >= 0.
PatchProjection project_onto_ellipse(const Eigen::Vector2d& d, const Eigen::Vector2d& semi_axes);

}  // namespace contactref::volume_contact
