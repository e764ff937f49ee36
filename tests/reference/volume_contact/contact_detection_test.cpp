// Contact detection for the simulator (reference/volume_contact/
// contact_detection.hpp, rigid_body.hpp) against independent references:
//  - the uniform mass properties of a box against the closed form
//    (V = 8 hx hy hz, I = m/3 diag(hy^2 + hz^2, ...));
//  - the patch's area (the volume's rate along the normal) against central
//    differences of the exact intersection volume, between two meshes (the
//    convex clipping route, boxes being convex) and against a ground (the
//    half-space route);
//  - two stacked boxes of one footprint, turned by 1e-13 rad: the smoothed
//    normal stays vertical where the exact gradient's tilts by 0.03 rad;
//  - two boxes at general angles: the exact gradient is kept, and central
//    differences of the exact volume agree with it;
//  - a box pressed into the ground: the patch frame, centre and normal
//    (from the box into the ground) in world coordinates;
//  - the point model's contacts for that box: its four bottom corners, with
//    the ground's normal;
//  - the full volume gradient (post-stabilisation's direction along the
//    gradient) against central differences of the exact volume under rigid
//    moves of the mesh, between two meshes and against the ground on both of
//    its paths (the half-space within the slab's footprint, the slab's mesh
//    at its edge);
//  - the ground is its slab (issue 29 item 12): a box straddling the slab's
//    edge has the closed-form volume of its part over the slab, and a box
//    past it has no contact in either model;
//  - the point model's gaps (issue 29 item 11): each corner's height above
//    the ground, a level box's exactly, a tilted box's within cos^2 of it;
//  - the convex clipping's contacts against the exact corefinement's
//    (issue 34 item 3), pair by pair;
//  - detection on two threads (issue 34 item 4) against one thread: the same
//    contacts to the bit, and the first pair's error.
#include "reference/volume_contact/contact_detection.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <utility>

#include "core/threads.hpp"
#include "tests/kit/errors.hpp"
#include "validation/fixtures/bumpy_cube.hpp"
#include "validation/fixtures/volume_contact_scenes.hpp"
#include "tests/reference/volume_contact/box_soup.hpp"

