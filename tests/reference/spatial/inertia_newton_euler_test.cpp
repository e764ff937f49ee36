// Tests of reference/spatial/spatial_inertia.hpp and newton_euler.hpp (Kry &
// Pai Eq. 15): the parallel-axis theorem, the component form of the
// Newton-Euler equations at the centre of mass, frame independence, and
// conservation of energy and momentum at the derivative level.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "reference/spatial/free_body.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scalars.hpp"

namespace contactref::spatial {
namespace {

using test::matrices_near;
using test::tolerance;

template <class T>
class SpatialDynamics : public ::testing::Test {};
using test::Scalars;
TYPED_TEST_SUITE(SpatialDynamics, Scalars);

// Box inertias are at most m (a^2 + b^2) / 12 < 5 * 8 / 12 and masses <= 5, so
// entries of M are O(1)-O(10); the bounds below carry a conditioning factor
// of 100 for products with translations of size ~3.
constexpr double kDynamicsCond = 100;

// Parallel-axis theorem: moving the frame by p (no rotation) gives the
// rotational block I + m (|p|^2 1 - p p^T); rotating it by R gives R^T I R.
TYPED_TEST(SpatialDynamics, InertiaTransformIsTheParallelAxisTheorem) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 20);
  for (int n = 0; n < 20; ++n) {
    const auto [m, I] = test::random_inertia<T>(rng);
    const Vec3<T> p = test::random_vector3<T>(rng);
    const Mat6<T> M_c = spatial_inertia_at_com(m, I);
    const Mat6<T> M_j = transform_inertia<T>(make_pose<T>(Mat3<T>::Identity(), p), M_c);
    const Mat3<T> steiner = I + m * (p.squaredNorm() * Mat3<T>::Identity() - p * p.transpose());
    EXPECT_TRUE(matrices_near(Mat3<T>(M_j.template topLeftCorner<3, 3>()), steiner, tolerance<T>(64, kDynamicsCond)));
    EXPECT_TRUE(matrices_near(Mat3<T>(M_j.template topRightCorner<3, 3>()), Mat3<T>(m * skew(p).transpose()),
                              tolerance<T>(64, kDynamicsCond)));
    const Mat3<T> R = test::random_rotation<T>(rng);
    const Mat6<T> M_r = transform_inertia<T>(make_pose<T>(R, Vec3<T>::Zero()), M_c);
    EXPECT_TRUE(matrices_near(Mat3<T>(M_r.template topLeftCorner<3, 3>()), Mat3<T>(R.transpose() * I * R),
                              tolerance<T>(64, kDynamicsCond)));
  }
}

TYPED_TEST(SpatialDynamics, KineticEnergyIsFrameIndependent) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 21);
  for (int n = 0; n < 20; ++n) {
    const auto [m, I] = test::random_inertia<T>(rng);
    const Mat4<T> E_c_j = test::random_pose<T>(rng);
    const Vec6<T> phi_j = test::random_twist<T>(rng);
    const Mat6<T> M_c = spatial_inertia_at_com(m, I);
    const T energy_j = kinetic_energy<T>(transform_inertia(E_c_j, M_c), phi_j);
    const T energy_c = kinetic_energy<T>(M_c, adjoint(E_c_j) * phi_j);
    EXPECT_TRUE(test::scalars_near(energy_j, energy_c, tolerance<T>(256, kDynamicsCond)));
  }
}

// At the centre of mass Eq. 15 reads I dw = tau - w x I w, m dv = F - m w x v.
TYPED_TEST(SpatialDynamics, NewtonEulerComponentFormAtTheCentreOfMass) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 22);
  for (int n = 0; n < 20; ++n) {
    const auto [m, I] = test::random_inertia<T>(rng);
    const RigidBodyInertia<T> body(m, I);
    const Vec6<T> phi = test::random_twist<T>(rng, 3.0), f = test::random_twist<T>(rng, 10.0);
    const Vec3<T> w = phi.template head<3>(), v = phi.template tail<3>();
    const Vec6<T> dphi = body_acceleration(body.M_factor, body.M_b, phi, f);
    const Vec3<T> dw = I.ldlt().solve(Vec3<T>(f.template head<3>() - w.cross(I * w)));
    const Vec3<T> dv = f.template tail<3>() / m - w.cross(v);
    // The solves are as well conditioned as I (aspect ratio of the boxes <= 10: cond(I) <= 100).
    EXPECT_TRUE(matrices_near(Vec3<T>(dphi.template head<3>()), dw, tolerance<T>(256, 100 * kDynamicsCond)));
    EXPECT_TRUE(matrices_near(Vec3<T>(dphi.template tail<3>()), dv, tolerance<T>(256, kDynamicsCond)));
    EXPECT_TRUE(matrices_near(newton_euler_wrench<T>(body.M_b, phi, dphi), f, tolerance<T>(256, 100 * kDynamicsCond)));
  }
}

