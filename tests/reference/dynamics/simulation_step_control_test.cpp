// Step control of the simulator (Kry & Pai 3.7; issue 10 items 9-11):
//  - a step whose evaluation fails at a stage is retried smaller down to
//    h_min, where the true cause is reported;
//  - an RK4 step that does not resolve the motion (energy test) is retried
//    smaller, so an unstable h_max no longer feeds energy into the run;
//  - "boundary": "linear" projects along q' only when q' reaches the edge
//    within the step, and otherwise locates the crossing as the integrator
//    does (never an explicit Euler step).
// Independent checks: closed-form motions (a sliding sphere under constant
// horizontal gravity: RK4 is exact), the RK4 stability limit of the linear
// oscillator, and energy conservation of the frictionless ODE.
#include <gtest/gtest.h>

#include <numbers>


#include "reference/dynamics/contact_simulation.hpp"
#include "core/errors.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "tests/kit/one_patch.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;
constexpr double kBallRadius = 0.1;

using test::one_patch;

// The plane z = 0, whose evaluation fails beyond x = limit (as a
// parameterisation that is singular there would).
class PlaneSingularBeyond final : public su::Patch<double> {
 public:
  explicit PlaneSingularBeyond(double limit) : limit_(limit) {}
  su::PatchJet<double> evaluate(const double& u, const double& v) const override {
    if (u > limit_) throw ComputationError("the test plane is not regular beyond x = 0.07");
    return plane_.evaluate(u, v);
  }
  const su::Domain<double>& domain() const override { return plane_.domain(); }
  std::string describe() const override { return "test plane"; }

 private:
  double limit_;
  su::PlanePatch<double> plane_;
};

ContactSystem<double> sphere_on(const su::PatchComplex<double>& sphere, const su::PatchComplex<double>& floor,
                                const Vec3<double>& gravity) {
  const double mass = 1.0;
  return {mass, Mat3<double>::Identity() * 0.4 * mass * kBallRadius * kBallRadius, &sphere, &floor, Mat4<double>::Identity(),
          gravity, {}};
}

ContactState<double> bottom_at(double u, double v, double udot, double vdot) {
  ContactState<double> state;
  state.q << std::numbers::pi / 2, -std::numbers::pi / 2, u, v, 0;
  state.qdot << 0, 0, udot, vdot, 0;
  return state;
}

TEST(SimulationStepControl, AFailedEvaluationAtAStageShrinksTheStep) {
  // Thrown up a slope at 1 m/s against a = 10 m/s^2: x(t) = t - 5 t^2 peaks
  // at 0.05 m. The first 0.2 s step evaluates its second stage at
  // x + (h / 2) x' = 0.1 m, beyond the singular line x = 0.07 that the motion
  // never reaches; a 0.1 s step stays within 0.05 m. On main the failed
  // stage ended the run.
  const su::PatchComplex<double> sphere = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(kBallRadius, kBallRadius, kBallRadius)));
  const su::PatchComplex<double> floor = one_patch<double>(std::make_unique<PlaneSingularBeyond>(0.07));
  const ContactSystem<double> system = sphere_on(sphere, floor, Vec3<double>(-10, 0, -9.81));
  SimulationOptions<double> options;
  options.h_max = 0.2;
  options.h_min = 0.025;
  options.duration = 0.2;
  options.output_interval = 0;
  const SimulationResult<double> result = simulate(system, bottom_at(0, 0, 1, 0), options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  EXPECT_GE(result.statistics.rejected_steps, 1);
  for (const SimulationSample<double>& sample : result.samples) {
    const double t = sample.state.time;
    // RK4 is exact for constant acceleration: round-off only.
    EXPECT_NEAR(sample.com_w.x(), t - 5 * t * t, test::tolerance<double>(100)) << "t = " << t;
  }
  // At h_min the step cannot be shrunk: the cause is reported as it is.
  options.h_min = options.h_max;
  const SimulationResult<double> stuck = simulate(system, bottom_at(0, 0, 1, 0), options);
  EXPECT_EQ(stuck.status, SimulationStatus::kFailed);
  EXPECT_NE(stuck.message.find("a step cannot be taken even at h_min = 0.2 s: contact kinematics, body 2: the test plane is "
                               "not regular beyond x = 0.07"),
            std::string::npos)
      << stuck.message;
  EXPECT_EQ(stuck.final_state.time, 0.0);
}

