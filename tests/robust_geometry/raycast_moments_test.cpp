// The ray route (raycast_intersection_moments, Bouchard et al. Section 4,
// Eqs. 14-20) against the exact intersection_moments (CGAL corefinement, an
// independent algorithm): every field must lie within the route's own error
// estimate (RaycastBounds, derived in raycast_moments.hpp) on two boxes
// (closed form), a box into a tilted box, bumpy cubes on a plane and against
// each other, nested, disjoint and face-to-face touching solids; the estimate
// shrinks at first order as the grid is refined; bad input is refused.
#include "robust_geometry/raycast_moments.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/sanitized.hpp"
#include "tests/kit/tolerance.hpp"
#include "validation/fixtures/bumpy_cube.hpp"
#include "validation/fixtures/halfspace_box.hpp"
#include "tests/robust_geometry/test_solids.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using test::contains;
using test::message_of;
using test::tolerance;

TriangleSolid box(const Vector3d& lo, const Vector3d& hi) { return fixtures::box_solid(lo, hi); }
using test_solids::unit_cube;

RigidPose<double> pose(const Vector3d& rotation_vector, const Vector3d& translation) {
  return RigidPose<double>::from_rotation_vector(rotation_vector, translation, "test pose");
}

RaycastMoments fast(const TriangleSolid& a, const TriangleSolid& b, const RigidPose<double>& E, int cells) {
  RaycastOptions options;
  options.cells = cells;
  return raycast_intersection_moments(a, b, E, options);
}

// |fast - exact| <= bound + rounding. The rounding: each sum has at most
// `rays` terms (one per cell), summed naively: <= rays eps times the sum of
// the magnitudes, at most `scale` (the largest magnitude involved) per term
// count; the bound covers the discretisation (raycast_moments.hpp).
bool within(double fast_value, double exact_value, double bound, double rays, double scale, const std::string& what) {
  const double allowed = bound + tolerance<double>(rays) * scale;
  const double error = std::abs(fast_value - exact_value);
  if (error <= allowed) return true;
  ADD_FAILURE() << what << ": fast " << fast_value << ", exact " << exact_value << ", error " << error
                << " > bound " << bound << " + rounding";
  return false;
}

void expect_within_bounds(const RaycastMoments& r, const IntersectionMoments& exact) {
  const IntersectionMoments& m = r.moments;
  const RaycastBounds& b = r.report.bounds;
  ASSERT_EQ(m.kind, exact.kind);
  const double rays = double(r.report.rays);
  within(m.volume, exact.volume, b.volume, rays, exact.volume, "volume");
  const double c_scale = exact.centroid.cwiseAbs().maxCoeff() + 1e-300;
  const double cov_scale = exact.covariance.cwiseAbs().maxCoeff() + exact.volume * c_scale * c_scale;
  for (Eigen::Index i = 0; i < 3; ++i) {
    within(m.centroid(i), exact.centroid(i), b.centroid(i), rays, c_scale, "centroid " + std::to_string(i));
    for (Eigen::Index j = 0; j < 3; ++j) {
      const std::string ij = " (" + std::to_string(i) + ", " + std::to_string(j) + ")";
      within(m.covariance(i, j), exact.covariance(i, j), b.covariance(i, j), rays, cov_scale, "covariance" + ij);
      within(m.second_moment(i, j), exact.second_moment(i, j), b.second_moment(i, j), rays, 3 * cov_scale,
             "second moment" + ij);
    }
  }
  // The gradient's scale: its area part, times the distance from A's origin
  // for the angular part.
  const double g_scale = (exact.gradient.tail<3>().norm() + 1) * (c_scale + 1);
  for (Eigen::Index i = 0; i < 6; ++i)
    within(m.gradient(i), exact.gradient(i), b.gradient(i), rays, g_scale, "gradient " + std::to_string(i));
}

// ---------------------------------------------------------------- closed forms

TEST(RaycastMoments, TwoOffsetBoxesGiveTheOverlapBox) {
  // B = the unit cube moved by (1/2, 1/2, 1/2): the overlap is the box
  // [1/2, 1]^3, which is also the grid's box, so every cell is full and the
  // cell-constant model is exact (the h^2/12 term included): only rounding.
  const RaycastMoments r = fast(unit_cube(), unit_cube(), pose(Vector3d::Zero(), Vector3d::Constant(0.5)), 64);
  const IntersectionMoments& m = r.moments;
  ASSERT_EQ(m.kind, IntersectionKind::kOverlapping);
  // Sums of 64^2 positive terms: <= 4096 eps relative.
  const double rounding = tolerance<double>(4096);
  EXPECT_NEAR(m.volume, 0.125, rounding * 0.125);
  EXPECT_TRUE(m.centroid.isApprox(Vector3d::Constant(0.75), rounding));
  // C = V diag(a^2) / 12 with a = 1/2; the gradient: B's three faces inside A
  // (x, y, z = 1/2, area 1/4 each, inward normals) and their moments about
  // the origin, (∫ x × n dA)_i = 0 by symmetry of the three faces.
  EXPECT_TRUE(m.covariance.isApprox(Matrix3d::Identity() * 0.125 * 0.25 / 12, rounding));
  for (Eigen::Index i = 0; i < 3; ++i) {
    EXPECT_NEAR(m.gradient(3 + i), -0.25, rounding);
    EXPECT_NEAR(m.gradient(i), 0.0, rounding);
  }
  EXPECT_EQ(m.gradient_touching, Vector6d::Zero());
  EXPECT_EQ(m.gradient_flush, Vector6d::Zero());
  expect_within_bounds(r, intersection_moments(unit_cube(), unit_cube(), pose(Vector3d::Zero(), Vector3d::Constant(0.5))));
}

