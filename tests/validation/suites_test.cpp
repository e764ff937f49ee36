// Quick variants of the validation suites (the full runs belong to
// `contactref validate`), and the suite-result machinery.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "robust_geometry/contact_analysis.hpp"
#include "validation/fixtures/contact_scenes.hpp"
#include "validation/registry.hpp"
#include "validation/suites/brep_contact.hpp"
#include "validation/suites/blob_in_bowl.hpp"
#include "validation/suites/bowl_on_table.hpp"
#include "validation/suites/foot_tractions.hpp"
#include "validation/suites/frictionless_bowl_drift.hpp"
#include "validation/suites/hertz_convergence.hpp"
#include "validation/suites/rattleback_reversal.hpp"
#include "validation/suites/octagon_convergence.hpp"
#include "validation/suites/six_d_departures.hpp"
#include "validation/suites/spinning_ball_incline.hpp"
#include "validation/suites/loop_evaluation.hpp"
#include "validation/suites/torque_free_body.hpp"
#include "tests/kit/sanitized.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref::validation {
namespace {

const Metric* find(const SuiteResult& result, const std::string& name) {
  for (const Metric& m : result.metrics)
    if (m.name == name) return &m;
  return nullptr;
}

// Every check of a suite passed, and its verdict is theirs alone; each row
// says what it is (a check's criterion states its bound's derivation).
void expect_checks_pass(const SuiteResult& result) {
  int checks = 0;
  for (const Metric& m : result.metrics) {
    EXPECT_FALSE(m.criterion.empty()) << m.name;
    if (m.is_information()) continue;
    ++checks;
    EXPECT_TRUE(*m.passed) << m.name << " = " << m.value << " (" << m.criterion << ")";
  }
  EXPECT_GT(checks, 0);
  EXPECT_TRUE(result.passed());
}

void expect_information(const SuiteResult& result, const std::string& name) {
  const Metric* m = find(result, name);
  ASSERT_NE(m, nullptr) << name;
  EXPECT_TRUE(m->is_information()) << name;
  EXPECT_TRUE(to_json(result)["metrics"][name]["passed"].is_null()) << name;
}

// A timing row: information kept out of to_json's layout (which is then the
// same byte for byte run to run) and in timings_json's.
void expect_timing(const SuiteResult& result, const std::string& name) {
  const Metric* m = find(result, name);
  ASSERT_NE(m, nullptr) << name;
  EXPECT_TRUE(m->is_information() && m->timing) << name;
  EXPECT_FALSE(to_json(result)["metrics"].contains(name)) << name;
  EXPECT_TRUE(timings_json(result)["metrics"].contains(name)) << name;
}

void expect_check(const SuiteResult& result, const std::string& name) {
  const Metric* m = find(result, name);
  ASSERT_NE(m, nullptr) << name;
  EXPECT_FALSE(m->is_information()) << name;
}

TEST(TorqueFreeBodySuite, QuickVariantPassesWithFourthOrder) {
  const SuiteResult result = torque_free_body_suite({true});
  expect_checks_pass(result);
  const Metric* order = find(result, "convergence_order");
  ASSERT_NE(order, nullptr);
  EXPECT_GE(order->value, 3.5);
  EXPECT_LE(order->value, 4.5);
  // The duration is a choice of the suite, not a measurement.
  expect_information(result, "periods_integrated");
}

TEST(LoopEvaluationSuite, QuickVariantPasses) {
  const SuiteResult result = loop_evaluation_suite({true});
  expect_checks_pass(result);
  expect_information(result, "faces");
  expect_information(result, "opensubdiv_interior_difference");
}

// Quick variant: 2 s at 1, 4 and 16 ms. Besides the suite's own criteria: the
// constraint, measured by the oracle from the bowl's pose, holds to
// round-off, the baseline's drifts by orders of magnitude more, and the
// contact crossed patches. The bounds of the finest errors and orders are
// derived from RK4's error model, so their rows are checks.
TEST(FrictionlessBowlDriftSuite, QuickVariantPassesAndTheBaselineDrifts) {
  const SuiteResult result = frictionless_bowl_drift_suite({true});
  expect_checks_pass(result);
  const Metric* ours = find(result, "max_gap_m");
  const Metric* baseline = find(result, "baseline_max_gap_m[h_max=1ms]");
  const Metric* transitions = find(result, "transitions[h_max=1ms]");
  ASSERT_TRUE(ours && baseline && transitions);
  EXPECT_GT(baseline->value, 1e6 * ours->value);
  EXPECT_GT(transitions->value, 2);
  for (const char* name : {"max_gap_m", "max_normal_misalignment_rad", "horizontal_drift_order", "energy_error_order",
                           "finest_horizontal_drift_m[h_max=1ms]", "finest_relative_energy_error[h_max=1ms]"})
    expect_check(result, name);
  for (const char* name : {"bowl_mass_kg", "duration_s", "horizontal_drift_m[h_max=1ms]", "baseline_max_gap_m[h_max=1ms]",
                           "horizontal_drift_order[1-4ms]"})
    expect_information(result, name);
}

// Quick variant (tap and spin starts 35 s, the frictionless spin, the
// rocking modes): the preferred direction, the first reversal, none without
// friction, and each rocking mode's measured period against the coupled
// linearisation, which must differ from the notes' decoupled periods (so
// that the check tells them apart). The tap and spin starts' whole spin
// histories and reversals are checked against the rolling-body oracle, whose
// reversal (not Kry & Pai's 8 s with sliding and damping) is the first
// reversal's reference; the law does no work in these runs, so they have no
// work-rise row (it would be zero by construction).
TEST(RattlebackReversalSuite, QuickVariantPassesAndTellsTheCoupledModesFromTheDecoupled) {
  const SuiteResult result = rattleback_reversal_suite({true});
  expect_checks_pass(result);
  for (const char* name : {"tap_start_direction", "spin_start_first_reversal_s", "frictionless_reversals",
                           "rocking_period_short_mode_s", "rocking_period_long_mode_s", "completed[spin[mu=0.3]]",
                           "oracle_shape_deviation_m", "spin_history_vs_oracle[tap[mu=0.3]]",
                           "spin_history_vs_oracle[spin[mu=0.3]]", "reversals[tap[mu=0.3]]", "reversals[spin[mu=0.3]]",
                           "oracle_slip_drift_m_per_s[spin[mu=0.3]]"})
    expect_check(result, name);
  expect_information(result, "reversals[spin[frictionless]]");
  EXPECT_EQ(find(result, "largest_work_rise_J[tap[mu=0.3]]"), nullptr);
  const Metric* first = find(result, "spin_start_first_reversal_s");
  ASSERT_TRUE(first->reference.has_value());
  EXPECT_GT(*first->reference, 20.0);  // the oracle's no-slip reversal, about 27 s
  const Metric* short_mode = find(result, "rocking_period_short_mode_s");
  const Metric* pitch = find(result, "decoupled_pitch_period_s");
  ASSERT_TRUE(short_mode && pitch);
  EXPECT_GT(std::abs(pitch->value - *short_mode->reference), 0.1 * *short_mode->reference);
  EXPECT_GT(find(result, "spin_start_first_reversal_s")->value, 10.0);
}

// Quick variant (1.5 s at 2 and 4 ms): slides then rolls, energy falls at
// every sliding row, rolling conserves it and the balance closes at RK4's
// order; the contact keeps millimetres from every extraordinary vertex.
TEST(BlobInBowlSuite, QuickVariantSlidesThenRollsAndKeepsAwayFromExtraordinaryVertices) {
  const SuiteResult result = blob_in_bowl_suite({true});
  expect_checks_pass(result);
  for (const char* name : {"rolling_from_s[h_max=2ms]", "sliding_rows_without_energy_fall[h_max=2ms]",
                           "rolling_energy_drift_order", "integrator_loss_order"})
    expect_check(result, name);
  const Metric* closest = find(result, "closest_extraordinary_vertex_m[h_max=2ms]");
  ASSERT_NE(closest, nullptr);
  EXPECT_GT(closest->value, 1e-3);
}

// Bouma & Vanecek: every structural number and figure check of the suite;
// the culling ratio (a count of plane tests, deterministic) is near the
// paper's factor of two. Rows that could not fail are information.
TEST(BrepContactSuite, QuickVariantPasses) {
  const SuiteResult result = brep_contact_suite({true});
  expect_checks_pass(result);
  const Metric* ratio = find(result, "culling.plane_test_ratio");
  ASSERT_NE(ratio, nullptr);
  EXPECT_LT(ratio->value, 3.0);
  for (const char* name : {"culling.time_ratio", "culling.kept_face_fraction", "fig5.zero_d_kept", "sphere128.mean_depth",
                           "sphere128.balanced.mean_depth"})
    expect_information(result, name);
  expect_check(result, "fig3.unneeded_regions_outside_needed_borders");
  expect_check(result, "fig3.scenes_with_other_needed_regions_in_needed_borders");
}

// The quasi-rigid model against Hertz at three samplings: every check, and
// the rows that carry the studied numbers.
TEST(HertzConvergenceSuite, QuickVariantPasses) {
  const SuiteResult result = hertz_convergence_suite({true});
  expect_checks_pass(result);
  expect_check(result, "rigid_plane.approach_order");
  expect_check(result, "sampled[a/h=6].newton_third_law");
  expect_information(result, "rigid_plane.contact_radius_order");
  EXPECT_EQ(find(result, "sampled[a/h=8].sphere_load"), nullptr);  // the quick variant stops at a / h = 6
}

// The synthetic foot under body weight (Fig. 9), at 6,400 samples: every
// check, and the rows that carry the paper's numbers. About 20 s in a release
// build; its parts (the contact, the multi-level solve, the interpolation)
// have their own sanitized tests, so the sanitized build skips it.
TEST(FootTractionsSuite, QuickVariantPasses) {
  if (test::kSanitized) GTEST_SKIP() << "too slow under the sanitizers; its parts are tested there";
  const SuiteResult result = foot_tractions_suite({true});
  expect_checks_pass(result);
  expect_check(result, "newton_third_law");
  expect_check(result, "displaced_volume_over_absolute");
  expect_check(result, "medial_arch_load_fraction");
  expect_information(result, "displaced_samples");
  expect_timing(result, "contact_ms");
}

// Pauly et al. Fig. 8, quick: the damped run's checks (flight momentum,
// friction's work, the angular momentum about the contact line, 5/7 g
// sin(theta) once rolling) and its information rows; the undamped run belongs
// to the full variant. About 2 s in a release build; the sanitized build
// skips it (the simulator's paths run in quasi_rigid_dynamics_test).
TEST(SpinningBallInclineSuite, QuickVariantPasses) {
  if (test::kSanitized) GTEST_SKIP() << "too slow under the sanitizers; the simulator's paths are tested there";
  const SuiteResult result = spinning_ball_incline_suite({true});
  expect_checks_pass(result);
  for (const char* name : {"damped.flight.momentum_error", "damped.friction.worst_step_work",
                           "damped.contact.angular_momentum_balance", "damped.rolling.acceleration"})
    expect_check(result, name);
  for (const char* name : {"damped.contact_steps", "damped.most_active_samples"}) expect_information(result, name);
  expect_timing(result, "damped.wall_seconds");
  EXPECT_EQ(find(result, "undamped.completed"), nullptr);
}

// Bouchard et al. Figs. 15-17 and Table 2, quick: 20 steps of the stack and
// the pyramid; Table 1's times and MuJoCo's stack belong to the full
// variant. About 20 s in a release build (the point model's 8,000 sweeps a
// step on the stack); the sanitized build skips it (the simulator's paths run
// in volume_world_test).
TEST(OctagonConvergenceSuite, QuickVariantPasses) {
  if (test::kSanitized) GTEST_SKIP() << "too slow under the sanitizers; the simulator's paths are tested there";
  const SuiteResult result = octagon_convergence_suite({true});
  expect_checks_pass(result);
  for (const char* name : {"fig16.6d.iterations", "fig16.same_impulse", "slide.point.distance", "slide.6d.stop_time",
                           "table2.stack.6d.tilt", "table2.pyramid.point.sink"})
    expect_check(result, name);
  for (const char* name : {"fig16.point.iterations", "table2.stack.point.iterations_mean", "mujoco.octagon.contacts_per_step"})
    expect_information(result, name);
  EXPECT_EQ(find(result, "table1.stack.6d.detection_ms"), nullptr);
}

// Issue 29, items 13 and 14, quick: the support patch tips the cube at
// 0.5 mm and 5 mm past the table's edge where the paper's ellipse holds it
// at 5 mm, and brakes a spinning cube at the uniformly loaded square's
// 67.56 rad/s^2 (the ellipse: 161.2); joint elimination and plain block
// Gauss-Seidel both end at the paper's fixed point. About 5 s in a release
// build (the table's exact intersections); the sanitized build skips it (the
// paths run in support_region_test, wrench_projection_test and
// bilateral_joints_test).
TEST(SixDDeparturesSuite, QuickVariantPasses) {
  if (test::kSanitized) GTEST_SKIP() << "exact mesh intersections, slow under the sanitizers";
  const SuiteResult result = six_d_departures_suite({true});
  expect_checks_pass(result);
  for (const char* name : {"tipping.support.+0.50mm.tilt", "tipping.ellipse.+5.00mm.tilt",
                           "tipping.support.+5mm.first_step_omega", "spin.cube.support.deceleration",
                           "spin.octagon.support.deceleration", "elimination.large.eliminated.projection_residual",
                           "elimination.large.plain_sweep_from_eliminated", "spin_resolve.on.other_rows_velocity",
                           "normals.differences.tilt"})
    expect_check(result, name);
  for (const char* name : {"spin.cube.ellipse_over_uniform", "elimination.large.different_answers",
                           "spin_resolve.off.pad_slip", "normals.gradient.tilt"})
    expect_information(result, name);
  EXPECT_EQ(find(result, "elimination.small.eliminated.projection_residual"), nullptr);  // the full variant's
}

// Fig. 3's claim both ways on Fig. 4's collision (the block against the
// ramp): the analysis has no unneeded region outside the needed borders and
// one needed region (the collision edge) in the face region's border, as the
// paper says. Keeping every region of I puts more needed regions in borders;
// keeping only the collision edge leaves regions outside every border.
TEST(BrepContactSuite, Fig3CountsFailWhenEveryRegionOrTooFewAreKept) {
  namespace rg = contactref::robust_geometry;
  const fixtures::ContactScene scene = fixtures::floor_with_ramp_and_block();
  rg::Vector6d sliding;
  sliding << 0, 0, 0, 1, 0, 0;
  const rg::ContactAnalysis analysis =
      rg::find_contacts(scene.a, rg::build_brep_index(scene.a), scene.b, scene.pose_b, sliding);
  const BorderCounts counts = needed_border_counts(analysis);
  EXPECT_EQ(counts.unneeded_outside, 0);
  EXPECT_EQ(counts.needed_inside, 1);

  rg::ContactAnalysis every = analysis;
  every.contacts.clear();
  for (const rg::ContactRegion& r : analysis.intersection.regions) every.contacts.push_back({r, {}, {}});
  EXPECT_GT(needed_border_counts(every).needed_inside, 1);

  rg::ContactAnalysis too_few = analysis;
  std::erase_if(too_few.contacts, [](const rg::Contact& c) { return c.region.dimension == 2; });
  EXPECT_GT(needed_border_counts(too_few).unneeded_outside, 0);
}

TEST(ObservedOrder, RecoversTheExponentOfAPowerLaw) {
  const std::vector<double> h = {0.1, 0.05, 0.025, 0.0125};
  std::vector<double> error;
  for (double x : h) error.push_back(3.0 * std::pow(x, 4.0));
  EXPECT_NEAR(observed_order(h, error), 4.0, 1e-12);
}

TEST(SuiteResult, PassesOnlyWhenEveryCheckPasses) {
  SuiteResult result;
  result.name = "example";
  EXPECT_FALSE(result.passed());  // no row: nothing was checked
  result.add(information("i", 5.0, std::nullopt, "a measured number"));
  EXPECT_FALSE(result.passed());  // information only: still nothing checked
  result.add(check("a", 1.0, 2.0, "a <= 2", true));
  EXPECT_TRUE(result.passed());
  result.add(check("b", 3.0, std::nullopt, "b <= 2", false));
  EXPECT_FALSE(result.passed());
  const auto json = to_json(result);
  EXPECT_EQ(json["metrics"]["a"]["reference"], 2.0);
  EXPECT_TRUE(json["metrics"]["b"]["reference"].is_null());
  EXPECT_EQ(json["passed"], false);
}

// Information has no verdict: "passed": null in JSON (validate --json and
// validation.json), `info` in the table, and it never changes the suite's.
TEST(SuiteResult, InformationIsNeitherPassNorFail) {
  SuiteResult result;
  result.name = "example";
  result.add(check("a", 1.0, std::nullopt, "a <= 2", true));
  result.add(information("i", 5.0, 4.0, "a measured number"));
  EXPECT_TRUE(result.passed());
  const auto json = to_json(result);
  EXPECT_EQ(json["metrics"]["a"]["passed"], true);
  EXPECT_TRUE(json["metrics"]["i"]["passed"].is_null());
  EXPECT_EQ(json["metrics"]["i"]["reference"], 4.0);
  EXPECT_EQ(json["passed"], true);
  std::ostringstream table;
  print_table(table, result);
  std::string line_i, line;
  std::istringstream lines(table.str());
  while (std::getline(lines, line))
    if (line.rfind("  i ", 0) == 0) line_i = line;
  EXPECT_NE(line_i.find(" info "), std::string::npos) << table.str();
  EXPECT_EQ(line_i.find("pass"), std::string::npos) << table.str();
}

TEST(Registry, EveryFigureBelongsToARegisteredSuiteAndHasAScript) {
  for (const FigureSpec& figure : figures()) {
    bool found = false;
    for (const SuiteSpec& suite : suites()) found = found || suite.name == figure.suite;
    EXPECT_TRUE(found) << figure.name;
    EXPECT_TRUE(std::filesystem::exists(contactref::test::source_dir() / "paper_figures" / figure.script))
        << figure.script;
  }
}

// Kry & Pai Section 4.2, quick: 1 s of the bowl thrown on the table at 16 ms
// (lands at 0.076 s, six impacts, contact re-established at 0.234 s): every
// impact against Chatterjee & Ruina's law, recomputed from the rows; no
// penetration in flight by the oracle; the energy recomputed and its balance.
// The rest at 3 s belongs to the full variant. About 1 s in a release build;
// the sanitized build skips it (its paths run in flight_simulation_test and
// the surface proximity tests).
TEST(BowlOnTableSuite, QuickVariantPasses) {
  if (test::kSanitized) GTEST_SKIP() << "too slow under the sanitizers; the simulator's paths are tested there";
  const SuiteResult result = bowl_on_table_suite({true});
  expect_checks_pass(result);
  for (const char* name : {"completed[h_max=16ms]", "impact_restitution", "impact_friction_cone", "impact_law_segment",
                           "impact_reported_velocities", "impact_energy_change", "impact_applied_impulse",
                           "min_flight_distance_m", "energy_recomputed[h_max=16ms]", "energy_balance_J[h_max=16ms]",
                           "step_energy_balance[h_max=16ms]"})
    expect_check(result, name);
  for (const char* name : {"collisions[h_max=16ms]", "patch_transitions[h_max=16ms]", "mode_switches[h_max=16ms]",
                           "flight_time_s[h_max=16ms]", "cpu_s[h_max=16ms]"})
    expect_information(result, name);
  EXPECT_GE(find(result, "collisions[h_max=16ms]")->value, 2);  // it bounces
  EXPECT_EQ(find(result, "at_rest[h_max=16ms]"), nullptr);      // the full variant's
}

}  // namespace
}  // namespace contactref::validation
