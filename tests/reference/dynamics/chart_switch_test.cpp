// The atlas of an ellipsoid (surfaces/ellipsoid_atlas.hpp) and the chart
// switch (dynamics/patch_transition.hpp switch_chart), each against an
// independent reference:
//  - each chart's inverse against the chart itself (round trip);
//  - the covering claim of the atlas, on random points of the surface;
//  - outward normals on both charts (the gradient of the implicit equation);
//  - a switch keeps E_2_1 and the relative twist H_1 q' (the pose map of
//    Eq. 9 and Eq. 14 evaluated on either chart), in double and 50 digits;
//  - a sphere rolling in no-slip along a great circle through chart 0's
//    poles moves at constant velocity (a rolling sphere on a plane has no
//    friction force), across the switches, for several turns; with one
//    chart the run ends at the pole.
#include <gtest/gtest.h>

#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <iostream>

#include "reference/dynamics/contact_simulation.hpp"
#include "reference/dynamics/patch_transition.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/ellipsoid_atlas.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scalars.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;
using test::matrices_near;
using test::tolerance;

template <class T>
class EllipsoidAtlas : public ::testing::Test {};
TYPED_TEST_SUITE(EllipsoidAtlas, test::Scalars);

template <class T>
T pi() {
  return boost::math::constants::pi<T>();
}

TYPED_TEST(EllipsoidAtlas, ChartsInvertCoverAndFaceOutwards) {
  using T = TypeParam;
  const Vec3<T> axes(T(0.5), T(0.3), T(0.2));
  test::Rng rotation_rng(test::kSeed + 41);
  const Mat3<T> linear = test::random_rotation<T>(rotation_rng);
  const Vec3<T> offset(T(0.1), T(-0.2), T(0.3));
  const su::PatchComplex<T> atlas = su::ellipsoid_atlas<T>(axes, linear, offset);
  ASSERT_TRUE(atlas.is_atlas());
  ASSERT_EQ(atlas.patches.size(), 2u);
  test::Rng rng(test::kSeed + 42);
  int outside0 = 0;
  for (int n = 0; n < 200; ++n) {
    const int chart = n % 2;
    const T s = T(fixtures::uniform(rng, 0.01, 3.13)), t = T(fixtures::uniform(rng, -3.1, 3.1));
    const su::PatchJet<T> jet = atlas.patches[std::size_t(chart)]->evaluate(s, t);
    // On the ellipsoid: |A^-1 R^T (p - offset)| = 1, A = diag(axes).
    const Vec3<T> body = linear.transpose() * (jet.c() - offset);
    const Vec3<T> unit = body.cwiseQuotient(axes);
    using std::abs;
    EXPECT_LT(abs(unit.norm() - T(1)), tolerance<T>(16));
    // Outward: the normal along the gradient of |A^-1 x|^2.
    EXPECT_GT(jet.c_s().cross(jet.c_t()).dot(linear * unit.cwiseQuotient(axes)), T(0)) << "chart " << chart;
    // The inverse.
    const std::optional<su::Vec2<T>> x = atlas.patches[std::size_t(chart)]->parameters_of(jet.c());
    ASSERT_TRUE(x.has_value());
    EXPECT_LT(abs(x->x() - s), tolerance<T>(1e3, 1 / std::sin(double(s)))) << "s, chart " << chart;
    const T dt = x->y() - t;
    EXPECT_LT(abs(T(dt - T(2) * pi<T>() * std::round(double(dt / (2 * pi<T>()))))), tolerance<T>(1e3, 1 / std::sin(double(s))))
        << "t, chart " << chart;
    // Covering (ellipsoid_atlas.hpp): outside one chart's band, the point is
    // at least pi/6 inside the other's.
    const std::optional<su::Vec2<T>> x0 = atlas.patches[0]->parameters_of(jet.c());
    const std::optional<su::Vec2<T>> x1 = atlas.patches[1]->parameters_of(jet.c());
    const T depth0 = atlas.band_distance(0, x0->x()), depth1 = atlas.band_distance(1, x1->x());
    if (depth0 < T(0)) {
      ++outside0;
      EXPECT_GE(depth1, pi<T>() / 6 - tolerance<T>(1e3));
    }
    if (depth1 < T(0)) {
      EXPECT_GE(depth0, pi<T>() / 6 - tolerance<T>(1e3));
    }
  }
  EXPECT_GT(outside0, 10) << "the samples must reach chart 0's polar caps";
}

