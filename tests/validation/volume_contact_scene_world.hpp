#pragma once
// The example scenes of the 6D contact model and its point baseline
// (validation/fixtures/scenes/*.json) as the simulator's world, for tests
// that step it and read each StepReport (the patches, the joints' impulses),
// which `contactref simulate` does not write.
#include <string>

#include "reference/volume_contact/volume_world.hpp"
#include "tests/kit/source_dir.hpp"
#include "validation/scenes/scene.hpp"
#include "validation/scenes/volume_contact_scene.hpp"

namespace contactref::test {

inline scenes::Scene example_scene(const std::string& file_name) {
  return scenes::load_scene(source_dir() / "validation/fixtures/scenes" / file_name);
}

// The scene's world in the given model (a scene's point-contact fields have
// defaults, so a 6D scene also runs with points).
inline volume_contact::VolumeWorld scene_world(const scenes::Scene& scene, volume_contact::ContactModel model) {
  volume_contact::WorldOptions options = scenes::volume_contact_options(scene);
  options.model = model;
  return volume_contact::VolumeWorld(scenes::volume_contact_bodies(scene), options, scene.joints);
}

// Kinetic plus potential energy (J) of the free bodies, gravity g (m/s^2).
inline double mechanical_energy(const std::vector<volume_contact::RigidBody>& bodies, const Eigen::Vector3d& g) {
  double E = 0;
  for (const volume_contact::RigidBody& b : bodies)
    if (!b.fixed())
      E += 0.5 * (b.mass * b.v_w.squaredNorm() + b.omega_w.dot(b.inertia_w() * b.omega_w)) - b.mass * g.dot(b.x_w);
  return E;
}

}  // namespace contactref::test
