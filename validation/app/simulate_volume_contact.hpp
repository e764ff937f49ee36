#pragma once
// `contactref simulate` for a scene of the 6D volume-contact model or its
// point-contact baseline (reference/volume_contact/volume_world.hpp,
// Bouchard et al. Sections 3, 5 and 6). Writes, under `out`:
//   bodies.csv    every free body's pose, velocities and energies at the start
//                 and once per output interval (at the first step ending at or
//                 after each multiple of it, within half a step), and at the end
//                 (validation/app/output_files.hpp)
//   steps.csv     one row per step: time (s, at its end), contacts (joints:
//                 6D pairs or points), constraints (scalar rows), iterations
//                 (PGS sweeps), residual (the last sweep's update norm),
//                 converged (1 or 0), projection_residual (N s, N m s: the
//                 largest distance of a joint's impulse from its own
//                 projection, zero at the paper's block Gauss-Seidel fixed
//                 point: block_pgs.hpp), max_volume (m^3, the largest pair
//                 volume detected), and the joints in each state after the
//                 solve (separating, stuck, sliding, rolling,
//                 rolling_sliding: wrench_projection.hpp)
//   step_times.csv  one row per step: time, the wall time of detection,
//                 stabilisation, assembly and solve (s)
//   summary.json  status (completed or failed) and message, the model's
//                 fields, statistics (steps, total and mean iterations,
//                 unconverged steps, the largest projection residual), the
//                 final states, scene and build
//   timings.json  the run's wall time and its sum per phase
// Every file but step_times.csv and timings.json is the same byte for byte
// for the same command on the same build.
// Returns the exit code: 0 completed, 1 failed (a ComputationError while
// stepping); a bad scene is an InputError (exit 2).
#include <filesystem>
#include <string>

#include "validation/scenes/scene.hpp"

namespace contactref::cli {

int simulate_volume_contact(const scenes::Scene& scene, const std::string& scene_file,
                            const std::filesystem::path& out, bool json);

}  // namespace contactref::cli
