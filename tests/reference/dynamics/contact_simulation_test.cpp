// The frictionless simulator (Kry & Pai 3.3, 3.5, 3.7) against closed forms
// (a sliding sphere moves in a straight line, exactly, for any integrator: its
// contact coordinates are linear in time), conservation laws (energy and
// horizontal momentum of a rocking ellipsoid and of the App. B.2 bowl on a
// Bezier plane: their errors shrink at the integrator's order), the
// constraint residuals computed from the patches themselves, and bad input.
#include <gtest/gtest.h>

#include <numbers>


#include "reference/dynamics/contact_simulation.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/mass_properties.hpp"
#include "core/errors.hpp"
#include "tests/kit/one_patch.hpp"
#include "tests/kit/tolerance.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;

using test::one_patch;

// A Bezier plane on [-1.5, 1.5]^2 at z = 0 (the App. B.1 floor): (x, y) = (-1.5 + 3 s, -1.5 + 3 t).
su::PatchComplex<double> bezier_floor() {
  std::array<Vec3<double>, 16> control;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) control[std::size_t(4 * i + j)] = Vec3<double>(-1.5 + i, -1.5 + j, 0);
  return one_patch<double>(std::make_unique<su::BezierPatch<double>>(control));
}

// The App. B.2 bowl, 0.0872 m per unit, body frame at its centre of mass.
struct Bowl {
  std::unique_ptr<su::LoopSurface<double>> surface;
  double mass;
  Mat3<double> inertia;
};
Bowl make_bowl() {
  su::TriangleMesh mesh = su::read_triangle_mesh(contactref::test::source_dir() / "validation/fixtures/meshes/bowl_b2.obj");
  for (auto& x : mesh.vertices) x *= 0.0872;
  const su::MassProperties<double> properties = su::mass_properties(su::LoopSurface<double>(mesh, "bowl"), 1000.0);
  for (auto& x : mesh.vertices) x -= properties.centre_of_mass;
  return {std::make_unique<su::LoopSurface<double>>(mesh, "bowl"), properties.mass, properties.inertia_com};
}

// Horizontal momentum is conserved (the frictionless contact force is
// normal to the horizontal plane): the distance of the centre of mass from
// its initial straight line.
// The largest over the output rows.
double horizontal_drift(const SimulationResult<double>& result) {
  const SimulationSample<double>& first = result.samples.front();
  double drift = 0;
  for (const SimulationSample<double>& sample : result.samples) {
    const Vec3<double> line = first.com_w + first.com_velocity_w * (sample.state.time - first.state.time);
    drift = std::max(drift, (sample.com_w - line).head<2>().norm());
  }
  return drift;
}

double energy_error(const SimulationResult<double>& result) {
  double error = 0;
  for (const SimulationSample<double>& sample : result.samples)
    error = std::max(error, std::abs(sample.energy - result.samples.front().energy));
  return error;
}

// log2 of successive ratios.
std::vector<double> orders(const std::vector<double>& errors) {
  std::vector<double> result;
  for (std::size_t k = 1; k < errors.size(); ++k) result.push_back(std::log2(errors[k - 1] / errors[k]));
  return result;
}

TEST(ContactSimulation, SlidingSphereMovesInAStraightLineExactly) {
  // Closed form: a frictionless sphere of radius r sliding at (Vx, Vy) and
  // spinning about the vertical keeps its contact point fixed on the sphere,
  // so q(t) = q0 + q' t, q'' = 0 and the centre moves as (u0 + Vx t, v0 + Vy t, r).
  const double r = 0.25;
  const su::PatchComplex<double> sphere = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(r, r, r)));
  const su::PatchComplex<double> plane = one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  const double mass = 2.0, I = 0.4 * mass * r * r;
  ContactSystem<double> system{mass, Mat3<double>::Identity() * I, &sphere, &plane, Mat4<double>::Identity(),
                               Vec3<double>(0, 0, -9.81), {}};
  ContactState<double> initial;
  initial.q << std::numbers::pi / 2, 0.3, 0.1, -0.2, 0.7;
  initial.qdot << 0, 0, 0.5, -0.25, 0;
  for (IntegratorKind kind : {IntegratorKind::kRk4, IntegratorKind::kDormandPrince54}) {
    SimulationOptions<double> options;
    options.integrator = kind;
    options.h_max = 0.064;
    options.h_min = 0.001;
    options.duration = 2.0;
    const SimulationResult<double> result = simulate(system, initial, options);
    ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
    for (const SimulationSample<double>& sample : result.samples) {
      const double t = sample.state.time;
      const Vec3<double> expected(0.1 + 0.5 * t, -0.2 - 0.25 * t, r);
      // RK4 and Dormand-Prince are exact for q'' = 0 up to the round-off of
      // a few hundred additions of O(1) numbers.
      EXPECT_LT((sample.com_w - expected).norm(), test::tolerance<double>(1000)) << "t = " << t;
      EXPECT_NEAR(sample.normal_force, mass * 9.81, test::tolerance<double>(100) * mass * 9.81);
      EXPECT_LT(sample.gap, test::tolerance<double>(100));
    }
    EXPECT_NEAR(result.final_state.time, 2.0, 1e-12);
    EXPECT_EQ(result.statistics.transitions, 0);
  }
}

