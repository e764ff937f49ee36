// Tests of the rolling-body oracle (validation/oracles/rolling_body.hpp)
// against closed forms it must reproduce: a sphere rolling down an incline
// (acceleration g sin(theta) / (1 + I / (m r^2)), 5/7 g sin(theta) for a
// solid ball), a sphere rolling straight at constant velocity, the viscous
// damping's exponential decay and the rolling and spinning resistance's
// linear decay of a rolling, spinning ball; the support maps against the
// paraboloid's own equation and central differences; the rattleback's
// energy conserved at RKF78's eighth order; and its refusals.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "reference/spatial/so3.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "validation/oracles/rolling_body.hpp"

namespace contactref::oracles {
namespace {

constexpr double kGravity = 9.81;

// A ball of the mass and radius with I = k m r^2 about its centre (its centre
// of mass), on the plane under gravity_w, at rest with its centre above the origin.
RollingBody ball(double k, const Vec3<double>& gravity_w, RollingLaw law = {}) {
  RollingBody body;
  body.mass = 2;
  body.inertia_b = k * 2 * 0.1 * 0.1 * Mat3<double>::Identity();
  body.gravity_w = gravity_w;
  body.shape = std::make_shared<SphereShape>(Vec3<double>::Zero(), 0.1);
  body.law = law;
  return body;
}

RollingState ball_start(const Vec3<double>& velocity_w = Vec3<double>::Zero(),
                        const Vec3<double>& omega_w = Vec3<double>::Zero()) {
  RollingState s;
  s.com_w = Vec3<double>(0, 0, 0.1);
  s.com_velocity_w = velocity_w;
  s.omega_w = omega_w;
  return s;
}

// The bound of a run whose equations of motion are integrated exactly by
// any Runge-Kutta method (accelerations constant, or the exponential's
// terms below round-off): each step adds at most 64 eps of the scale.
double round_off(long steps) { return test::tolerance<double>(64.0 * double(steps)); }

// Gravity tilted by theta about y is the plane inclined by theta: the ball
// rolls down x with a = g sin(theta) / (1 + k) (the contact point's angular
// momentum balance (I + m r^2) omega' = m g r sin(theta)), rolling (v_x = r
// omega_y), pressed by m g cos(theta), held by the friction m a - m g sin(theta).
TEST(RollingBody, BallRollsDownAnInclineAtGSinThetaOverOnePlusK) {
  const double theta = 0.3;
  const Vec3<double> g_w(kGravity * std::sin(theta), 0, -kGravity * std::cos(theta));
  for (const double k : {2.0 / 5, 2.0 / 3}) {  // solid ball (5/7 g sin theta), thin shell (3/5)
    const RollingBody body = ball(k, g_w);
    const RollingRun run = run_rolling(body, ball_start(), 0, {0.25, 0.5, 1.0}, 1e-3);
    const double a = kGravity * std::sin(theta) / (1 + k);
    for (const RollingSample& s : run.samples) {
      const double t = s.time;
      const double scale = round_off(run.steps);
      EXPECT_TRUE(test::matrices_near(s.state.com_velocity_w, Vec3<double>(a * t, 0, 0), scale)) << "k " << k;
      EXPECT_TRUE(test::matrices_near(s.state.com_w, Vec3<double>(a * t * t / 2, 0, 0.1), scale)) << "k " << k;
      EXPECT_TRUE(test::matrices_near(s.state.omega_w, Vec3<double>(0, a * t / 0.1, 0), scale)) << "k " << k;
      EXPECT_TRUE(test::matrices_near(s.evaluation.contact_force_w,
                                      Vec3<double>(body.mass * (a - g_w.x()), 0, body.mass * kGravity * std::cos(theta)), scale));
      EXPECT_NEAR(s.evaluation.energy, run.samples.front().evaluation.energy, scale * 10);  // rolling keeps it
    }
  }
}

// On the level plane a rolling ball keeps its velocity: x = v t, every other
// quantity constant; the normal force is m g, the friction zero.
TEST(RollingBody, BallRollsStraightAtConstantVelocity) {
  const Vec3<double> v(0.3, -0.4, 0);
  const Vec3<double> omega = Vec3<double>(0, 0, 0.1).cross(v) / (0.1 * 0.1);  // v = omega x (centre - contact)
  const RollingRun run = run_rolling(ball(0.4, Vec3<double>(0, 0, -kGravity)), ball_start(v, omega), 0, {2.0, 10.0}, 1e-2);
  for (const RollingSample& s : run.samples) {
    EXPECT_TRUE(test::matrices_near(s.state.com_w, Vec3<double>(v * s.time + Vec3<double>(0, 0, 0.1)), round_off(run.steps)));
    EXPECT_TRUE(test::matrices_near(s.state.com_velocity_w, v, round_off(run.steps)));
    EXPECT_TRUE(test::matrices_near(s.state.omega_w, omega, round_off(run.steps)));
    EXPECT_TRUE(test::matrices_near(s.evaluation.contact_force_w, Vec3<double>(0, 0, 2 * kGravity), round_off(run.steps)));
    EXPECT_LE(s.evaluation.slip_w.norm(), round_off(run.steps));
  }
}

// Damping c on a rolling ball: (I + m r^2) omega' = -c omega about the
// contact point (the damping is a couple; gravity and the contact force pass
// through the contact point), so omega = omega0 exp(-c t / (I + m r^2)), and
// the law's work is the kinetic energy lost, -(I + m r^2) (omega0^2 - omega^2) / 2.
TEST(RollingBody, DampingDecaysARollingBallExponentially) {
  const double c = 0.01, I_p = 0.4 * 2 * 0.01 + 2 * 0.01;
  const Vec3<double> omega0(0, 5, 0);
  const RollingRun run = run_rolling(ball(0.4, Vec3<double>(0, 0, -kGravity), {0, 0, c}),
                                     ball_start(Vec3<double>(0.5, 0, 0), omega0), 0, {1.0, 3.0}, 1e-2);
  for (const RollingSample& s : run.samples) {
    // RKF78's truncation for the rate lambda = c / I_p = 0.25 / s: (lambda h)^9 / 9! per step, below 1e-30.
    const Vec3<double> omega = omega0 * std::exp(-c * s.time / I_p);
    EXPECT_TRUE(test::matrices_near(s.state.omega_w, omega, round_off(run.steps)));
    EXPECT_TRUE(test::matrices_near(s.state.com_velocity_w, Vec3<double>(0.1 * omega.y(), 0, 0), round_off(run.steps)));
    EXPECT_NEAR(s.work, -I_p * (omega0.squaredNorm() - omega.squaredNorm()) / 2, round_off(run.steps));
    EXPECT_NEAR(s.evaluation.energy - run.samples.front().evaluation.energy + run.samples.front().work, s.work,
                round_off(run.steps) * 10);
  }
}

// Rolling resistance mu_r and spinning resistance mu_s on a ball that rolls
// along x and spins: about the contact point the angular momentum is
// (I + m r^2) omega_t + I omega_z z, and the couples -mu_r m g and -mu_s m g
// decelerate each linearly: omega_y = w0 - mu_r m g t / (I + m r^2),
// omega_z = s0 - mu_s m g t / I, until each stops (the oracle then ends
// the run: it has no rest modes).
TEST(RollingBody, ResistanceDeceleratesRollingAndSpinLinearlyAndTheOracleStopsWhereTheyStop) {
  const double mu_r = 0.002, mu_s = 0.001, m = 2, I = 0.4 * 2 * 0.01, I_p = I + m * 0.01;
  const double w0 = 4, s0 = 3;
  const RollingBody body = ball(0.4, Vec3<double>(0, 0, -kGravity), {mu_r, mu_s, 0});
  const RollingState start = ball_start(Vec3<double>(0.1 * w0, 0, 0), Vec3<double>(0, w0, s0));
  const double roll_stop = w0 * I_p / (mu_r * m * kGravity), spin_stop = s0 * I / (mu_s * m * kGravity);
  ASSERT_LT(spin_stop, roll_stop);  // 1.22 s, 2.85 s
  const RollingRun run = run_rolling(body, start, 0, {0.1, 0.3, 0.45}, 1e-3);
  for (const RollingSample& s : run.samples) {
    const Vec3<double> omega(0, w0 - mu_r * m * kGravity * s.time / I_p, s0 - mu_s * m * kGravity * s.time / I);
    EXPECT_TRUE(test::matrices_near(s.state.omega_w, omega, round_off(run.steps)));
    EXPECT_NEAR(s.evaluation.power, -m * kGravity * (mu_r * omega.y() + mu_s * omega.z()), round_off(run.steps) * 10);
  }
  const std::string stopped = test::error_of([&] { run_rolling(body, start, 0, {2.0}, 1e-3); });
  EXPECT_TRUE(test::contains(stopped, "ComputationError")) << stopped;
  EXPECT_TRUE(test::contains(stopped, "no-spin modes are not modelled")) << stopped;
  EXPECT_TRUE(test::contains(stopped, fmt::format("t = {:.2f}", spin_stop))) << stopped;
}

// A rolling that starts from rest takes the direction of its acceleration
// without the resistance (the header's rule): a ball at rest on an incline
// with rolling resistance below the incline's drive accelerates at
// (m g sin(theta) r - mu_r m g cos(theta)) / (I + m r^2) about y.
TEST(RollingBody, ResistedRollingFromRestTakesTheDirectionItStartsIn) {
  const double theta = 0.1, mu_r = 0.001, m = 2, I_p = 0.4 * m * 0.01 + m * 0.01;
  const Vec3<double> g_w(kGravity * std::sin(theta), 0, -kGravity * std::cos(theta));
  const RollingRun run = run_rolling(ball(0.4, g_w, {mu_r, 0, 0}), ball_start(), 0, {0.5}, 1e-3);
  const double alpha = (m * kGravity * std::sin(theta) * 0.1 - mu_r * m * kGravity * std::cos(theta)) / I_p;
  EXPECT_TRUE(test::matrices_near(run.samples.back().state.omega_w, Vec3<double>(0, alpha * 0.5, 0), round_off(run.steps)));
}

// The support map of the paraboloid z = apex_z - 1/2 d^T K d: the point
// maximises n . x over the surface (its defining property, checked against
// the surface's explicit equation on a grid around it), and its derivative
// matches central differences along tangent directions (error h^2 / 6
// |c'''| + eps |c| / h, below 1e-8 at h = 1e-5 for these curvatures).
TEST(RollingBody, ParaboloidSupportPointMaximisesTheHeightAlongItsNormalAndItsDerivativeIsExact) {
  Eigen::Matrix2d K;
  K << 0.5, 0.4, 0.4, 3.0;
  const Vec3<double> apex(0.01, -0.02, 0.1);
  const ParaboloidShape shape(apex, K);
  const auto surface = [&](double x, double y) {
    const Eigen::Vector2d d(x - apex.x(), y - apex.y());
    return Vec3<double>(x, y, apex.z() - 0.5 * d.dot(K * d));
  };
  for (const Vec3<double>& direction : {Vec3<double>(0, 0, 1), Vec3<double>(0.2, -0.1, 1), Vec3<double>(-0.4, 0.3, 1)}) {
    const Vec3<double> n = direction.normalized();
    const Vec3<double> c = shape.point(n);
    EXPECT_TRUE(test::scalars_near(c.z(), surface(c.x(), c.y()).z(), test::tolerance<double>(16)));
    for (int i = -10; i <= 10; ++i)
      for (int j = -10; j <= 10; ++j)
        EXPECT_LE(n.dot(surface(c.x() + 0.05 * i, c.y() + 0.05 * j)), n.dot(c) + test::tolerance<double>(16));
    const Mat3<double> C = shape.point_derivative(n);
    const double h = 1e-5;
    for (const Vec3<double>& axis : {Vec3<double>(1, 0, 0), Vec3<double>(0, 1, 0)}) {
      const Vec3<double> t = (axis - axis.dot(n) * n).normalized();
      const Vec3<double> difference =
          (shape.point((n + h * t).normalized()) - shape.point((n - h * t).normalized())) / (2 * h);
      EXPECT_TRUE(test::matrices_near(Vec3<double>(C * t), difference, 1e-8));
    }
  }
  EXPECT_TRUE(test::contains(test::error_of([&] { shape.point(Vec3<double>(1, 0, 0)); }), "ComputationError"));
  EXPECT_TRUE(test::contains(test::error_of([&] { shape.point(Vec3<double>(0, 0.6, -0.8)); }), "ComputationError"));
}

// Kry's rattleback as the oracle sees it (the suite's paraboloid: apex 0.1 m
// above the centre of mass, radii 2.7 m and 0.3 m turned by -0.174 rad,
// 5 kg, inertia diag(1, 10, 10)), rolling and spinning from a tilted start
// for 5 s: no force does work, so the energy is conserved up to RKF78's
// error, and the constraint u = 0 and the gap hold up to it (nothing pulls
// them back). Each falls as h^8: the observed order over 160, 80 and 40 ms is
// >= 7.5 (half an order for the pre-asymptotic range; the errors there,
// 1e-6 to 1e-11 J, are far above the energy's round-off of 125 steps, about
// 1e-13 J). At 20 ms the drift is within its steps' round-off.
TEST(RollingBody, RattlebackConservesEnergyAndTheConstraintAtTheIntegratorsOrder) {
  const double angle = -0.174;
  const Eigen::Matrix2d turn = Eigen::Rotation2Dd(angle).toRotationMatrix();
  const Eigen::Matrix2d K = turn * Eigen::Vector2d(1 / 2.7, 1 / 0.3).asDiagonal() * turn.transpose();
  RollingBody body;
  body.mass = 5;
  body.inertia_b = Vec3<double>(1, 10, 10).asDiagonal();
  body.gravity_w = Vec3<double>(0, 0, -kGravity);
  body.shape = std::make_shared<ParaboloidShape>(Vec3<double>(0, 0, 0.1), K);
  RollingState start;
  // Upside down (the apex at the bottom), tilted by 0.1 and 0.05 rad.
  start.R_w_b = spatial::so3_exp(Vec3<double>(0.1, 0.05, 0)) * spatial::so3_exp(Vec3<double>(std::numbers::pi, 0, 0));
  const Vec3<double> r = start.R_w_b * body.shape->point(start.R_w_b.transpose() * Vec3<double>(0, 0, -1));
  start.com_w = Vec3<double>(0, 0, -r.z());
  start.omega_w = Vec3<double>(0.2, -0.1, 1.0);
  start.com_velocity_w = -start.omega_w.cross(r);
  const double E0 = evaluate_rolling(body, start).energy;
  std::vector<Eigen::Vector3d> errors;  // energy (J), slip (m/s), gap (m)
  for (const double step : {0.16, 0.08, 0.04, 0.02}) {
    const RollingRun run = run_rolling(body, start, 0, {5.0}, step);
    errors.emplace_back(std::abs(run.samples.back().evaluation.energy - E0), run.max_slip, run.max_gap);
    if (step == 0.02) {
      EXPECT_LE(run.max_slip, round_off(run.steps));  // speeds below 1 m/s
    }
  }
  for (int i = 0; i < 3; ++i) {
    const double order = std::log(errors[0](i) / errors[2](i)) / std::log(4.0);
    EXPECT_GE(order, 7.5) << "quantity " << i << ": " << errors[0](i) << ", " << errors[1](i) << ", " << errors[2](i);
  }
}

TEST(RollingBody, RefusesBadInputAndEndsAtLiftOff) {
  const RollingBody good = ball(0.4, Vec3<double>(0, 0, -kGravity));
  const RollingState start = ball_start();
  const auto refused = [&](RollingBody body, RollingState s, std::vector<double> times, double h, const char* what) {
    const std::string message = test::error_of([&] { run_rolling(body, s, 0, times, h); });
    EXPECT_TRUE(test::contains(message, "InputError")) << message;
    EXPECT_TRUE(test::contains(message, what)) << message;
  };
  RollingBody bad = good;
  bad.mass = 0;
  refused(bad, start, {1}, 1e-3, "mass");
  bad = good;
  bad.inertia_b(0, 0) = -1;
  refused(bad, start, {1}, 1e-3, "inertia_b");
  bad = good;
  bad.law.damping = -1;
  refused(bad, start, {1}, 1e-3, "law.damping");
  bad = good;
  bad.shape.reset();
  refused(bad, start, {1}, 1e-3, "shape");
  refused(good, start, {1}, 0, "step h");
  refused(good, start, {1, 0.5}, 1e-3, "non-decreasing");
  refused(good, start, {1e3}, 1e-6, "limit of 1e8");
  RollingState skewed = start;
  skewed.R_w_b(0, 1) = 0.1;
  refused(good, skewed, {1}, 1e-3, "R_w_b");
  EXPECT_TRUE(test::contains(test::error_of([] { SphereShape(Vec3<double>::Zero(), -1); }), "InputError"));
  EXPECT_TRUE(test::contains(test::error_of([] { ParaboloidShape(Vec3<double>::Zero(), -Eigen::Matrix2d::Identity()); }),
                             "InputError"));
  // Gravity pulling up: the plane would have to pull, so the body would lift off.
  const std::string lift = test::error_of([&] { run_rolling(ball(0.4, Vec3<double>(0, 0, kGravity)), start, 0, {1}, 1e-3); });
  EXPECT_TRUE(test::contains(lift, "ComputationError")) << lift;
  EXPECT_TRUE(test::contains(lift, "leave the plane")) << lift;
}

}  // namespace
}  // namespace contactref::oracles