TEST(SimulationStepControl, Rk4StepsBeyondTheStabilityLimitAreRetriedSmaller) {
  // A frictionless sphere of radius r in a paraboloid bowl of curvature 1/R
  // swings about the bottom with w^2 = g / (R - r) (its centre moves on a
  // circle of radius R - r): w = 3.30 rad/s. RK4 is stable on the oscillator
  // only for w h <= 2 sqrt(2), h <= 0.857 s; with h_max = 1 s its energy grew
  // by |R(i w h)|^2 > 1 every step on main. The energy test keeps only steps
  // that resolve the motion.
  const double R = 1.0;
  const su::PatchComplex<double> sphere = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(kBallRadius, kBallRadius, kBallRadius)));
  const su::PatchComplex<double> bowl = one_patch<double>(std::make_unique<su::ParaboloidPatch<double>>(1 / R, 1 / R));
  const ContactSystem<double> system = sphere_on(sphere, bowl, Vec3<double>(0, 0, -9.81));
  const double w = std::sqrt(9.81 / (R - kBallRadius));
  SimulationOptions<double> options;
  options.h_max = 1.0;
  options.h_min = 0.001;
  options.duration = 5.0;
  options.output_interval = 0;
  const SimulationResult<double> result = simulate(system, bottom_at(0.1, 0, 0, 0), options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  EXPECT_GT(result.statistics.rejected_steps, 0);
  EXPECT_LT(w * result.statistics.largest_step, 2 * std::sqrt(2.0));
  // Within its stability region RK4 dissipates the oscillator's energy
  // (|R| < 1): it never rises above the start, beyond round-off.
  const double e0 = result.samples.front().energy;
  for (const SimulationSample<double>& sample : result.samples)
    EXPECT_LE(sample.energy, e0 + test::tolerance<double>(100) * std::abs(e0)) << "t = " << sample.state.time;
  // With h_min = h_max = 1 s the step cannot be retried smaller: reported.
  options.h_min = options.h_max;
  const SimulationResult<double> stuck = simulate(system, bottom_at(0.1, 0, 0, 0), options);
  EXPECT_EQ(stuck.status, SimulationStatus::kFailed);
  EXPECT_NE(stuck.message.find("a step cannot be taken even at h_min = 1 s: the RK4 step of 1 s changes the energy by"),
            std::string::npos)
      << stuck.message;
  EXPECT_EQ(stuck.statistics.energy_rejected_steps, 1);
}

TEST(SimulationStepControl, ARotationFasterThanAMinimumStepResolvesEndsTheRunFailed) {
  // A frictionless sphere spinning about the normal at 1e6 rad/s: 2e3 J of
  // spin beside 1 J of the rest. A step of h_min = 1e-4 s turns it by 100
  // rad; the energy test measured against the spin's kinetic energy (1/72 of
  // it, 28 J a step) let the contact wander until the energy grew to 4e17 J
  // and the normal force turned negative: reported as a separation, exit 0,
  // on main. The step must resolve the rotation (w h <= 1, step_acceptance.hpp
  // resolved_step): below h_min the run fails at once and says why.
  const su::PatchComplex<double> sphere = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(kBallRadius, kBallRadius, kBallRadius)));
  const su::PatchComplex<double> floor = one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  const ContactSystem<double> system = sphere_on(sphere, floor, Vec3<double>(0, 0, -9.81));
  ContactState<double> start = bottom_at(0, 0, 0, 0);
  const double spin = 1e6;
  start.qdot(4) = spin;
  SimulationOptions<double> options;
  options.h_max = 0.01;
  options.h_min = 1e-4;
  options.duration = 0.6;
  options.output_interval = 0;
  const SimulationResult<double> result = simulate(system, start, options);
  EXPECT_EQ(result.status, SimulationStatus::kFailed);
  EXPECT_NE(result.message.find("the body turns at 1e+06 rad/s relative to body 2"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("the motion cannot be resolved"), std::string::npos) << result.message;
  EXPECT_EQ(result.final_state.time, 0.0);
  // With h_min below 1 / w the spin is resolved: a steady spin about the
  // vertical through the centre keeps its energy and its centre (the closed
  // form: nothing moves but psi), in 1e-6 s steps.
  options.h_min = 1e-7;
  options.duration = 2e-3;
  const SimulationResult<double> resolved = simulate(system, start, options);
  ASSERT_EQ(resolved.status, SimulationStatus::kCompleted) << resolved.message;
  EXPECT_LE(resolved.statistics.largest_step, 1 / spin);
  const double e0 = resolved.initial_energy;  // 1/2 I w^2 + m g r
  EXPECT_NEAR(e0, 0.5 * 0.4 * kBallRadius * kBallRadius * spin * spin + 9.81 * kBallRadius, test::tolerance<double>(16) * e0);
  for (const SimulationSample<double>& sample : resolved.samples) {
    EXPECT_NEAR(sample.energy, e0, test::tolerance<double>(4096) * e0) << "t = " << sample.state.time;
    EXPECT_LT(sample.com_w.head<2>().norm(), test::tolerance<double>(4096)) << "t = " << sample.state.time;
  }
}

