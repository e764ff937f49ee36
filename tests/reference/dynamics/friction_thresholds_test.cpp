// The thresholds of the friction modes (mode_switching.hpp) against the
// closed-form motion of a uniform sphere (radius R, mass m, I = 2/5 m R^2) on
// a horizontal plane, Newton-Euler with the contact force at r = -R n:
//  - sliding with backspin: the slip u = v - omega R falls at 7/2 mu g, so
//    it reaches a threshold u_th at t_s = (u0 - u_th) / (7/2 mu g); the
//    contact force and the sticking impulse keep the angular momentum about
//    the contact point, L = m R v + I omega, so the sphere rolls on at
//    v = L / (m R + I / R) whatever the threshold, 0 included;
//  - spinning about the normal with spinning resistance mu_spin (m):
//    I omega_z' = -mu_spin m g until the spin reaches its threshold;
//  - sliding while spinning: the spin stops first (it is held while the
//    contact slides on), the slip later: the two closed forms above, in turn;
//  - sliding with backspin under rolling resistance mu_roll: the backspin
//    falls through zero while the contact slides (the resistance cannot
//    hold the rolling against the friction's torque mu m g R > mu_roll m g),
//    so omega' = (mu R -+ mu_roll) m g / I before and after omega = 0.
// Every velocity that the law drives to zero reaches it at a located event
// in a number of steps that does not depend on the threshold (the stages of
// a step keep the law's directions at its start, contact_dynamics.hpp
// LawDirections). Before, a threshold below about 1.75 mu g h_min froze the
// slip at h_min: the four RK4 stages alternated the friction's sign.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/dynamics/contact_simulation.hpp"
#include "tests/kit/tolerance.hpp"
#include "tests/reference/dynamics/sphere_on_plane.hpp"

namespace contactref::dynamics {
namespace {

using test::SphereOnPlaneScene;

constexpr double kHMax = 0.01, kHMin = 1e-4;

SimulationOptions<double> options(double duration) {
  SimulationOptions<double> o;
  o.h_max = kHMax;
  o.h_min = kHMin;
  o.duration = duration;
  o.output_interval = 0;
  return o;
}

// The event bound: the roots are located to 64 eps in g and the sliding
// sphere's q'' is constant between events (q quadratic in t, which RK4
// integrates exactly); 4096 roundings of the run's O(1) quantities.
double run_tolerance() { return test::tolerance<double>(4096); }

// No step is halved (no reversal inside a step, no boundary) and the run
// takes its h_max steps, one cut at each of `events` events, one shortened to
// the end: the steps do not depend on the thresholds.
void expect_full_steps(const SimulationResult<double>& result, double duration, double h_max, int events) {
  EXPECT_EQ(result.statistics.rejected_steps, 0);
  EXPECT_LE(result.statistics.accepted_steps, long(std::ceil(duration / h_max)) + events + 1);
}

// The mode switches after the start, in order.
std::vector<SimulationEvent<double>> switches(const SimulationResult<double>& result) {
  std::vector<SimulationEvent<double>> out;
  for (const SimulationEvent<double>& event : result.events)
    if (event.kind == EventKind::kModeSwitch && event.message.rfind("initial state", 0) != 0) out.push_back(event);
  return out;
}

// The slip u = v_x - R omega_y and the angular momentum about the contact
// point of a row (world axes; the sphere moves along x, rolls about y).
double slip(const SphereOnPlaneScene<double>& set, const SimulationSample<double>& row) {
  return row.com_velocity_w.x() - set.R * row.omega_w.y();
}
double contact_momentum(const SphereOnPlaneScene<double>& set, const SimulationSample<double>& row) {
  return set.m * set.R * row.com_velocity_w.x() + set.I() * row.omega_w.y();
}

TEST(FrictionThresholds, BackspinRollsOnAtTheClosedFormTimeAndSpeedForEveryThresholdInTheSameSteps) {
  const SphereOnPlaneScene<double> set;
  const double v0 = 1, duration = 0.6;
  ContactState<double> start = set.sliding_start(v0);
  start.qdot(1) = 1.5 * v0 / set.R;  // backspin (friction_simulation_test.cpp's sign)
  long steps_at_zero = -1;
  for (const double threshold : {0.0, 1e-9, 1e-6, 1e-4, 5e-3}) {
    FrictionModel<double> friction;
    friction.law.mu = friction.mu_static = 0.3;
    friction.slip_threshold = threshold;
    const ContactSystem<double> system = set.system(friction);
    const SimulationSample<double> first = sample_state(system, start, 0.0);
    const double u0 = slip(set, first), L = contact_momentum(set, first);
    ASSERT_GT(u0, 1) << "the backspin's sign";
    const SimulationResult<double> result = simulate(system, start, options(duration));
    ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
    const std::vector<SimulationEvent<double>> events = switches(result);
    ASSERT_EQ(events.size(), 1u) << "threshold " << threshold;
    EXPECT_EQ(events[0].to_mode, ContactMode::kNoSlip);
    const double t_s = (u0 - threshold) / (3.5 * friction.law.mu * set.g);
    EXPECT_NEAR(events[0].time, t_s, run_tolerance()) << "threshold " << threshold;
    const SimulationSample<double>& last = result.samples.back();
    EXPECT_NEAR(last.com_velocity_w.x(), L / (set.m * set.R + set.I() / set.R), run_tolerance())
        << "threshold " << threshold;
    EXPECT_LT(last.slip_speed, run_tolerance());
    expect_full_steps(result, duration, kHMax, 1);
    if (steps_at_zero < 0) steps_at_zero = result.statistics.accepted_steps;
    EXPECT_LE(std::abs(result.statistics.accepted_steps - steps_at_zero), 1) << "threshold " << threshold;
  }
}

TEST(FrictionThresholds, AZeroSpinThresholdHoldsTheSpinWhereItStops) {
  const SphereOnPlaneScene<double> set;
  FrictionModel<double> friction;
  friction.law.mu = friction.mu_static = 0.3;
  friction.law.mu_spin = 0.02;
  friction.spin_threshold = 0;
  const double spin0 = 2, duration = 1.5;
  ContactState<double> start = set.sliding_start(0);
  start.qdot(4) = spin0;
  const SimulationResult<double> result = simulate(set.system(friction), start, options(duration));
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  const std::vector<SimulationEvent<double>> events = switches(result);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].from_mode, ContactMode::kNoSlip);
  EXPECT_EQ(events[0].to_mode, ContactMode::kNoSpin);
  EXPECT_NEAR(events[0].time, set.I() * spin0 / (friction.law.mu_spin * set.m * set.g), run_tolerance());
  const SimulationSample<double>& last = result.samples.back();
  EXPECT_LT(last.omega_w.norm(), run_tolerance()) << "held at zero, not frozen near it";
  // The whole spin energy went to the resistance's work; no impulse at zero.
  EXPECT_NEAR(last.work, -set.I() * spin0 * spin0 / 2, run_tolerance());
  EXPECT_LT(std::abs(last.impulse_work), run_tolerance());
  expect_full_steps(result, duration, kHMax, 1);
}