namespace contactref::volume_contact {
namespace {

// The box [-hx, hx] x [-hy, hy] x [-hz, hz].
using test::box_soup;

RigidBody box_body(const std::string& name, double hx, double hy, double hz, double mass) {
  RigidBody body;
  body.name = name;
  body.shape = std::make_shared<const BodyShape>(box_soup(hx, hy, hz));
  body.mass = mass;
  body.I_com_b = uniform_solid(body.shape->triangles, mass).mass.I_com_b;
  return body;
}

RigidBody ground_body() {
  RigidBody body;
  body.name = "ground";
  PolygonSoup slab = box_soup(2, 2, 0.5);
  for (Eigen::Vector3d& x : slab.vertices) x.z() -= 0.5;
  body.shape = std::make_shared<const BodyShape>(std::move(slab));
  body.ground_w = robust_geometry::HalfSpace{Eigen::Vector3d::UnitZ(), 0};
  return body;
}

TEST(MassProperties, ABoxHasTheClosedFormVolumeCentroidAndInertia) {
  const double hx = 0.3, hy = 0.2, hz = 0.1, mass = 2.5;
  const UniformSolid p = uniform_solid(BodyShape(box_soup(hx, hy, hz)).triangles, mass);
  // Round-off of sums of products of coordinates <= 0.3 m: tens of ulps.
  EXPECT_NEAR(p.volume, 8 * hx * hy * hz, 64 * 2.2e-16 * (8 * hx * hy * hz));
  EXPECT_LT(p.centroid.norm(), 64 * 0.3 * 2.2e-16);
  const Eigen::Matrix3d expected =
      (mass / 3 * Eigen::Vector3d(hy * hy + hz * hz, hx * hx + hz * hz, hx * hx + hy * hy)).asDiagonal();
  EXPECT_LT((p.mass.I_com_b - expected).norm(), 64 * 2.2e-16 * expected.norm());
  EXPECT_TRUE(test::contains(test::error_of([] { uniform_solid(BodyShape(box_soup(1, 1, 1)).triangles, 0); }),
                             "mass must be finite and > 0"));
}

// V after moving body k by the twist (dtheta; dx) in its own axes about its
// centre of mass: R_w_b -> R_w_b exp(dtheta), x_w -> x_w + R_w_b dx.
double volume_after_move(std::vector<RigidBody> bodies, int k, const Vector6d& move) {
  RigidBody& body = bodies[std::size_t(k)];
  body.x_w += body.R_w_b() * move.tail<3>();
  const double angle = move.head<3>().norm();
  if (angle > 0) body.q_w_b = body.q_w_b * Eigen::Quaterniond(Eigen::AngleAxisd(angle, move.head<3>() / angle));
  const std::vector<VolumeContact> contacts = detect_volume_contacts(bodies);
  return contacts.empty() ? 0 : contacts[0].volume;
}

// V after moving body k along the world direction d by s.
double volume_after(const std::vector<RigidBody>& bodies, int k, const Eigen::Vector3d& d, double s) {
  Vector6d move = Vector6d::Zero();
  move.tail<3>() = bodies[std::size_t(k)].R_w_b().transpose() * (s * d);
  return volume_after_move(bodies, k, move);
}

void expect_normal_area_matches_differences(const std::vector<RigidBody>& bodies) {
  const std::vector<VolumeContact> contacts = detect_volume_contacts(bodies);
  ASSERT_EQ(contacts.size(), 1u);
  const VolumeContact& c = contacts[0];
  const Eigen::Vector3d n = c.R_w_c.col(2);
  // Moving b along n separates the pair: -dV/ds is the patch's area. The
  // exact volume is piecewise polynomial in s: central differences with step
  // 1e-7 err by O(h^2) in its third derivative plus round-off V eps / h,
  // below 1e-7 of the area here.
  const int k = bodies[std::size_t(c.b)].fixed() ? c.a : c.b;
  const double sign = k == c.b ? 1 : -1, h = 1e-7;
  const double fd = -(volume_after(bodies, k, sign * n, h) - volume_after(bodies, k, sign * n, -h)) / (2 * h);
  EXPECT_NEAR(c.normal_area, fd, 1e-7 * fd);
  EXPECT_GT(c.normal_area, 0);
}

// Two overlapping boxes, turned so that no face of one is within 1e-3 rad of
// parallel to a face of the other.
std::pair<RigidBody, RigidBody> boxes_at_general_angles() {
  RigidBody a = box_body("a", 0.2, 0.15, 0.1, 1), b = box_body("b", 0.1, 0.1, 0.1, 2);
  a.x_w = Eigen::Vector3d(0.3, -0.2, 0.1);
  a.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 1, 0).normalized()));
  b.x_w = a.x_w + Eigen::Vector3d(0.05, 0.03, 0.17);
  b.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(-1, 2, 1).normalized()));
  return {a, b};
}

TEST(ContactDetection, ThePatchAreaIsTheVolumesRateAlongTheNormalBetweenTwoMeshes) {
  const std::pair<RigidBody, RigidBody> boxes = boxes_at_general_angles();
  const RigidBody &a = boxes.first, &b = boxes.second;
  expect_normal_area_matches_differences({a, b});
}

TEST(ContactDetection, ThePatchAreaIsTheVolumesRateAlongTheNormalAgainstTheGround) {
  RigidBody b = box_body("b", 0.1, 0.08, 0.05, 2);
  b.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, -1, 0.2).normalized()));
  b.x_w = Eigen::Vector3d(0.02, -0.01, 0.06);
  expect_normal_area_matches_differences({ground_body(), b});
}

