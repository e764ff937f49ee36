// The quasi-rigid simulator (quasi_rigid_dynamics.hpp, Pauly et al. Section
// 5) in flight and at the first contact, against closed forms: Newton's laws
// for a free body (momentum conserved without gravity, p(t) = p0 + m g t with
// it, Euler's torque-free motion conserving the world angular momentum), the
// ballistic time of a dropped ball to first contact, sqrt(2 h / g); two free
// bodies in contact conserving the total momenta (Newton's third law);
// friction stopping a small slip without reversing it; the failure
// statuses; bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>

#include "reference/quasi_rigid/contact_impulses.hpp"
#include "reference/quasi_rigid/quasi_rigid_dynamics.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/sanitized.hpp"
#include "validation/fixtures/lattice_surfaces.hpp"
#include "validation/fixtures/quasi_rigid_ball.hpp"

namespace contactref::quasi_rigid {
namespace {

using test::contains;
using test::error_of;

constexpr double kEps = std::numeric_limits<double>::epsilon();

fixtures::SampledBall coarse_ball() {
  fixtures::SampledBall ball;
  ball.spacing = 0.015;
  return ball;
}

// An asymmetric free body (principal moments 1, 2, 3 times 1e-3 kg m^2, not
// about the world axes) spinning about no principal axis.
DynamicBody tumbling_body() {
  DynamicBody body = fixtures::sampled_ball(coarse_ball(), {0.3, -0.2, 1.0});
  const Eigen::Matrix3d Theta = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  body.mass.I_com_b = Theta * Eigen::Vector3d(1e-3, 2e-3, 3e-3).asDiagonal() * Theta.transpose();
  body.state.v_w = {0.5, -1.0, 2.0};
  body.state.omega_w = {3.0, -7.0, 11.0};
  return body;
}

// The lower cap (6 spacings h around the pole) of a ball of radius R and
// 0.5 kg (I = 2/5 m R^2) on a square lattice: its pole is a sample, and it is
// symmetric under x -> -x and y -> -y, so that on the lattice plane its
// normal tractions have no horizontal resultant. Body origin at the centre.
DynamicBody lattice_cap_ball(double R, double h) {
  SurfaceSamples cap = fixtures::lattice_sphere_cap(R, h, 6);
  for (Eigen::Vector3d& p : cap.points) p.z() -= R;
  const double mass = 0.5;
  BodyOptions coarse;
  coarse.shepard.angles = 16;
  return {QuasiRigidBody(cap, {1e6, 0.3}, coarse), false, {mass, 0.4 * mass * R * R * Eigen::Matrix3d::Identity()}, {}};
}

TEST(QuasiRigidDynamics, FlightWithoutGravityConservesBothMomentaToRoundOff) {
  // Newton-Euler without force or torque: m v and the world angular momentum
  // L_w = Theta I Theta^T omega are constant (Euler's equations: the body
  // frame's omega precesses, L_w does not), whatever the rotation's accuracy.
  const DynamicBody body = tumbling_body();
  DynamicsOptions options;
  options.gravity_w.setZero();
  options.duration = 1;
  options.time_step = 1e-3;
  const DynamicsResult result = simulate_quasi_rigid({body}, options);
  ASSERT_EQ(result.status, RunStatus::kCompleted) << result.message;
  EXPECT_EQ(result.flight_steps, 1000);
  const BodyState& end = result.final_states[0];
  const Eigen::Vector3d L0 = body.mass.angular_momentum_w(body.state), L1 = body.mass.angular_momentum_w(end);
  // 1000 steps, each rounding L through I_w and its inverse (condition 3):
  // a few eps per step.
  EXPECT_LT((L1 - L0).norm(), 1000 * 16 * kEps * L0.norm()) << (L1 - L0).transpose();
  EXPECT_EQ(end.v_w, body.state.v_w);
  EXPECT_NEAR((end.x_w - body.state.x_w - body.state.v_w).norm(), 0, 1000 * 4 * kEps * 3);
  // The rotation is not trivial: omega_w has changed direction (it precesses).
  EXPECT_GT((end.omega_w - body.state.omega_w).norm(), 0.1 * body.state.omega_w.norm());
  EXPECT_NEAR(end.q_w_b.norm(), 1, 8 * kEps);
}

TEST(QuasiRigidDynamics, FlightUnderGravityIsBallistic) {
  // p(t) = p0 + m g t and x(t) = x0 + v0 t + g t^2 / 2 (exact flight), after
  // 250 steps of 2 ms.
  const DynamicBody body = tumbling_body();
  DynamicsOptions options;
  options.duration = 0.5;
  options.time_step = 2e-3;
  const DynamicsResult result = simulate_quasi_rigid({body}, options);
  ASSERT_EQ(result.status, RunStatus::kCompleted) << result.message;
  const BodyState& end = result.final_states[0];
  const double t = result.samples.back().time;
  EXPECT_NEAR(t, 0.5, 250 * kEps);
  const Eigen::Vector3d p_expected = body.mass.mass * (body.state.v_w + t * options.gravity_w);
  EXPECT_LT((body.mass.mass * end.v_w - p_expected).norm(), 250 * 4 * kEps * p_expected.norm());
  const Eigen::Vector3d x_expected = body.state.x_w + t * body.state.v_w + 0.5 * t * t * options.gravity_w;
  EXPECT_LT((end.x_w - x_expected).norm(), 250 * 8 * kEps * x_expected.norm());
  const Eigen::Vector3d L0 = body.mass.angular_momentum_w(body.state);
  EXPECT_LT((body.mass.angular_momentum_w(end) - L0).norm(), 250 * 16 * kEps * L0.norm());
}

TEST(QuasiRigidDynamics, RetractionLocatesTheBallisticFirstContact) {
  // A sphere cap whose lowest sample is its pole, above the lattice plane's
  // sample at the origin, dropped from rest with its pole at height h:
  // the first contact is at sqrt(2 h / g) (the pole is the first sample to
  // reach the plane; the nearest-sample distance is the pole's height). The
  // bisection stops with d_min in [-tol, 0), so the located time lies after
  // the ballistic one by at most tol / (g t), the time to fall tol at the
  // impact speed, and by at least 0 (round-off aside).
  const double R = 0.05, h_lattice = 0.006, drop = 0.03, g = 9.81, t_ballistic = std::sqrt(2 * drop / g);
  DynamicBody ball = lattice_cap_ball(R, h_lattice);
  ball.state.x_w = {0, 0, R + drop};
  const DynamicBody plane = fixtures::sampled_plane(h_lattice, 0.05, RigidPose<double>());
  DynamicsOptions options;
  // Hertz's impact lasts about 0.016 s; the sanitized build stops soon after
  // the first contact.
  options.duration = t_ballistic + (test::kSanitized ? 0.002 : 0.03);
  options.time_step = 1e-2;  // the contact falls inside a step that ends about 4 mm deep
  options.contact_tolerance = 1e-6;
  options.contact.active_range = 1.5;
  const DynamicsResult result = simulate_quasi_rigid({ball, plane}, options);
  ASSERT_EQ(result.status, RunStatus::kCompleted) << result.message;
  ASSERT_GE(result.first_contacts.size(), 1u);
  const double t_contact = result.first_contacts.front();
  std::cout << "first contact " << t_contact << " s, ballistic " << t_ballistic << " s, difference "
            << t_contact - t_ballistic << " s, bound " << options.contact_tolerance / (g * t_ballistic) << " s\n";
  std::cout << "contact steps " << result.contact_steps << ", flight steps " << result.flight_steps << ", most active " << result.max_active << "\n";
  EXPECT_GE(result.retractions, 1);
  EXPECT_GE(t_contact - t_ballistic, -64 * kEps);
  EXPECT_LE(t_contact - t_ballistic, options.contact_tolerance / (g * t_ballistic) + 64 * kEps);
  // And the ball bounced off: it is moving up at some time after contact.
  bool rebounded = false;
  for (const DynamicsSample& s : result.samples) rebounded = rebounded || s.states[0].v_w.z() > 0;
  EXPECT_TRUE(rebounded || test::kSanitized);
}

TEST(QuasiRigidDynamics, TwoFreeBallsInContactConserveTotalMomentaToRoundOff) {
  // Newton's third law made exact: each loaded sample's normal and friction
  // impulses act on both bodies, equal and opposite at one point, so the
  // total linear momentum and the total angular momentum about the world
  // origin (sum of L_com + x_com x m v) are unchanged by every contact step,
  // without gravity, through an oblique spinning collision with friction.
  fixtures::SampledBall spec = coarse_ball();
  spec.spacing = 0.012;
  DynamicBody a = fixtures::sampled_ball(spec, {0, 0, 0});
  DynamicBody b = fixtures::sampled_ball(spec, {0.103, 0.02, 0.0});
  b.body = b.body.with_material({2e6, 0.4});
  b.mass.mass *= 2;
  b.mass.I_com_b *= 2;
  a.state.v_w = {0.5, 0, 0.1};
  a.state.omega_w = {0, 0, 30};
  b.state.omega_w = {5, 0, 0};
  DynamicsOptions options;
  options.gravity_w.setZero();
  options.duration = 0.03;
  options.mu = 0.5;
  options.contact.active_range = 1.5;
  const auto momenta = [&](const std::vector<BodyState>& s) {
    Eigen::Vector3d p = Eigen::Vector3d::Zero(), L = Eigen::Vector3d::Zero();
    for (const auto& [body, state] : {std::pair{&a, &s[0]}, std::pair{&b, &s[1]}}) {
      p += body->mass.mass * state->v_w;
      L += body->mass.angular_momentum_w(*state) + state->x_w.cross(body->mass.mass * state->v_w);
    }
    return std::pair{p, L};
  };
  const DynamicsResult result = simulate_quasi_rigid({a, b}, options);
  ASSERT_EQ(result.status, RunStatus::kCompleted) << result.message;
  EXPECT_GT(result.contact_steps, 5);
  EXPECT_LT(result.friction_work, 0);
  const auto [p0, L0] = momenta({a.state, b.state});
  const double p_scale = a.mass.mass * a.state.v_w.norm();
  const double L_scale = a.mass.angular_momentum_w(a.state).norm() + 0.1 * p_scale;
  double worst_p = 0, worst_L = 0;
  for (const DynamicsSample& sample : result.samples) {
    const auto [p, L] = momenta(sample.states);
    worst_p = std::max(worst_p, (p - p0).norm());
    worst_L = std::max(worst_L, (L - L0).norm());
  }
  std::cout << "largest change: momentum " << worst_p << " N s, angular momentum " << worst_L << " N m s over "
            << result.steps.size() << " steps\n";
  // Each step adds round-off of the impulses' size (at most the momenta): a
  // few eps per step.
  const double steps = static_cast<double>(result.steps.size());
  EXPECT_LT(worst_p, 16 * kEps * steps * p_scale);
  EXPECT_LT(worst_L, 16 * kEps * steps * L_scale);
}

TEST(QuasiRigidDynamics, FrictionStopsASmallSlipWithoutReversingIt) {
  // Section 5.1's Coulomb friction on a ball pressed 0.2 mm into a rigid
  // lattice plane and sliding at 1 cm/s without spin: over 10 ms the full
  // impulses mu N dt would change the contact point's slip by
  // (1 + m R^2 / I) mu N dt / m = 3.5 mu N dt / m, several times the slip,
  // reversing it. Scaled to the kinetic energy's minimum, they stop it
  // instead: the slip keeps its sign and nearly vanishes, and friction's work
  // is negative. (The lattice cap's normal tractions have no horizontal
  // resultant, so the slip after the normal impulses is the initial one.)
  const double R = 0.05, h = 0.006, v0 = 1e-2, dt = 1e-2, mu = 0.5;
  const DynamicBody plane = fixtures::sampled_plane(h, 0.1, RigidPose<double>());
  DynamicBody ball = lattice_cap_ball(R, h);
  ball.state.x_w = {0, 0, R - 2e-4};
  ball.state.v_w = {v0, 0, 0};
  const QuasiRigidContact contact =
      resolve_contact(ball.body, ball.state.E_w_b(), plane.body, plane.state.E_w_b(), ContactOptions{});
  BodyState moved = ball.state, fixed = plane.state;
  const ContactImpulses impulses =
      apply_contact_impulses(contact, {&ball.body, &ball.mass, &moved}, {&plane.body, nullptr, &fixed}, mu, 0, dt);
  const double slip = moved.point_velocity({0, 0, 0}).x();  // the material point at the pole's contact
  const double full_change = 3.5 * mu * impulses.load * dt / ball.mass.mass;
  std::cout << "load " << impulses.load << " N, horizontal normal impulse " << impulses.normal_impulse_w.head<2>().norm()
            << " N s, friction scale " << impulses.friction_scale << ", slip " << v0 << " -> " << slip
            << " m/s (the full impulses: a change of " << full_change << " m/s), friction work "
            << impulses.friction_work << " J\n";
  EXPECT_GT(full_change, 2 * v0);
  EXPECT_LT(impulses.friction_scale, 0.5);
  EXPECT_LT(impulses.normal_impulse_w.head<2>().norm(), 1e-12);
  // The loaded samples lie below the centre within the contact (depth
  // differences of about a^2 / R), so their slips differ by the spin friction
  // gives times those depths; the energy's minimum along the impulses stops
  // the mean slip: it is left at round-off, never reversed by more.
  EXPECT_GE(slip, -16 * kEps * v0);
  EXPECT_LT(slip, 0.01 * v0);
  EXPECT_LT(impulses.friction_work, 0);
}

TEST(QuasiRigidDynamics, TooManyRetractionsAFallThroughAndAnOverflowEndTheRunFailed) {
  const DynamicBody plane = fixtures::sampled_plane(0.01, 0.2, RigidPose<double>());
  DynamicBody ball = fixtures::sampled_ball(coarse_ball(), {0, 0, 0.1});
  DynamicsOptions options;
  options.duration = 0.3;
  options.time_step = 1e-2;
  options.max_retractions = 0;
  DynamicsResult result = simulate_quasi_rigid({ball, plane}, options);
  EXPECT_EQ(result.status, RunStatus::kFailed);
  EXPECT_TRUE(contains(result.message, "max_retractions")) << result.message;
  EXPECT_LT(result.samples.back().time, 0.2);

  ball.state.x_w = {0, 0, -0.06};  // below the plane
  result = simulate_quasi_rigid({ball, plane}, options);
  EXPECT_EQ(result.status, RunStatus::kFailed);
  EXPECT_TRUE(contains(result.message, "fell through")) << result.message;

  // A finite but enormous gravity overflows the flight in its second step.
  options.gravity_w = {0, 0, -1e308};
  options.time_step = 1;
  options.duration = 10;
  result = simulate_quasi_rigid({fixtures::sampled_ball(coarse_ball(), {0, 0, 0})}, options);
  EXPECT_EQ(result.status, RunStatus::kFailed);
  EXPECT_TRUE(contains(result.message, "not finite")) << result.message;
  EXPECT_EQ(result.steps.size(), 2u);
}

TEST(QuasiRigidDynamics, BadInputNamesTheField) {
  const DynamicBody plane = fixtures::sampled_plane(0.02, 0.2, RigidPose<double>());
  const DynamicBody ball = fixtures::sampled_ball(coarse_ball(), {0, 0, 0.1});
  const auto run = [&](DynamicBody b, DynamicsOptions o) { return error_of([&] { simulate_quasi_rigid({b, plane}, o); }); };
  const DynamicsOptions ok;
  DynamicBody b = ball;
  b.mass.mass = 0;
  EXPECT_TRUE(contains(run(b, ok), "bodies[0] (ball): mass must be finite and > 0")) << run(b, ok);
  b = ball;
  b.mass.I_com_b(0, 1) = 1;
  EXPECT_TRUE(contains(run(b, ok), "inertia")) << run(b, ok);
  b = ball;
  b.state.v_w.x() = std::nan("");
  EXPECT_TRUE(contains(run(b, ok), "non-finite")) << run(b, ok);
  b = ball;
  b.state.q_w_b.coeffs() *= 2;
  EXPECT_TRUE(contains(run(b, ok), "quaternion")) << run(b, ok);
  for (const auto& [field, set] : std::vector<std::pair<std::string, void (*)(DynamicsOptions&)>>{
           {"time_step", [](DynamicsOptions& o) { o.time_step = 0; }},
           {"mu", [](DynamicsOptions& o) { o.mu = -0.1; }},
           {"damping", [](DynamicsOptions& o) { o.damping = -1; }},
           {"step_fraction", [](DynamicsOptions& o) { o.step_fraction = 1.5; }},
           {"duration", [](DynamicsOptions& o) { o.duration = std::nan(""); }},
           {"contact_tolerance", [](DynamicsOptions& o) { o.contact_tolerance = 0; }}}) {
    DynamicsOptions o;
    set(o);
    EXPECT_TRUE(contains(run(ball, o), "InputError: quasi-rigid dynamics: " + field)) << run(ball, o);
  }
  DynamicBody rigid_ball = ball;
  rigid_ball.body = ball.body.with_material({0, 0});
  EXPECT_TRUE(contains(run(rigid_ball, ok), "both rigid")) << run(rigid_ball, ok);
  DynamicBody fixed_ball = ball;
  fixed_ball.fixed = true;
  EXPECT_TRUE(contains(run(fixed_ball, ok), "no free body")) << run(fixed_ball, ok);
}

}  // namespace
}  // namespace contactref::quasi_rigid