TYPED_TEST(EllipsoidAtlas, ASwitchKeepsThePoseAndTheRelativeTwist) {
  // Body 1 the ellipsoid (then body 2, on a plane body 1), at a point near
  // the end of chart 0's band: after the switch to chart 1 the pose E_2_1
  // (Eq. 9) and the twist H_1 q' (Eq. 14) are those before.
  using T = TypeParam;
  const su::PatchComplex<T> atlas = su::ellipsoid_atlas<T>(Vec3<T>(T(0.5), T(0.3), T(0.2)));
  const su::PlanePatch<T> plane;
  test::Rng rng(test::kSeed + 43);
  for (int body = 1; body <= 2; ++body) {
    for (int n = 0; n < 5; ++n) {
      Vec5<T> q, qdot;
      const T s = pi<T>() / 6 + T(fixtures::uniform(rng, -0.05, 0.05));
      const T t = T(fixtures::uniform(rng, -3, 3)), u = T(fixtures::uniform(rng, -1, 1)), v = T(fixtures::uniform(rng, -1, 1));
      q << (body == 1 ? s : u), (body == 1 ? t : v), (body == 1 ? u : s), (body == 1 ? v : t), T(fixtures::uniform(rng, -3, 3));
      for (int j = 0; j < 5; ++j) qdot(j) = T(fixtures::uniform(rng, -1, 1));
      const su::Patch<T>& chart = *atlas.patches[0];
      const auto kinematics_on = [&](const su::Patch<T>& p, const Vec5<T>& qq, const Vec5<T>& rates) {
        return body == 1 ? kinematics::contact_kinematics<T>(p, plane, qq, rates)
                         : kinematics::contact_kinematics<T>(plane, p, qq, rates);
      };
      const kinematics::ContactKinematics<T> before = kinematics_on(chart, q, qdot);
      const PatchTransition<T> moved = switch_chart<T>(atlas, body, 0, plane, q, qdot);
      EXPECT_EQ(moved.to_patch, 1);
      const kinematics::ContactKinematics<T> after = kinematics_on(*atlas.patches[1], moved.q, moved.qdot);
      // The pose to the round-off of the inverse chart (acos near s = pi/6
      // is well conditioned) and of Eq. 43's QR solve.
      EXPECT_TRUE(matrices_near(after.E_2_1, before.E_2_1, tolerance<T>(1e3))) << "body " << body << " sample " << n;
      EXPECT_TRUE(matrices_near(Vec6<T>(after.H_1 * moved.qdot), Vec6<T>(before.H_1 * qdot), tolerance<T>(1e4)))
          << "body " << body << " sample " << n;
    }
  }
}

TEST(EllipsoidAtlasErrors, SwitchingWithoutAnAtlasIsAnInputError) {
  su::PatchComplex<double> single;
  single.patches.push_back(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(1, 1, 1)));
  const su::PlanePatch<double> plane;
  try {
    switch_chart<double>(single, 1, 0, plane, Vec5<double>(0.3, 0, 0, 0, 0), Vec5<double>::Zero());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("chart switch, body 1: the complex is not an atlas of charts"), std::string::npos)
        << e.what();
  }
}

// A sphere of radius R launched along world x, its contact running along
// the great circle of the body x-z plane, through the poles of both charts
// (from s = pi/2, t = pi/2 on chart 0, psi = 0, so that rolling moves s):
// in no-slip on a flat plane there is no friction force, so the centre moves
// at constant velocity. One turn every 2 pi R / (5/7 v0) = 0.88 s, about four
// switches per turn.
TEST(ChartSwitchSimulation, SphereRollsThroughThePolesOfItsFirstChart) {
  const double R = 0.1, m = 1, v0 = 1;
  const su::PatchComplex<double> atlas = su::ellipsoid_atlas<double>(Vec3<double>::Constant(R));
  su::PatchComplex<double> single;
  single.patches.push_back(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>::Constant(R)));
  single.links.resize(1);
  su::PatchComplex<double> plane;
  plane.patches.push_back(std::make_unique<su::PlanePatch<double>>());
  plane.links.resize(1);
  ContactSystem<double> system;
  system.mass = m;
  system.I_com = 0.4 * m * R * R * Mat3<double>::Identity();
  system.surface2 = &plane;
  system.friction.law.mu = 0.5;
  system.friction.mu_static = 0.5;
  ContactState<double> start;
  start.q << boost::math::constants::half_pi<double>(), boost::math::constants::half_pi<double>(), 0, 0, 0;
  start.qdot << 0, 0, v0, 0, 0;  // launched sliding at v0: it rolls on at 5/7 v0 once the slip stops
  SimulationOptions<double> options;
  options.h_max = 0.01;
  options.h_min = 1e-4;
  options.duration = 3;
  options.output_interval = 0;

  system.surface1 = &atlas;
  const SimulationResult<double> result = simulate(system, start, options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  int switches = 0;
  for (const SimulationEvent<double>& e : result.events) switches += e.kind == EventKind::kTransition;
  EXPECT_GE(switches, 8);
  // After the sliding phase (5/7 v0, friction_simulation_test.cpp) the
  // velocity stays constant: its spread over the rolling rows.
  double spread = 0;
  Vec3<double> rolling = Vec3<double>::Zero();
  for (const SimulationSample<double>& row : result.samples) {
    if (row.state.mode != ContactMode::kNoSlip) continue;
    if (rolling.isZero()) rolling = row.com_velocity_w;
    spread = std::max(spread, (row.com_velocity_w - rolling).norm());
  }
  EXPECT_NEAR(rolling.x(), 5.0 / 7.0 * v0, 1e-9);
  EXPECT_LT(spread, 1e-9);
  std::cout << "[atlas] rolling sphere, 3 s: " << switches << " chart switches, velocity spread " << spread << " m/s\n";

  system.surface1 = &single;
  const SimulationResult<double> one_chart = simulate(system, start, options);
  EXPECT_NE(one_chart.status, SimulationStatus::kCompleted) << "one chart reaches its pole";
}

}  // namespace
}  // namespace contactref::dynamics