TEST(RaycastMoments, BoxIntoATiltedBoxIsWithinItsBound) {
  const RigidPose<double> E = pose(Vector3d(0.3, 0.2, 0.1), Vector3d(0.5, 0.4, 0.3));
  expect_within_bounds(fast(unit_cube(), unit_cube(), E, 64), intersection_moments(unit_cube(), unit_cube(), E));
}

TEST(RaycastMoments, NestedSolidGivesItsOwnMomentsAndNoGradient) {
  // B = [0.2, 0.5] x [0.3, 0.6] x [0.1, 0.7] inside A: Ω = B, and ∂B lies
  // inside A whole: ∫ n dA = 0 and ∫ x × n dA = 0 over a closed surface.
  const TriangleSolid inner = box(Vector3d(0.2, 0.3, 0.1), Vector3d(0.5, 0.6, 0.7));
  const RaycastMoments r = fast(unit_cube(), inner, RigidPose<double>(), 32);
  expect_within_bounds(r, intersection_moments(unit_cube(), inner, RigidPose<double>()));
  EXPECT_NEAR(r.moments.volume, 0.3 * 0.3 * 0.6, tolerance<double>(32 * 32) * 0.054);
}

// ---------------------------------------------------------------- bumpy cubes

// The bumpy cube of halfspace_moments_test at a moderate size (12 n^2
// triangles), sunk 1 mm into a plane (the box below it), and against a copy
// of itself shifted and turned about a skew axis.
TEST(RaycastMoments, BumpyCubeOnAPlaneIsWithinItsBound) {
  const int n = test::kSanitized ? 8 : 16;
  const TriangleSolid cube = fixtures::bumpy_cube(n, 0.1, 0.004, 15);
  double z_min = std::numeric_limits<double>::infinity();
  for (const Vector3d& x : cube.vertices) z_min = std::min(z_min, x.z());
  const fixtures::HalfSpaceBox plane = fixtures::halfspace_box(Matrix3d::Identity(), Vector3d(0, 0, z_min + 0.001), 1.0);
  const IntersectionMoments exact = intersection_moments(cube, plane.box, plane.pose);
  expect_within_bounds(fast(cube, plane.box, plane.pose, 128), exact);
}

TEST(RaycastMoments, TwoBumpyCubesAreWithinTheBound) {
  const int n = test::kSanitized ? 4 : 16;
  const TriangleSolid cube = fixtures::bumpy_cube(n, 0.1, 0.004, 15);
  const RigidPose<double> E = pose(Vector3d(0.3, 0.5, 0.7), Vector3d(0.12, 0.07, 0.05));
  const IntersectionMoments exact = intersection_moments(cube, cube, E);
  expect_within_bounds(fast(cube, cube, E, 128), exact);
}

// ---------------------------------------------------------------- convergence

// The estimate is O(h) (raycast_moments.hpp: the band of cells along Ω's
// silhouettes holds ~P / h cells of volume error <= h^2 J each), so it must
// fall by 2 per doubling, up to the O(1) cells at the ends of the band;
// over three doublings it must fall by at least 8 / 2 (factor 2 for those).
// The error itself must stay within it. Measured (release build): volume
// errors 1.4e-5, 7.5e-7, 4.4e-8, 8.5e-9 at N = 32, 64, 128, 256 against
// estimates 1.1e-2, 4.8e-3, 2.2e-3, 1.1e-3: the error falls irregularly
// (19x, 17x, 5x per doubling; observed order ~3.6 over the range: the wall
// cells' errors, of both signs, cancel), the estimate at order 1 (it
// assumes no cancellation).
TEST(RaycastMoments, ErrorShrinksWithTheGridAndStaysWithinTheBound) {
  const RigidPose<double> E = pose(Vector3d(0.3, 0.2, 0.1), Vector3d(0.5, 0.4, 0.3));
  const IntersectionMoments exact = intersection_moments(unit_cube(), unit_cube(), E);
  const int coarse = 32, fine = test::kSanitized ? 64 : 256;
  double first_bound = 0, last_bound = 0;
  for (int cells = coarse; cells <= fine; cells *= 2) {
    const RaycastMoments r = fast(unit_cube(), unit_cube(), E, cells);
    expect_within_bounds(r, exact);
    if (cells == coarse) first_bound = r.report.bounds.volume;
    last_bound = r.report.bounds.volume;
  }
  EXPECT_LE(last_bound, 2 * first_bound * coarse / fine);
}