TEST(ContactDetection, StackedBoxesOfOneFootprintGetAVerticalNormalDespiteTheirFlushSideFaces) {
  // Two 0.1 m cubes overlapping by 3 mm, the upper one turned by 1e-13 rad
  // about a horizontal axis: its side faces leave A's side planes by
  // 1e-14 m, strictly inside A on one side and outside on the other. The
  // exact gradient's linear part then tilts by the strip's area over the
  // face's (3e-3 / 0.1 = 0.03 rad); the smoothed normal (the tangential
  // part by central differences over 1e-6 of the patch) stays vertical to
  // the kink's residue, about the faces' offset over the step
  // (1e-14 / 6e-8 ~ 2e-7 of the strip's 0.03: below 1e-8 rad).
  RigidBody a = box_body("a", 0.05, 0.05, 0.05, 1), b = box_body("b", 0.05, 0.05, 0.05, 1);
  b.x_w = Eigen::Vector3d(0, 0, 0.1 - 0.003);
  b.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(1e-13, Eigen::Vector3d(1, 1, 0).normalized()));
  Eigen::Matrix4d E = Eigen::Matrix4d::Identity();
  E.topLeftCorner<3, 3>() = b.R_w_b();
  E.topRightCorner<3, 1>() = b.x_w;
  const robust_geometry::IntersectionMoments raw = robust_geometry::intersection_moments(
      a.shape->triangles, b.shape->triangles, RigidPose<double>::from_matrix(E, "pose"));
  const Eigen::Vector3d raw_normal = -raw.gradient.tail<3>().normalized();
  EXPECT_GT(std::acos(raw_normal.z()), 0.01);  // the paper's rule tilts
  const std::vector<VolumeContact> contacts = detect_volume_contacts({a, b});
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_LT(std::acos(std::min(1.0, contacts[0].R_w_c.col(2).z())), 1e-8);
}

TEST(ContactDetection, AwayFromParallelFacesTheExactGradientIsKeptAndCentralDifferencesAgree) {
  // Two boxes at general angles (no face of one within 1e-3 rad of parallel
  // to a face of the other): V is smooth in the translation, the detection
  // keeps the exact gradient (the same normal as without smoothing), and
  // that gradient matches central differences of the exact volume over
  // +-1e-7 m (truncation ~ eps^2 V''' and the volume's round-off over 2 eps).
  const std::pair<RigidBody, RigidBody> boxes = boxes_at_general_angles();
  const RigidBody &a = boxes.first, &b = boxes.second;
  const std::vector<VolumeContact> smoothed = detect_volume_contacts({a, b});
  const std::vector<VolumeContact> exact = detect_volume_contacts({a, b}, {.patch = {}, .smooth_normals = false, .exact_moments = false});
  ASSERT_EQ(smoothed.size(), 1u);
  ASSERT_EQ(exact.size(), 1u);
  EXPECT_EQ(smoothed[0].R_w_c, exact[0].R_w_c);
  // The gradient in a's frame against differences of b's translation along a's axes.
  const Eigen::Matrix3d R_a_w = a.R_w_b().transpose();
  const auto moments = [&](const Eigen::Vector3d& shift_a) {
    Eigen::Matrix4d E = Eigen::Matrix4d::Identity();
    E.topLeftCorner<3, 3>() = R_a_w * b.R_w_b();
    E.topRightCorner<3, 1>() = R_a_w * (b.x_w - a.x_w) + shift_a;
    return robust_geometry::intersection_moments(a.shape->triangles, b.shape->triangles,
                                                 RigidPose<double>::from_matrix(E, "pose"));
  };
  const Eigen::Vector3d gradient = moments(Eigen::Vector3d::Zero()).gradient.tail<3>();
  const double step = 1e-7;
  for (int k = 0; k < 3; ++k) {
    const double difference = (moments(step * Eigen::Vector3d::Unit(k)).volume -
                               moments(-step * Eigen::Vector3d::Unit(k)).volume) / (2 * step);
    EXPECT_NEAR(difference, gradient[k], 1e-6 * gradient.norm()) << "axis " << k;
  }
}

