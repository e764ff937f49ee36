#pragma once
// The 6D volume-contact model of a scene and its point-contact baseline
// (Bouchard et al., simulated by reference/volume_contact/volume_world.hpp):
// their MODEL fields (scene.hpp documents them), and the simulator's bodies
// and options built from a scene.
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/volume_contact/rigid_body.hpp"
#include "reference/volume_contact/volume_world.hpp"
#include "validation/scenes/json_reader.hpp"

namespace contactref::scenes {

struct Scene;

struct VolumeContactModel {
  double time_step = 0.01;        // s
  double mu = 0;                  // Coulomb's coefficient of every body
  // m^3: the interpenetration post-stabilisation keeps (Section 5.7's e);
  // unset: each pair's own (volume_world.hpp)
  std::optional<double> target_volume;
  volume_contact::StabilisationDirection stabilisation = volume_contact::StabilisationDirection::kPatchNormal;
  double touch_tolerance = 1e-3;  // m: the point model's contact distance
  double linear_compliance = 0;   // m/N (6D joints)
  double angular_compliance = 0;  // rad/(N m) (6D joints)
  double tolerance = 1e-15;       // PGS's stopping criterion (Section 6.1.8): the update's 2-norm
  int max_iterations = 1000;      // PGS sweeps per step
  bool warm_start = true;
  double thin = 0.1;              // the patch's limiting-case ratio (contact_patch.hpp)
  double ground_size = 10;        // m: the edge of a plane's square slab
  bool joint_elimination = true;  // block PGS's elimination of bilateral joints (block_pgs.hpp)
  // 6D only: the patch region (contact_patch.hpp) and the departures from
  // Algorithm 1 and Section 4.1 (wrench_projection.hpp, contact_detection.hpp).
  volume_contact::PatchRegion patch = volume_contact::PatchRegion::kEllipse;
  bool spin_resolve = true;
  bool normal_differences = true;
  bool exact_moments = false;
};

// Reads MODEL's fields but "type" for the 6D model (six_d) or the point
// baseline; each refuses the other's own fields (compliances, patch, spin
// re-solve and normal differences; touch tolerance) as unknown. InputError
// "FILE: model.FIELD: why".
VolumeContactModel read_volume_contact_model(const Reader& in, const nlohmann::json& model, bool six_d);


// The scene's "joints" (read after its bodies; scene.hpp documents JOINT):
// the anchors and axes given in the world at the initial poses, in each
// body's frame. InputError "FILE: joints[k].FIELD: why".
std::vector<volume_contact::BilateralJoint> read_volume_contact_joints(const Reader& in, const nlohmann::json& joints,
                                                                       const Scene& scene);

// The simulator's bodies, in the scene's order: mesh, box and prism
// geometries (free or fixed) become BodyShapes of the polyhedron the scene
// built (in body coordinates, already moved to the centre of mass where a
// density gave it); a fixed plane becomes a ground: the half-space below the
// plane z = 0 of its body frame, in world coordinates from its pose, with the
// slab [-s/2, s/2]^2 x [-1, 0] (s = ground_size, m) as its shape, the ground
// of both models (rigid_body.hpp). Every body has the model's mu. InputError
// naming the scene file and field: another geometry, a free or transformed
// plane, a shape or body the simulator refuses (bodies[k]: check_body, a
// velocity beyond light's among them), and for the point model a touch
// tolerance not below half a body's shortest edge (model.touch_tolerance).
std::vector<volume_contact::RigidBody> volume_contact_bodies(const Scene& scene);

// The simulator's options from the model and the scene's gravity.
volume_contact::WorldOptions volume_contact_options(const Scene& scene);

}  // namespace contactref::scenes
