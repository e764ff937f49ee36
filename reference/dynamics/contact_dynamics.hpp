#pragma once
// Single-contact dynamics in reduced (contact) coordinates (Kry & Pai
// Sections 3.3-3.4, Eqs. 15-40; Kry's thesis Eqs. 4.24-4.44): body 1 free,
// body 2 fixed at a known world pose E_w_2, uniform gravity.
//
// Conventions (fixed here, checked by the tests):
//  - Body 1's frame is at its centre of mass; M = blockdiag(I_com, m 1)
//    (spatial_inertia_at_com). Every twist and wrench below is in body-1
//    coordinates, angular part first: phi = (omega; v), f = (tau; F), tau
//    about the centre of mass.
//  - phi = H_1 q' is the velocity of body 1 relative to body 2 (Eq. 14); body 2
//    is fixed in the world, so phi is body 1's twist relative to the inertial
//    frame and Newton-Euler (Eq. 15) applies to it.
//  - f_ext = (0; m Theta_w_1^T g) + the optional extra body wrench + the
//    viscous damping torque (-damping omega; 0), with Theta_w_1 the rotation
//    of E_w_1 = E_w_2 E_2_1(q) (Eq. 9).
//  - Eq. 19 by back-substitution: dphi = Hdot q' + H q'',
//    f_c = M dphi - [phi]^T M phi - f_ext, the contact wrench on body 1.
//  - f_c_1c = the same wrench in the contact frame 1c (torque about the
//    contact point): f_1c = Ad_1_1c^T f_1 = wrench_adjoint(E_1c_1) f_1.
//  - z_1c is body 1's outward normal, pointing into body 2, so the compressive
//    force on body 1 points along -z_1c: f_n = -f_c_1c(5). f_n > 0 pushes body
//    1 away from body 2; f_n < 0 would need adhesion: `separating`.
//  - Total energy E = 1/2 phi^T M phi - m g . p_w_1, p_w_1 the world
//    position of the centre of mass (translation of E_w_1).
//
// Modes (contact_modes.hpp): the state is y = (q, r'), r' = q' except in
// no-slip and no-spin, and the derivative is (P r', r'').
//  - Frictionless, Eq. 20: (H^T M H) q'' = H^T (f_ext + [phi]^T M phi - M Hdot q'),
//    solved with the Cholesky factor L of the Jacobi-scaled 5x5 matrix as
//    L^-T (L^-1 rhs), L^-1 by forward substitution (formed anyway for the
//    exact condition number, the 1-norm of L^-T L^-1). Conforming contact (a scaled pivot below 64 * 5 eps) is a
//    ComputationError naming the patches and q.
//  - Sliding, no-slip, no-spin and no-roll, Eqs. 24-28 with H -> H_r = H_1 P:
//    (F M H_r) r'' = F (f_ext + [phi]^T M phi - M Hdot_r r'), solved by LU
//    with partial pivoting (F M H_r is not symmetric), where F (n x 6) holds
//    the mode's free rows (free_rows) of (I_5 | -mu) Ad_1_1c^T, i.e. it asks
//    f_1c(i) = mu_i f_1c(5) for each free row i, with
//      mu = (mu_roll rho_x, mu_roll rho_y, mu_spin sgn(omega_z), mu v_x, mu v_y)
//    (Eq. 25 and thesis Eq. 4.30), rho, v the unit rolling and slip
//    velocities from phi_1c; a free rolling or spin at rest (within 64 eps of
//    its scale) takes the direction of its acceleration without its
//    resistance (a first solve), the direction the motion starts in. Sign: f_1c(5) = -f_n here,
//    so f_1c(3..4) = -mu f_n v and the friction opposes the slip; the paper's
//    F = (I_5 | +mu) Ad^T (Eq. 27) has f_1c(5) = +f_n in compression (its
//    normals point the other way) and, ported literally, would push along the
//    slip. The contact wrench's power is then
//      phi . f_c = -f_n (mu |v| + mu_roll |rho| + mu_spin |omega_z|) <= 0.
//    The directions are taken from the state being evaluated (each RK
//    stage), not from the previous step as Kry & Pai do, so that the
//    right-hand side is a function of the state and the integrators keep
//    their order, with a reference (LawDirections, below: the directions
//    at the start of the step): a velocity that has turned against its
//    reference (it passed through zero within the step) keeps the reference's
//    side, so that the law is continued smoothly through zero and the
//    crossing is located as an event (mode_switching.hpp) instead of a jump
//    inside a step that the integrator cannot resolve; a velocity at rest
//    (within its round-off: slip_floor, rotation_floor) takes the
//    reference's direction (the instant a stick breaks, or a velocity that
//    passed through zero), or, without one, a free rolling or spin takes the
//    direction of its acceleration (below) and a slip none. The solve is Jacobi-scaled by columns (the diagonal of
//    H_r^T M H_r) and equilibrated by rows; its estimated condition number is
//    reported (it degrades at high friction, Section 3.4.1), and a reciprocal
//    condition below 64 n eps is a ComputationError. At rest (n = 0) there
//    is nothing to solve: r'' is empty and f_c = -f_ext holds the body.
#include <Eigen/Core>

