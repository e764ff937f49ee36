#pragma once
// The rigid motion of a quasi-rigid body between contact solves (Pauly et
// al. Section 5: "we use a fixed inertia tensor for each body during the
// whole simulation"): the state, its kinetic energy and momenta, an
// impulse applied to it, and the exact free flight under uniform gravity.
//
// The state keeps the world angular momentum about the centre of mass,
// L_w = Theta_w_b I_com_b Theta_w_b^T omega_w, fixed during a flight (no
// torque): the orientation advances by exp(dt omega_w) with omega_w from L_w
// at the step's start pose (first order in the rotation; exact for a body
// whose inertia is isotropic, such as a ball), and L_w itself changes only by
// the contact impulses, so that a torque-free flight conserves it to
// round-off. The translation is the exact ballistic flight
// x += v dt + g dt^2 / 2, v += g dt.
#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/rigid_pose.hpp"

namespace contactref::quasi_rigid {

struct BodyState {
  Eigen::Vector3d x_w = Eigen::Vector3d::Zero();             // m: the centre of mass, the body frame's origin
  Eigen::Quaterniond q_w_b = Eigen::Quaterniond::Identity();  // unit: Theta_w_b, the body axes in the world
  Eigen::Vector3d v_w = Eigen::Vector3d::Zero();             // m/s: the centre of mass's velocity
  Eigen::Vector3d omega_w = Eigen::Vector3d::Zero();         // rad/s: the angular velocity, world axes

  RigidPose<double> E_w_b() const;
  // The velocity of the material point at point_w (world), m/s.
  Eigen::Vector3d point_velocity(const Eigen::Vector3d& point_w) const { return v_w + omega_w.cross(point_w - x_w); }
};

// Mass (kg, > 0) and inertia about the centre of mass in body axes (kg m^2).
struct MassProperties {
  double mass = 0;
  Eigen::Matrix3d I_com_b = Eigen::Matrix3d::Zero();

  // I_w = Theta_w_b I_com_b Theta_w_b^T at the state's orientation.
  Eigen::Matrix3d I_w(const BodyState& state) const;
  double kinetic_energy(const BodyState& state) const;               // J
  Eigen::Vector3d angular_momentum_w(const BodyState& state) const;  // about the centre of mass (kg m^2/s)
};

// Adds an impulse: linear J_w (N s) and angular H_w (N m s, about the centre
// of mass, world axes): v += J / m, L_w += H, omega from L at the same pose.
void apply_impulse(const MassProperties& mass, const Eigen::Vector3d& J_w, const Eigen::Vector3d& H_w, BodyState& state);

// The free flight over dt (s) under gravity g_w (m/s^2), as above.
void free_flight(const MassProperties& mass, const Eigen::Vector3d& gravity_w, double dt, BodyState& state);

}  // namespace contactref::quasi_rigid