// The reproducer of the issue: the spin stops while the contact slides. It
// is held from then on (sliding-no-spin), and when the slip stops the
// contact enters no-spin, not no-slip with a spin below its threshold. The
// spin's own decay is linear in time (exact under RK4); while it spins the
// contact's path on the sphere curves, so q(t) is not polynomial and the
// slip's switch time and the rolling speed carry RK4's error: it must fall
// at RK4's order (>= 2^3.5 per halving of h_max) down to round-off.
TEST(FrictionThresholds, ASpinThatStopsWhileSlidingIsHeldAndTheSlipStopsIntoNoSpin) {
  const SphereOnPlaneScene<double> set;
  FrictionModel<double> friction;
  friction.law.mu = friction.mu_static = 0.2;
  friction.law.mu_spin = 0.02;  // the spin stops at 0.148 s, the slip at 0.290 s
  friction.spin_threshold = 0.01;
  const double v0 = 2, spin0 = -0.3, duration = 1;
  ContactState<double> start = set.sliding_start(v0);
  start.qdot(4) = spin0;
  double previous_error = 0;
  for (const double h_max : {kHMax, kHMax / 2}) {
    SimulationOptions<double> o = options(duration);
    o.h_max = h_max;
    const SimulationResult<double> result = simulate(set.system(friction), start, o);
    ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
    const std::vector<SimulationEvent<double>> events = switches(result);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].from_mode, ContactMode::kSliding);
    EXPECT_EQ(events[0].to_mode, ContactMode::kSlidingNoSpin);
    EXPECT_NEAR(events[0].time,
                set.I() * (std::abs(spin0) - friction.spin_threshold) / (friction.law.mu_spin * set.m * set.g),
                run_tolerance());
    EXPECT_EQ(events[1].from_mode, ContactMode::kSlidingNoSpin);
    EXPECT_EQ(events[1].to_mode, ContactMode::kNoSpin);
    const SimulationSample<double>& last = result.samples.back();
    EXPECT_EQ(last.state.mode, ContactMode::kNoSpin);
    EXPECT_LT(std::abs(last.omega_w.z()), run_tolerance());
    const double error =
        std::max(std::abs(events[1].time - (v0 - friction.slip_threshold) / (3.5 * friction.law.mu * set.g)),
                 std::abs(last.com_velocity_w.x() - 5.0 / 7.0 * v0));
    if (previous_error > 0) {
      EXPECT_TRUE(error < run_tolerance() || previous_error / error > std::pow(2.0, 3.5))
          << "errors " << previous_error << " then " << error;
    }
    previous_error = error;
    expect_full_steps(result, duration, h_max, 2);
  }
}

