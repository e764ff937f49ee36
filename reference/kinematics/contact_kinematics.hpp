#pragma once
// Contact kinematics of two smooth patches (Kry & Pai Sections 3.1-3.2 and the
// appendix): the contact coordinates q = (s, t, u, v, psi) (Eq. 8), the
// relative pose E_2_1(q) (Eq. 9), H (Eqs. 13-14, 44-56) and Hdot (Eq. 57,
// thesis Eq. 4.18).
//
// Conventions (fixed here, checked by the tests against 50-digit differences
// of the pose map Eq. 9 and against Montana's contact equations):
//  - Patch c(s, t) of body 1 and d(u, v) of body 2 are in their body frames;
//    contact frames 1c, 2c are those of contact_frame.hpp, z along the patch
//    normal c_s x c_t (outward), so z_2c = -z_1c at contact (Eq. 7).
//  - phi = ^1phi(2,1) = V(E_1_2 dE_2_1/dt) (Eq. 10) is the velocity of body 1
//    relative to body 2 in body-1 coordinates, (omega; v), and H maps q' to it
//    (Eq. 14): phi = H_1 q'. This is the phi of the dynamics (Eq. 15-16).
//  - The appendix's H (Eq. 56) is ^{1c}phi(1,2), the motion of body 2
//    relative to body 1 (phi(j,i) is the motion of frame i relative to frame j,
//    Section 2), i.e. the negative of Eq. 13's. Here
//      H_1c = ( -^{1c}H_1 | Ad_1c_2c ^{2c}H_2 | (0, 0, 1, 0, 0, 0)^T ),
//    so the spin entry H_1c(2, 4) is +1: body 1 spins about z_1c at +psi'
//    relative to body 2 (x_2c = R_psi e_x turns by -psi about z_1c).
#include <Eigen/Core>

#include "reference/kinematics/contact_frame.hpp"
#include "reference/surfaces/patch.hpp"

namespace contactref::kinematics {

template <class T> using Vec5 = Eigen::Matrix<T, 5, 1>;
template <class T> using Mat65 = Eigen::Matrix<T, 6, 5>;

// Eq. 7: E_1c_2c = [R_psi 0; 0 1], R_psi = [cos -sin 0; -sin -cos 0; 0 0 -1].
// R_psi is symmetric and involutory (R_psi^2 = I), so E_2c_1c = E_1c_2c.
template <class T>
Mat4<T> frame_alignment(const T& psi);

// The part of the kinematics that depends on q alone (a mode's reduced
// velocities, thesis Eqs. 4.35-4.44, need H before q' is known).
template <class T>
struct ContactConfiguration {
  surfaces::PatchJet<T> jet1, jet2;  // the patches' jets at (s, t) and (u, v), to third order
  ContactFrame<T> frame1, frame2;    // Eq. 6 with its partials, and Eq. 51, there
  T psi = T(0);
  Mat4<T> E_1_1c, E_2_2c, E_1c_2c;  // Eqs. 6, 7
  Mat4<T> E_2_1;                    // Eq. 9: the pose of body 1 in body 2
  Mat65<T> H_1c, H_1;               // phi in frame 1c and in frame 1 = H q'
};

// Hdot as matrices (Eq. 57, thesis Eq. 4.18): the reference, and what the
// kinematics command and the audit print.
template <class T>
struct ContactKinematics : ContactConfiguration<T> {
  Mat65<T> Hdot_1c, Hdot_1;  // the time derivatives of H_1c, H_1 along q'
};

// Hdot q' alone, what the dynamics need (Eq. 19's dphi = Hdot q' + H q''):
// the same rates contracted with q', from directional derivatives of the
// frames (contact_frame.hpp frame_jacobian_rate) instead of their partials.
template <class T>
struct ContactRates : ContactConfiguration<T> {
  Vec6<T> Hdot_1c_qdot, Hdot_1_qdot;  // Hdot_1c q', Hdot_1 q'
};

// The configuration at q. Throws InputError for a non-finite q, and
// ComputationError naming the body where a patch is not regular or its
// evaluation is not finite, or naming the result that overflows. A q outside
// a patch domain is the caller's responsibility (patches evaluate their
// polynomial extension there).
template <class T>
ContactConfiguration<T> contact_configuration(const surfaces::Patch<T>& patch1, const surfaces::Patch<T>& patch2,
                                              const Vec5<T>& q);

// The same in place (the kinematics' configuration part is set without
// copying its 2 KB).
template <class T>
void set_configuration(ContactConfiguration<T>& configuration, const surfaces::Patch<T>& patch1,
                       const surfaces::Patch<T>& patch2, const Vec5<T>& q);

// The kinematics at (q, q') from the configuration at q: Hdot is linear in q'.
// InputError for a non-finite q', ComputationError when Hdot overflows.
template <class T>
ContactKinematics<T> contact_kinematics(const ContactConfiguration<T>& configuration, const Vec5<T>& qdot);

// The same in place: `kinematics` holds the configuration at q, and its
// rates along q' are set (without copying the configuration's 2 KB).
template <class T>
void set_rates(ContactKinematics<T>& kinematics, const Vec5<T>& qdot);

// The same contracted with q': `rates` holds the configuration at q, and
// Hdot_1c q', Hdot_1 q' are set. Errors as set_rates.
template <class T>
void set_hdot_qdot(ContactRates<T>& rates, const Vec5<T>& qdot);

// The relative curvature of the contact in frame 1c's tangent axes:
// K_1 + A K_2 A^T, K_b the curvature form of body b (contact_frame.hpp
// curvature, positive where its surface curves away from its own outward
// normal) and A the tangential block of R_psi (Eq. 7), which maps frame 2c's
// tangent coordinates to frame 1c's. Positive definite at an isolated
// contact (a ball of radius r on a plane: I / r; in a spherical bowl of
// radius R: (1/r - 1/R) I); singular where the surfaces conform to second
// order, so that the contact point's rates for a given rolling diverge
// (the mass matrix H^T M H with it).
template <class T>
Eigen::Matrix<T, 2, 2> relative_curvature(const ContactConfiguration<T>& configuration);

// Both at once.
template <class T>
ContactKinematics<T> contact_kinematics(const surfaces::Patch<T>& patch1, const surfaces::Patch<T>& patch2,
                                        const Vec5<T>& q, const Vec5<T>& qdot);

}  // namespace contactref::kinematics
