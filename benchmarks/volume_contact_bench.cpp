// The 6D contact model against the point-contact baseline
// (reference/volume_contact/volume_world.hpp, Bouchard et al. Table 1 and
// Section 6.1.8), one time step of 10 ms on each scene of
// validation/fixtures/volume_contact_scenes.hpp, from the state after 30
// steps of the 6D model (resting or sliding contact):
//  - BM_Step<scene, model, warm>: the whole step (detection, stabilisation,
//    assembly, block PGS to 1e-15, integration), warm-started from the
//    model's previous step or (the octagon, as Fig. 16) from zero impulses;
// Counters, per step: the joints, the PGS sweeps and the microseconds of
// detection and of the solve (the target: the 6D solve at least 20
// times faster than the point contacts' on the octagon).
#include <benchmark/benchmark.h>

#include "reference/volume_contact/volume_world.hpp"
#include "validation/fixtures/volume_contact_scenes.hpp"

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

constexpr vc::ContactModel k6d = vc::ContactModel::kVolume6d, kPoint = vc::ContactModel::kPointContact;
BENCHMARK_TEMPLATE(BM_Step, kOctagon, k6d, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Step, kOctagon, kPoint, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Step, kOctagon, k6d, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Step, kOctagon, kPoint, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Step, kStack, k6d, true)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Step, kStack, kPoint, true)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Step, kPyramid, k6d, true)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Step, kPyramid, kPoint, true)->Unit(benchmark::kMillisecond);

}  // namespace
