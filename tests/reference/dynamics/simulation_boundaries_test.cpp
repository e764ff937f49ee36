// The simulator at patch edges that the contact does not cross head-on
// (issue 10 item 8): a grazing crossing (at rest on an edge, the acceleration
// takes it over), motion along an edge into a corner, and a diagonal through
// a corner where four patches meet. The floor is four flat Bezier patches in
// a 2 x 2 grid, so a frictionless sphere slides with q'' = 0 or constant and
// RK4 is exact: every check is against the closed-form motion of the centre.
// Also: step sizes that cannot move the clock are refused.
#include <gtest/gtest.h>

#include <numbers>


#include "reference/dynamics/contact_simulation.hpp"
#include "reference/dynamics/step_acceptance.hpp"
#include "core/errors.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;
constexpr double kRadius = 0.25;

// Patch 2 j + i covers [i, i + 1] x [j, j + 1] at z = 0 with (x, y) = (i + s, j + t).
// Unit-square edges: 0 (t = 0), 1 (s = 1), 2 (t = 1), 3 (s = 0); edge e of one
// patch meets edge (e + 2) % 4 of its neighbour, at the reversed fraction.
su::PatchComplex<double> floor_2x2() {
  su::PatchComplex<double> complex;
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 2; ++i) {
      std::array<Vec3<double>, 16> control;
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) control[std::size_t(4 * a + b)] = Vec3<double>(i + a / 3.0, j + b / 3.0, 0);
      complex.patches.push_back(std::make_unique<su::BezierPatch<double>>(control));
    }
  }
  const auto at = [](int i, int j) { return (i < 0 || i > 1 || j < 0 || j > 1) ? -1 : 2 * j + i; };
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 2; ++i) {
      const std::array<int, 4> neighbour = {at(i, j - 1), at(i + 1, j), at(i, j + 1), at(i - 1, j)};
      std::vector<su::EdgeLink> links;
      for (int e = 0; e < 4; ++e) links.push_back({neighbour[std::size_t(e)], neighbour[std::size_t(e)] < 0 ? -1 : (e + 2) % 4});
      complex.links.push_back(links);
    }
  }
  return complex;
}

struct SlidingSphere {
  su::PatchComplex<double> sphere;
  su::PatchComplex<double> floor = floor_2x2();
  ContactSystem<double> system(const Vec3<double>& gravity) const {
    const double mass = 2.0;
    return {mass, Mat3<double>::Identity() * 0.4 * mass * kRadius * kRadius, &sphere, &floor, Mat4<double>::Identity(),
            gravity, {}};
  }
  SlidingSphere() { sphere.patches.push_back(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(kRadius, kRadius, kRadius))); }
};

// The sphere's lowest point touches the floor at (x, y) on floor patch `patch`.
ContactState<double> on_floor(int patch, double s, double t, double sdot, double tdot) {
  ContactState<double> state;
  state.patch2 = patch;
  state.q << std::numbers::pi / 2, -std::numbers::pi / 2, s, t, 0;
  state.qdot << 0, 0, sdot, tdot, 0;
  return state;
}

// The world (x, y) of the floor contact of a state.
Vec3<double> floor_point(const ContactState<double>& state) {
  return Vec3<double>(state.patch2 % 2 + state.q(2), state.patch2 / 2 + state.q(3), 0);
}

// A frictionless sphere on a flat floor moves its centre, and so its contact
// point, as a point mass under the horizontal part of gravity: x(t) = x0 + v0 t + a t^2 / 2.
void expect_closed_form(const SimulationResult<double>& result, const Vec3<double>& x0, const Vec3<double>& v0,
                        const Vec3<double>& a) {
  for (const SimulationSample<double>& sample : result.samples) {
    const double t = sample.state.time;
    const Vec3<double> expected = x0 + v0 * t + a * (t * t / 2) + Vec3<double>(0, 0, kRadius);
    // RK4 is exact for quadratic motion; the located crossings land on the
    // edge to the slack and the transitions are exact maps: round-off of a
    // few hundred O(1) operations.
    EXPECT_LT((sample.com_w - expected).norm(), test::tolerance<double>(1000)) << "t = " << t;
  }
}