TEST(ContactDetection, ABoxPressedIntoTheGroundHasItsPatchAndCornersInWorldCoordinates) {
  const double depth = 1e-4, hz = 0.05;
  RigidBody b = box_body("box", 0.1, 0.05, hz, 1);
  b.x_w = Eigen::Vector3d(0.3, 0.2, hz - depth);
  const std::vector<RigidBody> bodies{ground_body(), b};
  const std::vector<VolumeContact> contacts = detect_volume_contacts(bodies);
  ASSERT_EQ(contacts.size(), 1u);
  const VolumeContact& c = contacts[0];
  EXPECT_EQ(c.a, 1);  // the mesh first: the normal points from the box into the ground
  EXPECT_EQ(c.b, 0);
  EXPECT_NEAR(c.volume, 0.2 * 0.1 * depth, 1e-18);
  EXPECT_LT((c.x_w_c - Eigen::Vector3d(0.3, 0.2, -depth / 2)).norm(), 1e-15);
  EXPECT_LT((c.R_w_c.col(2) - Eigen::Vector3d(0, 0, -1)).norm(), 1e-15);
  EXPECT_LT(std::abs(std::abs(c.R_w_c.col(0).x()) - 1), 1e-15);  // the major axis along the box's long side
  EXPECT_NEAR(c.R_w_c.determinant(), 1, 1e-15);

  BrepIndexCache cache;
  const std::vector<PointContact> points = detect_point_contacts(bodies, cache, 1e-3);
  ASSERT_EQ(points.size(), 4u);
  for (const PointContact& p : points) {
    EXPECT_EQ(p.a, 0);
    EXPECT_EQ(p.b, 1);
    EXPECT_NEAR(std::abs(p.x_w_c.x() - 0.3), 0.1, 1e-12);
    EXPECT_NEAR(std::abs(p.x_w_c.y() - 0.2), 0.05, 1e-12);
    EXPECT_NEAR(p.x_w_c.z(), 0, 1e-12);  // on the ground's face, within the touch tolerance of the corner
    EXPECT_LT((p.R_w_c.col(2) - Eigen::Vector3d::UnitZ()).norm(), 1e-15);
  }
}

// gradient_a is dV/d(twist of b relative to a about a's origin, a's axes);
// moving a by the twist xi in its own axes moves b relative to it by -xi to
// first order, so -dV/dxi_a = gradient_a. The exact volume is piecewise
// polynomial in the move: central differences with step 1e-6 err by O(h^2)
// in its third derivative plus round-off V eps / h, below 1e-6 of |g| here
// (the same bound as the linear part's test above).
void expect_gradient_matches_differences(const std::vector<RigidBody>& bodies) {
  const std::vector<VolumeContact> contacts = detect_volume_contacts(bodies);
  ASSERT_EQ(contacts.size(), 1u);
  const VolumeContact& c = contacts[0];
  ASSERT_FALSE(bodies[std::size_t(c.a)].ground_w.has_value());
  const double h = 1e-6;
  for (int i = 0; i < 6; ++i) {
    const Vector6d step = h * Vector6d::Unit(i);
    const double fd = -(volume_after_move(bodies, c.a, step) - volume_after_move(bodies, c.a, -step)) / (2 * h);
    EXPECT_NEAR(c.gradient_a[i], fd, 1e-6 * c.gradient_a.norm()) << "component " << i;
  }
}

