#pragma once
// The volume-contact scenes (validation/fixtures/volume_contact_scenes.hpp) as
// MuJoCo peer scenes (mujoco_scene.hpp): each body the convex hull of its
// soup's vertices with its mass properties and initial state, the scene's
// sliding friction mu. The paper's scenes have Coulomb friction only, so the
// spinning and rolling coefficients are 0 (MuJoCo raises them to its minimum,
// 1e-5 m): a face on a face resists spin and rolling through the several
// contact points MuJoCo places on it (see the header of mujoco_scene.hpp).
#include "validation/fixtures/volume_contact_scenes.hpp"
#include "validation/oracles/mujoco_scene.hpp"

namespace contactref::oracles {

// The scene stepped with `integrator` at `timestep` for `duration`, sampled
// every `sample_interval` (run_mujoco_scene checks these).
MujocoScene mujoco_scene(const fixtures::VolumeContactScene& scene, MujocoIntegrator integrator, double timestep,
                         double duration, double sample_interval);

}  // namespace contactref::oracles
