// convex_moments.hpp: the double-precision intersection moments of two
// convex polyhedra, against
//  - the closed form of two overlapping boxes (volume, centroid, covariance
//    and the gradient's face integrals, written out by hand);
//  - the exact corefinement (intersection_volume.hpp, the referee) on random
//    convex pairs at random poses: boxes, prisms over random convex polygons,
//    octahedra, tetrahedra and CGAL's convex hulls of random points;
//  - the exact path's kinds and symmetric gradients where faces are flush,
//    touch, or one solid holds the other;
// and convexity.hpp's decision on convex and non-convex solids.
#include "robust_geometry/convex_moments.hpp"

#include <gtest/gtest.h>

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/convex_hull_3.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "robust_geometry/convexity.hpp"
#include "robust_geometry/intersection_volume.hpp"
#include "robust_geometry/triangle_solid.hpp"
#include "tests/kit/sanitized.hpp"
#include "tests/kit/tolerance.hpp"
#include "validation/fixtures/contact_scenes.hpp"
#include "validation/fixtures/random_spatial.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Vector3d;

RigidPose<double> pose_of(const Eigen::Matrix3d& R, const Vector3d& t) {
  Eigen::Matrix4d E = Eigen::Matrix4d::Identity();
  E.topLeftCorner<3, 3>() = R;
  E.topRightCorner<3, 1>() = t;
  return RigidPose<double>::from_matrix(E, "test pose");
}

IntersectionMoments fast(const Polyhedron& a, const Polyhedron& b, const RigidPose<double>& pose) {
  const std::optional<IntersectionMoments> m = convex_intersection_moments(ConvexPolyhedron(a), ConvexPolyhedron(b), pose);
  if (!m) ADD_FAILURE() << "the convex path left the pair undecided";
  return m.value_or(IntersectionMoments());
}

// The fast result against the exact one, with L the pair's size: the volume
// to 256 roundings of L^3, the centroid of L, the covariance of L^5, the
// gradient's linear part of L^2 and angular part of L^3 (the cut points
// carry a few roundings of L each; the sums, up to 64 pieces per face fan).
void expect_agrees(const IntersectionMoments& fast, const IntersectionMoments& exact, double L) {
  ASSERT_EQ(fast.kind, exact.kind);
  if (!exact.has_volume()) return;
  const double e = test::tolerance<double>(256);
  EXPECT_NEAR(fast.volume, exact.volume, e * L * L * L);
  EXPECT_LE((fast.centroid - exact.centroid).norm(), e * L * L * L * L / exact.volume);
  EXPECT_LE((fast.covariance - exact.covariance).norm(), e * std::pow(L, 5));
  EXPECT_LE((fast.gradient.tail<3>() - exact.gradient.tail<3>()).norm(), e * L * L);
  EXPECT_LE((fast.gradient.head<3>() - exact.gradient.head<3>()).norm(), e * L * L * L);
  EXPECT_LE((fast.gradient_flush - exact.gradient_flush).norm(), e * L * L * L);
  EXPECT_LE((fast.gradient_interior - exact.gradient_interior).norm(), e * L * L * L);
}

