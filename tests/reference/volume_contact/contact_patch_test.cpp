// The contact patch (reference/volume_contact/contact_patch.hpp, Bouchard et
// al. Section 4.2, Appendix A) against independent references:
//  - a box pressed into a floor: the intersection is a cuboid, whose
//    covariance is V L_i^2 / 12 per axis (closed form), so the ellipse's
//    semi-axes are sqrt(5 / 12) times the cuboid's edges, the normal is the
//    floor's, the centre the cuboid's;
//  - the same scene rotated: the patch rotates with it (equivariance);
//  - the projection of a tilted ellipsoid onto the tangent plane against a
//    brute-force projection of points on its surface (the support function);
//  - the limiting cases: a thin bar across the floor (a rod), a sunken cube
//    (a bulky volume);
//  - degenerate and bad input: B inside A (no normal), disjoint solids, an
//    absurd threshold.
#include "reference/volume_contact/contact_patch.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <random>

#include "core/errors.hpp"
#include "tests/kit/errors.hpp"
#include "validation/fixtures/halfspace_box.hpp"

namespace contactref::volume_contact {
namespace {

namespace rg = contactref::robust_geometry;
using Eigen::Vector3d;

// The floor: A = [-1, 1]^2 x [-1, 0], its top face at z = 0.
rg::TriangleSolid floor_box() { return fixtures::box_solid({-1, -1, -1}, {1, 1, 0}); }

ContactPatch patch_of(const rg::TriangleSolid& a, const rg::TriangleSolid& b,
                      const RigidPose<double>& pose_b = RigidPose<double>()) {
  return contact_patch(rg::intersection_moments(a, b, pose_b));
}

TEST(ContactPatch, BoxPressedIntoAFloorGivesTheCuboidsEllipseAlongTheFloorsNormal) {
  const double half_x = 0.3, half_y = 0.2, depth = 0.01;
  const ContactPatch patch = patch_of(floor_box(), fixtures::box_solid({-half_x, -half_y, -depth}, {half_x, half_y, 0.5}));
  const double k = std::sqrt(5.0 / 12.0);  // cuboid edge to equivalent-ellipsoid semi-axis
  EXPECT_NEAR((patch.normal_a - Vector3d::UnitZ()).norm(), 0, 1e-14);
  EXPECT_NEAR((patch.centre_a - Vector3d(0, 0, -depth / 2)).norm(), 0, 1e-14);
  EXPECT_NEAR(patch.ellipse_semi_axes(0), k * 2 * half_x, 1e-13);
  EXPECT_NEAR(patch.ellipse_semi_axes(1), k * 2 * half_y, 1e-13);
  EXPECT_NEAR(patch.ellipsoid_semi_axes(0), k * depth, 1e-13);
  EXPECT_NEAR(std::abs(patch.frame_a.col(0).dot(Vector3d::UnitX())), 1, 1e-14);  // major axis along x
  EXPECT_NEAR((patch.frame_a.transpose() * patch.frame_a - Eigen::Matrix3d::Identity()).norm(), 0, 1e-14);
  EXPECT_NEAR(patch.frame_a.determinant(), 1, 1e-14);
  EXPECT_EQ(patch.shape, PatchShape::kSheet);
}

TEST(ContactPatch, RotatingTheSceneRotatesThePatch) {
  const double half_x = 0.3, half_y = 0.2, depth = 0.01;
  const rg::TriangleSolid b = fixtures::box_solid({-half_x, -half_y, -depth}, {half_x, half_y, 0.5});
  const ContactPatch level = patch_of(floor_box(), b);
  // B turned and moved with the pose E_a_b: the patch of the floor and the
  // turned B equals the level patch seen in a frame where the floor turned
  // the other way; here simply: turn B about the floor's normal, which must
  // turn the ellipse's axes and keep everything else.
  const double angle = 0.7;
  const ContactPatch turned =
      patch_of(floor_box(), b, RigidPose<double>::from_axis_angle(angle, Vector3d::UnitZ(), Vector3d::Zero(), "pose"));
  EXPECT_NEAR((turned.normal_a - level.normal_a).norm(), 0, 1e-13);
  EXPECT_NEAR((turned.ellipse_semi_axes - level.ellipse_semi_axes).norm(), 0, 1e-13);
  const Vector3d expected_major = Eigen::AngleAxisd(angle, Vector3d::UnitZ()) * level.frame_a.col(0);
  EXPECT_NEAR(std::abs(turned.frame_a.col(0).dot(expected_major)), 1, 1e-13);
}

TEST(ContactPatch, TiltedEllipsoidProjectsAsTheBruteForceShadowOfItsSurface) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> gauss;
  for (int trial = 0; trial < 4; ++trial) {
    rg::IntersectionMoments m;
    m.kind = rg::IntersectionKind::kOverlapping;
    m.volume = 2e-3;
    Eigen::Matrix3d L;
    for (int i = 0; i < 9; ++i) L(i / 3, i % 3) = 0.1 * gauss(rng);
    m.covariance = L * L.transpose() + 1e-4 * Eigen::Matrix3d::Identity();
    m.gradient << 0, 0, 0, gauss(rng), gauss(rng), gauss(rng);
    const ContactPatch patch = contact_patch(m);
    // Points on the equivalent ellipsoid's surface, x = S^(1/2) u, projected
    // onto the plane: their extent along each in-plane direction w is the
    // ellipse's support function sqrt(w^T S_plane w), largest along the major
    // axis (the semi-axis) and smallest along the minor one.
    const Eigen::Matrix3d S = 5.0 / m.volume * m.covariance;
    const Eigen::Matrix3d root = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(S).operatorSqrt();
    double along_major = 0, along_minor = 0;
    for (int k = 0; k < 200000; ++k) {
      const Vector3d u = Vector3d(gauss(rng), gauss(rng), gauss(rng)).normalized();
      const Vector3d x = root * u;
      along_major = std::max(along_major, x.dot(patch.frame_a.col(0)));
      along_minor = std::max(along_minor, x.dot(patch.frame_a.col(1)));
    }
    // 200,000 directions: the maximum is within about 1e-4 of the supremum.
    EXPECT_NEAR(along_major / patch.ellipse_semi_axes(0), 1, 2e-3) << "trial " << trial;
    EXPECT_NEAR(along_minor / patch.ellipse_semi_axes(1), 1, 2e-3) << "trial " << trial;
    EXPECT_NEAR(patch.frame_a.col(2).dot(-m.gradient.tail<3>().normalized()), 1, 1e-14);
  }
}

TEST(ContactPatch, AThinBarIsARodAndASunkenCubeIsBulky) {
  const ContactPatch bar = patch_of(floor_box(), fixtures::box_solid({-0.5, -0.01, -0.005}, {0.5, 0.01, 0.1}));
  EXPECT_EQ(bar.shape, PatchShape::kRod);
  EXPECT_NEAR(bar.ellipse_semi_axes(1) / bar.ellipse_semi_axes(0), 0.02, 1e-12);  // its width over its length
  const ContactPatch sunk = patch_of(floor_box(), fixtures::box_solid({-0.1, -0.1, -0.15}, {0.1, 0.1, 0.05}));
  EXPECT_EQ(sunk.shape, PatchShape::kBulk);
  EXPECT_STREQ(to_string(PatchShape::kRod), "skinny rod");
}

TEST(ContactPatch, RefusesBInsideADisjointSolidsAndAnAbsurdThreshold) {
  const rg::TriangleSolid inside = fixtures::box_solid({-0.1, -0.1, -0.5}, {0.1, 0.1, -0.3});
  EXPECT_TRUE(test::contains(test::message_of<ComputationError>([&] { patch_of(floor_box(), inside); }),
                             "no contact normal"));
  const rg::TriangleSolid above = fixtures::box_solid({-0.1, -0.1, 0.5}, {0.1, 0.1, 0.6});
  EXPECT_TRUE(test::contains(test::error_of([&] { patch_of(floor_box(), above); }), "has no volume (disjoint)"));
  const rg::IntersectionMoments m = rg::intersection_moments(floor_box(), fixtures::box_solid({-0.1, -0.1, -0.01}, {0.1, 0.1, 0.1}),
                                                             RigidPose<double>());
  EXPECT_TRUE(test::contains(test::error_of([&] { contact_patch(m, {1.5}); }), "thin must lie in (0, 1)"));
}

}  // namespace
}  // namespace contactref::volume_contact
