// The surface-separation oracle (validation/oracles/surface_separation.hpp)
// against closed forms: a sphere and a rotated ellipsoid over a plane at known
// heights (separated, touching, penetrating), the contact pose of Kry & Pai's
// Eq. 9, a surface with inward normals, and bad input.
#include <gtest/gtest.h>

#include <boost/math/constants/constants.hpp>
#include <cmath>

#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/spatial/pose.hpp"
#include "reference/spatial/so3.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/tolerance.hpp"
#include "validation/oracles/surface_separation.hpp"

namespace contactref::oracles {
namespace {

namespace su = contactref::surfaces;
using Vec3d = Vec3<double>;
using Mat3d = Mat3<double>;
using Mat4d = Mat4<double>;

// A flat bicubic Bezier net on [-1.5, 1.5]^2 at z = 0 in its body frame,
// normal +z (the App. B.1 floor of the bowl suite).
su::PatchComplex<double> flat_floor() {
  std::array<Vec3d, 16> control;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) control[std::size_t(4 * i + j)] = Vec3d(-1.5 + i, -1.5 + j, 0);
  su::PatchComplex<double> floor;
  floor.patches.push_back(std::make_unique<su::BezierPatch<double>>(control));
  return floor;
}

template <class P, class... Args>
su::PatchComplex<double> single(Args&&... args) {
  su::PatchComplex<double> complex;
  complex.patches.push_back(std::make_unique<P>(std::forward<Args>(args)...));
  return complex;
}

// The closed form for an ellipsoid with semi-axes D (body frame, centred) at
// rotation R and centre c in the frame of a plane z = 0 with normal +z: its
// lowest point is c - A e_z / sqrt(e_z' A e_z) with A = R D^2 R', at height
// c_z - sqrt(e_z' A e_z) (the support function of the ellipsoid).
struct LowestPoint {
  Vec3d point;
  double height;
};
LowestPoint lowest_point(const Vec3d& semi_axes, const Mat3d& R, const Vec3d& c) {
  const Mat3d A = R * semi_axes.cwiseAbs2().asDiagonal() * R.transpose();
  const double support = std::sqrt(A(2, 2));
  return {c - A.col(2) / support, c.z() - support};
}

// Expects the oracle's answer for an ellipsoid at (R, c) in the floor's frame,
// the floor at E_w_2: the distance within the oracle's own round-off bound
// plus the closed form's (16 roundings of the coordinates), and the lowest
// point within that bound plus the angle's (a point on a curved surface moves
// by the radius of curvature times the normal's error; the radii here are at
// most a_max^2 / a_min = 0.84 m).
void expect_closed_form(const SurfaceSeparationOracle& oracle, const Vec3d& semi_axes, const Mat3d& R, const Vec3d& c,
                        const Mat4d& E_w_2, const std::string& where) {
  const Mat4d E_w_1 = E_w_2 * spatial::make_pose<double>(R, c);
  const SurfaceSeparation s = oracle(E_w_1, E_w_2);
  const LowestPoint expected = lowest_point(semi_axes, R, c);
  const double scale = c.norm() + semi_axes.maxCoeff() + spatial::translation_of<double>(E_w_2).norm();
  const double closed_form = test::tolerance<double>(16) * scale;
  EXPECT_NEAR(s.signed_distance, expected.height, s.distance_roundoff + closed_form) << where;
  EXPECT_LE(s.normal_angle, s.angle_roundoff) << where;
  const Vec3d expected_w = (E_w_2 * expected.point.homogeneous()).head<3>();
  EXPECT_LE((s.p1_w - expected_w).norm(), s.distance_roundoff + closed_form + s.angle_roundoff) << where;
  // The foot on the plane is below the lowest point.
  const Vec3d foot_w = (E_w_2 * Vec3d(expected.point.x(), expected.point.y(), 0).homogeneous()).head<3>();
  EXPECT_LE((s.p2_w - foot_w).norm(), s.distance_roundoff + closed_form + s.angle_roundoff) << where;
  // Round-off bounds of a few hundred eps times the scene's size, not more.
  EXPECT_LT(s.distance_roundoff, 1e-11) << where;
}

TEST(SurfaceSeparation, SphereAboveOnAndIntoAPlaneAtKnownHeights) {
  const double r = 0.5;
  const su::PatchComplex<double> sphere = single<su::EllipsoidPatch<double>>(Vec3d(r, r, r));
  const su::PatchComplex<double> floor = flat_floor();
  const SurfaceSeparationOracle oracle(sphere, floor);
  test::Rng rng(test::kSeed + 41);
  for (int n = 0; n < 5; ++n) {
    const Mat4d E_w_2 = test::random_pose<double>(rng);  // the plane anywhere in the world
    const Mat3d R = test::random_rotation<double>(rng);  // the sphere's chart turned anyhow
    for (const double height : {r + 0.2, r, r - 0.1}) {
      const Vec3d c(fixtures::uniform(rng, -0.8, 0.8), fixtures::uniform(rng, -0.8, 0.8), height);
      expect_closed_form(oracle, Vec3d(r, r, r), R, c, E_w_2, "sample " + std::to_string(n) + ", height " +
                                                                   std::to_string(height));
    }
  }
}

TEST(SurfaceSeparation, RotatedEllipsoidOverAPlaneMatchesItsSupportFunction) {
  const Vec3d axes(0.5, 0.4, 0.3);
  const su::PatchComplex<double> ellipsoid = single<su::EllipsoidPatch<double>>(axes);
  const su::PatchComplex<double> floor = flat_floor();
  const SurfaceSeparationOracle oracle(ellipsoid, floor);
  test::Rng rng(test::kSeed + 42);
  for (int n = 0; n < 8; ++n) {
    const Mat4d E_w_2 = test::random_pose<double>(rng);
    const Mat3d R = test::random_rotation<double>(rng);
    const double support = std::sqrt((R * axes.cwiseAbs2().asDiagonal() * R.transpose())(2, 2));
    for (const double gap : {0.05, 0.0, -0.02}) {
      const Vec3d c(fixtures::uniform(rng, -0.8, 0.8), fixtures::uniform(rng, -0.8, 0.8), support + gap);
      expect_closed_form(oracle, axes, R, c, E_w_2, "sample " + std::to_string(n) + ", gap " + std::to_string(gap));
    }
  }
}

// Kry & Pai's Eq. 9 pose E_2_1(q) puts the ellipsoid on the plane, touching
// at c(s, t) with opposed normals; tilting it about the contact point by
// 1e-3 rad makes it penetrate by the closed form's depth. The oracle sees
// both without the contact coordinates.
TEST(SurfaceSeparation, FindsTheContactOfKryPaiPosesAndThePenetrationOfATiltedOne) {
  const Vec3d axes(0.5, 0.4, 0.3);
  const su::EllipsoidPatch<double> patch1(axes);
  const su::PatchComplex<double> ellipsoid = single<su::EllipsoidPatch<double>>(axes);
  const su::PatchComplex<double> floor = flat_floor();
  const SurfaceSeparationOracle oracle(ellipsoid, floor);
  test::Rng rng(test::kSeed + 43);
  for (int n = 0; n < 8; ++n) {
    kinematics::Vec5<double> q;
    q << fixtures::uniform(rng, 0.4, 2.7), fixtures::uniform(rng, -3, 3), fixtures::uniform(rng, 0.3, 0.7),
        fixtures::uniform(rng, 0.3, 0.7), fixtures::uniform(rng, -3, 3);
    const Mat4d E_2_1 = kinematics::contact_kinematics<double>(patch1, *floor.patches[0], q,
                                                               kinematics::Vec5<double>::Zero())
                            .E_2_1;
    const SurfaceSeparation touching = oracle(E_2_1, Mat4d::Identity());
    EXPECT_LE(std::abs(touching.signed_distance), touching.distance_roundoff) << "sample " << n;
    EXPECT_LE(touching.normal_angle, touching.angle_roundoff) << "sample " << n;
    // The tilt about the contact point p = E_2_1 c(s, t), about the x axis.
    const Vec3d p = (E_2_1 * patch1.evaluate(q(0), q(1)).c().homogeneous()).head<3>();
    const Mat3d tilt = spatial::so3_exp<double>(Vec3d(1e-3, 0, 0));
    const Mat3d R = tilt * spatial::rotation_of<double>(E_2_1);
    const Vec3d c = p + tilt * (spatial::translation_of<double>(E_2_1) - p);
    expect_closed_form(oracle, axes, R, c, Mat4d::Identity(), "tilted sample " + std::to_string(n));
    EXPECT_LT(oracle(spatial::make_pose<double>(R, c), Mat4d::Identity()).signed_distance, -1e-9);
  }
}

// The ellipsoid with s and t exchanged: the same surface with inward normals.
class InsideOutEllipsoid final : public su::Patch<double> {
 public:
  explicit InsideOutEllipsoid(const Vec3d& axes)
      : inner_(axes), domain_(su::Domain<double>::make_chart(inner_.domain().t, inner_.domain().s)) {}
  su::PatchJet<double> evaluate(const double& s, const double& t) const override {
    const su::PatchJet<double> jet = inner_.evaluate(t, s);
    su::PatchJet<double> swapped;
    for (int k = 0; k < su::kJetSize; ++k) {
      const auto [i, j] = su::kJetOrders[std::size_t(k)];
      swapped.d.col(k) = jet.d.col(su::jet_index(j, i));
    }
    return swapped;
  }
  const su::Domain<double>& domain() const override { return domain_; }
  std::string describe() const override { return "inside-out ellipsoid"; }

