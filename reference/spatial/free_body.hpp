#pragma once
// A free rigid body: pose in the world frame w and body twist, integrated with
// RK4 (Newton-Euler, Eq. 15, in the body frame b).
//
// State y (13 entries): q_w_b (unit quaternion w, x, y, z; rotation of body
// axes into world axes), p_w_b (origin of frame b in w), phi_b (body twist
// (omega; v) relative to w, in b coordinates). Kinematics:
//   dq/dt = q (x) (0, omega) / 2,   dp/dt = Theta_w_b v,
// which is dE_w_b/dt = E_w_b O(phi_b).
//
// Renormalisation policy: the quaternion is divided by its norm after every
// completed step (never inside the RK4 stages, where the rotation is built by
// a formula homogeneous in q). The drift of |q| over one step is O(h^5), so
// the projection keeps the method's fourth order.
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "reference/spatial/newton_euler.hpp"
#include "reference/spatial/rigid_body.hpp"
#include "reference/spatial/rk4.hpp"
#include "reference/spatial/spatial_inertia.hpp"

namespace contactref::spatial {

template <class T> using FreeBodyState = Eigen::Matrix<T, 13, 1>;

template <class T> Vec4<T> quaternion_of(const FreeBodyState<T>& y) { return y.template segment<4>(0); }
template <class T> Vec3<T> position_of(const FreeBodyState<T>& y) { return y.template segment<3>(4); }
template <class T> Vec6<T> twist_of(const FreeBodyState<T>& y) { return y.template segment<6>(7); }

template <class T>
FreeBodyState<T> make_free_body_state(const Vec4<T>& q_w_b, const Vec3<T>& p_w_b, const Vec6<T>& phi_b) {
  FreeBodyState<T> y;
  y << q_w_b, p_w_b, phi_b;
  return y;
}

// The rotation of a (not necessarily unit) quaternion q = (w, u):
// 1 + 2 (w [u] + [u]^2) / |q|^2, i.e. the rotation of q/|q|.
template <class T>
Mat3<T> rotation_from_quaternion(const Vec4<T>& q) {
  const Vec3<T> u = q.template tail<3>();
  const Mat3<T> U = skew(u);
  return Mat3<T>::Identity() + (T(2) / q.squaredNorm()) * (q(0) * U + U * U);
}

template <class T>
Mat4<T> pose_of(const FreeBodyState<T>& y) {
  return make_pose<T>(rotation_from_quaternion<T>(quaternion_of(y)), position_of(y));
}

// dq/dt = q (x) (0, omega) / 2, omega in body coordinates.
template <class T>
Vec4<T> quaternion_derivative(const Vec4<T>& q, const Vec3<T>& omega_b) {
  const Vec3<T> u = q.template tail<3>();
  Vec4<T> dq;
  dq(0) = -u.dot(omega_b) / 2;
  dq.template tail<3>() = (q(0) * omega_b + u.cross(omega_b)) / 2;
  return dq;
}

// The one rigid-body state (rigid_body.hpp) as this integrator's vector and
// back: the same pose, the twist moved from world axes to body axes.
template <class T>
FreeBodyState<T> free_body_state(const RigidBodyState<T>& state) {
  const Eigen::Quaternion<T> q = state.q_w_b.normalized();
  const Mat3<T> R_w_b = q.toRotationMatrix();
  Vec6<T> phi_b;
  phi_b << R_w_b.transpose() * state.omega_w, R_w_b.transpose() * state.v_w;
  return make_free_body_state<T>(Vec4<T>(q.w(), q.x(), q.y(), q.z()), state.x_w, phi_b);
}
template <class T>
RigidBodyState<T> rigid_body_state(const FreeBodyState<T>& y) {
  RigidBodyState<T> state;
  const Vec4<T> q = quaternion_of(y);
  state.q_w_b = Eigen::Quaternion<T>(q(0), q(1), q(2), q(3)).normalized();
  const Mat3<T> R_w_b = state.q_w_b.toRotationMatrix();
  state.x_w = position_of(y);
  state.omega_w = R_w_b * twist_of(y).template head<3>();
  state.v_w = R_w_b * twist_of(y).template tail<3>();
  return state;
}

// A rigid body's inertia in its body frame, with the Cholesky factor that
// Eq. 15 is solved with.
template <class T>
struct RigidBodyInertia {
  Mat6<T> M_b;
  Eigen::LLT<Mat6<T>> M_factor;

  // mass and I_com about the centre of mass in body axes (the body frame is at
  // the centre of mass). Validated: see check_rigid_inertia.
  RigidBodyInertia(const T& mass, const Mat3<T>& I_com)
      : M_b(spatial_inertia_at_com(mass, I_com)), M_factor(M_b) {}
  explicit RigidBodyInertia(const MassProperties<T>& properties)
      : RigidBodyInertia(properties.mass, properties.I_com_b) {}
};

// Throws InputError naming the first problem: a non-finite entry, or a
// quaternion whose norm differs from 1 by more than 1e-6 (a typo, not
// round-off; the state is normalised on entry to the integrator).
template <class T>
void check_free_body_state(const FreeBodyState<T>& y) {
  using std::abs;
  using std::isfinite;
  static const char* const names[13] = {"q_w", "q_x", "q_y", "q_z", "p_x", "p_y", "p_z",
                                        "omega_x", "omega_y", "omega_z", "v_x", "v_y", "v_z"};
  for (int k = 0; k < 13; ++k) {
    if (!isfinite(y(k))) throw InputError(std::string("free body state: ") + names[k] + " is not finite");
  }
  if (abs(quaternion_of(y).norm() - T(1)) > T(1e-6))
    throw InputError("free body state: the orientation quaternion is not a unit quaternion");
}

// dy/dt for body-frame wrench f_b (torque about the body origin; force).
template <class T>
FreeBodyState<T> free_body_derivative(const RigidBodyInertia<T>& body, const FreeBodyState<T>& y,
                                      const Vec6<T>& f_b) {
  const Vec4<T> q = quaternion_of(y);
  const Vec6<T> phi_b = twist_of(y);
  FreeBodyState<T> dy;
  dy.template segment<4>(0) = quaternion_derivative<T>(q, phi_b.template head<3>());
  dy.template segment<3>(4) = rotation_from_quaternion(q) * phi_b.template tail<3>();
  dy.template segment<6>(7) = body_acceleration(body.M_factor, body.M_b, phi_b, f_b);
  return dy;
}

// One RK4 step of the free body under the wrench wrench_b(t, y) (body frame),
// followed by the quaternion renormalisation. Throws ComputationError if the
// new state is not finite.
template <class T, class Wrench>
FreeBodyState<T> free_body_rk4_step(const RigidBodyInertia<T>& body, const T& t, const FreeBodyState<T>& y,
                                    const T& h, const Wrench& wrench_b) {
  using std::isfinite;
  const auto f = [&](const T& tau, const FreeBodyState<T>& z) {
    return free_body_derivative(body, z, Vec6<T>(wrench_b(tau, z)));
  };
  FreeBodyState<T> next = rk4_step(f, t, y, h);
  const T q_norm = quaternion_of(next).norm();
  if (!isfinite(q_norm) || !next.allFinite()) {
    std::ostringstream os;
    os << "free body RK4 step from t = " << t << " with h = " << h << " produced a non-finite state";
    throw ComputationError(os.str());
  }
  next.template segment<4>(0) /= q_norm;
  return next;
}

}  // namespace contactref::spatial
