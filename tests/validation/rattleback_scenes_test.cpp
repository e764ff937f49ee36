// Kry's rattleback (thesis App. B.1, validation/fixtures/scenes/rattleback_*.json)
// in the friction modes, the quick variant of the rattleback-reversal suite:
// the self-consistency check of shared/notes/smooth-contact.md 7.3 (which
// way is clockwise depends on conventions; a rattleback's preferred
// direction does not): the tap start must spin the top one way, and the spin
// start, launched the other way, must reverse into it.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>

#include "reference/dynamics/contact_simulation.hpp"
#include "tests/kit/source_dir.hpp"
#include "validation/scenes/scene.hpp"

namespace contactref {
namespace {

namespace dy = contactref::dynamics;

dy::SimulationResult<double> run_scene(const std::string& name) {
  const scenes::Scene scene = scenes::load_scene(test::source_dir() / "validation/fixtures/scenes" / name);
  return dy::simulate(scene.system(), scene.initial, scene.options);
}

// The mean of the world spin omega_z over the rows in [from, to] (rad/s).
double mean_spin(const dy::SimulationResult<double>& result, double from, double to) {
  double sum = 0;
  int rows = 0;
  for (const dy::SimulationSample<double>& row : result.samples)
    if (row.state.time >= from && row.state.time <= to) sum += row.omega_w.z(), ++rows;
  return sum / rows;
}

TEST(RattlebackScenes, SpinStartReversesIntoTheTapStartsDirection) {
  const dy::SimulationResult<double> tap = run_scene("rattleback_tap.json");
  const dy::SimulationResult<double> spin = run_scene("rattleback_spin.json");
  ASSERT_EQ(tap.status, dy::SimulationStatus::kCompleted) << tap.message;
  ASSERT_EQ(spin.status, dy::SimulationStatus::kCompleted) << spin.message;
  // The tap start spins the top clockwise seen from above, from the first seconds (thesis Fig. 6.6).
  EXPECT_LT(mean_spin(tap, 0, 5), 0);
  EXPECT_LT(mean_spin(tap, 5, 40), 0);
  // The spin start begins counter-clockwise and ends clockwise (Fig. 6.7).
  EXPECT_NEAR(spin.samples.front().omega_w.z(), 1.0, 1e-12);
  EXPECT_GT(mean_spin(spin, 0, 5), 0.5);
  EXPECT_LT(mean_spin(spin, 35, 40), -0.5);
  double reversal = -1;
  for (const dy::SimulationSample<double>& row : spin.samples)
    if (reversal < 0 && row.omega_w.z() < 0) reversal = row.state.time;
  std::cout << "[rattleback] spin start, no-slip, mu = 0.3, 10 ms steps: first omega_z < 0 at t = " << reversal
            << " s (Kry & Pai Fig. 11, with viscous damping and sliding: about 8 s)\n";
}

// The law's directions through zero (contact_dynamics.hpp LawDirections):
// the rattleback's rolling velocity turns and passes near zero at every
// rock; with rolling and spinning resistance and every threshold at zero,
// each zero is a located event and the law never does positive work (its
// power is -f_n (mu |v| + mu_roll |rho| + mu_spin |omega_z|) <= 0, so the
// work falls between any two rows, to round-off). A direction carried from
// one step to the next against its velocity drove the work up by 5e-3 J.
TEST(RattlebackScenes, WithZeroThresholdsTheResistancesNeverDoPositiveWork) {
  scenes::Scene scene = scenes::load_scene(test::source_dir() / "validation/fixtures/scenes/rattleback_spin.json");
  scene.friction.law.mu_roll = 0.003;
  scene.friction.law.mu_spin = 0.0001;
  scene.friction.slip_threshold = scene.friction.spin_threshold = scene.friction.roll_threshold = 0;
  scene.options.duration = 20;
  scene.options.output_interval = 0;
  const dy::SimulationResult<double> result = dy::simulate(scene.system(), scene.initial, scene.options);
  ASSERT_EQ(result.status, dy::SimulationStatus::kCompleted) << result.message;
  int zero_events = 0;
  for (const dy::SimulationEvent<double>& event : result.events)
    zero_events += event.message.find("reached the threshold 0 rad/s") != std::string::npos;
  EXPECT_GE(zero_events, 1);
  const double scale = 64 * std::numeric_limits<double>::epsilon() * std::abs(result.initial_energy);
  for (std::size_t k = 1; k < result.samples.size(); ++k)
    ASSERT_LE(result.samples[k].work, result.samples[k - 1].work + scale) << "t = " << result.samples[k].state.time;
}

}  // namespace
}  // namespace contactref