// An ellipsoid rocking and spinning on a plane: energy and horizontal
// momentum are conserved by the ODE; RK4's errors shrink 16-fold per halving
// of the (fixed) step.
TEST(ContactSimulation, RockingEllipsoidConservesEnergyAndMomentumAtFourthOrder) {
  const Vec3<double> axes(0.3, 0.2, 0.12);
  const su::PatchComplex<double> body = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(axes));
  const su::PatchComplex<double> plane = one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  const double mass = 1.5;
  const Mat3<double> I = (mass / 5) * Vec3<double>(axes.y() * axes.y() + axes.z() * axes.z(),
                                                   axes.x() * axes.x() + axes.z() * axes.z(),
                                                   axes.x() * axes.x() + axes.y() * axes.y()).asDiagonal();
  const ContactSystem<double> system{mass, I, &body, &plane, Mat4<double>::Identity(), Vec3<double>(0, 0, -9.81), {}};
  ContactState<double> initial;
  initial.q << 1.2, 4.5, 0, 0, 0.3;  // tilted: the contact is off the lowest point
  initial.qdot << 0, 0, 0, 0, 1.0;   // and spinning
  std::vector<double> energy_errors, drifts;
  for (double h : {0.004, 0.002, 0.001}) {
    SimulationOptions<double> options;
    options.h_max = options.h_min = h;
    options.duration = 2.0;
    const SimulationResult<double> result = simulate(system, initial, options);
    ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
    energy_errors.push_back(energy_error(result));
    drifts.push_back(horizontal_drift(result));
    // The constraint holds by construction: residuals at round-off (lengths ~0.3 m).
    EXPECT_LT(result.statistics.max_gap, test::tolerance<double>(100));
    EXPECT_LT(result.statistics.max_normal_misalignment, test::tolerance<double>(100));
  }
  for (double order : orders(energy_errors)) EXPECT_GT(order, 3.5) << energy_errors[0] << " " << energy_errors[1] << " " << energy_errors[2];
  for (double order : orders(drifts)) EXPECT_GT(order, 3.5) << drifts[0] << " " << drifts[1] << " " << drifts[2];
}

// The bowl on the floor (at the identity), gravity along -z.
ContactSystem<double> bowl_on_floor(const Bowl& bowl, const su::PatchComplex<double>& floor) {
  return {bowl.mass, bowl.inertia, &bowl.surface->complex(), &floor, Mat4<double>::Identity(), Vec3<double>(0, 0, -9.81), {}};
}

// Off the centre of the bowl's base face (tilted), rolling and spinning.
ContactState<double> bowl_initial_state() {
  ContactState<double> initial;
  initial.patch1 = 0;
  initial.q << 0.12, 0.2, 0.5, 0.5, 0;
  initial.qdot << 2, 0, 0, 0, 3;
  return initial;
}

