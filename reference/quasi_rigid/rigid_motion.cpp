#include "reference/quasi_rigid/rigid_motion.hpp"

#include <Eigen/LU>

namespace contactref::quasi_rigid {

RigidPose<double> BodyState::E_w_b() const {
  Mat4<double> E = Mat4<double>::Identity();
  E.topLeftCorner<3, 3>() = q_w_b.normalized().toRotationMatrix();
  E.topRightCorner<3, 1>() = x_w;
  return RigidPose<double>::from_matrix(E, "body pose");
}

Eigen::Matrix3d MassProperties::I_w(const BodyState& state) const {
  const Eigen::Matrix3d Theta_w_b = state.q_w_b.toRotationMatrix();
  return Theta_w_b * I_com_b * Theta_w_b.transpose();
}

double MassProperties::kinetic_energy(const BodyState& state) const {
  return 0.5 * mass * state.v_w.squaredNorm() + 0.5 * state.omega_w.dot(I_w(state) * state.omega_w);
}

Eigen::Vector3d MassProperties::angular_momentum_w(const BodyState& state) const {
  return I_w(state) * state.omega_w;
}

void apply_impulse(const MassProperties& mass, const Eigen::Vector3d& J_w, const Eigen::Vector3d& H_w, BodyState& state) {
  state.v_w += J_w / mass.mass;
  const Eigen::Matrix3d I_w = mass.I_w(state);
  state.omega_w = I_w.inverse() * (I_w * state.omega_w + H_w);
}

void free_flight(const MassProperties& mass, const Eigen::Vector3d& gravity_w, double dt, BodyState& state) {
  state.x_w += dt * state.v_w + 0.5 * dt * dt * gravity_w;
  state.v_w += dt * gravity_w;
  const Eigen::Vector3d L_w = mass.angular_momentum_w(state);
  const Eigen::Vector3d rotation_w = dt * state.omega_w;
  const double angle = rotation_w.norm();
  if (angle > 0) {
    state.q_w_b = (Eigen::Quaterniond(Eigen::AngleAxisd(angle, rotation_w / angle)) * state.q_w_b).normalized();
  }
  state.omega_w = mass.I_w(state).inverse() * L_w;
}

}  // namespace contactref::quasi_rigid