#include "reference/dynamics/contact_modes.hpp"
#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/spatial/free_body.hpp"
#include "reference/surfaces/patch.hpp"

namespace contactref::dynamics {

template <class T> using Vec10 = Eigen::Matrix<T, 10, 1>;

// The dynamic friction law of the sliding, no-slip, no-spin and no-roll modes. Mode
// switching (static friction, thresholds) is the simulator's.
template <class T>
struct FrictionLaw {
  T mu = T(0);       // Coulomb coefficient of sliding friction (Eq. 21)
  T mu_roll = T(0);  // m: rolling resistance, a torque mu_roll f_n against the rolling velocity (thesis Eqs. 4.27-4.28)
  T mu_spin = T(0);  // m: spinning resistance, a torque mu_spin f_n against the spin (thesis Eq. 4.29)
  T damping = T(0);  // N m s: a viscous torque -damping omega on body 1 (omega relative to body 2)
};

// The unit directions (frame 1c) that the friction law's forces oppose:
// the rolling velocity's (rows 0-1 of phi_1c), the spin's sign (row 2) and
// the slip's (rows 3-4); zero where there is none. Held: as a reference, the
// direction is used as it is whatever the velocity's own (a step in which a
// 2-vector velocity may reach zero: near zero its own direction turns at
// the rate of the force across it over its size, a stiff mode that RK4
// amplifies once the step exceeds the time the velocity takes to stop; the
// simulator holds the direction through such a step, exact for a velocity
// that keeps its line).
template <class T>
struct LawDirections {
  Eigen::Matrix<T, 2, 1> rolling = Eigen::Matrix<T, 2, 1>::Zero();
  T spin = T(0);
  Eigen::Matrix<T, 2, 1> slip = Eigen::Matrix<T, 2, 1>::Zero();
  bool rolling_held = false, slip_held = false;
};

template <class T>
struct ContactDynamicsState {
  ContactMode mode;
  kinematics::ContactRates<T> kinematics;  // E_2_1, H_1, E_1_1c, ... at q, and Hdot_1 q', Hdot_1c q'
  Mat4<T> E_w_1;      // world pose of body 1: E_w_2 E_2_1
  Vec5<T> qdot;       // P r'
  Vec6<T> phi;        // H_1 q' = H_r r'
  Vec6<T> phi_1c;     // the same twist in frame 1c: (rolling omega_x, omega_y; spin omega_z; slip v_x, v_y; 0)
  Vec6<T> f_ext;      // gravity (at the COM) plus the extra body wrench plus damping
  ReducedVector<T> rddot;  // r'' (Eq. 20 or 28)
  Vec5<T> qddot;      // Pdot r' + P r''
  Vec6<T> dphi;       // Hdot_r r' + H_r r''
  Vec6<T> f_c;        // Eq. 19: contact wrench on body 1, body-1 coordinates
  Vec6<T> f_c_1c;     // the same wrench in contact frame 1c
  T f_n;              // normal force, > 0 pushing body 1 away from body 2
  bool separating;    // f_n < 0
  T condition;        // estimated condition number of the scaled matrix solved (H^T M H or F M H_r)
  StateVector<T> derivative;  // (q', r'')
  T energy;           // J: kinetic plus gravitational, as ContactDynamics::energy
  // W: dE/dt, the power of the forces that the energy leaves out: the contact
  // wrench (friction and resistance; the normal force does no work), the
  // damping torque and the extra wrench, phi . (f_c + f_ext - gravity).
  T power;

