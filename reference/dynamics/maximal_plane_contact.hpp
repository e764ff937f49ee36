#pragma once
// The maximal-coordinate baseline of Kry & Pai Section 1: a free rigid body
// (unit quaternion, position, body twist) on the fixed plane z_w = 0 (normal
// +z_w), kept in contact by an acceleration-level Lagrange multiplier and no
// stabilisation, so that round-off and truncation make the constraint drift.
// It exists to be compared with the reduced coordinates, whose constraint
// holds by construction (validation suite frictionless-bowl-drift).
//
// The body frame is at the centre of mass, M = blockdiag(I_com, m 1)
// (spatial_inertia_at_com), twists (omega; v) and wrenches (torque; force) in
// body coordinates, gravity wrench (0; m R^T g) as in contact_dynamics.hpp.
//
// The contact point is the support point of the body's surface in the
// direction -z: the point where the outward normal n = c_s x c_t is -zeta,
// zeta = R^T z_w (body coordinates). It minimises the height zeta . c(s, t),
// so it solves F = (zeta . c_s, zeta . c_t) = 0 with Hessian
//   A = [zeta . c_ss  zeta . c_st; zeta . c_st  zeta . c_tt]   (positive definite),
// found by Newton's method on the patch complex (an iterate that leaves its
// patch's polygon continues from the exit point on the neighbour patch,
// PatchComplex::links), warm-started from the last support point found.
// With c = c(s, t) and phi = (omega; v):
//   gap g = z_w . (p_w + R c) = p_w.z + zeta . c
//   g'  = J phi,  J = [ (c x zeta)^T  zeta^T ]   (envelope theorem: F = 0)
//   g'' = J phi' + kappa,
//     kappa = (c' x zeta + c x zeta') . omega + zeta' . v,
//     zeta' = -omega x zeta,  c' = c_s s' + c_t t',
//     A (s'; t') = -(zeta' . c_s; zeta' . c_t)        (d/dt of F = 0),
// and the multiplier lambda (the normal force, N, > 0 when the plane pushes
// up) makes g'' = 0 in
//   M phi' = [phi]^T M phi + f_gravity + J^T lambda.
// The KKT system [M -J^T; J 0] (phi'; lambda) = ([phi]^T M phi + f_g; -kappa)
// is solved by its Schur complement with the Cholesky factor of M:
//   lambda = -(kappa + J M^-1 b) / (J M^-1 J^T),  b = [phi]^T M phi + f_g.
// Nothing pulls g or g' back to zero: both drift at the integrator's order.
#include <Eigen/Core>

#include "reference/spatial/free_body.hpp"
#include "reference/surfaces/patch_complex.hpp"

namespace contactref::dynamics {

template <class T>
struct SupportPoint {
  int patch = -1;
  surfaces::Vec2<T> st = surfaces::Vec2<T>::Zero();
  Vec3<T> c_b = Vec3<T>::Zero();  // the point, body coordinates
};

// Everything the model computes at one state.
template <class T>
struct MaximalContactEvaluation {
  SupportPoint<T> support;
  surfaces::Vec2<T> st_dot = surfaces::Vec2<T>::Zero();  // (s', t') of the support point, 1/s
  Vec6<T> J = Vec6<T>::Zero();   // g' = J . phi
  T gap = T(0);                  // m
  T gap_rate = T(0);             // m/s
  T kappa = T(0);                // g'' - J . phi', m/s^2
  T lambda = T(0);               // normal force, N
  Vec6<T> wrench_b = Vec6<T>::Zero();  // gravity + contact wrench J lambda, body frame
};

// The result of MaximalPlaneContact::advance.
template <class T>
struct MaximalStep {
  Eigen::Matrix<T, 13, 1> y;
  T h = T(0);                 // the step taken (s), <= the step asked for
  bool piece_boundary = false;  // the step was shortened to end on a smooth-piece boundary
};

template <class T>
class MaximalPlaneContact {
 public:
  // State y = (quaternion w, x, y, z; p_w; omega_b; v_b) as spatial::FreeBody.
  using State = Eigen::Matrix<T, 13, 1>;

