// The multi-level contact (multi_level.hpp, Pauly et al. Section 4.3) on the
// sampled sphere pressed onto a rigid plane (Hertz: Johnson Sec. 4.2):
//  - the coarse levels are surfaces: their samples lie on the sphere and the
//    plane, with their normals;
//  - the interpolated tractions of a level reproduce its load on the finer
//    samples (the Shepard functions are a partition of unity);
//  - each level's load is closer to Hertz's than the coarser one's, and the
//    finest equals the single-level solve (the warm start changes the pivots,
//    not the answer);
//  - the stopping rule: a loose tolerance stops early, zero runs every level,
//    max_levels stops the descent;
//  - bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "core/errors.hpp"
#include "core/threads.hpp"
#include "reference/quasi_rigid/multi_level.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/sanitized.hpp"
#include "validation/fixtures/lattice_surfaces.hpp"
#include "validation/oracles/hertz.hpp"
#include "tests/reference/quasi_rigid/hertz_sphere.hpp"

namespace contactref::quasi_rigid {
namespace {

using test::contains;
using test::error_of;

using test::kHertzE;
using test::kHertzNu;
using test::kHertzRadius;

struct Press {
  double a = 1.5e-3, approach = a * a / kHertzRadius, h = a / (test::kSanitized ? 5 : 8);  // kit/sanitized.hpp
  QuasiRigidBody sphere{fixtures::lattice_sphere_cap(kHertzRadius, h, 2.5 * a / h), {kHertzE, kHertzNu}};
  QuasiRigidBody ground{fixtures::lattice_plane(h, 2.5 * a / h), {0, 0}};
  RigidPose<double> E_w_sphere = RigidPose<double>::from_translation({0, 0, -approach});
  double hertz = oracles::hertz_load_at_approach(kHertzRadius, kHertzE / (1 - kHertzNu * kHertzNu), approach);
};

TEST(MultiLevel, CoarseLevelsLieOnTheSurfacesAndCarryHertzsLoad) {
  const Press press;
  const MultiLevelBody sphere(press.sphere, {16, 4}), ground(press.ground, {16, 4});
  ASSERT_EQ(sphere.levels().size(), 3u);
  for (const QuasiRigidBody& level : sphere.levels()) {
    for (std::size_t k = 0; k < level.surface().samples().points.size(); ++k) {
      const Eigen::Vector3d& p = level.surface().samples().points[k];
      EXPECT_NEAR((p - Eigen::Vector3d(0, 0, kHertzRadius)).norm(), kHertzRadius, 1e-9) << level.name();
      EXPECT_NEAR(level.surface().samples().normals[k].dot((p - Eigen::Vector3d(0, 0, kHertzRadius)) / kHertzRadius), 1, 1e-6);
    }
  }
  EXPECT_LT(sphere.levels()[0].surface().samples().points.size(), sphere.levels()[1].surface().samples().points.size());
  // Section 4.3: the bounding sphere's radius is the kernel's radius. A
  // coarse level's kernels take their spacing h from its own samples; their
  // Gaussian's width s = h / 2 is within 30% of its clusters' mean bounding
  // radius (measured: 0.90 and 1.02 times it at clusters of 16 and 4).
  for (std::size_t level = 0; level < 2; ++level) {
    double radius = 0;
    const std::vector<int>& clusters = press.sphere.hierarchy().level(level == 0 ? 16 : 4);
    for (int c : clusters) radius += press.sphere.hierarchy().clusters()[static_cast<std::size_t>(c)].radius;
    radius /= static_cast<double>(clusters.size());
    const double width = sphere.levels()[level].sampling().shepard().width * sphere.levels()[level].sampling().spacing().mean();
    EXPECT_GT(width, 0.7 * radius) << "level " << level;
    EXPECT_LT(width, 1.3 * radius) << "level " << level;
  }

  const MultiLevelContact all = resolve_multi_level(sphere, press.E_w_sphere, ground, RigidPose<double>(), 0.0);
  ASSERT_EQ(all.levels.size(), 3u);
  EXPECT_FALSE(all.converged);
  for (std::size_t level = 0; level < all.levels.size(); ++level) {
    std::cout << "level " << level << ": " << all.levels[level].a.active.size() << " active, load "
              << all.levels[level].a.load << " (Hertz " << press.hertz << "), pivots " << all.levels[level].a.pivots
              << (level > 0 ? ", wrench change " + std::to_string(all.wrench_change[level - 1]) : "") << "\n";
    if (level > 0) {  // each finer surface is closer to Hertz
      EXPECT_LT(std::abs(all.levels[level].a.load - press.hertz), std::abs(all.levels[level - 1].a.load - press.hertz));
    }
  }
  EXPECT_NEAR(all.levels.back().a.load, press.hertz, 0.01 * press.hertz);  // as hertz-convergence's sampled case
  // The finest level is the single-level solve, warm start or not.
  const QuasiRigidContact single = resolve_contact(press.sphere, press.E_w_sphere, press.ground, RigidPose<double>());
  EXPECT_NEAR(all.levels.back().a.load, single.a.load, 1e-9 * single.a.load);
  std::cout << "finest level's pivots: " << all.levels.back().a.pivots << " warm-started, " << single.a.pivots
            << " cold\n";

  // Interpolation keeps a level's load: sum a_i p(x_i) over the finer samples.
  const Eigen::VectorXd p_mid = interpolate_tractions(sphere.levels()[1], all.levels[1].a, sphere.levels()[2]);
  const double interpolated_load = p_mid.dot(sphere.levels()[2].sampling().areas());
  EXPECT_NEAR(interpolated_load, all.levels[1].a.load, 0.03 * all.levels[1].a.load);

  // The same interpolation of any field: a constant on every coarse sample
  // is that constant wherever a coarse kernel reaches (a partition of unity).
  const QuasiRigidBody& mid = sphere.levels()[1];
  std::vector<int> every(mid.surface().samples().points.size());
  for (std::size_t k = 0; k < every.size(); ++k) every[k] = static_cast<int>(k);
  const Eigen::VectorXd constant = interpolate_field(mid, every, Eigen::VectorXd::Constant(static_cast<Eigen::Index>(every.size()), 2.5),
                                                     sphere.levels()[2]);
  int reached = 0;
  for (Eigen::Index k = 0; k < constant.size(); ++k) {
    if (constant(k) == 0) continue;  // no coarse kernel here (the cap's rim)
    ++reached;
    EXPECT_NEAR(constant(k), 2.5, 1e-12);
  }
  EXPECT_GT(reached, constant.size() * 9 / 10);
  // A field at a few nodes (the rest zero) is Eq. 5-6 summed over every
  // coarse sample at every fine sample (the interpolation sums only near the
  // nodes with values: the direct sum checks that it leaves out nothing).
  std::vector<int> few;
  Eigen::VectorXd few_values(5);
  for (int k = 0; k < 5; ++k) {
    few.push_back(static_cast<int>(every.size()) / 2 + 3 * k);
    few_values(k) = 1.0 + k;
  }
  const Eigen::VectorXd local = interpolate_field(mid, few, few_values, sphere.levels()[2]);
  // Each fine sample summed by one thread: one thread or two give the same bits.
  for (const int threads : {1, 2}) {
    const ThreadLimit limit(threads);
    EXPECT_TRUE(interpolate_field(mid, few, few_values, sphere.levels()[2]) == local) << threads << " thread(s)";
  }
  const SurfaceSamples& coarse_samples = mid.surface().samples();
  const SampledShepard& shepard = mid.sampling().shepard();
  int nonzero = 0;
  for (std::size_t i = 0; i < sphere.levels()[2].surface().samples().points.size(); ++i) {
    const Eigen::Vector3d& x = sphere.levels()[2].surface().samples().points[i];
    double sum = 0, weighted = 0;
    for (std::size_t j = 0; j < coarse_samples.points.size(); ++j) {
      const double h = mid.sampling().spacing()(static_cast<Eigen::Index>(j)), d2 = (x - coarse_samples.points[j]).squaredNorm();
      if (d2 >= shepard.support * h * shepard.support * h) continue;
      const double omega = std::exp(-d2 / (2 * shepard.width * h * shepard.width * h));
      sum += omega;
      for (std::size_t k = 0; k < few.size(); ++k) {
        if (few[k] == static_cast<int>(j)) weighted += omega * few_values(static_cast<Eigen::Index>(k));
      }
    }
    const double expected = sum > 0 ? weighted / sum : 0.0;
    nonzero += expected != 0 ? 1 : 0;
    EXPECT_NEAR(local(static_cast<Eigen::Index>(i)), expected, 1e-14 * 5);  // the same terms, in another order
  }
  EXPECT_GT(nonzero, 5);

  // max_levels stops the descent: one level is the coarsest's solve.
  const MultiLevelContact first = resolve_multi_level(sphere, press.E_w_sphere, ground, RigidPose<double>(), 0.0, {}, 1);
  ASSERT_EQ(first.levels.size(), 1u);
  EXPECT_EQ(first.levels[0].a.load, all.levels[0].a.load);

  // A tolerance above the first change stops after the second level.
  const MultiLevelContact early =
      resolve_multi_level(sphere, press.E_w_sphere, ground, RigidPose<double>(), 2 * all.wrench_change[0]);
  EXPECT_EQ(early.levels.size(), 2u);
  EXPECT_TRUE(early.converged);
}

// The same contact with the sphere's body frame origin 0.13 m or -0.5 m
// away (its samples moved by -d, its pose by +d): the stopping rule's
// measure takes the torques about the centre of pressure, so it is the same
// (about the origin it was 4.43, 1.36 or 16.2 on the foot for the same
// contact).
TEST(MultiLevel, WrenchChangeDoesNotDependOnTheBodyFramesOrigin) {
  const Press press;
  const MultiLevelBody ground(press.ground, {16, 4});
  std::vector<double> changes;
  for (const double shift : {0.0, 0.13, -0.5}) {
    const Eigen::Vector3d d(shift, 0.3 * shift, 0);
    // The lattice turned 0.3 rad about the sphere's axis: no two samples
    // share a coordinate, so that round-off in the moved coordinates breaks
    // no tie in the clustering (a level built otherwise would differ).
    SurfaceSamples cap = fixtures::lattice_sphere_cap(kHertzRadius, press.h, 2.5 * press.a / press.h);
    const Eigen::Matrix3d turn = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    for (Eigen::Vector3d& x : cap.points) x = turn * x - d;
    for (Eigen::Vector3d& n : cap.normals) n = turn * n;
    const MultiLevelBody sphere(QuasiRigidBody(cap, {kHertzE, kHertzNu}), {16, 4});
    const RigidPose<double> E_w_sphere = RigidPose<double>::from_translation(Eigen::Vector3d(0, 0, -press.approach) + d);
    const MultiLevelContact all = resolve_multi_level(sphere, E_w_sphere, ground, RigidPose<double>(), 0.0);
    ASSERT_EQ(all.wrench_change.size(), 2u);
    std::cout << "origin moved by " << shift << " m: loads " << all.levels[0].a.load << " " << all.levels[1].a.load << " " << all.levels[2].a.load << " active " << all.levels[0].a.active.size() << " " << all.levels[1].a.active.size() << "; wrench changes " << all.wrench_change[0] << ", "
              << all.wrench_change[1] << "\n";
    if (!changes.empty()) {
      EXPECT_NEAR(all.wrench_change[0], changes[0], 1e-6 * changes[0]) << shift;
      EXPECT_NEAR(all.wrench_change[1], changes[1], 1e-6 * changes[1]) << shift;
    } else {
      changes = all.wrench_change;
    }
  }
}

TEST(MultiLevel, RefusesBadLevelsAndTolerances) {
  const Press press;
  EXPECT_TRUE(contains(error_of([&] { MultiLevelBody b(press.sphere, {4, 16}); }), "must decrease"));
  EXPECT_TRUE(contains(error_of([&] { MultiLevelBody b(press.sphere, {1}); }), "must decrease"));
  EXPECT_TRUE(contains(error_of([&] { MultiLevelBody b(press.sphere, {100000}); }), "too few for a surface"));
  const MultiLevelBody two(press.sphere, {8}), three(press.ground, {16, 4});
  EXPECT_TRUE(contains(error_of([&] { resolve_multi_level(two, press.E_w_sphere, three, RigidPose<double>(), 0.01); }),
                       "has 2 levels"));
  EXPECT_TRUE(contains(error_of([&] { resolve_multi_level(two, press.E_w_sphere, two, RigidPose<double>(), -1); }),
                       "tolerance must be finite"));
  EXPECT_TRUE(contains(error_of([&] { resolve_multi_level(three, press.E_w_sphere, three, RigidPose<double>(), 0, {}, -1); }),
                       "max_levels must be >= 0"));
  EXPECT_TRUE(contains(error_of([&] { interpolate_field(three.levels()[0], {0, 1}, Eigen::VectorXd::Zero(3), three.levels()[1]); }),
                       "one value per node"));
  EXPECT_TRUE(contains(error_of([&] { interpolate_field(three.levels()[0], {-1}, Eigen::VectorXd::Zero(1), three.levels()[1]); }),
                       "each node a sample"));
}

}  // namespace
}  // namespace contactref::quasi_rigid