// The App. B.2 bowl rocking on a Bezier plane: the contact crosses Loop face
// edges (transitions) and the pieces of split and extraordinary faces. The
// conservation laws hold at RK4's order across all of them, and the
// residuals stay at round-off.
TEST(ContactSimulation, BowlOnBezierPlaneCrossesPatchesAndConservesAtFourthOrder) {
  const Bowl bowl = make_bowl();
  const su::PatchComplex<double> floor = bezier_floor();
  const ContactSystem<double> system = bowl_on_floor(bowl, floor);
  const ContactState<double> initial = bowl_initial_state();
  std::vector<double> energy_errors, drifts;
  for (double h : {0.016, 0.008, 0.004}) {
    SimulationOptions<double> options;
    options.h_max = h;
    options.h_min = h / 16;
    options.duration = 1.0;
    const SimulationResult<double> result = simulate(system, initial, options);
    ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
    energy_errors.push_back(energy_error(result));
    drifts.push_back(horizontal_drift(result));
    EXPECT_EQ(result.statistics.transitions, 3);  // the same path at every step size
    EXPECT_GT(result.statistics.smooth_piece_crossings, 10);
    // Round-off of the contact points' world positions (~0.1 m): not a drift.
    EXPECT_LT(result.statistics.max_gap, test::tolerance<double>(1000));
    EXPECT_LT(result.statistics.max_normal_misalignment, test::tolerance<double>(1000));
  }
  // Measured: energy 8.1e-5, 4.1e-6, 1.9e-7 J; drift 8.1e-5, 5.5e-6, 3.2e-7 m.
  for (double order : orders(energy_errors)) EXPECT_GT(order, 3.5) << energy_errors[0] << " " << energy_errors[2];
  for (double order : orders(drifts)) EXPECT_GT(order, 3.5) << drifts[0] << " " << drifts[2];
}

// The step control predicts the pieces' edges (issue 34 item 2: at most 10%
// of steps rejected): the bowl's 3 s at 16 ms (BM_BowlSimulation3s/16) cross
// about 60 piece lines and patch edges; backed up and halved down to h_min,
// each cost four rejected steps (363 for 535 accepted), predicted along q'
// it costs none unless the path curves across the edge first.
TEST(ContactSimulation, PredictedEdgesLeaveAtMostOneStepInTenRejected) {
  const Bowl bowl = make_bowl();
  const su::PatchComplex<double> floor = bezier_floor();
  const ContactSystem<double> system = bowl_on_floor(bowl, floor);
  const ContactState<double> initial = bowl_initial_state();
  SimulationOptions<double> options;
  options.h_max = 0.016;
  options.h_min = 0.001;
  options.duration = 3.0;
  const SimulationResult<double> result = simulate(system, initial, options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  const SimulationStatistics<double>& st = result.statistics;
  EXPECT_GT(st.smooth_piece_crossings + st.transitions, 40);
  EXPECT_LE(10 * st.rejected_steps, st.accepted_steps) << st.rejected_steps << " rejected, " << st.accepted_steps << " accepted";
}

// Transitions on body 2: an ellipsoid sliding and spinning over a fixed
// Loop sphere (icosphere1, radius 1 m; faces with valence-5 extraordinary
// vertices), gravity along the inward normal at the start. Energy is
// conserved at RK4's order across body-2 transitions and piece crossings.
TEST(ContactSimulation, TransitionsOnTheFixedBodyConserveEnergyAtFourthOrder) {
  const su::LoopSurface<double> sphere(
      su::read_triangle_mesh(contactref::test::source_dir() / "validation/fixtures/meshes/icosphere1.obj"),
      "icosphere1");
  const Vec3<double> axes(0.2, 0.15, 0.1);
  const su::PatchComplex<double> body = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(axes));
  const double mass = 1.0;
  const Mat3<double> I = (mass / 5) * Vec3<double>(axes.y() * axes.y() + axes.z() * axes.z(),
                                                   axes.x() * axes.x() + axes.z() * axes.z(),
                                                   axes.x() * axes.x() + axes.y() * axes.y()).asDiagonal();
  ContactState<double> initial;
  initial.patch2 = 0;
  initial.q << 1.3, 0.4, 0.3, 0.3, 0.2;
  initial.qdot << 0, 0, 1.0, 0.3, 1.0;
  const su::PatchJet<double> top = sphere.patch(0).evaluate(0.3, 0.3);
  const Vec3<double> gravity = -9.81 * top.c_s().cross(top.c_t()).normalized();
  const ContactSystem<double> system{mass, I, &body, &sphere.complex(), Mat4<double>::Identity(), gravity, {}};
  std::vector<double> errors;
  for (double h : {0.008, 0.004, 0.002}) {
    SimulationOptions<double> options;
    options.h_max = h;
    options.h_min = h / 16;
    options.duration = 0.6;
    const SimulationResult<double> result = simulate(system, initial, options);
    ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message << " at " << result.final_state.time;
    long body2_transitions = 0;
    for (const auto& event : result.events) body2_transitions += event.kind == EventKind::kTransition && event.body == 2;
    EXPECT_GE(body2_transitions, 2);
    EXPECT_LT(result.statistics.max_gap, test::tolerance<double>(1000));
    errors.push_back(energy_error(result));
  }
  for (double order : orders(errors)) EXPECT_GT(order, 3.5) << errors[0] << " " << errors[1] << " " << errors[2];
}