// Closed form: A = [-1, 1]^3, B = [0.5, 2.5] x [-0.5, 0.5] x [0, 3] (its
// own frame [-1, 1] x [-0.5, 0.5] x [-1.5, 1.5], moved by (1.5, 0, 1.5)).
// Omega = [0.5, 1] x [-0.5, 0.5] x [0, 1]: V = 0.5, c = (0.75, 0, 0.5),
// C = V/12 diag(0.25, 1, 1). B's faces inside A: x = 0.5 (area 1, normal -x,
// centre (0.5, 0, 0.5)), z = 0 (area 0.5, normal -z, centre (0.75, 0, 0)),
// y = +-0.5 (area 0.5 each, normals +-y, centres (0.75, +-0.5, 0.5)):
// ∫ n = (-1, 0, -0.5), ∫ x × n = Σ centre × area normal.
TEST(ConvexMoments, OverlappingBoxesGiveTheClosedForm) {
  const Polyhedron a = fixtures::box(-Vector3d::Ones(), Vector3d::Ones());
  const Polyhedron b = fixtures::box(Vector3d(-1, -0.5, -1.5), Vector3d(1, 0.5, 1.5));
  const IntersectionMoments m = fast(a, b, pose_of(Eigen::Matrix3d::Identity(), Vector3d(1.5, 0, 1.5)));
  ASSERT_TRUE(m.has_volume());
  const double e = test::tolerance<double>(64);
  EXPECT_NEAR(m.volume, 0.5, e);
  EXPECT_LE((m.centroid - Vector3d(0.75, 0, 0.5)).norm(), e);
  EXPECT_LE((m.covariance - 0.5 / 12 * Vector3d(0.25, 1, 1).asDiagonal().toDenseMatrix()).norm(), e);
  Vector3d linear = Vector3d::Zero(), angular = Vector3d::Zero();
  const std::vector<std::pair<Vector3d, Vector3d>> faces{{{0.5, 0, 0.5}, {-1, 0, 0}},
                                                         {{0.75, 0, 0}, {0, 0, -0.5}},
                                                         {{0.75, 0.5, 0.5}, {0, 0.5, 0}},
                                                         {{0.75, -0.5, 0.5}, {0, -0.5, 0}}};
  for (const auto& [centre, area_normal] : faces) {
    linear += area_normal;
    angular += centre.cross(area_normal);
  }
  EXPECT_LE((m.gradient.tail<3>() - linear).norm(), e);
  EXPECT_LE((m.gradient.head<3>() - angular).norm(), e);
  EXPECT_EQ(m.gradient_flush, Vector6d::Zero());
  EXPECT_EQ(m.gradient_touching, Vector6d::Zero());
}

// A prism over a random convex polygon (k corners on an ellipse at sorted
// random angles) of the given half-length along y.
Polyhedron random_prism(fixtures::Rng& rng, int k, const std::string& name) {
  std::vector<double> angles;
  for (int i = 0; i < k; ++i) angles.push_back(fixtures::uniform(rng, 0, 2 * std::numbers::pi));
  std::sort(angles.begin(), angles.end());
  const double rx = fixtures::uniform(rng, 0.5, 1.5), rz = fixtures::uniform(rng, 0.5, 1.5);
  std::vector<Eigen::Vector2d> profile;
  for (double t : angles) profile.emplace_back(rx * std::cos(t), rz * std::sin(t));
  const double half = fixtures::uniform(rng, 0.3, 1.2);
  return fixtures::prism_xz(profile, -half, half, name);
}

// CGAL's convex hull of n random points in the unit ball.
Polyhedron random_hull(fixtures::Rng& rng, int n, const std::string& name) {
  using K = CGAL::Epick;
  std::vector<K::Point_3> points;
  while (int(points.size()) < n) {
    const Vector3d x = fixtures::random_vector3(rng);
    if (x.norm() <= 1) points.emplace_back(x.x(), x.y(), x.z());
  }
  CGAL::Surface_mesh<K::Point_3> hull;
  CGAL::convex_hull_3(points.begin(), points.end(), hull);
  PolygonSoup soup;
  soup.name = name;
  for (const auto v : hull.vertices()) {
    const K::Point_3& p = hull.point(v);
    soup.vertices.emplace_back(p.x(), p.y(), p.z());
  }
  for (const auto f : hull.faces()) {
    std::vector<int> face;
    for (const auto v : hull.vertices_around_face(hull.halfedge(f))) face.push_back(int(v.idx()));
    soup.faces.push_back(face);
  }
  return Polyhedron(soup);
}

Polyhedron random_convex(fixtures::Rng& rng, int kind, const std::string& name) {
  switch (kind) {
    case 0: {
      const Vector3d half(fixtures::uniform(rng, 0.2, 1), fixtures::uniform(rng, 0.2, 1), fixtures::uniform(rng, 0.2, 1));
      return fixtures::box(-half, half);
    }
    case 1: return random_prism(rng, 3 + int(rng() % 30), name);
    case 2: return fixtures::octahedron(Vector3d(0, 0, -0.8), 0.8);
    case 3: return fixtures::tetrahedron(Vector3d(-1, -0.6, -0.5), Vector3d(1, -0.6, -0.5), Vector3d(0, 1, -0.5),
                                         Vector3d(0.1, 0.1, 1));
    default: return random_hull(rng, 8 + int(rng() % 60), name);
  }
}

