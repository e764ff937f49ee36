// The double half-space path (halfspace_intersection_moments, Bouchard et al.
// Eqs. 14-20) against references independent of it:
//   - the exact path: intersection_moments (PMP corefinement over Epeck) of A
//     with a large box whose top face is the plane, on bumpy cubes at several
//     depths and a tilted plane (every field, touching and flush included);
//   - closed forms: a box cut by z = h, a tetrahedron cut parallel to a face
//     (the similar corner tetrahedron and the frustum), disjoint, fully inside;
//   - translation covariance; central differences of V for the gradient;
//   - the bumpy cube: valid, 12 n^2 triangles, its volume in closed form.
// Bad input is refused with a message naming the field.
#include "robust_geometry/halfspace_moments.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

#include <array>
#include <cmath>
#include <algorithm>
#include <functional>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include <Eigen/Geometry>

#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/tolerance.hpp"
#include "validation/fixtures/bumpy_cube.hpp"
#include "validation/fixtures/halfspace_box.hpp"
#include "tests/robust_geometry/test_solids.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using test::kAbsolute;
using test::matrices_near;
using test::scalars_near;
using test::tolerance;

// ---------------------------------------------------------------- solids

using test_solids::unit_cube;

// The corner tetrahedron conv(0, a e_x, a e_y, a e_z), faces outward.
TriangleSolid corner_tetrahedron(double a) {
  TriangleSolid s;
  s.vertices = {Vector3d::Zero(), a * Vector3d::UnitX(), a * Vector3d::UnitY(), a * Vector3d::UnitZ()};
  s.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  return s;
}

TriangleSolid translated(TriangleSolid s, const Vector3d& t) {
  for (Vector3d& x : s.vertices) x += t;
  return s;
}

// The small bumpy cube of the exact comparisons: 768 triangles, odd bumps
// (|amplitude| bumps pi = 0.94 < 2 h: valid).
TriangleSolid small_bumpy_cube(int n = 8) { return fixtures::bumpy_cube(n, 1.0, 0.1, 3); }

// ---------------------------------------------------------------- the exact path

// The plane as a solid: fixtures::halfspace_box_around(a, R, t) gives
// H = {x : u · x <= u · t}, u = R e_z, and the box [-L, L]^2 x [-L, 0] posed
// by (R, t): its top face is the plane, and with L four times A's
// bounding-box diagonal (t near A) it contains A's part below the plane.

// Accuracy of the double path. Each clipped piece's terms pass a bounded
// number of roundings (~20: the cut point, edge vectors, cross and dot
// products, the products of the second moment), the pieces are summed
// pairwise (blocks of 16, then log2(pieces) levels): ~64 roundings in all,
// relative to the terms. Two conditionings enlarge that:
//   cond_v = max(1, R A_cap / V): a cut point is placed to ~eps R (R = A's
//     bounding-box diagonal), which moves the cap by that much: a volume
//     error ~eps R A_cap against V (R over the mean depth V / A_cap);
//   cond_c = 1 + V R^2 / tr C: C is ∫ y y^T - V c c^T about a point o of the
//     plane within R of the centroid (cancellation).
// The gradient's cap integrals have cond_v (the cap's rim moves by ~eps R).
// The exact path rounds its exact values once (half an ulp), negligible.
struct Bounds {
  double volume, centroid, covariance, gradient;
};

Bounds bounds_for(const TriangleSolid& a, const IntersectionMoments& exact) {
  const double R = fixtures::bounding_box_diagonal(a);
  const double area = exact.gradient.tail<3>().norm();  // the cap's area (no touching or flush patches here)
  const double cond_v = std::max(1.0, R * area / exact.volume);
  const double cond_c = 1 + exact.volume * R * R / exact.covariance.trace();
  const double base = tolerance<double>(64, cond_v);
  return {base, base * R, base * cond_c, base};
}

