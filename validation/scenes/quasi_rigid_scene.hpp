#pragma once
// The quasi-rigid model of a scene (Pauly et al., simulated by
// reference/quasi_rigid/quasi_rigid_dynamics.hpp): its MODEL fields (scene.hpp
// documents them), and the simulator's bodies and options built from a scene.
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/quasi_rigid/quasi_rigid_dynamics.hpp"
#include "validation/scenes/json_reader.hpp"

namespace contactref::scenes {

struct Scene;

struct QuasiRigidModel {
  std::optional<double> E, nu;  // Pa and -: the bodies' material unless a body gives its own
  quasi_rigid::ResponseKernel::Kind kernel = quasi_rigid::ResponseKernel::Kind::kBoussinesq;
  double sigma = 0;             // m: the volume-preserving kernel's width
  double mu = 0;                // Coulomb (Section 5.1)
  double damping = 0;           // s/m: Hunt and Crossley's; 0: none (the paper's)
  double time_step = 1e-3;      // s: the flight step and the largest contact step
  double step_fraction = 0.05;  // the contact step's fraction of sqrt(m / k)
  double min_step = 1e-9;       // s: a contact step's rule below it ends the run failed; 0: none
  double contact_tolerance = 1e-5;  // m: the first contact's location
  std::optional<double> spacing;    // m: the sampling of sphere, plane and box geometries
  double plane_radius = 0.25;       // m: a plane geometry's sampled disk
  double active_range = 3;          // spacings about each penetrating sample
  int max_retractions = 10000;
};

// Reads MODEL's fields but "type" (the model's other fields are refused by
// read_model). InputError "FILE: model.FIELD: why".
QuasiRigidModel read_quasi_rigid_model(const Reader& in, const nlohmann::json& model);


// A body's "material": {"E": Pa, "nu": -}. InputError at `path`.
quasi_rigid::Material read_material(const Reader& in, const nlohmann::json& value, const std::string& path);

// The simulator's bodies, in the scene's order: each geometry sampled into
// points in body coordinates (points: the file's samples; sphere: Poisson-disk
// samples `spacing` apart; plane: the square lattice of `spacing` within
// plane_radius, normal +z; box: the faces sampled `spacing` apart), with its
// material, mass properties, pose and velocity. InputError naming the scene
// file and field: another geometry, no spacing where one is needed, no
// material, a geometry with too few samples or (spacing) more than 2 million.
std::vector<quasi_rigid::DynamicBody> quasi_rigid_bodies(const Scene& scene);

// The simulator's options from the model, the scene's gravity, duration and
// output interval.
quasi_rigid::DynamicsOptions quasi_rigid_options(const Scene& scene);

}  // namespace contactref::scenes