// Kry & Pai's own location (Section 3.5: at h_min, project along the
// parameter velocity; no smooth pieces): it runs and crosses edges,
// but its errors are larger and shrink more slowly, because the projection
// errs by O(tau^2) and steps cross piece boundaries blindly (O(h) each).
TEST(ContactSimulation, PapersLinearProjectionIsLessAccurate) {
  const Bowl bowl = make_bowl();
  const su::PatchComplex<double> floor = bezier_floor();
  const ContactSystem<double> system = bowl_on_floor(bowl, floor);
  std::vector<double> linear_errors, integrated_errors;
  for (double h : {0.008, 0.004}) {
    SimulationOptions<double> options;
    options.h_max = h;
    options.h_min = h / 16;
    options.duration = 1.0;
    const SimulationResult<double> integrated = simulate(system, bowl_initial_state(), options);
    options.boundary = BoundaryLocation::kLinear;
    const SimulationResult<double> linear = simulate(system, bowl_initial_state(), options);
    ASSERT_EQ(linear.status, SimulationStatus::kCompleted) << linear.message;
    EXPECT_GE(linear.statistics.transitions, 3);  // it wanders off: 5 at 8 ms (first one 20 ms early at 4 ms)
    EXPECT_EQ(linear.statistics.smooth_piece_crossings, 0);
    linear_errors.push_back(energy_error(linear));
    integrated_errors.push_back(energy_error(integrated));
    EXPECT_GT(linear_errors.back(), 10 * integrated_errors.back());
  }
  EXPECT_LT(orders(linear_errors)[0], orders(integrated_errors)[0] - 1);
}

// Dormand-Prince 5(4) with error control: the energy error follows the tolerance.
TEST(ContactSimulation, DormandPrinceErrorFollowsTheTolerance) {
  const Bowl bowl = make_bowl();
  const su::PatchComplex<double> floor = bezier_floor();
  const ContactSystem<double> system = bowl_on_floor(bowl, floor);
  std::vector<double> errors;
  for (double tolerance : {1e-6, 1e-9}) {
    SimulationOptions<double> options;
    options.integrator = IntegratorKind::kDormandPrince54;
    options.h_max = 0.064;
    options.h_min = 0.064 / 1024;
    options.tolerance = tolerance;
    options.duration = 1.0;
    const SimulationResult<double> result = simulate(system, bowl_initial_state(), options);
    ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
    EXPECT_EQ(result.statistics.transitions, 3);
    errors.push_back(energy_error(result));
  }
  // Local error per unit step ~ tolerance: a 1000-fold tighter tolerance
  // gains at least 100-fold (the error per step scales as tol, the number of
  // steps as tol^-1/5).
  EXPECT_LT(errors[1], errors[0] / 100) << errors[0] << " " << errors[1];
}

