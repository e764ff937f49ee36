// Tests of reference/spatial/adjoint.hpp (Kry & Pai Section 2), each against a
// definition that does not use the code under test: group and inverse
// properties, conjugation of twist matrices, power invariance, the Lie
// bracket, and 50-digit finite differences for the time derivative.
#include <gtest/gtest.h>

#include <Eigen/LU>

#include "reference/spatial/adjoint.hpp"
#include "tests/kit/finite_difference.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scalars.hpp"

namespace contactref::spatial {
namespace {

using test::matrices_near;
using test::tolerance;

template <class T>
class SpatialAdjoint : public ::testing::Test {};
using test::Scalars;
TYPED_TEST_SUITE(SpatialAdjoint, Scalars);

// Poses have unit rotations and translations up to sqrt(3) per component, so
// products of two Adjoints have entries up to ~10 and ~20 roundings each.
constexpr double kProductOps = 64;
constexpr double kTranslationScale = 4;

TYPED_TEST(SpatialAdjoint, IsAHomomorphism) {  // Ad(E1 E2) = Ad(E1) Ad(E2)
  using T = TypeParam;
  test::Rng rng(test::kSeed + 10);
  for (int n = 0; n < 20; ++n) {
    const Mat4<T> E1 = test::random_pose<T>(rng), E2 = test::random_pose<T>(rng);
    EXPECT_TRUE(matrices_near(adjoint<T>(E1 * E2), Mat6<T>(adjoint(E1) * adjoint(E2)),
                              tolerance<T>(kProductOps, kTranslationScale)));
  }
}

TYPED_TEST(SpatialAdjoint, InverseIsTheAdjointOfTheInverse) {  // Ad(E)^-1 = Ad(E^-1)
  using T = TypeParam;
  test::Rng rng(test::kSeed + 11);
  for (int n = 0; n < 20; ++n) {
    const Mat4<T> E = test::random_pose<T>(rng);
    EXPECT_TRUE(matrices_near(adjoint_inverse(E), adjoint<T>(pose_inverse(E)), tolerance<T>(kProductOps, kTranslationScale)));
    EXPECT_TRUE(matrices_near(Mat6<T>(adjoint_inverse(E) * adjoint(E)), Mat6<T>::Identity(),
                              tolerance<T>(kProductOps, kTranslationScale)));
    // Against a general LU inverse of the 6x6 matrix.
    EXPECT_TRUE(matrices_near(adjoint_inverse(E), Mat6<T>(adjoint(E).inverse()), tolerance<T>(256, kTranslationScale)));
  }
}

// The matrix-free transforms equal the products with the 6x6 matrices.
TYPED_TEST(SpatialAdjoint, MatrixFreeTransformsMatchTheMatrices) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 18);
  for (int n = 0; n < 20; ++n) {
    const Mat4<T> E = test::random_pose<T>(rng);
    const Vec6<T> phi = test::random_twist<T>(rng);
    EXPECT_TRUE(matrices_near(transform_twist(E, phi), Vec6<T>(adjoint(E) * phi), tolerance<T>(16, kTranslationScale)));
    EXPECT_TRUE(matrices_near(transform_wrench(E, phi), Vec6<T>(wrench_adjoint(E) * phi), tolerance<T>(16, kTranslationScale)));
  }
}

// The same for twists in the columns of a 6 x 5 Jacobian, and for the rate
// d/dt (Ad X) = dAd X + Ad dX along dE = E O(psi).
TYPED_TEST(SpatialAdjoint, MatrixFreeJacobianTransformsMatchTheMatrices) {
  using T = TypeParam;
  using Mat65 = Eigen::Matrix<T, 6, 5>;
  test::Rng rng(test::kSeed + 19);
  for (int n = 0; n < 20; ++n) {
    const Mat4<T> E = test::random_pose<T>(rng);
    const Mat4<T> dE = E * hat<T>(test::random_twist<T>(rng));
    Mat65 X, dX;
    for (int c = 0; c < 5; ++c) {
      X.col(c) = test::random_twist<T>(rng);
      dX.col(c) = test::random_twist<T>(rng);
    }
    EXPECT_TRUE(matrices_near(transform_twist(E, X), Mat65(adjoint(E) * X), tolerance<T>(16, kTranslationScale)));
    // dE's entries are sums of a few products of unit-size entries: a few more roundings.
    EXPECT_TRUE(matrices_near(transform_twist_rate(E, dE, X, dX),
                              Mat65(adjoint_derivative(E, dE) * X + adjoint(E) * dX),
                              tolerance<T>(kProductOps, kTranslationScale)));
  }
}

// The definition of Ad: O(Ad_j_i phi) = E_j_i O(phi) E_j_i^-1.
TYPED_TEST(SpatialAdjoint, ConjugatesTwistMatrices) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 12);
  for (int n = 0; n < 20; ++n) {
    const Mat4<T> E = test::random_pose<T>(rng);
    const Vec6<T> phi = test::random_twist<T>(rng);
    EXPECT_TRUE(matrices_near(hat<T>(adjoint(E) * phi), Mat4<T>(E * hat(phi) * pose_inverse(E)),
                              tolerance<T>(kProductOps, kTranslationScale)));
  }
}

