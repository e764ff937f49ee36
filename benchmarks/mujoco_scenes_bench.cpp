// The MuJoCo peer (validation/oracles/mujoco_scene.hpp) stepping the
// volume-contact scenes of issue 14 (validation/fixtures/
// volume_contact_scenes.hpp), as information beside our models' steps:
//  - BM_MujocoScene/scene/integrator: scene 0 the sliding octagon (1.2 s: it
//    stops at 0.68 s and rests), 1 the 5-cube stack (1 s at rest);
//    integrator 0 semi-implicit Euler, 1 RK4; timestep 1 ms. Each iteration
//    is one whole run; its time (manual) is the sum of the wall times of its
//    mj_step calls only, as the oracle records them (compiling the model,
//    sampling and the oracle's checks are left out).
// Counters (per step, averaged over the run): step_us (mj_step wall time),
// contacts (mjData.ncon), rows (mjData.nefc); contacts_max.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

#include "validation/oracles/mujoco_volume_scenes.hpp"

namespace {

namespace oracles = contactref::oracles;
namespace fixtures = contactref::fixtures;

void BM_MujocoScene(benchmark::State& state) {
  const bool octagon = state.range(0) == 0;
  const oracles::MujocoIntegrator integrator =
      state.range(1) == 0 ? oracles::MujocoIntegrator::kEuler : oracles::MujocoIntegrator::kRK4;
  const double timestep = 1e-3;
  const oracles::MujocoScene scene =
      oracles::mujoco_scene(octagon ? fixtures::sliding_octagon() : fixtures::cube_stack(), integrator, timestep,
                            octagon ? 1.2 : 1.0, 0.1);
  double seconds = 0, contacts = 0, rows = 0, steps = 0;
  int contacts_max = 0;
  for (auto _ : state) {
    const oracles::MujocoSceneRun run = oracles::run_mujoco_scene(scene);
    double run_seconds = 0;
    for (const oracles::MujocoStepRecord& step : run.steps) {
      run_seconds += step.seconds;
      contacts += step.contacts;
      rows += step.constraint_rows;
      contacts_max = std::max(contacts_max, step.contacts);
    }
    steps += double(run.steps.size());
    seconds += run_seconds;
    state.SetIterationTime(run_seconds);
  }
  state.counters["step_us"] = 1e6 * seconds / steps;
  state.counters["contacts"] = contacts / steps;
  state.counters["rows"] = rows / steps;
  state.counters["contacts_max"] = contacts_max;
  state.SetLabel(std::string(octagon ? "octagon" : "stack") +
                 (integrator == oracles::MujocoIntegrator::kEuler ? " Euler" : " RK4") + " 1 ms");
}
BENCHMARK(BM_MujocoScene)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