  LawDirections<T> directions;  // the law's directions as used (zero in the frictionless mode)
  T slip_floor;       // m/s: the round-off of the slip, 64 eps |H_1c rows 3-4| |q'|
  T rotation_floor;   // rad/s: the round-off of the rolling and the spin, 64 eps |H_1c rows 0-2| |q'|
  T slip_speed() const { return phi_1c.template segment<2>(3).norm(); }  // m/s
  // A slip above its round-off: its direction means something.
  bool slipping() const { return slip_speed() > slip_floor; }
  // d/dt of the slip (v_x, v_y) in frame 1c, (Hdot_1c q' + H_1c q'') rows 3-4
  // (m/s^2; at zero slip the derivative of the vector itself).
  Eigen::Matrix<T, 2, 1> slip_acceleration() const {
    return (kinematics.Hdot_1c_qdot + kinematics.H_1c * qddot).template segment<2>(3);
  }
  // The same for the rolling (omega_x, omega_y) in frame 1c (rad/s^2).
  Eigen::Matrix<T, 2, 1> rolling_acceleration() const {
    return (kinematics.Hdot_1c_qdot + kinematics.H_1c * qddot).template head<2>();
  }
  // Eq. 35's |f_t| / |f_n| and Eq. 40's |f_1c(2)| / |f_n| (m); infinite when f_n = 0.
  T stick_ratio() const;
  T spin_ratio() const;
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

  // Everything above at y = (q, q'), frictionless. InputError for a
  // non-finite y; ComputationError at conforming contact or a non-regular
  // patch point.
  ContactDynamicsState<T> evaluate(const Vec10<T>& y) const;
  Vec10<T> derivative(const Vec10<T>& y) const { return evaluate(y).derivative; }

  // In a mode, at y = (q, r') (5 + velocity_dimension(mode) entries; InputError
  // otherwise, or for a negative coefficient of the law). reference: the
  // law's directions at the start of the step (header; zero: the state's own).
  ContactDynamicsState<T> evaluate(ContactMode mode, const StateVector<T>& y, const FrictionLaw<T>& law,
                                   const LawDirections<T>& reference = {}) const;

  // The reduced velocities of `mode` at q nearest to body 1's twist
  // phi = H_1 q' in the kinetic metric, r' = (H_r^T M H_r)^-1 H_r^T M phi
  // (q' all five contact coordinate rates): the velocity after a
  // plastic impulse J = M (H_r r' - phi) at the contact that removes the
  // components the mode holds (H_r^T J = 0: J has no component along the
  // free rows of frame 1c, so for no-slip it is a force at the contact point
  // and angular momentum about that point is kept). Kinetic energy does not
  // increase. ComputationError when H_r^T M H_r is singular.
  ReducedVector<T> project(ContactMode mode, const Vec5<T>& q, const Vec5<T>& qdot) const;

  // Kinetic plus gravitational potential energy at y = (q, q'), or at
  // y = (q, r') in a mode.
  T energy(const Vec10<T>& y) const;
  T energy(ContactMode mode, const StateVector<T>& y) const;

  const T& mass() const { return mass_; }
  const Mat6<T>& inertia() const { return body_.M_b; }
  const Vec3<T>& gravity() const { return gravity_w_; }
  const Mat4<T>& pose_of_body2() const { return E_w_2_; }
  const surfaces::Patch<T>& patch1() const { return *patch1_; }
  const surfaces::Patch<T>& patch2() const { return *patch2_; }

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
