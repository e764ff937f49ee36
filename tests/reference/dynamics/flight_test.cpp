// Flight (flight.hpp) against closed forms and conservation laws: the centre
// of mass of a thrown body follows x0 + v0 t + g t^2 / 2 whatever it spins
// (Newton's second law: exact at any step, the state keeping the
// translation in world coordinates), its angular momentum about the centre
// of mass is constant (no torque) and so is its energy, with errors that
// shrink at fourth order. The conservative step closes exactly the given
// distance.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/dynamics/flight.hpp"

namespace contactref::dynamics {
namespace {

struct Throw {
  double mass = 0.8;
  Mat3<double> I_com_b = Vec3<double>(0.002, 0.003, 0.004).asDiagonal();  // asymmetric: it tumbles
  Vec3<double> gravity_w{0, 0, -9.81};
  spatial::RigidBodyState<double> start() const {
    spatial::RigidBodyState<double> body;
    body.x_w = Vec3<double>(0.1, -0.2, 1.0);
    body.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Vec3<double>(1, 2, 2).normalized()));
    body.v_w = Vec3<double>(1.5, 0.5, 3.0);
    body.omega_w = Vec3<double>(4, -7, 11);  // near the middle axis: unstable, it tumbles
    return body;
  }
};

// The largest errors over a 1 s flight in steps of h: centre of mass,
// angular momentum (world), energy.
std::array<double, 3> flight_errors(IntegratorKind integrator, double h) {
  const Throw t;
  const FlightDynamics<double> flight(t.mass, t.I_com_b, t.gravity_w);
  const spatial::MassProperties<double> mass{t.mass, t.I_com_b};
  const spatial::RigidBodyState<double> body0 = t.start();
  FlightDynamics<double>::State y = FlightDynamics<double>::state_of(body0);
  const Vec3<double> L0 = mass.angular_momentum_w(body0);
  const double E0 = flight.energy(y);
  // The start's bound holds for the whole flight (the simulator steps by
  // it), up to what the integrator's energy error delta adds:
  // |omega| <= bound_0 sqrt(1 + delta / E_rot,0).
  const double bound0 = flight.angular_speed_bound(y);
  const double rotational0 = body0.omega_w.dot(mass.I_w(body0) * body0.omega_w) / 2;
  std::array<double, 3> errors{0, 0, 0};
  const int steps = int(std::lround(1.0 / h));
  for (int k = 1; k <= steps; ++k) {
    double error = 0;
    y = flight.step(integrator, y, flight.derivative(y), h, 1.0, error);
    const spatial::RigidBodyState<double> body = FlightDynamics<double>::body_of(y);
    const double time = k * h;
    const Vec3<double> x = body0.x_w + time * body0.v_w + (time * time / 2) * t.gravity_w;
    errors[0] = std::max(errors[0], (body.x_w - x).norm());
    errors[1] = std::max(errors[1], (mass.angular_momentum_w(body) - L0).norm());
    errors[2] = std::max(errors[2], std::abs(flight.energy(y) - E0));
    EXPECT_GE(flight.angular_speed_bound(y) * (1 + 1e-12), body.omega_w.norm());
    EXPECT_GE(bound0 * std::sqrt(1 + errors[2] / rotational0) * (1 + 1e-12), body.omega_w.norm());
  }
  return errors;
}

TEST(Flight, ThrownTumblingBodyKeepsNewtonsParabolaItsMomentumAndEnergyAtFourthOrder) {
  const std::array<double, 3> coarse = flight_errors(IntegratorKind::kRk4, 0.004);
  const std::array<double, 3> fine = flight_errors(IntegratorKind::kRk4, 0.002);
  // The parabola: the round-off of 250 steps of O(1) m sums.
  EXPECT_LT(coarse[0], 1e-12);
  for (int k = 1; k < 3; ++k) {
    SCOPED_TRACE(k);
    // Fourth order: halving the step divides the error by 16; 10 leaves
    // room for the higher-order terms at these steps (|omega| h <= 0.06).
    EXPECT_LT(fine[std::size_t(k)], coarse[std::size_t(k)] / 10) << coarse[std::size_t(k)] << " " << fine[std::size_t(k)];
  }
  const std::array<double, 3> dormand_prince = flight_errors(IntegratorKind::kDormandPrince54, 0.004);
  for (int k = 1; k < 3; ++k) EXPECT_LT(dormand_prince[std::size_t(k)], coarse[std::size_t(k)]);
}

// A needle (I = diag(I_max, I_max, I_min)) spinning end over end about x, a
// steady rotation: the bound is sqrt(I_max / I_min) |omega| (closed form),
// 2,000 times below |L| / I_min = (I_max / I_min) |omega| here.
TEST(Flight, AngularSpeedBoundOfASpinAboutTheMajorAxisIsTheEnergysClosedForm) {
  const double I_max = 0.004, I_min = 1e-9, omega = 20;
  const FlightDynamics<double> flight(1.0, Vec3<double>(I_max, I_max, I_min).asDiagonal(), Vec3<double>(0, 0, -9.81));
  spatial::RigidBodyState<double> body;
  body.omega_w = Vec3<double>(omega, 0, 0);
  const double bound = flight.angular_speed_bound(FlightDynamics<double>::state_of(body));
  EXPECT_NEAR(bound, std::sqrt(I_max / I_min) * omega, 1e-12 * bound);
  EXPECT_LT(bound, I_max / I_min * omega / 1000);
}

TEST(Flight, ConservativeStepClosesExactlyTheDistance) {
  for (const auto& [distance, speed, gravity] : {std::array<double, 3>{0.01, 2.0, 9.81}, std::array<double, 3>{1.0, 0.0, 9.81},
                                                  std::array<double, 3>{0.5, 3.0, 0.0}}) {
    const double h = conservative_step(distance, speed, gravity);
    EXPECT_NEAR(speed * h + gravity * h * h / 2, distance, 1e-15 * (1 + distance));
  }
  EXPECT_TRUE(std::isinf(conservative_step(1.0, 0.0, 0.0)));
  EXPECT_EQ(conservative_step(0.0, 1.0, 9.81), 0.0);
}

}  // namespace
}  // namespace contactref::dynamics