// Floor patch [0, 1]^2 at z = 0 whose edge t = 0 (y = 0) has no neighbour.
su::PatchComplex<double> unit_floor() {
  std::array<Vec3<double>, 16> control;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) control[std::size_t(4 * a + b)] = Vec3<double>(a / 3.0, b / 3.0, 0);
  return one_patch<double>(std::make_unique<su::BezierPatch<double>>(control));
}

TEST(SimulationStepControl, LinearBoundaryProjectsOnlyWhenTheVelocityReachesTheEdge) {
  const su::PatchComplex<double> sphere = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(kBallRadius, kBallRadius, kBallRadius)));
  const su::PatchComplex<double> floor = unit_floor();
  SimulationOptions<double> options;
  options.boundary = BoundaryLocation::kLinear;
  options.duration = 0.5;
  {
    // The paper's case: 0.5 m/s straight at the edge y = 0 from y = 0.1,
    // q'' = 0: the projection along q' is exact, at t = 0.2 s.
    const SimulationResult<double> result =
        simulate(sphere_on(sphere, floor, Vec3<double>(0, 0, -9.81)), bottom_at(0.5, 0.1, 0, -0.5), options);
    EXPECT_EQ(result.status, SimulationStatus::kLeftSurface) << result.message;
    EXPECT_NEAR(result.final_state.time, 0.2, 1e-12);
    EXPECT_EQ(result.statistics.smooth_piece_crossings, 0);
  }
  {
    // 1 mm/s towards the edge from 2 um, pulled at a = 5 m/s^2: the edge is
    // reached at t* = (-v0 + sqrt(v0^2 + 2 a d)) / a = 0.717 ms, within the
    // first minimum step, but q' alone would reach it after d / v0 = 2 ms.
    // On main the projection was clamped to the step: an explicit Euler step
    // (counted as a smooth-piece crossing), then another, 0.45 ms late.
    const double v0 = 1e-3, a = 5, d = 2e-6;
    const SimulationResult<double> result =
        simulate(sphere_on(sphere, floor, Vec3<double>(0, -a, -9.81)), bottom_at(0.5, d, 0, -v0), options);
    EXPECT_EQ(result.status, SimulationStatus::kLeftSurface) << result.message;
    EXPECT_EQ(result.statistics.smooth_piece_crossings, 0);
    const double t_star = (-v0 + std::sqrt(v0 * v0 + 2 * a * d)) / a;
    // Located to the edge slack (64 eps in the unit square's parameters)
    // at the crossing speed v0 + a t*; RK4 is exact for this motion.
    const double speed = v0 + a * t_star;
    EXPECT_NEAR(result.final_state.time, t_star, 2 * 64 * std::numeric_limits<double>::epsilon() / speed);
    EXPECT_NEAR(result.final_state.q(3), 0.0, 64 * std::numeric_limits<double>::epsilon());
    EXPECT_NEAR(result.final_state.qdot(3), -speed, test::tolerance<double>(100));
  }
}

}  // namespace
}  // namespace contactref::dynamics