// Eq. 15 in another body-fixed frame j (M_j, phi_j = Ad_j_c phi_c,
// f_j = Ad_j_c^-T f_c) gives the same acceleration: dphi_j = Ad_j_c dphi_c.
TYPED_TEST(SpatialDynamics, NewtonEulerIsFrameIndependent) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 23);
  for (int n = 0; n < 20; ++n) {
    const auto [m, I] = test::random_inertia<T>(rng);
    const Mat4<T> E_c_j = test::random_pose<T>(rng);
    const Mat4<T> E_j_c = pose_inverse(E_c_j);
    const Mat6<T> M_c = spatial_inertia_at_com(m, I);
    const Mat6<T> M_j = transform_inertia(E_c_j, M_c);
    const Vec6<T> phi_c = test::random_twist<T>(rng, 3.0), f_c = test::random_twist<T>(rng, 10.0);
    const Vec6<T> dphi_c = body_acceleration(Eigen::LLT<Mat6<T>>(M_c), M_c, phi_c, f_c);
    const Vec6<T> dphi_j =
        body_acceleration<T>(Eigen::LLT<Mat6<T>>(M_j), M_j, adjoint(E_j_c) * phi_c, wrench_adjoint(E_j_c) * f_c);
    EXPECT_TRUE(matrices_near(dphi_j, Vec6<T>(adjoint(E_j_c) * dphi_c), tolerance<T>(1024, 100 * kDynamicsCond)));
  }
}

// Torque-free: dE/dt = phi^T M dphi = 0 and the world-frame momentum
// h_w = Ad_w_b^-T M phi has d h_w/dt = d(Ad^-T)/dt M phi + Ad^-T M dphi = 0,
// with d(Ad^-T)/dt = -Ad^-T (dAd)^T Ad^-T, evaluated exactly from the
// derivative (no integration).
TYPED_TEST(SpatialDynamics, TorqueFreeMotionConservesEnergyAndMomentum) {
  using T = TypeParam;
  test::Rng rng(test::kSeed + 24);
  for (int n = 0; n < 20; ++n) {
    const auto [m, I] = test::random_inertia<T>(rng);
    const RigidBodyInertia<T> body(m, I);
    const Mat4<T> E_w_b = test::random_pose<T>(rng);
    const Vec6<T> phi = test::random_twist<T>(rng, 3.0);
    const Vec6<T> dphi = body_acceleration<T>(body.M_factor, body.M_b, phi, Vec6<T>::Zero());
    const T dE = phi.dot(body.M_b * dphi);
    const T energy = kinetic_energy<T>(body.M_b, phi);
    EXPECT_TRUE(test::scalars_near(T(dE / energy), T(0), tolerance<T>(256, 100 * kDynamicsCond), test::kAbsolute));
    const Mat6<T> AdT = wrench_adjoint(E_w_b);
    const Mat6<T> dAd = adjoint_derivative<T>(E_w_b, E_w_b * hat(phi));
    const Vec6<T> dh = -AdT * dAd.transpose() * AdT * (body.M_b * phi) + AdT * (body.M_b * dphi);
    const T h = spatial_momentum(E_w_b, body.M_b, phi).norm();
    EXPECT_TRUE(matrices_near(Vec6<T>(dh / h), Vec6<T>::Zero(), tolerance<T>(1024, 100 * kDynamicsCond), test::kAbsolute));
  }
}

TEST(SpatialInertiaInput, RejectsNonPhysicalInertiasWithAMessage) {
  const Mat3<double> I = Vec3<double>(2, 3, 4).asDiagonal();
  const auto message_of = [](auto&& call) {
    try {
      call();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message_of([&] { spatial_inertia_at_com(-1.0, I); }).find("mass must be a finite positive"), std::string::npos);
  EXPECT_NE(message_of([&] { spatial_inertia_at_com(std::nan(""), I); }).find("mass"), std::string::npos);
  Mat3<double> bad = I;
  bad(0, 1) = 0.5;
  EXPECT_NE(message_of([&] { spatial_inertia_at_com(1.0, bad); }).find("not symmetric"), std::string::npos);
  bad = I;
  bad(2, 2) = std::numeric_limits<double>::infinity();
  EXPECT_NE(message_of([&] { spatial_inertia_at_com(1.0, bad); }).find("non-finite"), std::string::npos);
  EXPECT_NE(message_of([&] { spatial_inertia_at_com(1.0, Mat3<double>(Vec3<double>(1, -1, 1).asDiagonal())); })
                .find("not positive definite"),
            std::string::npos);
  EXPECT_NE(message_of([&] { spatial_inertia_at_com(1.0, Mat3<double>(Vec3<double>(1, 1, 3).asDiagonal())); })
                .find("triangle inequality"),
            std::string::npos);
  // A rod's inertia (a zero moment) in any axes: the closed-form eigenvalue
  // comes out as round-off (about 1e-19 for some), which is not a moment.
  // A thin needle whose smallest moment is far above round-off is accepted.
  const Mat3<double> rod = Vec3<double>(0, 0.004, 0.004).asDiagonal();
  for (const Vec3<double>& axis : {Vec3<double>(1, 0, 0), Vec3<double>(1, 2, 3), Vec3<double>(-3, 1, 0.5)}) {
    const Mat3<double> R = Eigen::AngleAxisd(0.7, axis.normalized()).toRotationMatrix();
    const Mat3<double> I_rod = R * rod * R.transpose();
    EXPECT_NE(message_of([&] { spatial_inertia_at_com(1.0, Mat3<double>((I_rod + I_rod.transpose()) / 2)); })
                  .find("not positive definite"),
              std::string::npos)
        << axis.transpose();
  }
  EXPECT_NO_THROW(spatial_inertia_at_com(1.0, Mat3<double>(Vec3<double>(1e-12, 1, 1).asDiagonal())));
  // A flat plate (I1 + I2 = I3 exactly) is a physical limit and is accepted.
  EXPECT_NO_THROW(spatial_inertia_at_com(1.0, Mat3<double>(Vec3<double>(1, 2, 3).asDiagonal())));
}

}  // namespace
}  // namespace contactref::spatial