TEST(SimulationBoundaries, ContactAtRestOnAnEdgeCrossesItWhenGravityPullsItOver) {
  // At rest on the shared edge s = 1 of patches 0 and 1 (x = 1), gravity
  // tilted towards +x: the step's own motion leaves across the edge although
  // q' = 0 (on main: located at tau = 0, not a transition, retried for ever).
  const SlidingSphere bodies;
  const Vec3<double> gravity(0.5, 0, -9.81);
  SimulationOptions<double> options;
  options.duration = 0.2;
  const SimulationResult<double> result = simulate(bodies.system(gravity), on_floor(0, 1.0, 0.5, 0, 0), options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  EXPECT_EQ(result.statistics.transitions, 1);
  EXPECT_EQ(result.final_state.patch2, 1);
  expect_closed_form(result, Vec3<double>(1, 0.5, 0), Vec3<double>::Zero(), Vec3<double>(0.5, 0, 0));
}

TEST(SimulationBoundaries, GrazingTheEdgeWithAVelocityAlongItCrossesWhereTheCurveDoes) {
  // Moving along the edge x = 1 at 1 m/s, pulled towards +x: the path is
  // tangent to the edge at t = 0 and crosses it at once.
  const SlidingSphere bodies;
  const Vec3<double> gravity(0.25, 0, -9.81);
  SimulationOptions<double> options;
  options.duration = 0.3;
  const SimulationResult<double> result = simulate(bodies.system(gravity), on_floor(0, 1.0, 0.2, 0, 1.0), options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  EXPECT_EQ(result.final_state.patch2, 1);
  expect_closed_form(result, Vec3<double>(1, 0.2, 0), Vec3<double>(0, 1, 0), Vec3<double>(0.25, 0, 0));
}

TEST(SimulationBoundaries, MotionAlongAnEdgeThroughTheCornerOfFourPatches) {
  // Along x = 1 from y = 0.5 at 2 m/s, gravity vertical: q'' = 0, the contact
  // stays on the edge (to round-off) and passes the corner (1, 1) where all
  // four patches meet, into the upper row.
  const SlidingSphere bodies;
  SimulationOptions<double> options;
  options.duration = 1.0;
  const SimulationResult<double> result = simulate(bodies.system(Vec3<double>(0, 0, -9.81)), on_floor(0, 1.0, 0.5, 0, 2.0), options);
  ASSERT_EQ(result.status, SimulationStatus::kLeftSurface) << result.message;  // at y = 2, the far edge
  EXPECT_NEAR(result.final_state.time, 0.75, 1e-12);
  EXPECT_GE(result.final_state.patch2, 2);
  expect_closed_form(result, Vec3<double>(1, 0.5, 0), Vec3<double>(0, 2, 0), Vec3<double>::Zero());
  EXPECT_NEAR(floor_point(result.final_state).x(), 1.0, 1e-12);
  EXPECT_NEAR(floor_point(result.final_state).y(), 2.0, 1e-12);
}

TEST(SimulationBoundaries, DiagonalThroughTheCornerOfFourPatches) {
  // From (0.5, 0.5) on patch 0 straight at the common corner (1, 1) and on to
  // patch 3: the corner is left through the edge that ends at it (counter-
  // clockwise), then the next patch's edge, at one instant.
  const SlidingSphere bodies;
  SimulationOptions<double> options;
  options.duration = 0.8;
  const SimulationResult<double> result = simulate(bodies.system(Vec3<double>(0, 0, -9.81)), on_floor(0, 0.5, 0.5, 1, 1), options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  EXPECT_EQ(result.final_state.patch2, 3);
  EXPECT_EQ(result.statistics.transitions, 2);
  ASSERT_EQ(result.events.size(), 2u);
  EXPECT_NEAR(result.events[0].time, 0.5, 1e-12);
  EXPECT_NEAR(result.events[1].time, result.events[0].time, 1e-12);
  expect_closed_form(result, Vec3<double>(0.5, 0.5, 0), Vec3<double>(1, 1, 0), Vec3<double>::Zero());
}

TEST(SimulationBoundaries, StepsThatCannotMoveTheClockAreRefused) {
  // h_min = 1e-300 s (R6): t + h_min == t, the run would never end.
  const SlidingSphere bodies;
  SimulationOptions<double> options;
  options.duration = 0.05;
  options.h_max = options.h_min = 1e-300;
  try {
    simulate(bodies.system(Vec3<double>(0, 0, -9.81)), on_floor(0, 0.5, 0.5, 0, 0), options);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("h_min = 1e-300 s cannot finish the run"), std::string::npos) << error.what();
  }
  // The floor itself: 2^10 eps of the end time, the smallest step that moves it.
  const double floor = min_resolvable_step(0.0, 0.05);
  EXPECT_EQ(floor, 1024 * std::numeric_limits<double>::epsilon() * 0.05);
  EXPECT_NE(0.05 - floor, 0.05);
  options.h_max = options.h_min = floor;
  options.duration = 0;  // accepted (nothing to run)
  EXPECT_EQ(simulate(bodies.system(Vec3<double>(0, 0, -9.81)), on_floor(0, 0.5, 0.5, 0, 0), options).status,
            SimulationStatus::kCompleted);
}

}  // namespace
}  // namespace contactref::dynamics