// Rolling resistance while the backspin falls through zero: the resistance
// cannot hold it (mu R = 0.15 m > mu_roll = 0.01 m), so the rolling passes
// through zero at a located event and the law's torque turns with it.
TEST(FrictionThresholds, ABackspinThatTheResistanceCannotHoldPassesThroughZeroAtALocatedEvent) {
  const SphereOnPlaneScene<double> set;
  FrictionModel<double> friction;
  friction.law.mu = friction.mu_static = 0.3;
  friction.law.mu_roll = 0.01;
  friction.roll_threshold = 0;
  friction.slip_threshold = 0;
  const double v0 = 1, duration = 0.8;
  ContactState<double> start = set.sliding_start(v0);
  start.qdot(1) = 1.5 * v0 / set.R;  // backspin
  const ContactSystem<double> system = set.system(friction);
  const SimulationSample<double> first = sample_state(system, start, 0.0);
  const double w0 = first.omega_w.y();
  ASSERT_LT(w0, 0) << "a backspin";
  const SimulationResult<double> result = simulate(system, start, options(duration));
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  // The closed form: omega' = (mu R + mu_roll) m g / I until omega = 0,
  // then (mu R - mu_roll) m g / I; v' = -mu g throughout the slide.
  const double mg_I = set.m * set.g / set.I(), mu = friction.law.mu, mu_roll = friction.law.mu_roll;
  const double t_r = -w0 / ((mu * set.R + mu_roll) * mg_I);
  const double v_r = v0 - mu * set.g * t_r;
  // u = v - R omega reaches 0 after t_r: v_r - mu g tau = R (mu R - mu_roll) mg_I tau.
  const double t_s = t_r + v_r / (mu * set.g + set.R * (mu * set.R - mu_roll) * mg_I);
  const std::vector<SimulationEvent<double>> events = switches(result);
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[0].from_mode, ContactMode::kSliding);
  EXPECT_EQ(events[0].to_mode, ContactMode::kSliding) << events[0].message;
  EXPECT_NE(events[0].message.find("goes on through zero"), std::string::npos) << events[0].message;
  EXPECT_NEAR(events[0].time, t_r, run_tolerance());
  EXPECT_EQ(events[1].to_mode, ContactMode::kNoSlip);
  EXPECT_NEAR(events[1].time, t_s, run_tolerance());
  expect_full_steps(result, duration, kHMax, 3);
}

// The start's plastic impulse is in the energy accounts: launched at
// v0 = 4 mm/s, below the 5 mm/s threshold, the sphere starts in no-slip; the
// impulse keeps m R v0 about the contact point, so it rolls at 5/7 v0 with
// 7/10 m (5/7 v0)^2 of kinetic energy: the impulse's work is -m v0^2 / 7,
// and the energy as given is m v0^2 / 2 + m g R.
TEST(FrictionThresholds, TheStartsImpulseIsInTheEnergyAccounts) {
  const SphereOnPlaneScene<double> set;
  FrictionModel<double> friction;
  friction.law.mu = friction.mu_static = 0.3;
  const double v0 = 0.004;
  const SimulationResult<double> result = simulate(set.system(friction), set.sliding_start(v0), options(0.5));
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  EXPECT_NEAR(result.initial_energy, set.m * v0 * v0 / 2 + set.m * set.g * set.R, run_tolerance());
  const SimulationSample<double>& first = result.samples.front();
  EXPECT_EQ(first.state.mode, ContactMode::kNoSlip);
  EXPECT_NEAR(first.impulse_work, -set.m * v0 * v0 / 7, run_tolerance());
  const SimulationSample<double>& last = result.samples.back();
  EXPECT_NEAR(last.com_velocity_w.x(), 5.0 / 7.0 * v0, run_tolerance());
  // Rolling on a plane is uniform: the balance closes to round-off.
  EXPECT_NEAR(last.energy - result.initial_energy - last.work - last.impulse_work, 0, run_tolerance());
}

}  // namespace
}  // namespace contactref::dynamics
