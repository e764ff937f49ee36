// The synthetic foot (validation/fixtures/synthetic_foot.hpp), against its own
// implicit function F as the independent reference:
//  - the samples lie on F = 0 with the normals grad F / |grad F|, no two
//    closer than the spacing;
//  - the gradient is F's (central differences);
//  - the shape: heel and ball at z = 0, the medial arch raised, five toes;
//  - the point-sampled surface's MLS inside/outside test agrees with the sign
//    of F away from the surface (a closed shape with creases and toes);
//  - the sole's response stays positive definite where the toes curve
//    within the near field (the eigenvalues of its symmetric part);
//  - bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <Eigen/Eigenvalues>

#include "reference/quasi_rigid/block_pivoting.hpp"
#include "reference/quasi_rigid/mls_surface.hpp"
#include "reference/quasi_rigid/quasi_rigid_body.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/sanitized.hpp"
#include "validation/fixtures/synthetic_foot.hpp"

namespace contactref::fixtures {
namespace {

TEST(SyntheticFoot, SamplesLieOnTheSurfaceWithItsNormalsAndSpacing) {
  const double spacing = 0.004;
  const quasi_rigid::SurfaceSamples foot = sample_foot(spacing);
  ASSERT_GT(foot.points.size(), 2000u);
  double lowest = 1e300;
  for (std::size_t k = 0; k < foot.points.size(); ++k) {
    EXPECT_LT(std::abs(foot_implicit(foot.points[k])), 1e-12);
    EXPECT_LT((foot.normals[k] - foot_gradient(foot.points[k]).normalized()).norm(), 1e-12);
    lowest = std::min(lowest, foot.points[k].z());
  }
  EXPECT_NEAR(lowest, 0, 1e-3);  // the heel and the ball touch z = 0 (within the blend's rounding)
  // The gradient against central differences of F.
  const Eigen::Vector3d x(0.1, 0.01, 0.02);
  Eigen::Vector3d difference;
  for (int axis = 0; axis < 3; ++axis) {
    const Eigen::Vector3d step = 1e-7 * Eigen::Vector3d::Unit(axis);
    difference(axis) = (foot_implicit(x + step) - foot_implicit(x - step)) / 2e-7;
  }
  EXPECT_LT((difference - foot_gradient(x)).norm(), 1e-7);
  // Area: about 0.6 area / spacing^2 samples (Poisson disks); the foot's area
  // is 0.05 to 0.07 m^2 (a 26 cm foot).
  const double n = static_cast<double>(foot.points.size());
  EXPECT_GT(n, 0.05 / (std::numbers::pi * spacing * spacing));
  EXPECT_LT(n, 0.07 / (std::numbers::pi * spacing * spacing / 4));
}

TEST(SyntheticFoot, HeelBallAndToesTouchTheGroundAndTheArchDoesNot) {
  // The sole's height under (x, y): bisection on F between a point inside
  // the foot at height `inside` and one below the ground.
  const auto sole = [](double x, double y, double inside) {
    EXPECT_LT(foot_implicit({x, y, inside}), 0);
    double low = -0.01, high = inside;
    for (int i = 0; i < 60; ++i) {
      const double mid = (low + high) / 2;
      (foot_implicit({x, y, mid}) > 0 ? low : high) = mid;
    }
    return high;
  };
  EXPECT_LT(sole(0.045, 0.0, 0.03), 5e-4);      // heel
  EXPECT_LT(sole(0.185, 0.005, 0.02), 5e-4);    // ball
  EXPECT_LT(sole(0.238, 0.030, 0.015), 1.5e-3); // big toe
  EXPECT_GT(sole(0.115, 0.030, 0.05), 0.01);    // medial arch, raised
}

TEST(SyntheticFoot, MlsInsideOutsideAgreesWithTheImplicitFunction) {
  const double spacing = test::kSanitized ? 0.006 : 0.004;
  const quasi_rigid::MlsSurface surface(sample_foot(spacing));
  std::mt19937_64 rng(3);
  int checked = 0;
  const int wanted = test::kSanitized ? 60 : 300;
  for (int i = 0; i < 4000 && checked < wanted; ++i) {
    const Eigen::Vector3d x(-0.01 + 0.28 * quasi_rigid::unit_uniform(rng()), -0.06 + 0.12 * quasi_rigid::unit_uniform(rng()),
                            -0.01 + 0.16 * quasi_rigid::unit_uniform(rng()));
    const double F = foot_implicit(x);
    if (std::abs(F) < 2 * spacing || std::abs(F) > 0.02) continue;  // away from the surface, but near it
    ++checked;
    EXPECT_EQ(surface.signed_distance(x) < 0, F < 0) << x.transpose();
  }
  EXPECT_EQ(checked, wanted);
}

// The sole's response at 2.6 mm, where the toes (radii 9-16 mm) get a few
// samples per radius of curvature. A near field of 4 spacings (10-15 mm) in
// the tangent plane folds a toe onto it; that response had a negative
// eigenvalue (sym(A R): -2e-15 against 1.3e-13) and block pivoting cycled.
// The near field cut where the normals turn (near_field_radius) keeps
// A R's symmetric part positive definite (independent check: its
// eigenvalues), and block pivoting solves the sole's LCP.
TEST(SyntheticFoot, SoleResponseStaysPositiveDefiniteWhereTheToesCurveWithinTheNearField) {
  const quasi_rigid::QuasiRigidBody foot(sample_foot(2.6e-3), quasi_rigid::Material{1e6, 0.45});
  const auto& points = foot.surface().samples().points;
  std::vector<int> sole;
  int cut = 0;
  for (int k = 0; k < static_cast<int>(points.size()); ++k) {
    if (points[static_cast<std::size_t>(k)].z() >= 2e-3) continue;
    sole.push_back(k);
    if (foot.sampling().near_field_radius(k, 4) < 4 * foot.sampling().spacing()(k)) ++cut;
  }
  EXPECT_GT(cut, 0);  // the toes' near fields are cut
  for (const auto kind : {quasi_rigid::ResponseKernel::Kind::kBoussinesq, quasi_rigid::ResponseKernel::Kind::kVolumePreserving}) {
    const Eigen::MatrixXd R = foot.sampling().response(sole, {kind, 1e-7, 0.01}, 4);
    Eigen::VectorXd a(R.rows()), q(R.rows());
    for (Eigen::Index k = 0; k < R.rows(); ++k) {
      a(k) = foot.sampling().areas()(sole[static_cast<std::size_t>(k)]);
      q(k) = points[static_cast<std::size_t>(sole[static_cast<std::size_t>(k)])].z() - 1.5e-3;
    }
    const Eigen::MatrixXd AR = a.asDiagonal() * R;
    const Eigen::VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>((AR + AR.transpose()) / 2).eigenvalues();
    EXPECT_GT(eigenvalues.minCoeff(), 1e-3 * eigenvalues.maxCoeff());
    EXPECT_NO_THROW(quasi_rigid::solve_lcp_block_pivoting<double>(R, q));
  }
}

TEST(SyntheticFoot, RefusesAbsurdSpacings) {
  EXPECT_TRUE(test::contains(test::error_of([] { sample_foot(1e-5); }), "spacing must be in [0.3 mm, 2 cm]"));
  EXPECT_TRUE(test::contains(test::error_of([] { sample_foot(std::nan("")); }), "spacing must be in"));
}

}  // namespace
}  // namespace contactref::fixtures
