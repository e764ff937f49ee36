#pragma once
// The contact frame of one patch (Kry & Pai Eqs. 5-6) and the velocity of that
// frame relative to its body (Eqs. 44-51), with the partial derivatives in s
// and t that Hdot needs (Eq. 57). A patch c(s, t) on body b gives frame bc:
//   x = c_s / |c_s|,  z = (c_s x c_t) / |c_s x c_t|,  y = z x x          (Eq. 5)
//   E_b_bc = [x y z c; 0 0 0 1]                                          (Eq. 6)
// y = z x x is Eq. 5's y: (c_s x c_t) x c_s = (c_s . c_s) c_t - (c_s . c_t) c_s,
// of norm |c_s| |c_s x c_t|.
// z is the patch normal c_s x c_t, outward for the project's patches (analytic
// charts, Loop faces listed counter-clockwise from outside).
#include "reference/surfaces/patch_jet.hpp"

namespace contactref::kinematics {

template <class T> using Mat62 = Eigen::Matrix<T, 6, 2>;

template <class T>
struct ContactFrame {
  Mat4<T> E_b_bc;            // Eq. 6: the pose of the contact frame in the body frame
  // Partials of Eq. 6: [x_s y_s z_s c_s; 0 0 0 0] and [x_t y_t z_t c_t; 0 0 0 0].
  Mat4<T> E_b_bc_s, E_b_bc_t;
  // Eq. 51: ^{bc}phi(b, bc) = H_bc (s', t')^T, the twist of the contact frame
  // relative to its body in contact-frame coordinates, rows (omega; v):
  //   [-y.z_s  -y.z_t; -z.x_s  -z.x_t; y.x_s  y.x_t; x.c_s  x.c_t; 0  y.c_t; 0  0]
  Mat62<T> H_bc;
  Mat62<T> H_bc_s, H_bc_t;   // its partial derivatives in s and t
};

// The frame at a regular point (c_s x c_t != 0; the caller checks, e.g. with
// surfaces::check_regular). Uses the jet to third order.
template <class T>
ContactFrame<T> contact_frame(const surfaces::PatchJet<T>& jet);

// The surface's curvature form at the frame's point in its tangent axes
// (x, y): K with (x.dz, y.dz) = K (x.dc, y.dc) for a motion dc of the point
// (Weingarten), K = N J^-1 with N = (x.z_s x.z_t; y.z_s y.z_t) and
// J = (x.c_s x.c_t; 0 y.c_t), both read off H_bc (Eq. 51). Positive definite
// where the surface curves away from its outward normal (a sphere of radius
// r: I / r), negative where it is concave, indefinite at a saddle.
template <class T>
Eigen::Matrix<T, 2, 2> curvature(const ContactFrame<T>& frame);

}  // namespace contactref::kinematics