// The referee: 200 random convex pairs at random poses (their centres within
// 1.2 of each other: overlapping, touching at corners, or apart), every
// quantity against the exact corefinement.
TEST(ConvexMoments, RandomConvexPairsAgreeWithTheExactCorefinement) {
  fixtures::Rng rng(20261129);
  int overlapping = 0, disjoint = 0;
  for (int trial = 0; trial < 200; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Polyhedron a = random_convex(rng, int(rng() % 5), "A");
    const Polyhedron b = random_convex(rng, int(rng() % 5), "B");
    const RigidPose<double> pose = pose_of(fixtures::random_rotation(rng), fixtures::random_vector3(rng, 1.2));
    const IntersectionMoments exact = intersection_moments(triangle_solid(a), triangle_solid(b), pose);
    const IntersectionMoments m = fast(a, b, pose);
    expect_agrees(m, exact, 3.0);
    overlapping += exact.has_volume();
    disjoint += exact.kind == IntersectionKind::kDisjoint;
  }
  // The draw covers both outcomes.
  EXPECT_GT(overlapping, 100);
  EXPECT_GT(disjoint, 10);
}

// Two cubes stacked 1 mm into each other, the upper one 0.08 m wide along x
// with its +x side face in the lower one's (coplanar, equal normals: flush)
// and its -x side face inside. The exact path's gradient is the symmetric
// one, interior + flush / 2 (intersection_volume.hpp), and so is the
// clipping's: the flush strip's integral is (1e-4 m^2, 0, 0) (0.1 m by
// 1 mm), the -x strip's (-1e-4, 0, 0), so dV/dv_x = -1e-4 + 1e-4 / 2.
// Turned by 1e-19 rad (a step's round-off, inside the band) the clipping
// still sees the strip flush.
TEST(ConvexMoments, FlushSideFacesGiveTheExactPathsSymmetricGradient) {
  const Polyhedron cube = fixtures::box(Vector3d::Constant(-0.05), Vector3d::Constant(0.05));
  const Polyhedron upper = fixtures::box(Vector3d(-0.03, -0.05, -0.05), Vector3d(0.05, 0.05, 0.05));
  const RigidPose<double> stacked = pose_of(Eigen::Matrix3d::Identity(), Vector3d(0, 0, 0.099));
  const IntersectionMoments exact = intersection_moments(triangle_solid(cube), triangle_solid(upper), stacked);
  const IntersectionMoments m = fast(cube, upper, stacked);
  expect_agrees(m, exact, 0.1);
  const double e = test::tolerance<double>(64) * 1e-2;  // the faces' areas
  EXPECT_LE((m.gradient_flush.tail<3>() - Vector3d(1e-4, 0, 0)).norm(), e);
  EXPECT_NEAR(m.gradient.x(), 0, e);  // about x, by symmetry in y
  EXPECT_NEAR(m.gradient[3], -1e-4 + 1e-4 / 2, e);
  const Eigen::Matrix3d turned = Eigen::AngleAxisd(1e-19, Vector3d(1, 1, 0).normalized()).toRotationMatrix();
  const IntersectionMoments t = fast(cube, upper, pose_of(turned, Vector3d(0, 0, 0.099)));
  EXPECT_LE((t.gradient - m.gradient).norm(), e);
}

// Faces that touch (stacked exactly), corners that touch, solids apart, and a
// solid inside another: the exact path's kinds, and the held solid's own
// moments with a vanishing linear gradient (B's closed boundary).
TEST(ConvexMoments, TouchingApartAndNestedSolidsMatchTheExactKinds) {
  const Polyhedron cube = fixtures::box(Vector3d::Constant(-0.05), Vector3d::Constant(0.05));
  const Polyhedron big = fixtures::box(Vector3d::Constant(-1), Vector3d::Constant(1));
  const auto exact = [&](const Polyhedron& a, const Polyhedron& b, const RigidPose<double>& pose) {
    return intersection_moments(triangle_solid(a), triangle_solid(b), pose);
  };
  const RigidPose<double> on_top = pose_of(Eigen::Matrix3d::Identity(), Vector3d(0.03, 0.02, 0.1));
  EXPECT_EQ(fast(cube, cube, on_top).kind, IntersectionKind::kTouching);
  EXPECT_EQ(exact(cube, cube, on_top).kind, IntersectionKind::kTouching);
  const RigidPose<double> corner = pose_of(Eigen::Matrix3d::Identity(), Vector3d(0.1, 0.1, 0.1));
  EXPECT_EQ(fast(cube, cube, corner).kind, IntersectionKind::kTouching);
  const RigidPose<double> apart = pose_of(Eigen::Matrix3d::Identity(), Vector3d(0.1 + 1e-9, 0, 0));
  EXPECT_EQ(fast(cube, cube, apart).kind, IntersectionKind::kDisjoint);
  EXPECT_EQ(exact(cube, cube, apart).kind, IntersectionKind::kDisjoint);
  const RigidPose<double> inside = pose_of(Eigen::AngleAxisd(0.3, Vector3d(1, 2, 3).normalized()).toRotationMatrix(),
                                           Vector3d(0.2, -0.1, 0.3));
  ASSERT_TRUE(exact(big, cube, inside).has_volume());
  expect_agrees(fast(big, cube, inside), exact(big, cube, inside), 1.0);
  expect_agrees(fast(cube, big, inside), exact(cube, big, inside), 1.0);
  EXPECT_LE(fast(big, cube, inside).gradient.tail<3>().norm(), test::tolerance<double>(64) * 0.01);
}

