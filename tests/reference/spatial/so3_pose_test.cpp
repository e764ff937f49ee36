// Tests of reference/spatial/so3.hpp and pose.hpp: Eqs. 1-3 of Kry & Pai and
// the exponential maps, in double and in 50 digits.
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

// exp(X) by its Taylor series in 50 digits, summed until the term is below
// 1e-60 |X|: an independent reference for the closed forms.
template <int N>
Eigen::Matrix<Real50, N, N> matrix_exponential_series(const Eigen::Matrix<Real50, N, N>& X) {
  Eigen::Matrix<Real50, N, N> sum = Eigen::Matrix<Real50, N, N>::Identity();
  Eigen::Matrix<Real50, N, N> term = sum;
  for (int k = 1; term.norm() > Real50("1e-60"); ++k) {
    term = (term * X / Real50(k)).eval();
    sum += term;
  }
  return sum;
}

template <class T>
class SpatialPose : public ::testing::Test {};
using test::Scalars;
TYPED_TEST_SUITE(SpatialPose, Scalars);

TYPED_TEST(SpatialPose, SkewIsTheCrossProduct) {
  using T = TypeParam;
  test::Rng rng(test::kSeed);
  for (int n = 0; n < 20; ++n) {
    const Vec3<T> w = test::random_vector3<T>(rng), x = test::random_vector3<T>(rng);
    // Each entry of [w] x is a two-term sum, as is each entry of w.cross(x).
    EXPECT_TRUE(matrices_near(Vec3<T>(skew(w) * x), Vec3<T>(w.cross(x)), tolerance<T>(4)));
    EXPECT_TRUE(matrices_near(Mat3<T>(skew(w) + skew(w).transpose()), Mat3<T>::Zero(), T(0), test::kAbsolute));
  }
}

TYPED_TEST(SpatialPose, UnskewInvertsSkewAndProjectsOntoSo3) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 1);
  const Vec3<T> w = test::random_vector3<T>(rng);
  EXPECT_TRUE(matrices_near(unskew<T>(skew(w)), w, T(0), test::kAbsolute));  // exact: x - (-x) over 2
  Mat3<T> S = test::to_scalar<T>(fixtures::random_rotation(rng));
  S = (S + S.transpose()).eval();  // symmetric: no so(3) part
  EXPECT_TRUE(matrices_near(unskew<T>(S), Vec3<T>::Zero(), tolerance<T>(2), test::kAbsolute));
  EXPECT_TRUE(matrices_near(unskew<T>(Mat3<T>(skew(w) + S)), w, tolerance<T>(4)));
}

TYPED_TEST(SpatialPose, VeeOfHatIsIdentityAndVeeProjects) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 2);
  for (int n = 0; n < 20; ++n) {
    const Vec6<T> phi = test::random_twist<T>(rng);
    EXPECT_TRUE(matrices_near(vee<T>(hat(phi)), phi, T(0), test::kAbsolute));  // V(O(phi)) = phi, exactly
    // Adding a symmetric part and a bottom row does not change V.
    Mat4<T> Y = hat(phi);
    Y.template topLeftCorner<3, 3>() += Mat3<T>::Identity() * T(3) + Mat3<T>::Ones();
    Y.row(3) << T(1), T(2), T(3), T(4);
    EXPECT_TRUE(matrices_near(vee<T>(Y), phi, tolerance<T>(4)));
  }
}

TYPED_TEST(SpatialPose, PoseInverseIsTheMatrixInverse) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 3);
  for (int n = 0; n < 20; ++n) {
    const Mat4<T> E = test::random_pose<T>(rng, 3.0);
    // Entries of E^-1 E are 3-term dot products of unit-scale rotations with
    // translations up to 3 sqrt(3): ~16 roundings, scaled by |p| <= 6.
    EXPECT_TRUE(matrices_near(Mat4<T>(pose_inverse(E) * E), Mat4<T>::Identity(), tolerance<T>(16, 6)));
    EXPECT_TRUE(matrices_near(pose_inverse(E), Mat4<T>(E.inverse()), tolerance<T>(64, 6)));
  }
}

TYPED_TEST(SpatialPose, So3ExpIsARotation) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 4);
  for (double scale : {1e-9, 1e-3, 0.5, 3.0}) {
    const Mat3<T> R = so3_exp(test::random_vector3<T>(rng, scale));
    EXPECT_TRUE(matrices_near(Mat3<T>(R.transpose() * R), Mat3<T>::Identity(), tolerance<T>(16)));
    EXPECT_TRUE(test::scalars_near(T(R.determinant()), T(1), tolerance<T>(32)));
  }
}

// The closed forms against the 50-digit Taylor series of the matrix
// exponential, from tiny to large rotation angles (the series branch of
// x_minus_sin_over_x3 below 1, the direct formula above).
TYPED_TEST(SpatialPose, Se3ExpMatchesTheMatrixExponentialSeries) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 5);
  for (double scale : {0.0, 1e-12, 1e-6, 1e-3, 0.3, 0.57, 0.58, 1.0, 2.5}) {
    for (int n = 0; n < 4; ++n) {
      const Vec6<double> phi = fixtures::random_twist(rng, scale);
      const Mat4<Real50> reference = matrix_exponential_series<4>(hat<Real50>(test::to_scalar<Real50>(phi)));
      const Mat4<T> closed_form = se3_exp<T>(test::to_scalar<T>(phi));
      // The closed form is backward stable: ~40 roundings in entries of size
      // up to |v| (1 + theta), theta <= 2.5 sqrt(3).
      EXPECT_TRUE(matrices_near(closed_form.template cast<Real50>().eval(), reference,
                                Real50(tolerance<T>(64, 6)))) << "scale " << scale;
    }
  }
}

// d/dt E = E O(phi) with phi = V(E^-1 dE/dt) the body twist (Eq. 4), along
// E(t) = E0 exp(t A) exp(t^2 B), whose body twist is
// phi(t) = Ad(exp(-t^2 B)) a + 2 t b. dE/dt by 50-digit central differences.
TEST(SpatialPoseDerivative, BodyTwistAgainstFiniteDifferences) {
  test::Rng rng(test::kSeed + 6);
  for (int n = 0; n < 10; ++n) {
    const Mat4<Real50> E0 = test::random_pose<Real50>(rng);
    const Vec6<Real50> a = test::random_twist<Real50>(rng), b = test::random_twist<Real50>(rng);
    const Real50 t = test::to_scalar<Real50>(fixtures::uniform(rng, -1.0, 1.0));
    const auto E = [&](const Real50& tau) { return Mat4<Real50>(E0 * se3_exp<Real50>(tau * a) * se3_exp<Real50>(tau * tau * b)); };
    const Mat4<Real50> dE = test::central_difference(E, t);
    const Mat4<Real50> B_pose = se3_exp<Real50>(t * t * b);
    const Vec6<Real50> phi = adjoint_inverse(B_pose) * a + 2 * t * b;
    EXPECT_TRUE(matrices_near(dE, Mat4<Real50>(E(t) * hat(phi)), test::finite_difference_tolerance(10)));
    EXPECT_TRUE(matrices_near(body_twist<Real50>(E(t), dE), phi, test::finite_difference_tolerance(10)));
  }
}

}  // namespace
}  // namespace contactref::spatial
