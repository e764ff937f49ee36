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
//  - the support region: a box over a beam's edge: the part of its face
//    over the beam, to round-off (the ellipse reaches 0.145 of the region's
//    width past it); a box tilted onto its edge: a strip along the edge as
//    wide as the wedge's shadow, depth / tan(tilt);
//  - degenerate and bad input: B inside A (no normal), disjoint solids, an
//    absurd threshold, a support region without the intersection's vertices.
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

ContactPatch support_patch_of(const rg::TriangleSolid& a, const rg::TriangleSolid& b,
                              const RigidPose<double>& pose_b = RigidPose<double>()) {
  rg::IntersectionOptions keep;
  keep.keep_vertices = true;
  PatchOptions options;
  options.region = PatchRegion::kSupport;
  return contact_patch(rg::intersection_moments(a, b, pose_b, keep), options);
}

// The support region's extent along a unit direction of the patch plane (A's frame), from the patch centre.
double reach(const ContactPatch& patch, const Vector3d& direction_a) {
  const Eigen::Vector2d d = patch.frame_a.leftCols<2>().transpose() * direction_a;
  double most = -1;
  for (const Eigen::Vector2d& v : patch.support.vertices) most = std::max(most, v.dot(d));
  return most;
}

TEST(ContactPatch, TheSupportRegionOfABoxOverABeamsEdgeIsThePartOfItsFaceOverTheBeam) {
  // The beam [0.85, 1] x [-1, 1] x [-1, 0] under the box [0.8, 1.2] x
  // [-0.2, 0.2] sunk by 0.01: the intersection is [0.85, 1] x [-0.2, 0.2] x
  // [-0.01, 0] and only the box's bottom face lies inside the beam (a floor
  // reaching under the box's side face would tilt the normal by that face's
  // area over the bottom's), so the region is the box's face over the beam,
  // to the round-off of its corners.
  const ContactPatch patch = support_patch_of(fixtures::box_solid({0.85, -1, -1}, {1, 1, 0}),
                                              fixtures::box_solid({0.8, -0.2, -0.01}, {1.2, 0.2, 0.5}));
  EXPECT_NEAR((patch.normal_a - Vector3d::UnitZ()).norm(), 0, 1e-15);
  ASSERT_EQ(patch.support.vertices.size(), 4u);
  EXPECT_NEAR(patch.support.area, 0.15 * 0.4, 1e-15);
  EXPECT_NEAR(patch.support.centroid.norm(), 0, 1e-15);  // the patch centre is the slab's centroid
  EXPECT_NEAR(reach(patch, Vector3d::UnitX()), 0.075, 1e-15);  // to the beam's edge
  EXPECT_NEAR(reach(patch, -Vector3d::UnitX()), 0.075, 1e-15);
  EXPECT_NEAR(reach(patch, Vector3d::UnitY()), 0.2, 1e-15);
  // The paper's ellipse, computed all the same (the frame, the shape): along
  // x, sqrt(5/12) of the region's width from the centre, 0.022 m past the edge.
  EXPECT_NEAR(patch.ellipse_semi_axes(1), std::sqrt(5.0 / 12.0) * 0.15, 1e-13);
  EXPECT_NEAR(patch.ellipse_semi_axes(0), std::sqrt(5.0 / 12.0) * 0.4, 1e-13);
}

TEST(ContactPatch, TheSupportRegionOfATiltedBoxIsTheStripAlongItsEdge) {
  // A box turned by theta about y and lowered so that its edge sinks by
  // `depth`: the wedge below z = 0 has the shadow [-depth / tan(theta), 0]
  // across the edge (in the edge's frame), and the box's length along it.
  const double theta = 0.2, depth = 0.002, half = 0.1;
  const Eigen::Matrix3d R = Eigen::AngleAxisd(theta, Vector3d::UnitY()).toRotationMatrix();
  const Vector3d edge_b(half, 0, -half);  // the edge's middle, in the box's frame (lowest along x after turning by +theta)
  const Vector3d t = Vector3d(0, 0, -depth) - R * edge_b;
  const ContactPatch patch = support_patch_of(floor_box(), fixtures::box_solid({-half, -half, -half}, {half, half, half}),
                                              RigidPose<double>::from_matrix([&] {
                                                Eigen::Matrix4d E = Eigen::Matrix4d::Identity();
                                                E.topLeftCorner<3, 3>() = R;
                                                E.topRightCorner<3, 1>() = t;
                                                return E;
                                              }(), "tilted box"));
  const double width = depth / std::tan(theta) + depth * std::tan(theta);  // the bottom face's and the side's shadows
  EXPECT_NEAR(patch.support.area, width * 2 * half, 1e-12);
  EXPECT_NEAR(reach(patch, Vector3d::UnitY()) + reach(patch, -Vector3d::UnitY()), 2 * half, 1e-12);
  EXPECT_NEAR(reach(patch, Vector3d::UnitX()) + reach(patch, -Vector3d::UnitX()), width, 1e-12);
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
  EXPECT_TRUE(test::contains(test::error_of([&] { contact_patch(m, {0.1, PatchRegion::kSupport}); }), "keep_vertices"));
}

}  // namespace
}  // namespace contactref::volume_contact