// Every field of `fast` against `exact` (kOverlapping).
void expect_matches_exact(const TriangleSolid& a, const IntersectionMoments& fast, const IntersectionMoments& exact) {
  ASSERT_EQ(exact.kind, IntersectionKind::kOverlapping);
  ASSERT_EQ(fast.kind, IntersectionKind::kOverlapping);
  const Bounds b = bounds_for(a, exact);
  const double R = fixtures::bounding_box_diagonal(a);
  EXPECT_TRUE(scalars_near(fast.volume, exact.volume, b.volume * exact.volume, kAbsolute));
  // The centroid to ~eps R cond_v absolute (a point inside A's box).
  EXPECT_TRUE(matrices_near(fast.centroid, exact.centroid, b.centroid, kAbsolute));
  const double c_max = exact.covariance.cwiseAbs().maxCoeff();
  EXPECT_TRUE(matrices_near(fast.covariance, exact.covariance, b.covariance * c_max, kAbsolute));
  EXPECT_TRUE(matrices_near(fast.second_moment, exact.second_moment, 2 * b.covariance * c_max, kAbsolute));
  // Eigenvalues move by at most |δC|_2 <= 3 |δC|_max (Weyl); the shapes are
  // sqrt(k C_i / V): half the relative error of C_i plus V's.
  EXPECT_TRUE(matrices_near(fast.principal_covariances, exact.principal_covariances, 3 * b.covariance * c_max, kAbsolute));
  EXPECT_TRUE(matrices_near(fast.principal_moments, exact.principal_moments, 6 * b.covariance * c_max, kAbsolute));
  for (Eigen::Index i = 0; i < 3; ++i) {
    const double ci = exact.principal_covariances(i);
    const double rel = 3 * b.covariance * c_max / ci + b.volume;
    EXPECT_TRUE(scalars_near(fast.cuboid_dimensions(i), exact.cuboid_dimensions(i), rel * exact.cuboid_dimensions(i), kAbsolute));
    EXPECT_TRUE(scalars_near(fast.ellipsoid_semi_axes(i), exact.ellipsoid_semi_axes(i), rel * exact.ellipsoid_semi_axes(i), kAbsolute));
    // An axis moves by ~|δC|_2 / gap (Davis-Kahan); compared only where the
    // eigenvalue is separated from the others (the bumpy cube on a level
    // plane has C_xx = C_yy: that pair's axes are not defined).
    double gap = std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < 3; ++j)
      if (j != i) gap = std::min(gap, std::abs(exact.principal_covariances(j) - ci));
    // Up to sign: the convention (largest component positive) is a tie
    // when two components are equal in magnitude, as here ((1, -1, 0)/√2).
    if (gap > 1e-6 * c_max) {
      const Vector3d e = exact.principal_axes.col(i);
      const Vector3d f = fast.principal_axes.col(i);
      EXPECT_TRUE(matrices_near(Vector3d(f.dot(e) < 0 ? Vector3d(-f) : f), e, 4 * b.covariance * c_max / gap, kAbsolute))
          << "axis " << i;
    }
  }
  // Gradient: linear relative to the cap area, angular to R times it (the
  // torque arm: g · (omega; v) weighs omega by |x| <= R).
  const double area = exact.gradient.tail<3>().norm();
  EXPECT_TRUE(matrices_near(fast.gradient.tail<3>(), exact.gradient.tail<3>(), b.gradient * area, kAbsolute));
  EXPECT_TRUE(matrices_near(fast.gradient.head<3>(), exact.gradient.head<3>(), b.gradient * area * R, kAbsolute));
  EXPECT_EQ(fast.gradient_touching, Vector6d::Zero());
  EXPECT_EQ(fast.gradient_flush, Vector6d::Zero());
  EXPECT_EQ(fast.gradient_interior, fast.gradient);
}

TEST(HalfspaceMoments, MatchesTheExactPathOnABumpyCubeAtSeveralDepths) {
  const TriangleSolid a = small_bumpy_cube();
  double z_min = 0;
  for (const Vector3d& x : a.vertices) z_min = std::min(z_min, x.z());
  // The bump tips only, the lower bumps and the side faces, past the middle.
  for (const double z0 : {z_min + 0.0123, z_min + 0.0731, -0.61, 0.237}) {
    SCOPED_TRACE("plane z = " + std::to_string(z0));
    const fixtures::HalfSpaceBox p = fixtures::halfspace_box_around(a, Matrix3d::Identity(), Vector3d(0, 0, z0));
    expect_matches_exact(a, halfspace_intersection_moments(a, p.half_space), intersection_moments(a, p.box, p.pose));
  }
}

