#pragma once
// The one rigid body of every model (shared/DESIGN.md): its state, its mass
// properties and its free flight. The quasi-rigid model's bodies, the 6D and
// point models' bodies (volume_contact::RigidBody adds a shape to them) and
// the CLI's bodies.csv rows all use these; the smooth model's free body
// integrates the same motion in contact coordinates (free_body.hpp holds
// Newton-Euler's RK4 form of it, FreeBodyState, for torque-free tests and the
// coming flight mode).
//
// The state: the centre of mass x_w (the body frame's origin), the unit
// quaternion q_w_b (Theta_w_b, the body axes in the world), the velocity v_w
// of the centre of mass and the angular velocity omega_w, world axes. SI units.
//
// free_flight keeps the world angular momentum about the centre of mass,
// L_w = Theta_w_b I_com_b Theta_w_b^T omega_w, fixed during a flight (no
// torque): the orientation advances by exp(dt omega_w) with omega_w from L_w
// at the step's start pose (first order in the rotation; exact for a body
// whose inertia is isotropic, such as a ball), and L_w itself changes only by
// impulses, so that a torque-free flight conserves it to round-off. The
// translation is the exact ballistic flight x += v dt + g dt^2 / 2, v += g dt.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <type_traits>

#include "core/rigid_pose.hpp"
#include "core/scalar.hpp"

namespace contactref::spatial {

template <class T>
struct RigidBodyState {
  Vec3<T> x_w = Vec3<T>::Zero();                                  // m
  Eigen::Quaternion<T> q_w_b = Eigen::Quaternion<T>::Identity();  // unit
  Vec3<T> v_w = Vec3<T>::Zero();                                  // m/s
  Vec3<T> omega_w = Vec3<T>::Zero();                              // rad/s

  Mat3<T> R_w_b() const { return q_w_b.normalized().toRotationMatrix(); }
  RigidPose<T> E_w_b() const {
    Mat4<T> E = Mat4<T>::Identity();
    E.template topLeftCorner<3, 3>() = R_w_b();
    E.template topRightCorner<3, 1>() = x_w;
    return RigidPose<T>::from_matrix(E, "body pose");
  }
  // The velocity of the material point at point_w (world), m/s.
  Vec3<T> point_velocity(const Vec3<T>& point_w) const { return v_w + omega_w.cross(point_w - x_w); }
  bool finite() const { return x_w.allFinite() && q_w_b.coeffs().allFinite() && v_w.allFinite() && omega_w.allFinite(); }
};

// Mass (kg) and inertia about the centre of mass in body axes (kg m^2).
template <class T>
struct MassProperties {
  T mass = T(0);
  Mat3<T> I_com_b = Mat3<T>::Zero();

  // I_w = Theta_w_b I_com_b Theta_w_b^T at the state's orientation.
  Mat3<T> I_w(const RigidBodyState<T>& state) const {
    const Mat3<T> Theta_w_b = state.R_w_b();
    return Theta_w_b * I_com_b * Theta_w_b.transpose();
  }
  T kinetic_energy(const RigidBodyState<T>& state) const {  // J
    return mass * state.v_w.squaredNorm() / 2 + state.omega_w.dot(I_w(state) * state.omega_w) / 2;
  }
  T potential_energy(const RigidBodyState<T>& state, const Vec3<T>& gravity_w) const {  // J, zero at the origin
    return -mass * gravity_w.dot(state.x_w);
  }
  Vec3<T> angular_momentum_w(const RigidBodyState<T>& state) const {  // about the centre of mass (kg m^2/s)
    return I_w(state) * state.omega_w;
  }
};

// Adds an impulse: linear J_w (N s) and angular H_w (N m s, about the centre
// of mass, world axes): v += J / m, L_w += H, omega from L at the same pose.
template <class T>
void apply_impulse(const MassProperties<T>& mass, const std::type_identity_t<Vec3<T>>& J_w,
                   const std::type_identity_t<Vec3<T>>& H_w, RigidBodyState<T>& state) {
  state.v_w += J_w / mass.mass;
  const Mat3<T> I_w = mass.I_w(state);
  state.omega_w = I_w.inverse() * (I_w * state.omega_w + H_w);
}

// The free flight over dt (s) under gravity g_w (m/s^2), as above.
template <class T>
void free_flight(const MassProperties<T>& mass, const std::type_identity_t<Vec3<T>>& gravity_w,
                 const std::type_identity_t<T>& dt, RigidBodyState<T>& state) {
  state.x_w += dt * state.v_w + (dt * dt / 2) * gravity_w;
  state.v_w += dt * gravity_w;
  const Vec3<T> L_w = mass.angular_momentum_w(state);
  const Vec3<T> rotation_w = dt * state.omega_w;
  const T angle = rotation_w.norm();
  if (angle > T(0)) {
    state.q_w_b = (Eigen::Quaternion<T>(Eigen::AngleAxis<T>(angle, Vec3<T>(rotation_w / angle))) * state.q_w_b).normalized();
  }
  state.omega_w = mass.I_w(state).inverse() * L_w;
}

}  // namespace contactref::spatial
