// Contact entry (Kry & Pai Section 3.6): a free body touching body 2 becomes
// a contact state. References: the free body of a contact state maps back
// to the same q and q' (the forward map is Eqs. 9-14, the inverse reads psi
// off the frames and projects the twist: two different computations), and a
// ball on a plane in closed form: the plane's point moves with the centre
// (u', v') = (v_x, v_y), the slip is v + omega x (-r e_z), and the discarded
// normal velocity is v_z.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/dynamics/contact_entry.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "tests/reference/dynamics/sphere_on_plane.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;
using su::Vec2;

using contactref::test::one_patch;

template <class T>
void expect_round_trip() {
  const su::PatchComplex<T> ellipsoid = one_patch<T>(std::make_unique<su::EllipsoidPatch<T>>(Vec3<T>(T(0.3), T(0.2), T(0.1))));
  const su::PatchComplex<T> torus = one_patch<T>(std::make_unique<su::TorusPatch<T>>(T(1), T(0.25)));
  Mat4<T> E_w_2 = Mat4<T>::Identity();
  E_w_2.template topLeftCorner<3, 3>() = Eigen::AngleAxis<T>(T(0.4), Vec3<T>(1, 2, 3).normalized()).toRotationMatrix();
  E_w_2.template topRightCorner<3, 1>() = Vec3<T>(T(0.1), T(-0.2), T(0.3));
  const ContactSystem<T> system{T(2), Mat3<T>(Vec3<T>(T(0.01), T(0.02), T(0.03)).asDiagonal()), &ellipsoid, &torus,
                                E_w_2, Vec3<T>(0, 0, T(-9.81)), {}};
  for (const T& psi : {T(0.3), T(-2.5), T(3)}) {
    ContactState<T> state;
    state.q << T(1.1), T(0.7), T(0.4), T(0.9), psi;  // the torus's outer side (t = 0.9 < pi/2)
    state.qdot << T(0.3), T(-0.2), T(0.5), T(0.1), T(-0.7);
    const SimulationSample<T> sample = sample_state(system, state, T(0));
    spatial::RigidBodyState<T> body;
    body.x_w = sample.com_w;
    body.q_w_b = Eigen::Quaternion<T>(sample.R_w_1);
    body.v_w = sample.com_velocity_w;
    body.omega_w = sample.omega_w;
    const ContactEntry<T> entry = contact_entry(system, body, T(2), 0, Vec2<T>(state.q.template head<2>()), 0,
                                                Vec2<T>(state.q.template segment<2>(2)));
    // Round-off of a few pose products and one 5 x 5 solve with O(1)
    // entries: 1e4 eps.
    const T tol = T(1e4) * epsilon<T>();
    EXPECT_LT((entry.state.q - state.q).norm(), tol) << entry.state.q.transpose();
    EXPECT_LT((entry.state.qdot - state.qdot).norm(), tol) << entry.state.qdot.transpose();
    EXPECT_LT(entry.snap_distance, tol);
    using std::sqrt;
    EXPECT_LT(entry.snap_rotation, T(1e2) * sqrt(epsilon<T>()));  // acos-like: the angle of a rotation near I
    using std::abs;
    EXPECT_LT(abs(entry.normal_velocity), tol);
    EXPECT_EQ(entry.state.time, T(2));
  }
}

TEST(ContactEntry, TheFreeBodyOfAContactStateMapsBackToItInDouble) { expect_round_trip<double>(); }
#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(ContactEntry, TheFreeBodyOfAContactStateMapsBackToItIn50Digits) { expect_round_trip<Real50>(); }
#endif

TEST(ContactEntry, BallOnAPlaneTakesTheCentresVelocityAndDiscardsTheNormalOne) {
  const double r = 0.1;
  const su::PatchComplex<double> ball = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(r, r, r)));
  const su::PatchComplex<double> plane = one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  const ContactSystem<double> system{1.0, Mat3<double>::Identity() * 0.4 * r * r, &ball, &plane,
                                     Mat4<double>::Identity(), Vec3<double>(0, 0, -9.81), {}};
  spatial::RigidBodyState<double> body;
  body.x_w = Vec3<double>(0.5, -0.25, r + 1e-9);  // a nanometre above: snapped down
  body.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3<double>(1, 1, 0).normalized()));
  body.v_w = Vec3<double>(1.5, -0.5, -0.3);
  body.omega_w = Vec3<double>(2, 3, -4);
  // The ball's lowest point in its own chart: the body's -z world axis in body coordinates.
  const Vec3<double> down_b = body.R_w_b().transpose() * Vec3<double>(0, 0, -1);
  const double s = std::acos(down_b.x()), t = std::atan2(down_b.z(), down_b.y());
  const ContactEntry<double> entry = contact_entry(system, body, 0.0, 0, Vec2<double>(s, t), 0, Vec2<double>(0.5, -0.25));
  EXPECT_NEAR(entry.state.qdot(2), 1.5, 1e-12);
  EXPECT_NEAR(entry.state.qdot(3), -0.5, 1e-12);
  EXPECT_NEAR(entry.normal_velocity, -0.3, 1e-12);
  EXPECT_NEAR(entry.snap_distance, 1e-9, 1e-12);
  const SimulationSample<double> sample = sample_state(system, entry.state, 0.0);
  const Vec3<double> slip = body.v_w + body.omega_w.cross(Vec3<double>(0, 0, -r));
  EXPECT_NEAR(sample.slip_speed, slip.head<2>().norm(), 1e-12);
  EXPECT_NEAR((sample.omega_w - body.omega_w).norm(), 0, 1e-12);
  EXPECT_NEAR(sample.com_w.z(), r, 1e-15);
}

}  // namespace
}  // namespace contactref::dynamics