TEST(HalfspaceMoments, MatchesTheExactPathForTiltedPlanes) {
  const TriangleSolid a = small_bumpy_cube();
  const Matrix3d R = Eigen::AngleAxisd(0.3, Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const Matrix3d R2 = Eigen::AngleAxisd(2.5, Vector3d(-2, 1, 0.5).normalized()).toRotationMatrix();
  // The plane's normal R e_z; the box's top face passes through t. (R is
  // orthogonal to ~1e-16: the box's face and the plane differ by that
  // rotation's rounding, well inside the bounds.)
  for (const auto& [rotation, t] : {std::pair{R, Vector3d(0.1, -0.2, -0.8)}, std::pair{R2, Vector3d(0.3, 0.05, 0.2)}}) {
    const fixtures::HalfSpaceBox p = fixtures::halfspace_box_around(a, rotation, t);
    expect_matches_exact(a, halfspace_intersection_moments(a, p.half_space), intersection_moments(a, p.box, p.pose));
  }
}

TEST(HalfspaceMoments, TouchingAndFlushFacesMatchTheExactPath) {
  const TriangleSolid cube = unit_cube();
  // Touching: H = {z <= 0} under the cube; its bottom face lies on the plane
  // with A's normal -z (opposite to H's): V = 0, the symmetric derivative is
  // half the face's integral (∫ u dA = (0,0,1), ∫ x × u dA = (1/2,1/2,0) × e_z).
  {
    const fixtures::HalfSpaceBox p = fixtures::halfspace_box_around(cube, Matrix3d::Identity(), Vector3d::Zero());
    const IntersectionMoments fast = halfspace_intersection_moments(cube, p.half_space);
    const IntersectionMoments exact = intersection_moments(cube, p.box, p.pose);
    ASSERT_EQ(exact.kind, IntersectionKind::kTouching);
    EXPECT_EQ(fast.kind, IntersectionKind::kTouching);
    EXPECT_EQ(fast.volume, 0.0);
    Vector6d touching;
    touching << 0.5, -0.5, 0, 0, 0, 1;
    // Sums of a few exact dyadic terms: bitwise.
    EXPECT_EQ(fast.gradient_touching, touching);
    EXPECT_EQ(fast.gradient, touching / 2);
    EXPECT_EQ(fast.gradient, exact.gradient);
    EXPECT_EQ(fast.gradient_touching, exact.gradient_touching);
  }
  // Flush: H = {z <= 1}; the top face is on the plane with A's normal +z:
  // V = 1, the gradient half the top face's integral.
  {
    const fixtures::HalfSpaceBox p = fixtures::halfspace_box_around(cube, Matrix3d::Identity(), Vector3d::UnitZ());
    const IntersectionMoments fast = halfspace_intersection_moments(cube, p.half_space);
    const IntersectionMoments exact = intersection_moments(cube, p.box, p.pose);
    ASSERT_EQ(exact.kind, IntersectionKind::kOverlapping);
    EXPECT_EQ(fast.kind, IntersectionKind::kOverlapping);
    Vector6d flush;
    flush << 0.5, -0.5, 0, 0, 0, 1;
    EXPECT_EQ(exact.gradient_flush, flush);
    // The other faces' sums cancel to rounding: a few roundings of O(1) terms.
    EXPECT_TRUE(matrices_near(fast.gradient_flush, flush, tolerance<double>(8)));
    EXPECT_TRUE(matrices_near(fast.gradient, exact.gradient, tolerance<double>(16)));
    EXPECT_TRUE(matrices_near(fast.gradient_interior, exact.gradient_interior, tolerance<double>(16), kAbsolute));
    EXPECT_TRUE(scalars_near(fast.volume, 1.0, tolerance<double>(16)));
  }
}

// ---------------------------------------------------------------- closed forms

TEST(HalfspaceMoments, ABoxCutByALevelPlane) {
  // [0,1]^3 ∩ {z <= h}: the box [0,1]^2 x [0,h]. The normal need not be unit:
  // (0, 0, 2) with offset 2h is the same half-space.
  const double h = 0.375;
  for (const double scale : {1.0, 2.0}) {
    const IntersectionMoments m = halfspace_intersection_moments(unit_cube(), {Vector3d(0, 0, scale), scale * h});
    ASSERT_EQ(m.kind, IntersectionKind::kOverlapping);
    // A dozen pieces, each exact terms of size <= 1 rounded a few times.
    const double tol = tolerance<double>(32);
    EXPECT_TRUE(scalars_near(m.volume, h, tol));
    EXPECT_TRUE(matrices_near(m.centroid, Vector3d(0.5, 0.5, h / 2), tol));
    // A box of sides (a, b, c): C = V diag(a^2, b^2, c^2) / 12.
    const Matrix3d C = Vector3d(h / 12, h / 12, h * h * h / 12).asDiagonal();
    EXPECT_TRUE(matrices_near(m.covariance, C, tol));
    EXPECT_TRUE(matrices_near(m.second_moment, Matrix3d(C.trace() * Matrix3d::Identity() - C), tol));
    EXPECT_TRUE(matrices_near(m.cuboid_dimensions, Vector3d(h, 1, 1), tolerance<double>(64)));
    // The cap: the unit square at z = h, centroid (1/2, 1/2, h).
    Vector6d g;
    g << Vector3d(0.5, 0.5, h).cross(Vector3d::UnitZ()), Vector3d::UnitZ();
    EXPECT_TRUE(matrices_near(m.gradient, g, tol));
  }
}

// The kept vertices (volume_contact's support region): the corners of the
// clipped pieces, which are the box [0,1]^2 x [0,h]'s corners and points on
// its boundary (to the cut's round-off in z); none unless asked.
TEST(HalfspaceMoments, KeptVerticesAreTheCornersOfTheCutBox) {
  const double h = 0.375;  // exact: the cut points' z is h to one rounding
  EXPECT_TRUE(halfspace_intersection_moments(unit_cube(), {Vector3d::UnitZ(), h}).vertices.empty());
  const IntersectionMoments m = halfspace_intersection_moments(unit_cube(), {Vector3d::UnitZ(), h}, true);
  for (const Vector3d& x : m.vertices)
    EXPECT_TRUE((x.array() >= -1e-16).all() && x.x() <= 1 && x.y() <= 1 && x.z() <= h + 1e-16) << x.transpose();
  for (int corner = 0; corner < 8; ++corner) {
    const Vector3d c(corner & 1, (corner >> 1) & 1, (corner & 4) ? h : 0);
    double nearest = 1;
    for (const Vector3d& x : m.vertices) nearest = std::min(nearest, (x - c).norm());
    EXPECT_LT(nearest, 1e-15) << c.transpose();
  }
}

TEST(HalfspaceMoments, ATetrahedronCutParallelToAFace) {
  // T = conv(0, a e_x, a e_y, a e_z), plane x + y + z = t (0 < t < a). Below
  // it: the corner tetrahedron of size t (one vertex inside per side face);
  // above it (the normal reversed): the frustum (two inside: the quad case).
  // Corner tetrahedron of size s (Dirichlet integrals): V = s^3/6,
  // ∫ x = s^4/24, ∫ x^2 = s^5/60, ∫ x y = s^5/120. The cap: the triangle
  // x + y + z = t in the octant, area sqrt(3) t^2 / 2, centroid t (1,1,1)/3.
  const double a = 2, t = 1.25;
  const TriangleSolid T = corner_tetrahedron(a);
  const auto second = [](double s) {
    Matrix3d S = Matrix3d::Constant(std::pow(s, 5) / 120);
    S.diagonal().setConstant(std::pow(s, 5) / 60);
    return S;
  };
  const Vector3d ones = Vector3d::Ones();
  const double tol = tolerance<double>(64, 4);  // cond: terms of size a^5 = 32 against t^5 ~ 3
  for (const int side : {1, -1}) {
    SCOPED_TRACE(side > 0 ? "corner" : "frustum");
    const IntersectionMoments m = halfspace_intersection_moments(T, {double(side) * ones, side * t});
    ASSERT_EQ(m.kind, IntersectionKind::kOverlapping);
    const double V = side > 0 ? t * t * t / 6 : (a * a * a - t * t * t) / 6;
    const Vector3d first = (side > 0 ? std::pow(t, 4) : std::pow(a, 4) - std::pow(t, 4)) / 24 * ones;
    const Matrix3d S = side > 0 ? second(t) : Matrix3d(second(a) - second(t));
    const Vector3d c = first / V;
    const Matrix3d C = S - V * c * c.transpose();
    EXPECT_TRUE(scalars_near(m.volume, V, tol * V, kAbsolute));
    EXPECT_TRUE(matrices_near(m.centroid, c, tol));
    EXPECT_TRUE(matrices_near(m.covariance, C, tol * C.cwiseAbs().maxCoeff(), kAbsolute));
    // ∫ u dA = (t^2/2) (1,1,1) side; ∫ x × u dA = centroid × that = 0.
    Vector6d g;
    g << Vector3d::Zero(), side * t * t / 2 * ones;
    EXPECT_TRUE(matrices_near(m.gradient, g, tol));
  }
}

TEST(HalfspaceMoments, DisjointAndFullyInside) {
  const TriangleSolid cube = unit_cube();
  const IntersectionMoments below = halfspace_intersection_moments(cube, {Vector3d::UnitZ(), -0.5});
  EXPECT_EQ(below.kind, IntersectionKind::kDisjoint);
  EXPECT_EQ(below.volume, 0.0);
  EXPECT_EQ(below.centroid, Vector3d::Zero());
  EXPECT_EQ(below.gradient, Vector6d::Zero());
  EXPECT_EQ(below.boundary_triangles, 0u);
  // Above everything (a tilted plane): all of A, no cap, gradient exactly 0.
  const IntersectionMoments above = halfspace_intersection_moments(cube, {Vector3d(0.3, -0.2, 1), 5.0});
  ASSERT_EQ(above.kind, IntersectionKind::kOverlapping);
  const double tol = tolerance<double>(64, 4);  // o is ~4 away: terms of size ~4^k
  EXPECT_TRUE(scalars_near(above.volume, 1.0, tol));
  EXPECT_TRUE(matrices_near(above.centroid, Vector3d::Constant(0.5), tol));
  EXPECT_TRUE(matrices_near(above.covariance, Matrix3d(Matrix3d::Identity() / 12), tol));
  EXPECT_EQ(above.gradient, Vector6d::Zero());
  EXPECT_EQ(above.boundary_triangles, 12u);
  // The same for the bumpy cube: its whole volume, as the exact path.
  const TriangleSolid bumpy = small_bumpy_cube();
  const fixtures::HalfSpaceBox p = fixtures::halfspace_box_around(bumpy, Matrix3d::Identity(), Vector3d(0, 0, 1.5));
  const IntersectionMoments exact = intersection_moments(bumpy, p.box, p.pose);
  const IntersectionMoments all = halfspace_intersection_moments(bumpy, p.half_space);
  EXPECT_TRUE(scalars_near(all.volume, exact.volume, tolerance<double>(64, 4)));
  EXPECT_EQ(all.gradient, Vector6d::Zero());
}

// ---------------------------------------------------------------- invariance and the gradient

TEST(HalfspaceMoments, TranslatingSolidAndPlaneMovesTheResultsCovariantly) {
  const TriangleSolid a = small_bumpy_cube();
  const HalfSpace h{Vector3d(0.2, -0.3, 1).normalized(), -0.4};
  const Vector3d shift(3.25, -1.5, 0.75);
  const IntersectionMoments m0 = halfspace_intersection_moments(a, h);
  const IntersectionMoments m1 =
      halfspace_intersection_moments(translated(a, shift), {h.normal, h.offset + h.normal.dot(shift)});
  ASSERT_EQ(m1.kind, IntersectionKind::kOverlapping);
  // Both runs have the same relative accuracy (o moves with the solid); the
  // shifted coordinates are rounded once more (|shift| ~ 3.7 vs R ~ 3.5).
  const Bounds b = bounds_for(a, m0);
  const double R = fixtures::bounding_box_diagonal(a) + shift.norm();
  EXPECT_TRUE(scalars_near(m1.volume, m0.volume, 2 * b.volume * m0.volume, kAbsolute));
  EXPECT_TRUE(matrices_near(m1.centroid, Vector3d(m0.centroid + shift), 2 * b.volume * R, kAbsolute));
  EXPECT_TRUE(matrices_near(m1.covariance, m0.covariance, 2 * b.covariance * m0.covariance.cwiseAbs().maxCoeff(), kAbsolute));
  // The gradient about the (fixed) origin: angular gains shift × linear.
  const double area = m0.gradient.tail<3>().norm();
  EXPECT_TRUE(matrices_near(m1.gradient.tail<3>(), m0.gradient.tail<3>(), 2 * b.gradient * area, kAbsolute));
  EXPECT_TRUE(matrices_near(m1.gradient.head<3>(), Vector3d(m0.gradient.head<3>() + shift.cross(m0.gradient.tail<3>())),
                            2 * b.gradient * area * R, kAbsolute));
}

// dV/ds by central differences of the double V: truncation δ^2 |V'''| / 6 and
// round-off 2 ε_V V / δ with ε_V <= ~1e-14 (the bounds above). With δ = 1e-5
// and |V'''| <= ~10 on these unit-sized solids (V'' is the rate of change of
// the cap's area-weighted terms) both are <= 2e-10; 1e-8 leaves margin.
double central_difference(const std::function<double(double)>& volume, double delta = 1e-5) {
  return (volume(delta) - volume(-delta)) / (2 * delta);
}

TEST(HalfspaceMoments, GradientMatchesCentralDifferencesOfTheVolume) {
  const TriangleSolid bumpy = small_bumpy_cube();
  const TriangleSolid tetra = corner_tetrahedron(2);
  const TriangleSolid* solids[2] = {&bumpy, &tetra};
  // Non-unit normals: the offset's derivative is the cap's area / |n|.
  const HalfSpace planes[2] = {{Vector3d(0.3, -0.5, 2), -0.9}, {Vector3d(1.5, 1, 2), 2.3}};
  for (int k = 0; k < 2; ++k) {
    const TriangleSolid& a = *solids[k];
    const HalfSpace& h = planes[k];
    const IntersectionMoments m = halfspace_intersection_moments(a, h);
    ASSERT_EQ(m.kind, IntersectionKind::kOverlapping);
    const Vector3d u = h.normal.normalized();
    const double tol = 1e-8 * std::max(1.0, m.gradient.norm());
    // The plane moved along its normal: twist (0; u), dV/dd = g · (0; u) / |n|.
    const double dv_dd = central_difference([&](double s) {
      return halfspace_intersection_moments(a, {h.normal, h.offset + s}).volume;
    });
    EXPECT_TRUE(scalars_near(dv_dd, m.gradient.tail<3>().dot(u) / h.normal.norm(), tol, kAbsolute));
    // The plane rotated by s about axis w through a point p of the plane:
    // twist (w; p × w).
    const Vector3d p = h.offset / h.normal.squaredNorm() * h.normal + Vector3d(0.1, 0.2, -0.1).cross(u);
    for (const Vector3d& w : {Vector3d(1, 0, 0), Vector3d(0.3, -0.7, 0.2).normalized()}) {
      const double dv_dtheta = central_difference([&](double s) {
        const Vector3d n = Eigen::AngleAxisd(s, w) * h.normal;
        return halfspace_intersection_moments(a, {n, n.dot(p)}).volume;
      });
      Vector6d twist;
      twist << w, p.cross(w);
      EXPECT_TRUE(scalars_near(dv_dtheta, m.gradient.dot(twist), tol, kAbsolute)) << "axis " << w.transpose();
    }
  }
}

// ---------------------------------------------------------------- bad input

void expect_invalid(const TriangleSolid& a, const HalfSpace& h, const std::string& fragment) {
  try {
    halfspace_intersection_moments(a, h);
    ADD_FAILURE() << "accepted; expected an error containing \"" << fragment << "\"";
  } catch (const contactref::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(HalfspaceMoments, RejectsBadInputWithAClearMessage) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const TriangleSolid cube = unit_cube();
  const HalfSpace h{Vector3d::UnitZ(), 0.5};
  expect_invalid(cube, {Vector3d::Zero(), 0.5}, "HalfSpace::normal is zero");
  expect_invalid(cube, {Vector3d(0, nan, 1), 0.5}, "HalfSpace::normal has a non-finite component");
  expect_invalid(cube, {Vector3d::UnitZ(), nan}, "HalfSpace::offset is not finite");
  expect_invalid(cube, {Vector3d::UnitZ(), std::numeric_limits<double>::infinity()}, "HalfSpace::offset");
  TriangleSolid nan_vertex = cube;
  nan_vertex.vertices[3].y() = nan;
  expect_invalid(nan_vertex, h, "vertex 3 has a non-finite coordinate");
  TriangleSolid out_of_range = cube;
  out_of_range.triangles[5][1] = 8;
  expect_invalid(out_of_range, h, "triangle 5 has vertex index 8 out of range [0, 8)");
  out_of_range.triangles[5][1] = -1;
  expect_invalid(out_of_range, h, "triangle 5 has vertex index -1 out of range");
  expect_invalid(TriangleSolid{}, h, "no triangles");
  TriangleSolid inward = cube;
  for (auto& t : inward.triangles) std::swap(t[1], t[2]);
  expect_invalid(inward, h, "not outward oriented");
}

// ---------------------------------------------------------------- the bumpy cube

TEST(BumpyCube, IsAValidClosedSolidWith12NSquaredTriangles) {
  for (const int n : {1, 4, 16}) {
    for (const auto& [amplitude, bumps] : {std::pair{0.1, 3}, std::pair{-0.2, 2}, std::pair{0.05, 5}}) {
      const TriangleSolid s = fixtures::bumpy_cube(n, 1.0, amplitude, bumps);
      EXPECT_EQ(s.triangles.size(), std::size_t(12 * n * n));
      EXPECT_EQ(s.vertices.size(), std::size_t(6 * n * n + 2));  // Euler: V - E + F = 2
      EXPECT_NO_THROW(validate_triangle_solid(s, "bumpy_cube"));
    }
  }
}

TEST(BumpyCube, VolumeMatchesTheClosedForm) {
  // The mesh's exact volume (the exact path with a box around it) against
  //   (2h)^3 + 6 (2h/n)^2 A S^2,  S = Σ_{i=1}^{n-1} sin(bπ i/n) = cot(bπ/2n) (odd b), 0 (even b):
  // each face adds ∫ of its piecewise-linear displacement, and a grid
  // vertex's hat function integrates to (2h/n)^2. A handful of roundings of
  // the closed form and of the vertices' sines: a small multiple of eps.
  const double h = 0.5, amplitude = 0.04;
  for (const auto& [n, bumps] : {std::pair{8, 3}, std::pair{16, 5}, std::pair{12, 4}}) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", bumps = " + std::to_string(bumps));
    const TriangleSolid s = fixtures::bumpy_cube(n, h, amplitude, bumps);
    const double L = 4;
    const IntersectionMoments all = intersection_moments(s, fixtures::box_solid(Vector3d::Constant(-L), Vector3d::Constant(L)),
                                                          RigidPose<double>());
    const double x = bumps * std::numbers::pi / (2 * n);
    const double S = bumps % 2 == 1 ? 1 / std::tan(x) : 0.0;
    const double cube = 8 * h * h * h;
    const double bump_volume = 6 * std::pow(2 * h / n, 2) * amplitude * S * S;
    EXPECT_TRUE(scalars_near(all.volume, cube + bump_volume, tolerance<double>(32)));
    // The continuous surface: 6 (2h)^2 A (2/(bπ))^2 for odd b. The grid's
    // bump volume differs by the factor (x cot x)^2 in [1 - x^2, 1] for
    // x = bπ/2n <= 1 (the trapezoidal rule's error).
    if (bumps % 2 == 1) {
      const double continuous = 6 * 4 * h * h * amplitude * std::pow(2 / (bumps * std::numbers::pi), 2);
      EXPECT_LE(bump_volume, continuous);
      EXPECT_GE(bump_volume, continuous * (1 - x * x));
    }
    // The fast path's whole volume (plane above everything) agrees.
    EXPECT_TRUE(scalars_near(halfspace_intersection_moments(s, {Vector3d::UnitZ(), 1.0}).volume, all.volume,
                             tolerance<double>(64, 4)));
  }
}

TEST(BumpyCube, RejectsBadArguments) {
  const auto refused = [](int n, double h, double amplitude, int bumps, const std::string& fragment) {
    try {
      fixtures::bumpy_cube(n, h, amplitude, bumps);
      ADD_FAILURE() << "accepted; expected \"" << fragment << "\"";
    } catch (const contactref::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  refused(0, 1, 0.1, 3, "n = 0");
  refused(8, 0, 0.1, 3, "half_size");
  refused(8, -1, 0.1, 3, "half_size");
  refused(8, std::numeric_limits<double>::infinity(), 0.1, 3, "half_size");
  refused(8, 1, 0.5, 0, "amplitude");
  refused(8, 1, std::numeric_limits<double>::quiet_NaN(), 3, "amplitude");
  refused(8, 1, 0.1, -1, "bumps = -1");
  refused(8, 1, 0.1, 7, "bumps pi");  // 0.1 * 7 * pi = 2.2 >= 2 h: faces would cross
}

}  // namespace
}  // namespace contactref::robust_geometry