 private:
  su::EllipsoidPatch<double> inner_;
  su::Domain<double> domain_;
};

TEST(SurfaceSeparation, InwardNormalsMeetTheFloorsAtAnAngleOfPi) {
  const su::PatchComplex<double> inside_out = single<InsideOutEllipsoid>(Vec3d(0.5, 0.4, 0.3));
  const su::PatchComplex<double> floor = flat_floor();
  const SurfaceSeparationOracle oracle(inside_out, floor);
  const SurfaceSeparation s = oracle(spatial::make_pose<double>(Mat3d::Identity(), Vec3d(0.1, 0.2, 0.3)),
                                     Mat4d::Identity());
  EXPECT_NEAR(s.signed_distance, 0.0, s.distance_roundoff + test::tolerance<double>(16));  // the lowest point, z = 0.3 - 0.3
  EXPECT_GE(s.normal_angle, boost::math::constants::pi<double>() - s.angle_roundoff);
}

TEST(SurfaceSeparationInput, UnboundedChartsAndZeroResolutionAreInputErrors) {
  const su::PatchComplex<double> plane = single<su::PlanePatch<double>>();
  const su::PatchComplex<double> floor = flat_floor();
  const std::string unbounded = test::error_of([&] { SurfaceSeparationOracle(plane, floor); });
  EXPECT_TRUE(test::contains(unbounded, "InputError")) << unbounded;
  EXPECT_TRUE(test::contains(unbounded, "plane has an unbounded parameter range")) << unbounded;
  const std::string resolution = test::error_of([&] { SurfaceSeparationOracle(floor, floor, 0); });
  EXPECT_TRUE(test::contains(resolution, "resolution")) << resolution;
}

}  // namespace
}  // namespace contactref::oracles
