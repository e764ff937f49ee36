#pragma once
// Frictionless single-contact dynamics in reduced (contact) coordinates
// (Kry & Pai Section 3.3, Eqs. 15-20): body 1 free, body 2 fixed at a known
// world pose E_w_2, uniform gravity.
//
// Conventions (fixed here, checked by the tests):
//  - Body 1's frame is at its centre of mass; M = blockdiag(I_com, m 1)
//    (spatial_inertia_at_com). Every twist and wrench below is in body-1
//    coordinates, angular part first: phi = (omega; v), f = (tau; F), tau
//    about the centre of mass.
//  - phi = H_1 q' is the velocity of body 1 relative to body 2 (Eq. 14); body 2
//    is fixed in the world, so phi is body 1's twist relative to the inertial
//    frame and Newton-Euler (Eq. 15) applies to it.
//  - f_ext = (0; m Theta_w_1^T g) + the optional extra body wrench, with
//    Theta_w_1 the rotation of E_w_1 = E_w_2 E_2_1(q) (Eq. 9).
//  - Eq. 20: (H^T M H) q'' = H^T (f_ext + [phi]^T M phi - M Hdot q'), solved
//    with the Cholesky factor of the Jacobi-scaled 5x5 matrix (never an
//    inverse). Conforming contact (H^T M H not positive definite to working
//    precision: a scaled pivot below 64 * 5 eps) is a ComputationError naming
//    the patches and q.
//  - Eq. 19 by back-substitution: dphi = Hdot q' + H q'',
//    f_c = M dphi - [phi]^T M phi - f_ext, the contact wrench on body 1.
//  - f_c_1c = the same wrench in the contact frame 1c (torque about the
//    contact point): f_1c = wrench_adjoint(E_1c_1) f_1. Frictionless contact
//    makes its first five entries zero.
//  - z_1c is body 1's outward normal, pointing into body 2, so the compressive
//    force on body 1 points along -z_1c: f_n = -f_c_1c(5). f_n > 0 pushes body
//    1 away from body 2; f_n < 0 would need adhesion: `separating`.
//  - State y = (q, q') in R^10; its derivative is (q', q'').
//  - Total energy E(y) = 1/2 phi^T M phi - m g . p_w_1, p_w_1 the world
//    position of the centre of mass (translation of E_w_1).
#include <Eigen/Core>

#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/spatial/free_body.hpp"
#include "reference/surfaces/patch.hpp"

namespace contactref::dynamics {

template <class T> using Vec5 = kinematics::Vec5<T>;
template <class T> using Vec10 = Eigen::Matrix<T, 10, 1>;
template <class T> using Mat5 = Eigen::Matrix<T, 5, 5>;

template <class T>
struct ContactDynamicsState {
  kinematics::ContactKinematics<T> kinematics;  // E_2_1, H_1, Hdot_1, E_1_1c, ... at (q, q')
  Mat4<T> E_w_1;      // world pose of body 1: E_w_2 E_2_1
  Vec6<T> phi;        // H_1 q'
  Vec6<T> f_ext;      // gravity (at the COM) plus the extra body wrench
  Vec5<T> qddot;      // Eq. 20
  Vec6<T> dphi;       // Hdot_1 q' + H_1 q''
  Vec6<T> f_c;        // Eq. 19: contact wrench on body 1, body-1 coordinates
  Vec6<T> f_c_1c;     // the same wrench in contact frame 1c
  T f_n;              // normal force, > 0 pushing body 1 away from body 2
  bool separating;    // f_n < 0
  Vec10<T> derivative;  // (q', q'')
  T energy;             // J: kinetic plus gravitational, as ContactDynamics::energy
};

template <class T>
class ContactDynamics {
 public:
  // mass and I_com (about the COM, body axes) are validated by the spatial
  // layer (InputError). The patches are referenced, not copied: they must
  // outlive this object. E_w_2 must be a rigid pose (rotation orthonormal to
  // 1e-6, a typo check), gravity and the extra wrench finite (InputError).
  ContactDynamics(const T& mass, const Mat3<T>& I_com, const surfaces::Patch<T>& patch1,
                  const surfaces::Patch<T>& patch2, const Mat4<T>& E_w_2, const Vec3<T>& gravity_w,
                  const Vec6<T>& extra_wrench_b = Vec6<T>::Zero());

  // Everything above at y = (q, q'). InputError for a non-finite y;
  // ComputationError at conforming contact or a non-regular patch point.
  ContactDynamicsState<T> evaluate(const Vec10<T>& y) const;
  Vec10<T> derivative(const Vec10<T>& y) const { return evaluate(y).derivative; }

  // Kinetic plus gravitational potential energy at y.
  T energy(const Vec10<T>& y) const;

  const T& mass() const { return mass_; }
  const Mat6<T>& inertia() const { return body_.M_b; }
  const Vec3<T>& gravity() const { return gravity_w_; }
  const Mat4<T>& pose_of_body2() const { return E_w_2_; }

 private:
  // The energy from the body twist phi (body frame) and the pose E_w_1.
  T energy_of(const Vec6<T>& phi, const Mat4<T>& E_w_1) const;

  T mass_;
  spatial::RigidBodyInertia<T> body_;
  const surfaces::Patch<T>* patch1_;
  const surfaces::Patch<T>* patch2_;
  Mat4<T> E_w_2_;
  Vec3<T> gravity_w_;
  Vec6<T> extra_wrench_b_;
};

template <class T>
Vec10<T> make_state(const Vec5<T>& q, const Vec5<T>& qdot) {
  Vec10<T> y;
  y << q, qdot;
  return y;
}

}  // namespace contactref::dynamics