// Power f . phi is the same in every frame: f_j = Ad^-T f_i, phi_j = Ad phi_i.
TYPED_TEST(SpatialAdjoint, PowerIsFrameIndependent) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 13);
  for (int n = 0; n < 20; ++n) {
    const Mat4<T> E = test::random_pose<T>(rng);
    const Vec6<T> phi = test::random_twist<T>(rng), f = test::random_twist<T>(rng);
    EXPECT_TRUE(matrices_near(wrench_adjoint(E), Mat6<T>(adjoint_inverse(E).transpose()), T(0), test::kAbsolute));
    const T power_i = f.dot(phi);
    const T power_j = (wrench_adjoint(E) * f).dot(adjoint(E) * phi);
    // Terms of size up to ~10 summed over 6 products after 2 matrix products.
    EXPECT_TRUE(test::scalars_near(power_j, power_i, tolerance<T>(kProductOps, 10)));
  }
}

// [phi] psi is the Lie bracket: O([phi] psi) = O(phi) O(psi) - O(psi) O(phi).
TYPED_TEST(SpatialAdjoint, CrossProductIsTheLieBracket) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 14);
  for (int n = 0; n < 20; ++n) {
    const Vec6<T> phi = test::random_twist<T>(rng), psi = test::random_twist<T>(rng);
    const Mat4<T> bracket = hat(phi) * hat(psi) - hat(psi) * hat(phi);
    EXPECT_TRUE(matrices_near(hat<T>(spatial_cross(phi) * psi), bracket, tolerance<T>(16)));
    EXPECT_TRUE(matrices_near(Vec6<T>(spatial_cross(phi) * phi), Vec6<T>::Zero(), tolerance<T>(4), test::kAbsolute));
  }
}

// The dual keeps power invariant, and Ad [phi] Ad^-1 = [Ad phi].
TYPED_TEST(SpatialAdjoint, DualCrossProductAndEquivariance) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 15);
  for (int n = 0; n < 20; ++n) {
    const Mat4<T> E = test::random_pose<T>(rng);
    const Vec6<T> phi = test::random_twist<T>(rng), psi = test::random_twist<T>(rng), f = test::random_twist<T>(rng);
    EXPECT_TRUE(matrices_near(spatial_cross_dual(phi), Mat6<T>(-spatial_cross(phi).transpose()), T(0), test::kAbsolute));
    const T sum = (spatial_cross_dual(phi) * f).dot(psi) + f.dot(spatial_cross(phi) * psi);
    EXPECT_TRUE(test::scalars_near(sum, T(0), tolerance<T>(32, 3), test::kAbsolute));
    EXPECT_TRUE(matrices_near(Mat6<T>(adjoint(E) * spatial_cross(phi) * adjoint_inverse(E)),
                              spatial_cross<T>(adjoint(E) * phi), tolerance<T>(4 * kProductOps, kTranslationScale)));
  }
}

// d/dt Ad(E(t)) (thesis Eq. 4.18) against 50-digit central differences of
// Ad(E(t)) along E(t) = E0 exp(t A) exp(t^2 B), and against Ad(E) [phi]
// with phi the body twist.
TEST(SpatialAdjointDerivative, AgainstFiniteDifferences) {
  test::Rng rng(test::kSeed + 16);
  for (int n = 0; n < 10; ++n) {
    const Mat4<Real50> E0 = test::random_pose<Real50>(rng);
    const Vec6<Real50> a = test::random_twist<Real50>(rng), b = test::random_twist<Real50>(rng);
    const Real50 t = test::to_scalar<Real50>(fixtures::uniform(rng, -1.0, 1.0));
    const auto E = [&](const Real50& tau) { return Mat4<Real50>(E0 * se3_exp<Real50>(tau * a) * se3_exp<Real50>(tau * tau * b)); };
    const Mat4<Real50> dE = test::central_difference(E, t);
    const Mat6<Real50> dAd_fd = test::central_difference([&](const Real50& tau) { return adjoint<Real50>(E(tau)); }, t);
    EXPECT_TRUE(matrices_near(adjoint_derivative<Real50>(E(t), dE), dAd_fd, test::finite_difference_tolerance(10)));
    const Vec6<Real50> phi = body_twist<Real50>(E(t), dE);
    EXPECT_TRUE(matrices_near(adjoint_derivative<Real50>(E(t), dE), Mat6<Real50>(adjoint<Real50>(E(t)) * spatial_cross(phi)),
                              test::finite_difference_tolerance(10)));
  }
}

// In double, the derivative formula for an exact dE = E O(phi) matches the
// 50-digit value of Ad(E) [phi].
TEST(SpatialAdjointDerivative, DoubleAgainst50Digits) {
  test::Rng rng(test::kSeed + 17);
  for (int n = 0; n < 20; ++n) {
    const Mat4<double> E = fixtures::random_pose(rng);
    const Vec6<double> phi = fixtures::random_twist(rng);
    const Mat6<double> dAd = adjoint_derivative<double>(E, E * hat(phi));
    const Mat4<Real50> E50 = test::to_scalar<Real50>(E);
    const Mat6<Real50> reference = adjoint(E50) * spatial_cross<Real50>(test::to_scalar<Real50>(phi));
    EXPECT_TRUE(matrices_near(dAd.cast<Real50>().eval(), reference, Real50(tolerance<double>(kProductOps, kTranslationScale))));
  }
}

}  // namespace
}  // namespace contactref::spatial
