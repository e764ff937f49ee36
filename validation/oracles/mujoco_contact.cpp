#include "validation/oracles/mujoco_contact.hpp"

namespace contactref::oracles {

MujocoRun run_mujoco_on_plane(const MujocoBodyOnPlane& body, const MujocoStart& start) {
  MujocoScene scene;
  scene.bodies.push_back({body.points_b, body.mass, body.inertia_b, start});
  scene.gravity_w = body.gravity_w;
  scene.mu = body.mu;
  scene.mu_roll = body.mu_roll;
  scene.mu_spin = body.mu_spin;
  scene.integrator = MujocoIntegrator::kRK4;
  scene.timestep = body.timestep;
  scene.duration = body.duration;
  scene.sample_interval = body.sample_interval;
  MujocoSceneRun scene_run = run_mujoco_scene(scene);

  MujocoRun run;
  run.samples.reserve(scene_run.samples.size());
  for (const MujocoSceneSample& s : scene_run.samples) {
    const MujocoStart& state = s.bodies.front();
    run.samples.push_back({s.time, state.com_w, state.R_w_b, state.omega_w, s.energy});
  }
  run.model_xml = std::move(scene_run.model_xml);
  run.version = std::move(scene_run.version);
  return run;
}

}  // namespace contactref::oracles