// ---------------------------------------------------------------- empty and touching

TEST(RaycastMoments, DisjointSolidsGiveNothing) {
  // Bounding boxes apart, and overlapping boxes around disjoint solids (the
  // corner tetrahedron x + y + z <= 1 and the box [0.6, 1]^3).
  TriangleSolid tetrahedron;
  tetrahedron.vertices = {Vector3d::Zero(), Vector3d::UnitX(), Vector3d::UnitY(), Vector3d::UnitZ()};
  tetrahedron.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  for (const RaycastMoments& r : {fast(unit_cube(), unit_cube(), pose(Vector3d::Zero(), Vector3d(3, 0, 0)), 16),
                                  fast(tetrahedron, box(Vector3d::Constant(0.6), Vector3d::Ones()), RigidPose<double>(), 16)}) {
    EXPECT_EQ(r.moments.kind, IntersectionKind::kDisjoint);
    EXPECT_EQ(r.moments.volume, 0);
    EXPECT_EQ(r.moments.gradient, Vector6d::Zero());
    EXPECT_EQ(r.report.bounds.volume, 0);
  }
}

TEST(RaycastMoments, FaceToFaceTouchingGivesTheSymmetricDerivative) {
  // B on top of A: their faces z = 1 touch with opposite normals. The
  // touching part is B's bottom face: ∫ n dA = (0, 0, -1), ∫ x × n dA =
  // ∫ (-y, x, 0) dA = (-1/2, 1/2, 0); gradient = touching / 2, as exactly.
  const RigidPose<double> E = pose(Vector3d::Zero(), Vector3d(0, 0, 1));
  const RaycastMoments r = fast(unit_cube(), unit_cube(), E, 16);
  const IntersectionMoments exact = intersection_moments(unit_cube(), unit_cube(), E);
  EXPECT_EQ(r.moments.kind, IntersectionKind::kTouching);
  Vector6d touching;
  touching << -0.5, 0.5, 0, 0, 0, -1;
  EXPECT_TRUE(r.moments.gradient_touching.isApprox(touching, tolerance<double>(256)));
  EXPECT_TRUE(r.moments.gradient_touching.isApprox(exact.gradient_touching, tolerance<double>(256)));
  EXPECT_TRUE(r.moments.gradient.isApprox(exact.gradient, tolerance<double>(256)));
  // Flush: B = the top half of A, its top face on A's with the same normal.
  const TriangleSolid half = box(Vector3d(0, 0, 0.5), Vector3d::Ones());
  const RaycastMoments f = fast(unit_cube(), half, RigidPose<double>(), 16);
  const IntersectionMoments flush = intersection_moments(unit_cube(), half, RigidPose<double>());
  expect_within_bounds(f, flush);
  EXPECT_TRUE(f.moments.gradient_flush.isApprox(flush.gradient_flush, tolerance<double>(256)));
}

// ---------------------------------------------------------------- bad input

TEST(RaycastMoments, RejectsBadInput) {
  const TriangleSolid cube = unit_cube();
  const RigidPose<double> I;
  TriangleSolid open = cube;
  open.triangles.pop_back();
  EXPECT_TRUE(contains(message_of<InputError>([&] { fast(cube, open, I, 16); }), "not closed"));
  for (const int cells : {0, -3, kMaxRaycastCells + 1})
    EXPECT_TRUE(contains(message_of<InputError>([&] { fast(cube, cube, I, cells); }), "cells"));
  // Trusted solids are still checked for what the rays index and multiply.
  RaycastOptions trusted;
  trusted.assume_valid_solids = true;
  TriangleSolid out_of_range = cube;
  out_of_range.triangles[5][1] = 8;
  EXPECT_TRUE(contains(message_of<InputError>([&] { raycast_intersection_moments(cube, out_of_range, I, trusted); }),
                       "triangle 5 has vertex index 8 out of range"));
  TriangleSolid nan_vertex = cube;
  nan_vertex.vertices[3].y() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(contains(message_of<InputError>([&] { raycast_intersection_moments(nan_vertex, cube, I, trusted); }),
                       "solid A: vertex 3"));
  const RigidPose<double> far = pose(Vector3d::Zero(), Vector3d(1e300, 0, 0));
  EXPECT_TRUE(contains(message_of<InputError>([&] { raycast_intersection_moments(cube, cube, far, trusted); }),
                       "outside the supported magnitudes"));
}

}  // namespace
}  // namespace contactref::robust_geometry
