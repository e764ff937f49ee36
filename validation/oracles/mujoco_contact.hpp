#pragma once
// The MuJoCo peer oracle's one-body case (mujoco_scene.hpp documents the
// model, its contact softness, the state conventions, the energy and the
// errors): one rigid body, the convex hull of a point set, on the plane z = 0
// (normal +z) under gravity, with condim-6 contacts, integrated by RK4.
#include <string>
#include <vector>

#include "core/scalar.hpp"
#include "validation/oracles/mujoco_scene.hpp"

namespace contactref::oracles {

// One rigid body, the convex hull of points_b, on the plane z = 0 (normal +z)
// under gravity, simulated by MuJoCo.
struct MujocoBodyOnPlane {
  std::vector<Vec3<double>> points_b;  // body-frame points (body frame at the centre of mass); MuJoCo's mesh geom takes their convex hull
  double mass = 0;                     // kg
  Mat3<double> inertia_b = Mat3<double>::Zero();  // kg m^2 about the COM, body axes (symmetric positive definite; MJCF fullinertia)
  Vec3<double> gravity_w = Vec3<double>::Zero();  // m/s^2
  double mu = 0, mu_roll = 0, mu_spin = 0;  // sliding (1), rolling and spinning resistance (m); MuJoCo condim 6, friction="mu mu_spin mu_roll"
  double timestep = 1e-3;              // s
  double duration = 0;                 // s
  double sample_interval = 0.01;       // s, a whole number of timesteps
};

struct MujocoSample {
  double time = 0;  // s, MuJoCo's clock (the sum of the timesteps)
  Vec3<double> com_w = Vec3<double>::Zero();
  Mat3<double> R_w_b = Mat3<double>::Identity();
  Vec3<double> omega_w = Vec3<double>::Zero();
  double energy = 0;  // J, kinetic + gravitational, potential zero at z = 0 com: -m g.com
};

struct MujocoRun {
  std::vector<MujocoSample> samples;  // at t = 0, sample_interval, 2 sample_interval, ... <= duration
  std::string model_xml;              // the MJCF that was simulated
  std::string version;                // mj_version() as text, e.g. "222"
};

// Simulates the body from `start` for body.duration seconds and samples it
// every body.sample_interval (the first sample at t = 0, before any step).
// run_mujoco_scene with this one body and RK4; its errors (InputError messages
// start with "body 0: " where they concern the body or its start).
MujocoRun run_mujoco_on_plane(const MujocoBodyOnPlane& body, const MujocoStart& start);

}  // namespace contactref::oracles
