// core/rigid_pose.hpp: the constructors against closed forms (a quarter turn,
// Rodrigues' formula written out), the group laws by their definition
// (inverse, composition applied to points), in double and in 50 digits, and
// every refusal with its message.
#include "core/rigid_pose.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "tests/kit/errors.hpp"

namespace contactref {
namespace {

template <class T>
class CoreRigidPose : public ::testing::Test {};
using Scalars = ::testing::Types<double, Real50>;
TYPED_TEST_SUITE(CoreRigidPose, Scalars);

// A quarter turn about z takes x to y and y to -x (closed form), then the
// translation is added.
TYPED_TEST(CoreRigidPose, AQuarterTurnAboutZTakesXToY) {
  using T = TypeParam;
  const T half_pi = boost::math::constants::half_pi<T>();
  const auto E_j_i = RigidPose<T>::from_axis_angle(half_pi, Vec3<T>(0, 0, 5), Vec3<T>(1, 2, 3), "pose");
  const T tolerance = 8 * epsilon<T>();  // cos(pi/2) rounded, and one addition
  EXPECT_LE((E_j_i * Vec3<T>(1, 0, 0) - Vec3<T>(1, 3, 3)).norm(), tolerance);
  EXPECT_LE((E_j_i * Vec3<T>(0, 1, 0) - Vec3<T>(0, 2, 3)).norm(), tolerance);
  EXPECT_EQ(E_j_i.translation(), Vec3<T>(1, 2, 3));
  EXPECT_EQ(E_j_i.matrix().row(3), Vec4<T>(0, 0, 0, 1).transpose());
}

// Rodrigues' formula written out, R = I + sin(t) [k] + (1 - cos(t)) [k]^2,
// against the rotation-vector constructor, for a generic vector.
TYPED_TEST(CoreRigidPose, TheRotationVectorGivesRodriguesFormula) {
  using T = TypeParam;
  const Vec3<T> r(T(0.3), T(-1.1), T(0.7));
  const T angle = r.norm();
  const Vec3<T> k = r / angle;
  Mat3<T> K;
  K << 0, -k.z(), k.y(), k.z(), 0, -k.x(), -k.y(), k.x(), 0;
  using std::cos, std::sin;
  const Mat3<T> expected = Mat3<T>::Identity() + sin(angle) * K + (1 - cos(angle)) * K * K;
  const auto E = RigidPose<T>::from_rotation_vector(r, Vec3<T>::Zero(), "pose");
  EXPECT_LE((E.rotation() - expected).cwiseAbs().maxCoeff(), 16 * epsilon<T>());
  // A zero vector is the identity rotation, exactly.
  EXPECT_EQ(RigidPose<T>::from_rotation_vector(Vec3<T>::Zero(), Vec3<T>(1, 2, 3), "pose").rotation(),
            Mat3<T>::Identity());
}

// E * E^-1 = I and (E_k_j * E_j_i) x = E_k_j (E_j_i x), to round-off.
TYPED_TEST(CoreRigidPose, InverseAndCompositionFollowTheirDefinitions) {
  using T = TypeParam;
  const auto E_j_i = RigidPose<T>::from_axis_angle(T(0.9), Vec3<T>(1, 2, -2), Vec3<T>(T(0.5), -1, 2), "E_j_i");
  const auto E_k_j = RigidPose<T>::from_rotation_vector(Vec3<T>(T(-0.4), T(0.2), T(1.3)), Vec3<T>(3, 0, 1), "E_k_j");
  const T tolerance = 64 * epsilon<T>();  // a few products of entries of size <= 3
  EXPECT_LE(((E_j_i * E_j_i.inverse()).matrix() - Mat4<T>::Identity()).cwiseAbs().maxCoeff(), tolerance);
  EXPECT_LE(((E_j_i.inverse() * E_j_i).matrix() - Mat4<T>::Identity()).cwiseAbs().maxCoeff(), tolerance);
  const Vec3<T> x_i(T(0.25), T(-2), T(1.5));
  EXPECT_LE(((E_k_j * E_j_i) * x_i - E_k_j * (E_j_i * x_i)).norm(), tolerance);
  // A composed pose is still a rotation to round-off: it passes the check.
  EXPECT_NO_THROW(RigidPose<T>::from_matrix((E_k_j * E_j_i).matrix(), "product"));
}

// from_matrix keeps the entries exactly as given (exact geometry applies them
// exactly), and refuses what is not a rigid transform.
TEST(CoreRigidPoseFromMatrix, KeepsTheEntriesAndRefusesWhatIsNotRigid) {
  Mat4<double> E = Mat4<double>::Identity();
  E.topLeftCorner<3, 3>() = Eigen::AngleAxisd(0.3, Vec3<double>(0, 0, 1)).toRotationMatrix();
  E.topRightCorner<3, 1>() = Vec3<double>(0.1, 0.2, 0.3);
  EXPECT_EQ(RigidPose<double>::from_matrix(E, "pose_b").matrix(), E);

  const Mat4<double> I = Mat4<double>::Identity();
  const auto message = [](const Mat4<double>& bad) {
    return test::message_of<InputError>([&] { RigidPose<double>::from_matrix(bad, "pose_b"); });
  };
  Mat4<double> scaled = I;
  scaled(0, 0) = 2;
  EXPECT_EQ(message(scaled), "pose_b: the 3x3 block is not a rotation: |R^T R - I|_max = 3 > 1e-9");
  Mat4<double> sheared = I;
  sheared(0, 1) = 1e-8;  // just beyond what round-off could give
  EXPECT_NE(message(sheared).find("not a rotation"), std::string::npos);
  sheared(0, 1) = 1e-12;  // round-off of a rotation computed in double is far below this
  EXPECT_NO_THROW(RigidPose<double>::from_matrix(sheared, "pose_b"));
  Mat4<double> reflected = I;
  reflected(2, 2) = -1;
  EXPECT_EQ(message(reflected), "pose_b: the 3x3 block is a reflection (det < 0)");
  Mat4<double> bottom = I;
  bottom(3, 0) = 1e-3;
  EXPECT_EQ(message(bottom), "pose_b: the last row is not (0, 0, 0, 1)");
  Mat4<double> infinite = I;
  infinite(1, 3) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message(infinite), "pose_b: has a non-finite entry");
}

TEST(CoreRigidPoseFromParts, RefusesNonFiniteNumbersZeroAxesAndOverlongVectors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto message = [](auto make) { return test::message_of<InputError>(make); };
  EXPECT_EQ(message([&] { RigidPose<double>::from_axis_angle(1, Vec3<double>::Zero(), Vec3<double>::Zero(), "rotate"); }),
            "rotate: the rotation axis is zero");
  EXPECT_EQ(message([&] { RigidPose<double>::from_axis_angle(nan, Vec3<double>(0, 0, 1), Vec3<double>::Zero(), "rotate"); }),
            "rotate: has a non-finite number");
  EXPECT_EQ(message([&] { RigidPose<double>::from_translation(Vec3<double>(0, nan, 0), "offset"); }),
            "offset: has a non-finite number");
  // |r|^2 overflows here; |r| itself does not, and any finite vector is a
  // rotation (the angle's reduction modulo 2 pi is exact in std::cos).
  const auto huge = RigidPose<double>::from_rotation_vector(Vec3<double>(1e200, 1e200, 0), Vec3<double>::Zero(), "--pose-b");
  EXPECT_NO_THROW(RigidPose<double>::from_matrix(huge.matrix(), "huge"));
  EXPECT_NEAR(huge.rotation()(0, 1), huge.rotation()(1, 0), 1e-15);  // the axis lies in the xy plane: R_01 = R_10
  // A tiny axis is normalised, not refused.
  const auto tiny = RigidPose<double>::from_axis_angle(std::numbers::pi / 2, Vec3<double>(0, 0, 1e-300), Vec3<double>::Zero(), "rotate");
  EXPECT_NEAR(tiny.rotation()(1, 0), 1.0, 1e-15);
}

}  // namespace
}  // namespace contactref