  // InputError for a bad mass or inertia (spatial layer), a non-finite
  // gravity, or an initial support point outside the complex (patch index out
  // of range, (s, t) not finite or outside its domain). The surface is
  // referenced, not copied: it must outlive this object.
  MaximalPlaneContact(const T& mass, const Mat3<T>& I_com, const surfaces::PatchComplex<T>& surface,
                      const Vec3<T>& gravity_w, const SupportPoint<T>& initial_support);

  // Every evaluation below starts the support point's Newton iteration from
  // the last support point found (the warm start) and updates it: evaluate
  // states near the last one (a trajectory), or use a new object for an
  // unrelated state. InputError for a non-finite y; ComputationError as
  // support_point().
  //
  // Support point, gap, rates, kappa and lambda at y.
  MaximalContactEvaluation<T> evaluate(const State& y) const;
  // y' at y (the quaternion derivative from omega_b; the quaternion need not
  // be of unit length, as inside the RK4 stages).
  State derivative(const State& y) const;
  // The support point at y (Newton from the warm start). ComputationError if
  // Newton fails (a flat or concave spot, or the surface is not convex there).
  SupportPoint<T> support_point(const State& y) const;
  T gap(const State& y) const;                 // m
  T gap_rate(const State& y) const;            // m/s
  T normal_force(const State& y) const;        // N (lambda)
  T energy(const State& y) const;              // J: 1/2 phi^T M phi - m g . p_w

  // One RK4 step of length h, quaternion renormalised after it
  // (spatial::free_body_rk4_step). InputError unless y is a finite state with
  // a unit quaternion (to 1e-6).
  State step(const State& y, const T& h) const;

  // One RK4 step of length h, or shorter so that it ends on the boundary of
  // the support point's smooth piece (surfaces::Patch::smooth_piece: a patch
  // edge, or a line where the polynomial pieces of a Loop patch meet) when
  // the full step would carry the support point across it. The right-hand
  // side uses the surface's second derivatives (kappa), whose derivatives
  // jump there, and a step across such a line costs RK4 its order (to 2,
  // measured on the bowl); a step that starts on the line does not. The
  // same rule as the reduced-coordinate simulator (contact_simulation.hpp),
  // so that the two are compared at the same order. A drift run integrates
  // to time t_end by repeating advance(y, min(h, t_end - t)).
  // The end of the shortened step is found by Newton's method on its length
  // (the boundary distance's rate from the support point's (s', t')),
  // safeguarded by bisection, to a distance of 1024 eps (parameter units).
  // InputError as step(), and for h not finite and positive.
  MaximalStep<T> advance(const State& y, const T& h) const;

  const T& mass() const { return mass_; }
  const Mat6<T>& inertia() const { return body_.M_b; }
  const SupportPoint<T>& warm_start() const { return warm_; }

 private:
  // Newton on F = 0 from warm_ for the direction zeta; writes the jet there.
  SupportPoint<T> locate(const Vec3<T>& zeta, surfaces::PatchJet<T>& jet) const;

  T mass_;
  spatial::RigidBodyInertia<T> body_;
  const surfaces::PatchComplex<T>* surface_;
  Vec3<T> gravity_w_;
  mutable SupportPoint<T> warm_;
};

// The maximal state of a body at pose E_w_1 (rigid: rotation orthonormal to
// 1e-6, else InputError) with body twist phi_b, e.g. from the reduced model
// (ContactDynamicsState::E_w_1 and phi), so that both models start from the
// same physical state. The quaternion has w >= 0 and unit length.
template <class T>
typename MaximalPlaneContact<T>::State maximal_state_from_pose(const Mat4<T>& E_w_1, const Vec6<T>& phi_b);

}  // namespace contactref::dynamics
