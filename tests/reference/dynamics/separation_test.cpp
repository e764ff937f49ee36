// Separation (Kry & Pai Section 3.3, issue 30 item 2): the normal force
// crossing zero is an event located like the others, and flight follows
// (the cylinder is a rod to collision detection). References: a ball
// released near the top of a fixed horizontal cylinder leaves it where its
// normal force vanishes, in closed form from energy and the centripetal
// balance m g cos(theta) - N = m v^2 / (R + r):
//   without friction  1/2 v^2 = g (R + r) (cos theta0 - cos theta)
//                     -> cos theta = (2/3) cos theta0;
//   rolling           7/10 v^2 = g (R + r) (cos theta0 - cos theta)
//                     -> cos theta = (10/17) cos theta0,
// with v^2 = g (R + r) cos theta there in both; then a parabola with
// constant spin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "reference/dynamics/contact_simulation.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "tests/reference/dynamics/sphere_on_plane.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;

using contactref::test::one_patch;

struct BallOnCylinder {
  double r = 0.1, R = 0.5, theta0 = 0.1, g = 9.81;
  su::PatchComplex<double> ball = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(r, r, r)));
  su::PatchComplex<double> cylinder = one_patch<double>(std::make_unique<su::CylinderPatch<double>>(R));

  // The cylinder's axis (its chart's z) along world -y: a quarter turn about x.
  Mat4<double> E_w_2() const {
    Mat4<double> E = Mat4<double>::Identity();
    E.topLeftCorner<3, 3>() = Eigen::AngleAxisd(std::numbers::pi / 2, Vec3<double>::UnitX()).toRotationMatrix();
    return E;
  }
  ContactSystem<double> system(const FrictionModel<double>& friction) const {
    return {1.0, Mat3<double>::Identity() * (0.4 * r * r), &ball, &cylinder, E_w_2(), Vec3<double>(0, 0, -g), friction};
  }
  // At rest, theta0 from the top towards +x: the cylinder's point at
  // s = pi/2 - theta0 (world (R sin theta0, ., R cos theta0)), the ball's on
  // its equator s = pi/2, turned by psi = pi/2 so that its pole axis lies
  // along the cylinder's: rolling moves the ball's point along its periodic
  // t, never towards a pole of the chart.
  ContactState<double> start() const {
    ContactState<double> state;
    state.q << std::numbers::pi / 2, 0, std::numbers::pi / 2 - theta0, 0, std::numbers::pi / 2;
    return state;
  }
  // The angle of the ball's centre from the top, and its speed, at a sample.
  static double angle(const SimulationSample<double>& sample) { return std::atan2(sample.com_w.x(), sample.com_w.z()); }
};

TEST(Separation, BallLeavesACylinderWhereItsNormalForceVanishes) {
  const BallOnCylinder scene;
  struct Case {
    const char* name;
    FrictionModel<double> friction;
    double cos_ratio;  // cos theta / cos theta0 at the separation
  };
  FrictionModel<double> rolling;
  // Rolling needs a static friction ratio f_t / f_n that grows without
  // bound as f_n -> 0: (2/7) m g sin(theta) / N. With mu_static = 1e6 the
  // stick breaks at N = (2/7) m g sin(theta) / 1e6 < 3e-6 N, i.e. within
  // dtheta = N / |dN/dtheta| (|dN/dtheta| = (17/7) m g sin(theta) there)
  // < 2e-7 of the separation; the sliding (mu 0.5) over that moves it by
  // far less.
  rolling.law.mu = 0.5;
  rolling.mu_static = 1e6;
  for (const Case& c : {Case{"frictionless", FrictionModel<double>{}, 2.0 / 3.0}, Case{"rolling", rolling, 10.0 / 17.0}}) {
    SCOPED_TRACE(c.name);
    SimulationOptions<double> options;
    options.integrator = IntegratorKind::kDormandPrince54;
    options.tolerance = 1e-12;
    options.duration = 5;
    options.output_interval = 0;
    const SimulationResult<double> result = simulate(scene.system(c.friction), scene.start(), options);
    ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
    EXPECT_EQ(result.statistics.separations, 1);
    EXPECT_EQ(result.statistics.collisions, 0);  // the parabola stays outside the circle it left
    // The contact's last row is the separation's located state; flight follows.
    const auto first_flight = std::find_if(result.samples.begin(), result.samples.end(),
                                           [](const SimulationSample<double>& sample) { return sample.flight; });
    ASSERT_NE(first_flight, result.samples.end());
    ASSERT_GE(first_flight - result.samples.begin(), 2);
    const SimulationSample<double>& last = *(first_flight - 1);
    EXPECT_EQ(last.state.time, first_flight->state.time);
    const double theta = BallOnCylinder::angle(last);
    // The located root: the angle to the event's location (the normal
    // force's slack, 64 eps of m g, over |dN/dtheta| ~ m g) plus the
    // integration's error (DP54 at 1e-12 per step, a few hundred steps),
    // and the stick's 2e-7 above.
    EXPECT_NEAR(std::cos(theta), c.cos_ratio * std::cos(scene.theta0), 1e-6);
    const double v2 = last.com_velocity_w.squaredNorm();
    EXPECT_NEAR(v2, scene.g * (scene.R + scene.r) * std::cos(theta), 1e-5);
    EXPECT_LT(std::abs(last.normal_force), 1e-6 * scene.g);
    // Not a step's worth late: the previous sample still pressed.
    EXPECT_GT((first_flight - 2)->normal_force, 0.0);
    // Then a parabola with constant spin (a ball's inertia is isotropic, so
    // its angular velocity is constant in flight): the state at separation
    // advanced in closed form. RK steps integrate the quadratic exactly, so
    // the error is round-off of coordinates up to 125 m (5 s of fall).
    const Vec3<double> gravity(0, 0, -scene.g);
    for (auto sample = first_flight; sample != result.samples.end(); ++sample) {
      ASSERT_TRUE(sample->flight);
      const double tau = sample->state.time - last.state.time;
      const double scale = 1 + sample->com_w.norm();
      EXPECT_NEAR((sample->com_w - (last.com_w + tau * last.com_velocity_w + 0.5 * tau * tau * gravity)).norm(), 0.0,
                  1e-12 * scale);
      EXPECT_NEAR((sample->com_velocity_w - (last.com_velocity_w + tau * gravity)).norm(), 0.0, 1e-12 * scale);
      EXPECT_NEAR((sample->omega_w - last.omega_w).norm(), 0.0, 1e-12 * (1 + last.omega_w.norm()));
      EXPECT_GE(sample->gap, -options.contact_tolerance);  // the first row touches
    }
    EXPECT_NEAR(result.samples.back().state.time, options.duration, 1e-12);
  }
}

}  // namespace
}  // namespace contactref::dynamics