TEST(ContactDetection, TheVolumeGradientIsTheVolumesRateUnderRigidMovesBetweenMeshesAndAgainstTheGround) {
  const std::pair<RigidBody, RigidBody> boxes = boxes_at_general_angles();
  {
    SCOPED_TRACE("two meshes");
    expect_gradient_matches_differences({boxes.first, boxes.second});
  }
  RigidBody b = box_body("b", 0.1, 0.08, 0.05, 2);
  b.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, -1, 0.2).normalized()));
  {
    SCOPED_TRACE("the ground's half-space, within the slab's footprint");
    b.x_w = Eigen::Vector3d(0.02, -0.01, 0.06);
    expect_gradient_matches_differences({ground_body(), b});
  }
  {
    SCOPED_TRACE("the ground's slab, across its edge x = 2");
    b.x_w = Eigen::Vector3d(2.03, -0.01, 0.06);
    expect_gradient_matches_differences({ground_body(), b});
  }
}

TEST(ContactDetection, TheGroundIsItsSlabForTheVolumesAndThePoints) {
  // ground_body's slab is [-2, 2]^2 x [-1, 0]. A 0.1 m cube pressed 1e-4 m
  // into it, its centre 0.02 m inside the edge x = 2: the part over the slab
  // is 0.07 x 0.1 x 1e-4 (the half-space alone would give 0.1 x 0.1 x 1e-4).
  // Round-off of the exact path's sums of products of coordinates up to
  // 2 m: tens of ulps of 2 m times the 0.01 m^2 face: 1e-16 m^3.
  const double depth = 1e-4;
  RigidBody cube = box_body("cube", 0.05, 0.05, 0.05, 1);
  cube.x_w = Eigen::Vector3d(2 - 0.02, 0.3, 0.05 - depth);
  std::vector<VolumeContact> contacts = detect_volume_contacts({ground_body(), cube});
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].volume, 0.07 * 0.1 * depth, 1e-16);
  BrepIndexCache cache;
  std::vector<PointContact> points = detect_point_contacts({ground_body(), cube}, cache, 1e-3);
  ASSERT_FALSE(points.empty());
  for (const PointContact& p : points) EXPECT_LE(p.x_w_c.x(), 2 + 1e-12);  // on the slab's top face
  // Wholly past the edge (its nearest face 1 mm beyond it): no contact in
  // either model, where the half-space would still cut it.
  cube.x_w.x() = 2 + 0.051;
  EXPECT_TRUE(detect_volume_contacts({ground_body(), cube}).empty());
  EXPECT_TRUE(detect_point_contacts({ground_body(), cube}, cache, 1e-3).empty());
  // Well inside, the half-space path: the whole face.
  cube.x_w.x() = 1;
  contacts = detect_volume_contacts({ground_body(), cube});
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].volume, 0.1 * 0.1 * depth, 1e-18);
}

TEST(ContactDetection, APointsGapIsItsCornersHeightAboveTheGround) {
  // A box held above the ground within the touch tolerance (1e-3 m): each
  // bottom corner's gap is its height. Level at 3e-4 m: exactly that (the
  // region's points on the ground's face, the box's face or corners above).
  // Tilted by phi = 2e-3 rad about y: the corners' heights z_c, and the gap
  // from the box's face plane is z_c cos^2(phi) (the nearest point of the
  // tilted plane: z_c cos(phi) away, times n . n_f = cos(phi)), from a
  // corner z_c: within [z_c cos^2(phi), z_c], to round-off of 0.1 m.
  BrepIndexCache cache;
  for (const double phi : {0.0, 2e-3}) {
    SCOPED_TRACE("tilt " + std::to_string(phi));
    RigidBody box = box_body("box", 0.1, 0.05, 0.05, 1);
    box.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(phi, Eigen::Vector3d::UnitY()));
    const double lowest = 1e-4 + (phi == 0 ? 2e-4 : 0);
    box.x_w = Eigen::Vector3d(0.2, 0.1, 0);
    box.x_w.z() = lowest - (box.R_w_b() * Eigen::Vector3d(0.1, 0, -0.05)).z();  // the lowest corners at x = +0.1
    const std::vector<PointContact> points = detect_point_contacts({ground_body(), box}, cache, 1e-3);
    ASSERT_EQ(points.size(), 4u);
    for (const PointContact& p : points) {
      // The corner above p: the box's bottom corner with p's x, y (to first order in phi).
      const Eigen::Vector3d corner_b(p.x_w_c.x() < box.x_w.x() ? -0.1 : 0.1, p.x_w_c.y() < box.x_w.y() ? -0.05 : 0.05,
                                     -0.05);
      const double height = (box.x_w + box.R_w_b() * corner_b).z();
      EXPECT_GE(p.gap, height * std::pow(std::cos(phi), 2) - 1e-15);
      EXPECT_LE(p.gap, height + 1e-15);
    }
  }
}

}  // namespace
}  // namespace contactref::volume_contact