// A 4096-sided prism on a box, each way round: the clipping's cost stays in
// the faces it cuts (benchmarks/intersection_bench.cpp times it), and it
// agrees with the exact path.
// (The sanitized build takes 512 sides, where the exact path's 4096 took 27
// s: the same code, the numbers checked in full by the release build.)
TEST(ConvexMoments, ManySidedPrismAgreesWithTheExactPath) {
  const int sides = test::kSanitized ? 512 : 4096;
  std::vector<Eigen::Vector2d> profile;
  for (int k = 0; k < sides; ++k) {
    const double t = 2 * std::numbers::pi * k / sides;
    profile.emplace_back(0.1 * std::cos(t), 0.1 * std::sin(t));
  }
  const Polyhedron prism = fixtures::prism_xz(profile, -0.025, 0.025, "prism");
  const Polyhedron box = fixtures::box(Vector3d(-0.5, -0.5, -0.1), Vector3d(0.5, 0.5, 0));
  // prism_xz's axis is y: the prism lies on its side, turned a little about
  // its axis, its lowest corners about 1 mm deep.
  const RigidPose<double> pose =
      pose_of(Eigen::AngleAxisd(1e-3, Vector3d::UnitY()).toRotationMatrix(), Vector3d(0.01, 0.02, 0.099));
  const IntersectionMoments exact = intersection_moments(triangle_solid(box), triangle_solid(prism), pose);
  ASSERT_TRUE(exact.has_volume());
  expect_agrees(fast(box, prism, pose), exact, 0.5);
  expect_agrees(fast(prism, box, pose.inverse()),
                intersection_moments(triangle_solid(prism), triangle_solid(box), pose.inverse()), 0.5);
}

TEST(Convexity, ConvexSolidsAreRecognisedAndOthersRefused) {
  EXPECT_TRUE(is_convex(fixtures::box(Vector3d::Zero(), Vector3d::Ones())));
  EXPECT_TRUE(is_convex(fixtures::octahedron(Vector3d::Zero(), 1)));
  EXPECT_TRUE(
      is_convex(fixtures::tetrahedron(Vector3d::Zero(), Vector3d::UnitX(), Vector3d::UnitY(), Vector3d::UnitZ())));
  // A box whose faces are split into coplanar triangles (flat edges).
  const Polyhedron box = fixtures::box(Vector3d::Zero(), Vector3d::Ones());
  PolygonSoup split;
  split.name = "split box";
  split.vertices = box.vertices();
  for (const Triangle& t : box.triangles()) split.faces.push_back({t.vertices[0], t.vertices[1], t.vertices[2]});
  EXPECT_TRUE(is_convex(Polyhedron(split)));
  // An L-shaped prism (a reflex edge), a prism over a non-convex quadrilateral
  // (a reflex face corner), and a cube with a corner pushed in past the
  // plane of its three neighbours (a pit).
  EXPECT_FALSE(is_convex(fixtures::prism_xz({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 0, 1, "L")));
  EXPECT_FALSE(is_convex(fixtures::prism_xz({{0, 0}, {2, 0}, {0.5, 0.5}, {0, 2}}, 0, 1, "dart")));
  PolygonSoup dent = split;
  dent.name = "dented box";
  for (Vector3d& x : dent.vertices)
    if (x == Vector3d::Ones()) x = Vector3d::Constant(0.6);
  EXPECT_FALSE(is_convex(Polyhedron(dent)));
  const std::string message = [] {
    try {
      ConvexPolyhedron(fixtures::prism_xz({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 0, 1, "L"));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  }();
  EXPECT_EQ(message, "\"L\": the polyhedron is not convex (a reflex edge or face corner)");
}

}  // namespace
}  // namespace contactref::robust_geometry
