#include "validation/oracles/mujoco_volume_scenes.hpp"

namespace contactref::oracles {

MujocoScene mujoco_scene(const fixtures::VolumeContactScene& scene, MujocoIntegrator integrator, double timestep,
                         double duration, double sample_interval) {
  MujocoScene peer;
  for (const fixtures::VolumeContactBody& body : scene.bodies)
    peer.bodies.push_back({body.surface_b.vertices, body.mass, body.inertia_b,
                           MujocoStart{body.com_w, body.R_w_b, body.velocity_w, body.omega_w}});
  peer.gravity_w = scene.gravity_w;
  peer.mu = scene.mu;
  peer.integrator = integrator;
  peer.timestep = timestep;
  peer.duration = duration;
  peer.sample_interval = sample_interval;
  return peer;
}

}  // namespace contactref::oracles
