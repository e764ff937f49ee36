#pragma once
// `contactref simulate` for a scene of the quasi-rigid model
// (reference/quasi_rigid/quasi_rigid_dynamics.hpp, Pauly et al. Section 5).
// Writes, under `out`:
//   bodies.csv    every free body's pose, velocities and energies at each
//                 output time (validation/app/output_files.hpp)
//   steps.csv     one row per step: time (s, at its end), dt (s), contact
//                 (1: a contact step, 0: flight), retracted (1: shortened to
//                 the first contact), load (N), active and loaded samples,
//                 the normal and friction work (J), friction's scale, the
//                 stiffness rule's step (s)
//   summary.json  status (completed or failed) and message, the model's
//                 parameters, statistics (steps, retractions, first contacts,
//                 most active samples, work), the final states, scene and
//                 build
//   timings.json  the run's wall time (the other files are the same byte
//                 for byte for the same command on the same build)
// Returns the exit code: 0 completed, 1 failed.
#include <filesystem>
#include <string>

#include "validation/scenes/scene.hpp"

namespace contactref::cli {

int simulate_quasi_rigid(const scenes::Scene& scene, const std::string& scene_file, const std::filesystem::path& out,
                         bool json);

}  // namespace contactref::cli
