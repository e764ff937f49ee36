// The quasi-rigid simulator (quasi_rigid_dynamics.hpp, Pauly et al. Section
// 5) in flight and at the first contact, against closed forms: Newton's laws
// for a free body (momentum conserved without gravity, p(t) = p0 + m g t with
// it, Euler's torque-free motion conserving the world angular momentum), the
// ballistic time of a dropped ball to first contact, sqrt(2 h / g); an
// undamped bounce giving back its impact speed to the trapezoid rule's error
// at the force's kinks, that error's second order and constant, and the
// impact's duration against Hertz's (Johnson 11.2) and against a quadrature
// of the sampled law; two free bodies in contact conserving the total momenta
// (Newton's third law); friction stopping a small slip without reversing it;
// the failure statuses; bad input.
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
#include "validation/oracles/hertz.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::quasi_rigid {
namespace {

using test::contains;
using test::error_of;

using test::kEps;

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

// The lower cap (`cells` spacings h around the pole) of a ball of radius R and
// 0.5 kg (I = 2/5 m R^2) on a square lattice: its pole is a sample, and it is
// symmetric under x -> -x and y -> -y, so that on the lattice plane its
// normal tractions have no horizontal resultant. Body origin at the centre.
DynamicBody lattice_cap_ball(double R, double h, double cells = 6) {
  SurfaceSamples cap = fixtures::lattice_sphere_cap(R, h, cells);
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

// The lattice cap ball (`cells` spacings h around its pole) on the rigid
// lattice plane of the same spacing, a little wider, the pole above the
// plane's centre sample: both are symmetric under x -> -x and y -> -y, so the
// contact force is vertical and a bounce one-dimensional.
// Undamped and frictionless (the paper's elastic model): a bounce must give
// back the impact speed but for the step's error.
struct CapOnPlane {
  double R;
  DynamicBody ball, plane;
  // active_range 2: the force is then a continuous function of the approach;
  // at 1.5 it jumps by up to 0.2 % when a penetrating sample's neighbours join
  // the active set, an O(dt) error of the sampled law, not of the scheme.
  ContactOptions contact;

  CapOnPlane(double R_, double h, double cells)
      : R(R_),
        ball(lattice_cap_ball(R_, h, cells)),
        plane(fixtures::sampled_plane(h, (cells + 2) * h, RigidPose<double>())) {
    contact.active_range = 2;
  }

  // The vertical force on the ball with its pole `approach` below the plane,
  // as the impulses push (contact_impulses.hpp).
  double load_at(double approach) const {
    BodyState s;
    s.x_w = {0, 0, R - approach};
    const QuasiRigidContact c = resolve_contact(ball.body, s.E_w_b(), plane.body, plane.state.E_w_b(), contact);
    return normal_force_on_a(c).z();
  }
};

struct Bounce {
  double v_in = 0;         // m/s: the speed at the located first contact
  double restitution = 0;  // the speed leaving the contact over v_in, both at the first contact's height
  double duration = 0;     // s: from the first contact to the pole's return to the plane
  int steps = 0;           // contact steps
  int most_loaded = 0;     // samples pushing in a step (contact_impulses.hpp)
  double longest = 0;      // s: the longest contact step
  double stiffest = 0;     // s: the shortest rule step, step_fraction sqrt(m / k) at the largest k
  double fastest = 0;      // m/s: the largest vertical speed in contact
  // N/s: the total variation of dF/dt along the contact, from the steps'
  // loads (each the mean force of its step), from and back to 0.
  double load_rate_variation = 0;
};

// The ball starts at rest with its pole `height` above the plane under
// gravity, or, without gravity, 0.1 um above it at `speed` downwards.
Bounce bounce(const CapOnPlane& setup, double fraction, double gravity, double height, double speed) {
  DynamicBody ball = setup.ball;
  ball.state.x_w = {0, 0, setup.R + (gravity > 0 ? height : 1e-7)};
  ball.state.v_w = {0, 0, -speed};
  DynamicsOptions options;
  options.gravity_w = {0, 0, -gravity};
  options.step_fraction = fraction;
  // The located first contact leaves the pole up to the tolerance deep, and
  // its stored energy k tol^2 / 2 out of the impact's: 1e-9 m makes that
  // 1e-11 of it (1e-5 m, the default, 1e-3 at 2.5 cm/s).
  options.contact_tolerance = 1e-9;
  options.contact = setup.contact;
  options.duration = (gravity > 0 ? std::sqrt(2 * height / gravity) : 0) + 0.05;  // a bounce lasts < 35 ms
  const DynamicsResult r = simulate_quasi_rigid({ball, setup.plane}, options);
  EXPECT_EQ(r.status, RunStatus::kCompleted) << r.message;
  // Every step is output (output_interval 0): samples[k + 1] follows steps[k].
  std::size_t first = 0;
  while (first < r.steps.size() && !r.steps[first].contact) ++first;
  std::size_t last = first;
  while (last + 1 < r.steps.size() && r.steps[last + 1].contact) ++last;
  Bounce b;
  if (!(last + 1 < r.steps.size())) {
    ADD_FAILURE() << "no complete bounce";
    return b;
  }
  const BodyState& in = r.samples[first].states[0];
  const BodyState& out = r.samples[last + 1].states[0];
  b.v_in = -in.v_w.z();
  b.restitution = std::sqrt(out.v_w.z() * out.v_w.z() + 2 * gravity * (out.x_w.z() - in.x_w.z())) / b.v_in;
  b.steps = static_cast<int>(last + 1 - first);
  b.stiffest = std::numeric_limits<double>::infinity();
  double rate = 0;
  for (std::size_t k = first; k <= last; ++k) {
    const StepRecord& step = r.steps[k];
    b.most_loaded = std::max(b.most_loaded, step.loaded);
    b.longest = std::max(b.longest, step.dt);
    b.stiffest = std::min(b.stiffest, step.rule_step);
    b.fastest = std::max(b.fastest, std::abs(r.samples[k + 1].states[0].v_w.z()));
    const double next_rate = ((k < last ? r.steps[k + 1].load : 0) - step.load) / step.dt;
    b.load_rate_variation += std::abs(next_rate - rate);
    rate = next_rate;
  }
  b.load_rate_variation += std::abs(rate);
  // The pole returns to the plane within the last contact step, whose drift
  // is a straight line without gravity (the duration is used only then).
  const double below = r.samples[last].states[0].x_w.z() - setup.R, above = out.x_w.z() - setup.R;
  EXPECT_LT(below, 0);
  EXPECT_GE(above, 0);
  b.duration = r.samples[last].time + r.steps[last].dt * below / (below - above) - r.samples[first].time;
  return b;
}

TEST(QuasiRigidDynamics, UndampedBounceGivesBackTheImpactSpeedToTheTrapezoidRulesKinkBound) {
  // A 1 mm drop onto the plane, samples 4 mm apart (the ball lands at 14 cm/s
  // and sinks 1.5 mm, 13 of its samples loaded at the deepest: the rigid
  // plane's tractions are interpolated from them, point_contact.hpp). Velocity Verlet
  // integrates the contact force by the trapezoid rule, exact in energy to
  // high order where the force is smooth in time; where a step straddles a
  // kink (a sample starts or stops carrying load) at the phase theta of the
  // step, it errs in the impulse by |jump of dF/dt| dt^2 theta (1 - theta) / 2
  // <= |jump| dt^2 / 8, and in the kinetic energy by the velocity times that.
  // The jumps sum to at most the total variation V of dF/dt along the
  // contact, so |dE| <= v_max dt_max^2 V / 8 and, as e^2 - 1 = dE / (m v_in^2 / 2),
  // |e - 1| <= v_max dt_max^2 V / (8 m v_in^2): second order in the step.
  // (Symplectic Euler, the previous scheme, exceeds it at every fraction:
  // e - 1 = +2.2 %, +1.07 %, +0.53 % at 0.1, 0.05, 0.025, first order, as its
  // step changes with the contact area, quasi_rigid_dynamics.hpp.) The error
  // does not fall steadily with the step, since the kinks' phases change with
  // it; the next test measures its order.
  const CapOnPlane setup(0.05, 0.004, 6);
  for (const double fraction : test::kSanitized ? std::vector<double>{0.1} : std::vector<double>{0.1, 0.05, 0.025}) {
    const Bounce b = bounce(setup, fraction, 9.81, 1e-3, 0);
    const double bound =
        b.fastest * b.longest * b.longest * b.load_rate_variation / (8 * setup.ball.mass.mass * b.v_in * b.v_in);
    std::cout << "step_fraction " << fraction << ": impact " << b.v_in << " m/s, e - 1 = " << b.restitution - 1
              << " (bound " << bound << "), " << b.steps << " contact steps of up to " << b.longest << " s, "
              << b.most_loaded << " samples loaded at most\n";
    // Many kinks: the contact spreads past the pole's first two rings of the
    // square lattice (1 + 4 + 4 samples).
    EXPECT_GT(b.most_loaded, 9);
    EXPECT_LE(std::abs(b.restitution - 1), bound);
  }
}

TEST(QuasiRigidDynamics, UndampedBounceRestitutionErrorIsSecondOrderInTheStep) {
  if (test::kSanitized) GTEST_SKIP() << "too slow under the sanitizers (the bounce above runs the same paths)";
  // A bounce at 2.5 cm/s without gravity sinks 0.22 mm: only the ball's pole
  // carries load, so the sampled law is linear, F = F0 + k delta (F0 below), and the
  // contact's end is its one kink (its start is the located first contact, a
  // step's start).
  // There the trapezoid rule adds the impulse k v dt^2 theta (1 - theta) / 2,
  // theta the phase of the end within its step, so e - 1 = (k dt^2 / 2m)
  // theta (1 - theta): second order, with a constant that jumps with theta.
  // Its average over theta, k dt^2 / (12 m), is what falls at second order: the
  // end comes T / dt = n + theta steps after the first contact (T the
  // contact's duration, the same to O(dt^2) at every step), so the step
  // dt T / (T + j dt / N) moves it by j / N of a step: N runs (j < N) sample
  // theta evenly (the step is the same throughout a contact here: the rule's
  // at the contact's resolution), and their mean is the phase average to
  // within 1 / N^2 (the rectangle rule over a period of theta (1 - theta),
  // whose Fourier coefficients fall as 1 / (pi m)^2).
  const CapOnPlane setup(0.05, 0.004, 6);
  const double v = 0.025, m = setup.ball.mass.mass;
  const double k = setup.load_at(2e-4) / 2e-4;
  // The sampled law jumps by F0 (about 6 uN) at first touch: the MLS surface
  // of the ball lies a little below its pole sample. That jump's own
  // trapezoid error, (dt / 2) F0 (1 - 2 theta), averages to within
  // dt F0 / (2 N) over the runs: 6 F0 / (N k v dt) of the mean.
  const double F0 = setup.load_at(1e-9);
  const int N = 6;
  std::vector<double> means;
  for (const double fraction : {0.1, 0.05}) {
    const Bounce first = bounce(setup, fraction, 0, 0, v);
    double error = 0, predicted = 0, dt = 0;
    for (int j = 0; j < N; ++j) {
      const Bounce b = j == 0 ? first
                              : bounce(setup, fraction * first.duration / (first.duration + j * first.longest / N), 0, 0, v);
      EXPECT_EQ(b.most_loaded, 1);  // the pole only
      error += (b.restitution - 1) / N;
      predicted += k * b.longest * b.longest / (12 * m) / N;
      dt = b.longest;
    }
    // Within 1 / N^2, the jump's share, and Verlet's next terms in
    // (omega dt)^2 = k dt^2 / m.
    const double tolerance = 1.0 / (N * N) + 6 * F0 / (N * k * v * dt) + k * dt * dt / m;
    std::cout << "step_fraction " << fraction << ": mean e - 1 over " << N << " phases " << error
              << ", k dt^2 / (12 m) " << predicted << " (k " << k << " N/m, F0 " << F0 << " N), relative tolerance "
              << tolerance << "\n";
    EXPECT_NEAR(error / predicted, 1, tolerance);
    means.push_back(error);
  }
  // Each mean is within its tolerance (under 5 % here) of k dt^2 / (12 m), so
  // the order is 2 within log2(1.05 / 0.95) = 0.15; a first-order error gives 1.
  const double order = std::log2(means[0] / means[1]);
  std::cout << "observed order " << order << "\n";
  EXPECT_GT(order, 1.7);
}

// The duration of a one-dimensional impact at `speed` under the sampled law
// F(delta) (CapOnPlane::load_at at J + 1 approaches up to `top`, linear
// between them): t = 2 int_0^delta_max d delta / v(delta), v^2 = V^2 - 2 U / m,
// U the law's energy, in u with delta = delta_max (1 - u^2), whose integrand
// stays finite at the turning point (midpoint rule, 2000 points). At J = 24
// t changes by 4e-5 of itself from J = 48.
double quadrature_duration(const CapOnPlane& setup, double speed, double top, int J) {
  const double m = setup.ball.mass.mass, E = 0.5 * m * speed * speed;
  std::vector<double> delta{0}, F{0}, U{0};
  for (int j = 1; j <= J; ++j) {
    delta.push_back(top * j / J);
    F.push_back(setup.load_at(delta.back()));
    U.push_back(U.back() + 0.5 * (F.back() + F[F.size() - 2]) * (delta.back() - delta[delta.size() - 2]));
  }
  if (!(U.back() > E)) {
    ADD_FAILURE() << "the law stores " << U.back() << " J < " << E << " J up to " << top << " m";
    return 0;
  }
  const auto energy = [&](double x) {
    std::size_t i = 0;
    while (i + 2 < delta.size() && delta[i + 1] < x) ++i;
    const double slope = (F[i + 1] - F[i]) / (delta[i + 1] - delta[i]);
    return U[i] + (F[i] + 0.5 * slope * (x - delta[i])) * (x - delta[i]);
  };
  double lo = 0, hi = top;  // the turning point, U(delta_max) = E
  for (int it = 0; it < 100; ++it) (energy(0.5 * (lo + hi)) < E ? lo : hi) = 0.5 * (lo + hi);
  const double delta_max = 0.5 * (lo + hi);
  const int M = 2000;
  double t = 0;
  for (int i = 0; i < M; ++i) {
    const double u = (i + 0.5) / M;
    t += 2 * delta_max * u / std::sqrt(2 * (E - energy(delta_max * (1 - u * u))) / m) / M;
  }
  return 2 * t;
}

TEST(QuasiRigidDynamics, UndampedImpactLastsHertzsDurationToTheSampling) {
  // Hertz's impact of a sphere on a rigid half-space at V (Johnson 11.2,
  // validation/oracles/hertz.hpp): t = 2.868 (m^2 / (R E*^2 V))^(1/5), 22.5 ms
  // at 14 cm/s here, without gravity (the formula has none). A sampled sphere
  // is only approximately Hertzian: at samples 2 mm apart (3.7 across the
  // largest contact radius, 7.3 mm) its quasi-static law is 1 to 4 % stiffer
  // than Hertz's over most of the approach, and much more at the first touch,
  // where one or a few samples carry it (+44 % at 0.05 mm). The impact that
  // law gives, by quadrature of its quasi-static curve (no time stepping),
  // departs from Hertz's by d_law = t_law / t_Hertz - 1 (-0.5 %; -3.4 % at the
  // sanitized build's 4 mm); the simulation must match t_law to its step's
  // error, and so Hertz to |d_law| plus that.
  // The step's error: the trapezoid rule's impulse errors at the kinks over
  // the momentum, dt_max^2 V / (8 m v_in) (V the total variation of dF/dt,
  // as in the bounce above), and Verlet's phase error (omega dt)^2 / 24 at the
  // stiffest, omega dt_max = fraction dt_max / (the shortest rule step).
  const CapOnPlane setup(0.05, test::kSanitized ? 0.004 : 0.002, test::kSanitized ? 6 : 11);
  const double v = 0.14, fraction = test::kSanitized ? 0.1 : 0.05, m = setup.ball.mass.mass;
  const oracles::HertzImpact hertz =
      oracles::hertz_impact(setup.R, oracles::composite_modulus(1e6, 0.3), m, v);
  const Bounce b = bounce(setup, fraction, 0, 0, v);
  const double law = quadrature_duration(setup, v, 1.1 * hertz.approach, test::kSanitized ? 12 : 24);
  const double omega_dt = fraction * b.longest / b.stiffest;
  const double step_error =
      b.longest * b.longest * b.load_rate_variation / (8 * m * b.v_in) + omega_dt * omega_dt / 24;
  std::cout << "impact " << b.duration << " s, its law's " << law << " s (" << law / hertz.duration - 1
            << " from Hertz), Hertz " << hertz.duration << " s (" << b.duration / hertz.duration - 1
            << "); the step's error " << step_error << ", " << b.steps << " steps; e - 1 = " << b.restitution - 1
            << "\n";
  EXPECT_NEAR(b.duration / law, 1, step_error);
  EXPECT_NEAR(b.duration / hertz.duration, 1, std::abs(law / hertz.duration - 1) + step_error);
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

TEST(QuasiRigidDynamics, TooManyRetractionsAFallThroughAnOverflowAndAStalledClockEndTheRunFailed) {
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

  // A ball drifting 1 mm onto the plane over 1e13 s (no gravity) is loaded
  // where the clock's resolution, ulp(1e13 s) = 2 ms, exceeds the contact
  // steps (some 0.1 ms): they do not advance it, and the watchdog ends the
  // run after `watchdog` of them.
  ball.state.x_w = {0, 0, fixtures::SampledBall{}.radius + 1e-3};
  ball.state.v_w = {0, 0, -1e-16};
  options = {};
  options.gravity_w.setZero();
  options.time_step = 1e13;
  options.duration = 3e13;
  options.watchdog = 5;
  options.max_steps = 1000;
  result = simulate_quasi_rigid({ball, plane}, options);
  EXPECT_EQ(result.status, RunStatus::kFailed);
  EXPECT_TRUE(contains(result.message, "the watchdog: 5 steps in a row did not advance the clock")) << result.message;
  ASSERT_GE(result.steps.size(), 5u);
  for (std::size_t k = result.steps.size() - 5; k < result.steps.size(); ++k) {
    EXPECT_TRUE(result.steps[k].contact && result.steps[k].load > 0);
    EXPECT_EQ(result.steps[k].time, result.steps.back().time);
  }
  EXPECT_GT(result.steps.back().time, 1e12);
}

// Section 4.1's nearest-sample classification flags a coarsely sampled ball
// as penetrating about a millimetre before its MLS surface touches (the
// tangent planes of samples beside the pole dip below the sphere): contact
// steps with no load. At 0.1 mm/s without gravity the ball crosses that band
// in some 10 s; at the stiffness's step (some 0.2 ms) that was 5e4 steps of
// nothing. Unloaded steps move the ball by at most contact_tolerance: it
// crosses in about 10 mm / (contact_tolerance = 10 um) = 100 steps, then is
// loaded, and bounces.
TEST(QuasiRigidDynamics, AnUnloadedContactIsCrossedInStepsOfTheContactTolerance) {
  const DynamicBody plane = fixtures::sampled_plane(0.01, 0.2, RigidPose<double>());
  DynamicBody ball = fixtures::sampled_ball(coarse_ball(), {0, 0, fixtures::SampledBall{}.radius + 1e-3});
  ball.state.v_w = {0, 0, -1e-4};
  DynamicsOptions options;
  options.gravity_w.setZero();
  options.time_step = 1;
  options.duration = 20;
  options.max_steps = 5000;
  if (test::kSanitized) options.contact_tolerance = 1e-4;  // a tenth of the steps
  const DynamicsResult result = simulate_quasi_rigid({ball, plane}, options);
  ASSERT_EQ(result.status, RunStatus::kCompleted) << result.message;
  int unloaded = 0, loaded = 0;
  for (const StepRecord& step : result.steps) {
    if (!step.contact) continue;
    (step.load > 0 ? loaded : unloaded) += 1;
    if (step.load == 0) {  // an unloaded step moves the ball by at most the tolerance
      EXPECT_LE(step.dt * 1e-4, options.contact_tolerance * (1 + 1e-12));
    }
  }
  std::cout << "unloaded contact steps " << unloaded << ", loaded " << loaded << ", all " << result.steps.size() << "\n";
  EXPECT_GT(unloaded, 0);
  EXPECT_GT(loaded, 0);
  EXPECT_LT(result.steps.size(), 2000u);
  EXPECT_GT(result.final_states[0].v_w.z(), 0);  // it bounced
}

// A ball spinning at 1e9 rad/s reaches the plane: its unloaded contact's
// step moves no point more than the contact tolerance, 1e-5 m / (r 1e9 rad/s),
// about 2e-13 s, below the default min_step of 1e-9 s, and the run ends
// there naming it. Without a minimum (min_step 0) such a run took steps of
// 2e-13 s, its clock stuck, until max_steps (1e7 by default).
TEST(QuasiRigidDynamics, AContactStepBelowMinStepEndsTheRunFailedNamingIt) {
  const DynamicBody plane = fixtures::sampled_plane(0.01, 0.2, RigidPose<double>());
  DynamicBody ball = fixtures::sampled_ball(coarse_ball(), {0, 0, fixtures::SampledBall{}.radius + 1e-3});
  ball.state.v_w = {0, 0, -1};
  ball.state.omega_w = {0, 0, 1e9};
  DynamicsOptions options;
  options.duration = 0.01;
  const DynamicsResult result = simulate_quasi_rigid({ball, plane}, options);
  EXPECT_EQ(result.status, RunStatus::kFailed);
  EXPECT_TRUE(contains(result.message, "below min_step = 1e-09 s: the contact cannot be resolved")) << result.message;
  EXPECT_LT(result.steps.size(), 10u);
  options.min_step = 0;
  options.max_steps = 200;
  const DynamicsResult unbounded = simulate_quasi_rigid({ball, plane}, options);
  EXPECT_TRUE(contains(unbounded.message, "max_steps")) << unbounded.message;
  EXPECT_LT(unbounded.steps.back().time, 1.1e-3);  // 200 steps moved the clock by nanoseconds past the contact
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
           {"min_step", [](DynamicsOptions& o) { o.min_step = -1e-9; }},
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
