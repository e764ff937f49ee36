#pragma once
// The contact frame of one patch (Kry & Pai Eqs. 5-6) and the velocity of that
// frame relative to its body (Eqs. 44-51), with the partial derivatives in s
// and t that Hdot needs (Eq. 57), or their contraction along (s', t') that
// Hdot q' needs. A patch c(s, t) on body b gives frame bc:
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
};

// The frame at a regular point (c_s x c_t != 0; the caller checks, e.g. with
// surfaces::check_regular). Uses the jet to second order.
template <class T>
ContactFrame<T> contact_frame(const surfaces::PatchJet<T>& jet);

// H_bc's partial derivatives in s and t (Eq. 57's Hdot is H_bc_s s' + H_bc_t t'),
// from the jet to third order, at a regular point.
template <class T>
struct FrameJacobianPartials {
  Mat62<T> H_bc_s, H_bc_t;
};
template <class T>
FrameJacobianPartials<T> frame_jacobian_partials(const surfaces::PatchJet<T>& jet);

// (H_bc_s s' + H_bc_t t') (s', t')^T: the rate of the frame's twist H_bc k'
// along k' = (s', t') held fixed, without the partials: the directional
// derivatives D = s' d/ds + t' d/dt of x, y, z and c, to second order, in
// H_bc's rows (the dynamics need Hdot q' alone, Eq. 19). `frame` is
// contact_frame(jet).
template <class T>
Vec6<T> frame_jacobian_rate(const surfaces::PatchJet<T>& jet, const ContactFrame<T>& frame, const T& s_dot,
                            const T& t_dot);

// The surface's curvature form at the frame's point in its tangent axes
// (x, y): K with (x.dz, y.dz) = K (x.dc, y.dc) for a motion dc of the point
// (Weingarten), K = N J^-1 with N = (x.z_s x.z_t; y.z_s y.z_t) and
// J = (x.c_s x.c_t; 0 y.c_t), both read off H_bc (Eq. 51). Positive definite
// where the surface curves away from its outward normal (a sphere of radius
// r: I / r), negative where it is concave, indefinite at a saddle.
template <class T>
Eigen::Matrix<T, 2, 2> curvature(const ContactFrame<T>& frame);

}  // namespace contactref::kinematics
