// The 6D contact model against the point-contact baseline
// (reference/volume_contact/volume_world.hpp, Bouchard et al. Table 1 and
// Section 6.1.8), one time step of 10 ms on each scene of
// validation/fixtures/volume_contact_scenes.hpp, from the state after 30
// steps of the 6D model (resting or sliding contact):
//  - BM_Step<scene, model, warm>: the whole step (detection, stabilisation,
//    assembly, block PGS to 1e-15, integration), warm-started from the
//    model's previous step or (the octagon, as Fig. 16) from zero impulses;
//  - BM_Run<scene, model>/threads: the first second of the scene from its
//    start (100 steps of 10 ms: the bodies fall onto their contacts and
//    rest) on 1 or 2 threads (core/threads.hpp: detection's pairs), its time
//    (manual) the wall time of the steps (step() only, the world's set-up
//    left out), counter step_us the mean step;
//  - BM_MujocoRun/scene: MuJoCo on the same scene for the same second (1,000
//    steps of 1 ms, semi-implicit Euler, as bench_mujoco_scenes), its time
//    the wall time of the mj_step calls, step_us their mean: the peer's step
//    in the same program (issue 34 item 3: the stack's 6D step no slower
//    than MuJoCo's).
// Counters, per step: the joints, the PGS sweeps and the microseconds of
// detection and of the solve (the target: the 6D solve at least 20
// times faster than the point contacts' on the octagon).
#include <benchmark/benchmark.h>

#include <chrono>

#include "core/threads.hpp"
#include "reference/volume_contact/volume_world.hpp"
#include "validation/fixtures/volume_contact_scenes.hpp"
#include "validation/oracles/mujoco_volume_scenes.hpp"

namespace {

namespace vc = contactref::volume_contact;
namespace fx = contactref::fixtures;

enum Scene { kOctagon, kStack, kPyramid };

fx::VolumeContactScene scene_of(Scene s) {
  switch (s) {
    case kOctagon: return fx::sliding_octagon();
    case kStack: return fx::cube_stack();
    case kPyramid: return fx::brick_pyramid();
  }
  return {};
}

vc::WorldOptions options(vc::ContactModel model, bool warm) {
  vc::WorldOptions o;
  o.model = model;
  o.time_step = 0.01;
  o.target_volume = 1e-7;  // m^3: 10 um over a cube's face
  o.pgs.tolerance = 1e-15;
  o.pgs.max_iterations = 100000;
  o.warm_start = warm;
  return o;
}

template <Scene S, vc::ContactModel M, bool Warm>
void BM_Step(benchmark::State& state) {
  const fx::VolumeContactScene scene = scene_of(S);
  // The octagon slides for 68 steps of 10 ms: settle it for 3.
  vc::VolumeWorld settle(fx::volume_world_bodies(scene), options(vc::ContactModel::kVolume6d, true));
  for (int k = 0; k < (S == kOctagon ? 3 : 30); ++k) settle.step();
  // Warm starts come from the model's own previous step.
  vc::VolumeWorld warm(settle.bodies(), options(M, Warm));
  warm.step();
  double joints = 0, sweeps = 0, detection = 0, solve = 0;
  for (auto _ : state) {
    vc::VolumeWorld world = warm;
    const vc::StepReport r = world.step();
    joints += r.contacts;
    sweeps += r.pgs.iterations;
    detection += r.times.detection;
    solve += r.times.solve;
  }
  const double n = double(state.iterations());
  state.counters["joints"] = joints / n;
  state.counters["sweeps"] = sweeps / n;
  state.counters["detection_us"] = 1e6 * detection / n;
  state.counters["solve_us"] = 1e6 * solve / n;
}

template <Scene S, vc::ContactModel M>
void BM_Run(benchmark::State& state) {
  const contactref::ThreadLimit limit(static_cast<int>(state.range(0)));
  const fx::VolumeContactScene scene = scene_of(S);
  const int steps = 100;
  double joints = 0, sweeps = 0, detection = 0, solve = 0, total = 0, wall = 0;
  for (auto _ : state) {
    vc::VolumeWorld world(fx::volume_world_bodies(scene), options(M, true));
    double seconds = 0;
    for (int k = 0; k < steps; ++k) {
      const auto start = std::chrono::steady_clock::now();
      const vc::StepReport r = world.step();
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      joints += r.contacts;
      sweeps += r.pgs.iterations;
      detection += r.times.detection;
      solve += r.times.solve;
    }
    total += steps;
    wall += seconds;
    state.SetIterationTime(seconds);
  }
  state.counters["step_us"] = 1e6 * wall / total;
  state.counters["joints"] = joints / total;
  state.counters["sweeps"] = sweeps / total;
  state.counters["detection_us"] = 1e6 * detection / total;
  state.counters["solve_us"] = 1e6 * solve / total;
}

void BM_MujocoRun(benchmark::State& state) {
  const fx::VolumeContactScene scene = scene_of(Scene(state.range(0)));
  const contactref::oracles::MujocoScene peer =
      contactref::oracles::mujoco_scene(scene, contactref::oracles::MujocoIntegrator::kEuler, 1e-3, 1.0, 0.1);
  double contacts = 0, steps = 0, wall = 0;
  for (auto _ : state) {
    const contactref::oracles::MujocoSceneRun run = contactref::oracles::run_mujoco_scene(peer);
    double seconds = 0;
    for (const contactref::oracles::MujocoStepRecord& step : run.steps) {
      seconds += step.seconds;
      contacts += step.contacts;
    }
    steps += double(run.steps.size());
    wall += seconds;
    state.SetIterationTime(seconds);
  }
  state.counters["step_us"] = 1e6 * wall / steps;
  state.counters["contacts"] = contacts / steps;
  state.SetLabel(std::string(scene.name) + ", MuJoCo, Euler, 1 ms");
}

constexpr vc::ContactModel k6d = vc::ContactModel::kVolume6d, kPoint = vc::ContactModel::kPointContact;
BENCHMARK_TEMPLATE(BM_Step, kOctagon, k6d, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Step, kOctagon, kPoint, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Step, kOctagon, k6d, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Step, kOctagon, kPoint, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Step, kStack, k6d, true)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Step, kStack, kPoint, true)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Step, kPyramid, k6d, true)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Step, kPyramid, kPoint, true)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Run, kStack, k6d)->Arg(1)->Arg(2)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Run, kPyramid, k6d)->Arg(1)->Arg(2)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MujocoRun)->Arg(kStack)->Arg(kPyramid)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