namespace contactref::volume_contact {
namespace {

// Issue 34 item 3: boxes are convex, so the detection takes the double-
// precision clipping (robust_geometry/convex_moments.hpp); the exact
// corefinement (DetectionOptions::exact_moments) is its referee here, pair
// by pair: the stack's interface turned by 1e-13 rad (flush side faces, the
// normal by differences), the same shifted off the footprint, two boxes at
// general angles, and a box past the ground slab's edge (the slab's mesh).
// The volume and centre agree to the sums' rounding (64 eps of the pieces'
// scale L^3, L^3 / V ~ 30 here: 1e-13 relative); the normal and the patch's
// area, which come from differences of volumes over 1e-6 of the patch, to
// the volumes' rounding over that step (1e-13 V / 6e-8 m: 1e-9 of the area).
TEST(ContactDetection, TheConvexClippingGivesTheExactRoutesContacts) {
  RigidBody a = box_body("a", 0.05, 0.05, 0.05, 1), b = box_body("b", 0.05, 0.05, 0.05, 1);
  b.x_w = Eigen::Vector3d(0, 0, 0.1 - 0.003);
  b.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(1e-13, Eigen::Vector3d(1, 1, 0).normalized()));
  RigidBody shifted = b;
  shifted.x_w += Eigen::Vector3d(0.02, -0.01, 0);
  RigidBody cube = box_body("cube", 0.05, 0.05, 0.05, 1);
  cube.x_w = Eigen::Vector3d(2 - 0.02, 0.3, 0.05 - 0.002);
  const std::pair<RigidBody, RigidBody> general = boxes_at_general_angles();
  const std::vector<std::vector<RigidBody>> scenes{
      {a, b}, {a, shifted}, {general.first, general.second}, {ground_body(), cube}};
  for (std::size_t k = 0; k < scenes.size(); ++k) {
    SCOPED_TRACE("scene " + std::to_string(k));
    ASSERT_TRUE(scenes[k][0].shape->convex && scenes[k][1].shape->convex);
    const std::vector<VolumeContact> clipped = detect_volume_contacts(scenes[k]);
    const std::vector<VolumeContact> exact =
        detect_volume_contacts(scenes[k], {.patch = {}, .smooth_normals = true, .exact_moments = true});
    ASSERT_EQ(clipped.size(), 1u);
    ASSERT_EQ(exact.size(), 1u);
    const VolumeContact &c = clipped[0], &e = exact[0];
    EXPECT_NEAR(c.volume, e.volume, 1e-13 * e.volume);
    EXPECT_LE((c.x_w_c - e.x_w_c).norm(), 1e-13);
    EXPECT_LE(c.R_w_c.col(2).cross(e.R_w_c.col(2)).norm(), 1e-9);  // the sine of the angle
    EXPECT_NEAR(c.normal_area, e.normal_area, 1e-9 * e.normal_area);
    EXPECT_LE((c.patch.ellipse_semi_axes - e.patch.ellipse_semi_axes).norm(), 1e-12);
  }
}

// Detection runs its pairs' double routes on oneTBB's threads and the pairs
// they cannot decide by the exact route on the calling thread, in the pairs'
// order (contact_detection.cpp): on two threads every contact is one
// thread's to the bit, in a scene of convex pairs (a box on the ground by
// the half-space, boxes on boxes by the clipping) and a pair that only the
// exact route decides (a bumpy, non-convex cube on a box); and where two
// pairs fail (each a box inside another: no normal), the error names the
// first pair, on every one of 20 runs.
TEST(ContactDetection, TwoThreadsGiveOneThreadsContactsAndTheFirstPairsError) {
  const robust_geometry::TriangleSolid bumps = fixtures::bumpy_cube(8, 0.05, 0.004, 3);
  std::vector<std::vector<int>> faces;
  for (const auto& t : bumps.triangles) faces.push_back({t[0], t[1], t[2]});
  RigidBody bumpy;
  bumpy.name = "bumpy";
  bumpy.shape = std::make_shared<const BodyShape>(polygon_soup("bumpy", bumps.vertices, faces));
  bumpy.mass = 1;
  bumpy.I_com_b = uniform_solid(bumpy.shape->triangles, 1).mass.I_com_b;
  ASSERT_FALSE(bumpy.shape->convex);
  std::vector<RigidBody> bodies{ground_body()};
  for (int k = 0; k < 4; ++k) {  // two stacks of two boxes, each 2 mm into the one below
    RigidBody box = box_body("box" + std::to_string(k), 0.05, 0.05, 0.05, 1);
    box.x_w = Eigen::Vector3d(k < 2 ? -0.5 : 0.5, 0.01 * k, 0.05 - 0.002 + (k % 2) * 0.098);
    box.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(0.01 * k, Eigen::Vector3d(1, 2, 3).normalized()));
    bodies.push_back(box);
  }
  bumpy.x_w = Eigen::Vector3d(0.5, 0.03, 0.244);  // 2 mm into box3
  bodies.push_back(bumpy);
  std::vector<VolumeContact> one, two;
  {
    const ThreadLimit limit(1);
    one = detect_volume_contacts(bodies);
  }
  {
    const ThreadLimit limit(2);
    two = detect_volume_contacts(bodies);
  }
  ASSERT_EQ(one.size(), 5u) << "two stacks of two boxes on the ground, and the bumpy cube on box3";
  ASSERT_EQ(two.size(), one.size());
  EXPECT_EQ(one.back().b, 5) << "the bumpy cube's contact";
  for (std::size_t k = 0; k < one.size(); ++k) {
    SCOPED_TRACE("contact " + std::to_string(k));
    EXPECT_EQ(two[k].a, one[k].a);
    EXPECT_EQ(two[k].b, one[k].b);
    EXPECT_EQ(two[k].volume, one[k].volume);
    EXPECT_EQ(two[k].normal_area, one[k].normal_area);
    EXPECT_EQ(two[k].gradient_a, one[k].gradient_a);
    EXPECT_EQ(two[k].R_w_c, one[k].R_w_c);
    EXPECT_EQ(two[k].x_w_c, one[k].x_w_c);
    EXPECT_EQ(two[k].patch.ellipse_semi_axes, one[k].patch.ellipse_semi_axes);
  }
  std::vector<RigidBody> nested;  // a small box inside a larger one at x = 0, and again at x = 1
  for (const int pair : {1, 2}) {
    for (const double half : {0.05, 0.01}) {
      RigidBody box = box_body((half > 0.02 ? "outer" : "inner") + std::to_string(pair), half, half, half, 1);
      box.x_w = Eigen::Vector3d(pair - 1.0, 0, 0);
      nested.push_back(box);
    }
  }
  const ThreadLimit limit(2);
  for (int run = 0; run < 20; ++run) {
    const std::string message = test::message_of<ComputationError>([&] { detect_volume_contacts(nested); });
    EXPECT_NE(message.find("\"outer1\" and \"inner1\""), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace contactref::volume_contact