// Separation (normal convention: f_n > 0 pushes body 1 away from body 2): a
// sphere on a plane with gravity pulling it off separates at once into
// flight, and falls away from the plane as a free body: z = r + g t^2 / 2.
TEST(ContactSimulation, BodyPulledOffThePlaneSeparates) {
  const su::PatchComplex<double> sphere = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(1, 1, 1)));
  const su::PatchComplex<double> plane = one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  ContactState<double> initial;
  initial.q << std::numbers::pi / 2, 0.3, 0, 0, 0;
  for (double g : {-9.81, 9.81}) {
    const ContactSystem<double> system{1.0, Mat3<double>::Identity() * 0.4, &sphere, &plane, Mat4<double>::Identity(),
                                       Vec3<double>(0, 0, g), {}};
    SimulationOptions<double> options;
    options.duration = 0.1;
    const SimulationResult<double> result = simulate(system, initial, options);
    EXPECT_EQ(result.status, SimulationStatus::kCompleted);
    if (g < 0) {
      EXPECT_NEAR(result.samples.front().normal_force, 9.81, 1e-12);
      EXPECT_FALSE(result.ended_in_flight);
    } else {
      ASSERT_EQ(result.events.size(), 1u);
      EXPECT_EQ(result.events[0].kind, EventKind::kSeparation);
      EXPECT_EQ(result.events[0].time, 0.0);
      EXPECT_NEAR(result.samples.front().normal_force, -9.81, 1e-12);
      EXPECT_TRUE(result.ended_in_flight);
      EXPECT_NEAR(result.final_body.x_w.z(), 1 + g * 0.1 * 0.1 / 2, 1e-12);
    }
  }
}

TEST(ContactSimulationInput, BadOptionsAndStatesAreRejectedByName) {
  const su::PatchComplex<double> sphere = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(1, 1, 1)));
  const su::PatchComplex<double> floor = bezier_floor();
  const ContactSystem<double> system{1.0, Mat3<double>::Identity() * 0.4, &sphere, &floor, Mat4<double>::Identity(),
                                     Vec3<double>(0, 0, -9.81), {}};
  ContactState<double> good;
  good.q << std::numbers::pi / 2, 0.3, 0.5, 0.5, 0;
  const auto message = [&](const ContactState<double>& state, const SimulationOptions<double>& options) -> std::string {
    try {
      simulate(system, state, options);
    } catch (const InputError& error) {
      return error.what();
    }
    return "";
  };
  SimulationOptions<double> options;
  EXPECT_EQ(message(good, options), "");
  SimulationOptions<double> bad = options;
  bad.h_min = 0;
  EXPECT_NE(message(good, bad).find("h_min"), std::string::npos);
  bad = options;
  bad.h_min = 1;
  EXPECT_NE(message(good, bad).find("h_min <= h_max"), std::string::npos);
  bad = options;
  bad.duration = std::nan("");
  EXPECT_NE(message(good, bad).find("duration"), std::string::npos);
  ContactState<double> outside = good;
  outside.q(2) = 1.5;  // beyond the Bezier floor's [0, 1]
  EXPECT_NE(message(outside, options).find("outside the domain of bezier"), std::string::npos);
  ContactState<double> missing = good;
  missing.patch2 = 1;
  EXPECT_NE(message(missing, options).find("patch 1 of body 2 does not exist"), std::string::npos);
  ContactState<double> nan = good;
  nan.qdot(4) = std::nan("");
  EXPECT_NE(message(nan, options).find("finite"), std::string::npos);
}

// Leaving an open surface (the edge of the one-patch Bezier floor) ends the
// run with kLeftSurface, logged, not an error.
TEST(ContactSimulation, LeavingAnOpenSurfaceEndsTheRun) {
  const double r = 0.25;
  const su::PatchComplex<double> sphere = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(r, r, r)));
  const su::PatchComplex<double> floor = bezier_floor();
  const ContactSystem<double> system{1.0, Mat3<double>::Identity() * 0.025, &sphere, &floor, Mat4<double>::Identity(),
                                     Vec3<double>(0, 0, -9.81), {}};
  ContactState<double> initial;
  initial.q << std::numbers::pi / 2, 0.3, 0.9, 0.5, 0;
  initial.qdot << 0, 0, 0.5, 0, 0;  // 1.5 m/s towards the floor's edge at u = 1, 0.3 m away
  SimulationOptions<double> options;
  options.duration = 1.0;
  const SimulationResult<double> result = simulate(system, initial, options);
  EXPECT_EQ(result.status, SimulationStatus::kLeftSurface) << result.message;
  // Located: the crossing time is 0.2 s to the integrator's accuracy (q'' = 0: exact).
  EXPECT_NEAR(result.final_state.time, 0.2, 1e-12);
  EXPECT_NEAR(result.final_state.q(2), 1.0, 1e-12);
}

}  // namespace
}  // namespace contactref::dynamics
