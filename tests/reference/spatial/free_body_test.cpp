// Tests of reference/spatial/free_body.hpp: quaternion kinematics against
// dE/dt = E O(phi) by 50-digit differences, and RK4 integration against
// conservation laws and the free-fall parabola, with their convergence order.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/spatial/free_body.hpp"
#include "tests/kit/finite_difference.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"

namespace contactref::spatial {
namespace {

using test::matrices_near;
using test::tolerance;

TEST(FreeBodyKinematics, QuaternionRateIsTheBodyAngularVelocity) {
  test::Rng rng(test::kSeed + 30);
  for (int n = 0; n < 10; ++n) {
    const Vec4<Real50> q = test::to_scalar<Real50>(fixtures::random_unit_quaternion(rng));
    const Vec3<Real50> omega = test::random_vector3<Real50>(rng, 3.0);
    const Vec4<Real50> dq = quaternion_derivative<Real50>(q, omega);
    const Mat3<Real50> dR = test::central_difference(
        [&](const Real50& t) { return rotation_from_quaternion<Real50>(q + t * dq); }, Real50(0));
    // d/dt Theta = Theta [omega], the rotation block of dE/dt = E O(phi).
    EXPECT_TRUE(matrices_near(dR, Mat3<Real50>(rotation_from_quaternion<Real50>(q) * skew(omega)),
                              test::finite_difference_tolerance(10)));
  }
}

TEST(FreeBodyKinematics, QuaternionRotationMatchesRodrigues) {
  test::Rng rng(test::kSeed + 31);
  for (int n = 0; n < 10; ++n) {
    const Vec3<double> w = fixtures::random_vector3(rng, 2.0);
    const double theta = w.norm();
    Vec4<double> q;
    q << std::cos(theta / 2), std::sin(theta / 2) * w / theta;
    EXPECT_TRUE(matrices_near(rotation_from_quaternion<double>(q), so3_exp<double>(w), tolerance<double>(32)));
    // The formula is homogeneous in q: a non-unit quaternion gives the same rotation.
    EXPECT_TRUE(matrices_near(rotation_from_quaternion<double>(2.5 * q), so3_exp<double>(w), tolerance<double>(32)));
  }
}

struct DriftAtStep {
  double energy = 0, momentum = 0, quaternion_norm = 0;
};

// Integrates a torque-free random body for 3 s at step h; returns the worst
// relative drifts of energy and world-frame spatial momentum, and of |q|.
DriftAtStep torque_free_drift(double h) {
  test::Rng rng(test::kSeed + 32);
  const auto [m, I] = fixtures::random_inertia(rng);
  const RigidBodyInertia<double> body(m, I);
  FreeBodyState<double> y =
      make_free_body_state<double>(fixtures::random_unit_quaternion(rng), fixtures::random_vector3(rng),
                                   fixtures::random_twist(rng, 2.0));
  const double E0 = kinetic_energy<double>(body.M_b, twist_of(y));
  const Vec6<double> h0 = spatial_momentum<double>(pose_of(y), body.M_b, twist_of(y));
  const auto no_wrench = [](double, const FreeBodyState<double>&) { return Vec6<double>::Zero().eval(); };
  DriftAtStep drift;
  const int steps = int(std::lround(3.0 / h));
  for (int n = 0; n < steps; ++n) {
    y = free_body_rk4_step(body, n * h, y, h, no_wrench);
    drift.energy = std::max(drift.energy, std::abs(kinetic_energy<double>(body.M_b, twist_of(y)) - E0) / E0);
    drift.momentum = std::max(drift.momentum,
                              (spatial_momentum<double>(pose_of(y), body.M_b, twist_of(y)) - h0).norm() / h0.norm());
    drift.quaternion_norm = std::max(drift.quaternion_norm, std::abs(quaternion_of(y).norm() - 1.0));
  }
  return drift;
}

// RK4 conserves energy and momentum to O(h^4): halving the step divides the
// drift by ~16; we require at least 2^3.5 (order >= 3.5).
TEST(FreeBodyIntegration, TorqueFreeDriftIsFourthOrder) {
  const DriftAtStep coarse = torque_free_drift(0.02), fine = torque_free_drift(0.01);
  EXPECT_GT(coarse.energy / fine.energy, std::pow(2.0, 3.5)) << coarse.energy << " " << fine.energy;
  EXPECT_GT(coarse.momentum / fine.momentum, std::pow(2.0, 3.5)) << coarse.momentum << " " << fine.momentum;
  EXPECT_LT(fine.energy, 1e-6);
  // Renormalisation after every step: |q| = 1 to a few roundings.
  EXPECT_LE(fine.quaternion_norm, tolerance<double>(8));
}

// A spinning body in gravity: its centre of mass follows
// p(t) = p0 + v0 t + g t^2 / 2 whatever the rotation; the body-frame force is
// Theta^T m g. Error order 4.
double free_fall_error(double h) {
  test::Rng rng(test::kSeed + 33);
  const auto inertia = fixtures::random_inertia(rng);  // not bound as [m, I]: clang 14 cannot capture bindings
  const double m = inertia.first;
  const Mat3<double>& I = inertia.second;
  const RigidBodyInertia<double> body(m, I);
  const Vec3<double> g(0, 0, -9.81);
  const FreeBodyState<double> y0 = make_free_body_state<double>(
      fixtures::random_unit_quaternion(rng), fixtures::random_vector3(rng), fixtures::random_twist(rng, 3.0));
  const Vec3<double> v0_w = rotation_from_quaternion<double>(quaternion_of(y0)) * twist_of(y0).tail<3>();
  const auto gravity = [&](double, const FreeBodyState<double>& y) {
    Vec6<double> f = Vec6<double>::Zero();
    f.tail<3>() = rotation_from_quaternion<double>(quaternion_of(y)).transpose() * (m * g);
    return f;
  };
  FreeBodyState<double> y = y0;
  const int steps = int(std::lround(2.0 / h));
  double error = 0;
  for (int n = 1; n <= steps; ++n) {
    y = free_body_rk4_step(body, (n - 1) * h, y, h, gravity);
    const double t = n * h;
    const Vec3<double> exact = position_of(y0) + v0_w * t + 0.5 * g * t * t;
    error = std::max(error, (position_of(y) - exact).norm());
  }
  return error;
}

// The one rigid-body state (rigid_body.hpp) and the RK4 vector are the same
// state: the round trip is exact to round-off. Its free flight (exact
// ballistic translation, the world angular momentum kept) and RK4 on Eq. 15
// are independent integrators of one motion: for an isotropic body the
// rotation is a uniform turn, so both give it (RK4 to its order) with the
// centre on the same parabola; for a general body free_flight keeps the
// world angular momentum to round-off at any step.
TEST(RigidBodyState, IsTheFreeBodysVectorAndItsFlightAgreesWithNewtonEuler) {
  test::Rng rng(test::kSeed + 34);
  RigidBodyState<double> state;
  const Vec4<double> q = fixtures::random_unit_quaternion(rng);
  state.q_w_b = Eigen::Quaterniond(q(0), q(1), q(2), q(3));
  state.x_w = fixtures::random_vector3(rng);
  state.v_w = fixtures::random_vector3(rng);
  state.omega_w = fixtures::random_vector3(rng);
  const RigidBodyState<double> back = rigid_body_state(free_body_state(state));
  EXPECT_LT((back.x_w - state.x_w).norm(), tolerance<double>(8));
  EXPECT_LT((back.v_w - state.v_w).norm(), tolerance<double>(16));
  EXPECT_LT((back.omega_w - state.omega_w).norm(), tolerance<double>(16));
  EXPECT_LT(back.q_w_b.angularDistance(state.q_w_b), tolerance<double>(16));

  const MassProperties<double> ball{2.0, Mat3<double>::Identity() * 0.02};
  const Vec3<double> g(0, 0, -9.81);
  const double h = 0.01;
  const RigidBodyInertia<double> inertia(ball);
  FreeBodyState<double> y = free_body_state(state);
  RigidBodyState<double> flown = state;
  const auto gravity = [&](double, const FreeBodyState<double>& z) {
    Vec6<double> f = Vec6<double>::Zero();
    f.tail<3>() = rotation_from_quaternion<double>(quaternion_of(z)).transpose() * (ball.mass * g);
    return f;
  };
  for (int n = 0; n < 100; ++n) {
    y = free_body_rk4_step(inertia, n * h, y, h, gravity);
    free_flight(ball, g, h, flown);
  }
  const RigidBodyState<double> rk4 = rigid_body_state(y);
  // RK4's error on a uniform turn of |omega| h ~ 0.02 rad a step over 1 s:
  // (|omega| h)^4 |omega| t / 120 ~ 1e-9 rad; the parabola is exact in
  // free_flight, and RK4 carries the velocity in body axes, so the turn's
  // error tilts it: |v| t times 1e-9 rad, below 1e-8 m for |v| < 10 m/s.
  EXPECT_LT(rk4.q_w_b.angularDistance(flown.q_w_b), 1e-8);
  EXPECT_LT((rk4.x_w - flown.x_w).norm(), 1e-8);
  EXPECT_LT((rk4.omega_w - flown.omega_w).norm(), tolerance<double>(1024));

  const auto random = fixtures::random_inertia(rng);
  const MassProperties<double> body{random.first, random.second};
  RigidBodyState<double> tumbling = state;
  const Vec3<double> L0 = body.angular_momentum_w(tumbling);
  for (int n = 0; n < 100; ++n) free_flight(body, g, h, tumbling);
  EXPECT_LT((body.angular_momentum_w(tumbling) - L0).norm(), tolerance<double>(1024) * L0.norm());
}

TEST(FreeBodyIntegration, FreeFallFollowsTheParabolaToFourthOrder) {
  const double coarse = free_fall_error(0.02), fine = free_fall_error(0.01);
  EXPECT_GT(coarse / fine, std::pow(2.0, 3.5)) << coarse << " " << fine;
  EXPECT_LT(fine, 1e-6);
}

TEST(FreeBodyInput, NonFiniteOrNonUnitStateIsRejectedByName) {
  FreeBodyState<double> y = make_free_body_state<double>(Vec4<double>(1, 0, 0, 0), Vec3<double>::Zero(), Vec6<double>::Zero());
  EXPECT_NO_THROW(check_free_body_state(y));
  y(8) = std::nan("");
  try {
    check_free_body_state(y);
    FAIL() << "NaN accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("omega_y is not finite"), std::string::npos) << e.what();
  }
  y(8) = 0;
  y(0) = 1.1;
  EXPECT_THROW(check_free_body_state(y), InputError);
}

TEST(FreeBodyIntegration, NonFiniteWrenchIsAComputationError) {
  const RigidBodyInertia<double> body(1.0, Mat3<double>(Vec3<double>(1, 1, 1).asDiagonal()));
  const FreeBodyState<double> y =
      make_free_body_state<double>(Vec4<double>(1, 0, 0, 0), Vec3<double>::Zero(), Vec6<double>::Ones());
  const auto bad = [](double, const FreeBodyState<double>&) { return Vec6<double>::Constant(std::nan("")).eval(); };
  EXPECT_THROW(free_body_rk4_step(body, 0.0, y, 0.01, bad), ComputationError);
}

}  // namespace
}  // namespace contactref::spatial
