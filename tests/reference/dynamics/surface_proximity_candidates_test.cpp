// closest_points (surface_proximity.hpp) when two features of a body are
// near the other at once, within the tessellations' bounds of each other:
// the bowl of the bowl-on-table scene (validation/fixtures/scenes/
// bowl_thrown_on_table.json) tumbling just after its first impact, its rim
// through the table's top while its base hovers above it. The global pair is
// the rim's; a search that refines only the polyhedral distance's nearest
// triangle pair may take the base's, which is as near to within the bounds
// (the flight then missed a 0.69 mm penetration, and the root of the gap
// along the step, whose two features' distances it took in turn, could not
// be located). Reference: the surface-separation oracle
// (validation/oracles/surface_separation.hpp: Newton from dense seed grids on
// both surfaces), and, over the plane z = 0, the same oracle against the
// table, whose top's middle cell is that plane.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "reference/dynamics/surface_proximity.hpp"
#include "reference/spatial/pose.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "tests/kit/sanitized.hpp"
#include "tests/kit/source_dir.hpp"
#include "validation/oracles/surface_separation.hpp"
#include "validation/scenes/scene.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;

// The bowl's pose (centre of mass, body axes) 0.98 ms after its first impact
// in a throw with the spin (1, 8, 3) rad/s, from that run's bodies.csv.
Mat4<double> tumbling_bowl(double dz) {
  const Eigen::Quaterniond q(0.89786011760292095, 0.13111799089551363, 0.41405950643505951, 0.072180376920241471);
  return spatial::make_pose<double>(q.normalized().toRotationMatrix(),
                                    Vec3<double>(-0.049073519028225827, -0.018784919903562614, 0.05877322557316899 + dz));
}

// The steps of dz the tests take (tests/kit/sanitized.hpp).
constexpr int kStride = test::kSanitized ? 4 : 1;

class TumblingBowl : public ::testing::Test {
 protected:
  TumblingBowl()
      : scene_(scenes::load_scene(test::source_dir() / "validation/fixtures/scenes/bowl_thrown_on_table.json")),
        oracle_(*scene_.free_body().complex(), *scene_.fixed_body().complex(), 16) {}
  const su::PatchComplex<double>& bowl() const { return *scene_.free_body().complex(); }
  const su::PatchComplex<double>& table() const { return *scene_.fixed_body().complex(); }

  scenes::Scene scene_;
  oracles::SurfaceSeparationOracle oracle_;
};

// Lowered and raised by up to 1.2 mm about the pose, in 0.1 mm steps: the
// rim's depth and the base's height change together, the rim deepest
// throughout. At both the scene's bound (1 mm) and the default (0.1 mm),
// closest_points reports the oracle's pair: the distance to the round-off
// of two converged Newton pairs (the oracle's step tolerance, 1e-10 of a
// parameter, times the patches' size, 0.2 m: 2e-11 m; 1e-10 m leaves a
// factor five), the same patches. (The sanitized build takes every fourth
// step, over the same range: the same code; the release build takes all.)
TEST_F(TumblingBowl, ClosestPointsFindsTheDeeperOfTwoNearFeatures) {
  for (const double bound : {1e-3, 1e-4}) {
    const SurfaceHierarchy<double> h1(bowl(), bound), h2(table(), bound);
    for (int k = -12; k <= 12; k += kStride) {
      const Mat4<double> E_w_1 = tumbling_bowl(1e-4 * k);
      const oracles::SurfaceSeparation reference = oracle_(E_w_1, Mat4<double>::Identity());
      const auto found = closest_points(h1, E_w_1, h2, Mat4<double>(Mat4<double>::Identity()), 0.01);
      ASSERT_TRUE(found.has_value()) << "bound " << bound << ", dz " << k << " x 0.1 mm";
      EXPECT_NEAR(found->distance, reference.signed_distance, 1e-10) << "bound " << bound << ", dz " << k << " x 0.1 mm";
      EXPECT_EQ(found->patch1, reference.patch1) << "bound " << bound << ", dz " << k << " x 0.1 mm";
    }
  }
}

// The same over the plane z = 0 (a half-space: the lowest tessellation
// vertex seeds Newton), against the oracle over the table, whose top's middle
// cell (|x|, |y| <= 7.5 cm) is that plane: the pairs lie in it.
TEST_F(TumblingBowl, ClosestPointsOverAPlaneFindsTheDeeperOfTwoNearFeatures) {
  su::PatchComplex<double> plane;
  plane.patches.push_back(std::make_unique<su::PlanePatch<double>>());
  plane.links.emplace_back();
  for (const double bound : {1e-3, 1e-4}) {
    const SurfaceHierarchy<double> h1(bowl(), bound), h2(plane, bound);
    for (int k = -12; k <= 12; k += kStride) {
      const Mat4<double> E_w_1 = tumbling_bowl(1e-4 * k);
      const oracles::SurfaceSeparation reference = oracle_(E_w_1, Mat4<double>::Identity());
      ASSERT_LE(reference.p2_w.head<2>().lpNorm<Eigen::Infinity>(), 0.075);
      const auto found = closest_points(h1, E_w_1, h2, Mat4<double>(Mat4<double>::Identity()), 0.01);
      ASSERT_TRUE(found.has_value()) << "bound " << bound << ", dz " << k << " x 0.1 mm";
      EXPECT_NEAR(found->distance, reference.signed_distance, 1e-10) << "bound " << bound << ", dz " << k << " x 0.1 mm";
      EXPECT_EQ(found->patch1, reference.patch1) << "bound " << bound << ", dz " << k << " x 0.1 mm";
    }
  }
}

}  // namespace
}  // namespace contactref::dynamics
