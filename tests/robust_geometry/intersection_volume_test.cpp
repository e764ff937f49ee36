// Intersection volumes and moments (Bouchard et al. Eqs. 14-20) and the volume
// gradient, each against something independent of the code under test:
//   - closed forms: two boxes (the overlap box), a box and a tetrahedron (a
//     corner tetrahedron), a box inside or protruding from another (the
//     gradient's surface integral by hand), touching and flush boxes;
//   - CGAL's Nef_polyhedron_3 (intersection_moments_nef), a different exact
//     Boolean algorithm, on seeded random convex pairs and hand-built
//     non-convex (L-shaped) pairs;
//   - central and five-point differences of the exact volume for the gradient;
//   - rigid equivariance (moving both solids moves the results covariantly).
#include "robust_geometry/intersection_volume.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <functional>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Geometry>

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/convex_hull_3.h>

#include "core/errors.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Matrix3d;
using Eigen::Matrix4d;
using Eigen::Vector3d;
using test::matrices_near;
using test::scalars_near;
using test::tolerance;

// ---------------------------------------------------------------- solids

// Adds the quad a-b-c-d (a cycle) as two triangles, flipped if needed so that
// the normal points along `outward`.
void add_quad(TriangleSolid& s, int a, int b, int c, int d, const Vector3d& outward) {
  const auto& v = s.vertices;
  const Vector3d n = (v[std::size_t(b)] - v[std::size_t(a)]).cross(v[std::size_t(c)] - v[std::size_t(a)]);
  if (n.dot(outward) > 0) {
    s.triangles.push_back({a, b, c});
    s.triangles.push_back({a, c, d});
  } else {
    s.triangles.push_back({a, c, b});
    s.triangles.push_back({a, d, c});
  }
}

// The axis-aligned box [lo, hi]; vertex i + 2 j + 4 k is corner (x_i, y_j, z_k).
TriangleSolid box(const Vector3d& lo, const Vector3d& hi) {
  TriangleSolid s;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) s.vertices.emplace_back(i ? hi.x() : lo.x(), j ? hi.y() : lo.y(), k ? hi.z() : lo.z());
  add_quad(s, 0, 2, 6, 4, -Vector3d::UnitX());
  add_quad(s, 1, 3, 7, 5, Vector3d::UnitX());
  add_quad(s, 0, 1, 5, 4, -Vector3d::UnitY());
  add_quad(s, 2, 3, 7, 6, Vector3d::UnitY());
  add_quad(s, 0, 1, 3, 2, -Vector3d::UnitZ());
  add_quad(s, 4, 5, 7, 6, Vector3d::UnitZ());
  return s;
}

TriangleSolid unit_cube() { return box(Vector3d::Zero(), Vector3d::Ones()); }

// A tetrahedron, its faces oriented outward.
TriangleSolid tetrahedron(const Vector3d& p0, const Vector3d& p1, const Vector3d& p2, const Vector3d& p3) {
  TriangleSolid s;
  s.vertices = {p0, p1, p2, p3};
  const Vector3d centre = (p0 + p1 + p2 + p3) / 4;
  for (const std::array<int, 3>& f : {std::array<int, 3>{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}) {
    const Vector3d& a = s.vertices[std::size_t(f[0])];
    const Vector3d n = (s.vertices[std::size_t(f[1])] - a).cross(s.vertices[std::size_t(f[2])] - a);
    s.triangles.push_back(n.dot(a - centre) > 0 ? f : std::array<int, 3>{f[0], f[2], f[1]});
  }
  return s;
}

// An L-shaped (non-convex) prism: the L {[0,2]x[0,1]} ∪ {[0,1]x[1,2]} scaled
// by `size`, extruded over z in [z0, z1]. Built by hand: the L triangulated
// as a fan from its reflex corner, sides as quads.
TriangleSolid l_prism(double size, double z0, double z1) {
  const std::array<Eigen::Vector2d, 6> l{Eigen::Vector2d(0, 0), Eigen::Vector2d(2, 0), Eigen::Vector2d(2, 1),
                                         Eigen::Vector2d(1, 1), Eigen::Vector2d(1, 2), Eigen::Vector2d(0, 2)};
  TriangleSolid s;
  for (const double z : {z0, z1})
    for (const Eigen::Vector2d& p : l) s.vertices.emplace_back(size * p.x(), size * p.y(), z);
  // Counter-clockwise fan from the reflex corner 3 (seen from +z).
  const std::array<std::array<int, 3>, 4> fan{{{3, 4, 5}, {3, 5, 0}, {3, 0, 1}, {3, 1, 2}}};
  for (const auto& t : fan) {
    s.triangles.push_back({t[0] + 6, t[1] + 6, t[2] + 6});  // top, normal +z
    s.triangles.push_back({t[0], t[2], t[1]});              // bottom, normal -z
  }
  for (int i = 0; i < 6; ++i) {
    const int j = (i + 1) % 6;
    // The outward normal of a counter-clockwise polygon's edge is edge x z.
    const Vector3d edge = s.vertices[std::size_t(j)] - s.vertices[std::size_t(i)];
    add_quad(s, i, j, j + 6, i + 6, edge.cross(Vector3d::UnitZ()));
  }
  return s;
}

// The convex hull (CGAL::convex_hull_3) of n seeded random points in [-r, r]^3.
TriangleSolid random_hull(test::Rng& rng, int n, double r) {
  using K = CGAL::Epick;
  std::vector<K::Point_3> points;
  for (int i = 0; i < n; ++i) {
    const Vector3d p = fixtures::random_vector3(rng, r);
    points.emplace_back(p.x(), p.y(), p.z());
  }
  CGAL::Surface_mesh<K::Point_3> hull;
  CGAL::convex_hull_3(points.begin(), points.end(), hull);
  TriangleSolid s;
  std::vector<int> index(hull.number_of_vertices(), -1);
  for (auto v : hull.vertices()) {
    index[v.idx()] = int(s.vertices.size());
    const K::Point_3& p = hull.point(v);
    s.vertices.emplace_back(p.x(), p.y(), p.z());
  }
  for (auto f : hull.faces()) {
    std::array<int, 3> t{};
    std::size_t k = 0;
    for (auto v : CGAL::vertices_around_face(hull.halfedge(f), hull)) t[k++] = index[v.idx()];
    s.triangles.push_back(t);
  }
  return s;
}

RigidPose<double> pose(const Matrix3d& R, const Vector3d& t) {
  Matrix4d E = Matrix4d::Identity();
  E.topLeftCorner<3, 3>() = R;
  E.topRightCorner<3, 1>() = t;
  return RigidPose<double>::from_matrix(E, "pose");
}
RigidPose<double> translation(const Vector3d& t) { return RigidPose<double>::from_translation(t); }

// A rotation by 90 degrees about z: exact in double.
Matrix3d quarter_turn_z() {
  Matrix3d R;
  R << 0, -1, 0, 1, 0, 0, 0, 0, 1;
  return R;
}

// ---------------------------------------------------------------- closed forms

// The volume gradient of two axis-aligned boxes by hand: each face of B whose
// plane lies strictly inside A's slab contributes the rectangle face ∩ A,
// with ∫ n dA = area n and ∫ x × n dA = centroid × (area n).
Vector6d box_gradient(const Vector3d& a_lo, const Vector3d& a_hi, const Vector3d& b_lo, const Vector3d& b_hi) {
  Vector6d g = Vector6d::Zero();
  for (int k = 0; k < 3; ++k) {
    for (const int side : {-1, 1}) {
      const double plane = side < 0 ? b_lo(k) : b_hi(k);
      if (!(a_lo(k) < plane && plane < a_hi(k))) continue;
      double area = 1;
      Vector3d centroid;
      centroid(k) = plane;
      for (int m = 0; m < 3; ++m) {
        if (m == k) continue;
        const double lo = std::max(a_lo(m), b_lo(m)), hi = std::min(a_hi(m), b_hi(m));
        area *= std::max(0.0, hi - lo);
        centroid(m) = (lo + hi) / 2;
      }
      const Vector3d n = double(side) * Vector3d::Unit(k);
      g.head<3>() += centroid.cross(area * n);
      g.tail<3>() += area * n;
    }
  }
  return g;
}

TEST(IntersectionVolume, TwoBoxesMatchTheOverlapBox) {
  // A = [0,2] x [0,1.5] x [-1,1]; B = the unit cube turned a quarter about z
  // and moved to (1.5, 0.25, 0.5), i.e. [0.5,1.5] x [0.25,1.25] x [0.5,1.5]:
  // the overlap is [0.5,1.5] x [0.25,1.25] x [0.5,1], sides (1, 1, 0.5).
  const Vector3d a_lo(0, 0, -1), a_hi(2, 1.5, 1);
  const TriangleSolid a = box(a_lo, a_hi);
  const RigidPose<double> E = pose(quarter_turn_z(), Vector3d(1.5, 0.25, 0.5));
  const IntersectionMoments m = intersection_moments(a, unit_cube(), E);
  ASSERT_EQ(m.kind, IntersectionKind::kOverlapping);
  // Every expected value below is an exact dyadic number or one such divided
  // by 12 in one double operation, i.e. the exact value rounded once to
  // nearest; the code rounds its exact rationals once to nearest, so the two
  // agree bitwise.
  EXPECT_EQ(m.volume, 0.5);
  EXPECT_EQ(m.centroid, Vector3d(1, 0.75, 0.75));
  // Box of sides (a, b, c): C = V diag(a^2, b^2, c^2) / 12, M = tr(C) I - C.
  Matrix3d C = Matrix3d::Zero(), M = Matrix3d::Zero();
  C.diagonal() << 0.5 / 12, 0.5 / 12, 0.125 / 12;
  M.diagonal() << 0.625 / 12, 0.625 / 12, 1.0 / 12;
  EXPECT_EQ(m.covariance, C);
  EXPECT_EQ(m.second_moment, M);
  // The equivalent cuboid (Eq. 20) is the overlap box itself: sqrt(12 C_i / V)
  // passes 3 roundings (product, quotient, sqrt) of the exact value.
  EXPECT_TRUE(matrices_near(m.cuboid_dimensions, Vector3d(0.5, 1, 1), tolerance<double>(3)));
  // Eq. 20 in the paper's form from the principal moments I_i (Eqs. 17-19).
  for (int i = 0; i < 3; ++i) {
    const double others = m.principal_moments.sum() - 2 * m.principal_moments(i);  // I_j + I_k - I_i
    EXPECT_TRUE(scalars_near(std::sqrt(12 * others / (2 * m.volume)), m.cuboid_dimensions(i), tolerance<double>(8)));
  }
  // Ellipsoid: the constant 1/5 instead of 1/12.
  EXPECT_TRUE(matrices_near(m.ellipsoid_semi_axes, std::sqrt(5.0 / 12.0) * m.cuboid_dimensions, tolerance<double>(6)));
  // The thinnest axis first: z.
  EXPECT_TRUE(matrices_near(Vector3d(m.principal_axes.col(0).cwiseAbs()), Vector3d::UnitZ(), tolerance<double>(4)));
  // Gradient (B moved rigidly, rotation about A's origin): the face
  // rectangles by hand. B's world box and A are axis-aligned; the sums pass a
  // handful of roundings of numbers of size <= 2.
  const Vector6d expected = box_gradient(a_lo, a_hi, Vector3d(0.5, 0.25, 0.5), Vector3d(1.5, 1.25, 1.5));
  EXPECT_TRUE(matrices_near(m.gradient, expected, tolerance<double>(16)));
  // Moving B up (+z) pulls its bottom face (area 1) out of the overlap.
  EXPECT_EQ(m.gradient.tail<3>(), Vector3d(0, 0, -1));
  EXPECT_EQ(m.gradient_touching, Vector6d::Zero());
  EXPECT_EQ(m.gradient_flush, Vector6d::Zero());
}

// Every corner of a box, and every point of `points` within it (exactly:
// these coordinates are dyadic, and the corners are vertices of A or of B or
// points where their faces cross, rounded once).
void expect_the_boxs_corners(const std::vector<Vector3d>& points, const Vector3d& lo, const Vector3d& hi,
                             const std::string& label) {
  for (const Vector3d& x : points)
    EXPECT_TRUE((x.array() >= lo.array()).all() && (x.array() <= hi.array()).all()) << label << ": " << x.transpose();
  for (int corner = 0; corner < 8; ++corner) {
    const Vector3d c((corner & 1) ? hi.x() : lo.x(), (corner & 2) ? hi.y() : lo.y(), (corner & 4) ? hi.z() : lo.z());
    EXPECT_NE(std::find(points.begin(), points.end(), c), points.end()) << label << ": corner " << c.transpose();
  }
}

// The kept vertices (volume_contact's support region): the corners of ∂Ω,
// here the overlap box of TwoBoxesMatchTheOverlapBox, on both assemblies of
// ∂Ω (CGAL's manifold output; the classified faces of the non-manifold case);
// none unless asked.
TEST(IntersectionVolume, KeptVerticesAreTheCornersOfTheIntersection) {
  IntersectionOptions keep;
  keep.keep_vertices = true;
  const TriangleSolid a = box(Vector3d(0, 0, -1), Vector3d(2, 1.5, 1));
  const RigidPose<double> E = pose(quarter_turn_z(), Vector3d(1.5, 0.25, 0.5));
  EXPECT_TRUE(intersection_moments(a, unit_cube(), E).vertices.empty());
  const IntersectionMoments m = intersection_moments(a, unit_cube(), E, keep);
  expect_the_boxs_corners(m.vertices, Vector3d(0.5, 0.25, 0.5), Vector3d(1.5, 1.25, 1), "overlap box");
  // Two L-prisms notched at opposite corners: the unit boxes [0,1]x[1,2] and
  // [1,2]x[0,1] (z in [-0.5, 0.5]) sharing an edge.
  const TriangleSolid l = l_prism(1.0, -0.5, 0.5);
  Matrix3d half_turn;
  half_turn << -1, 0, 0, 0, -1, 0, 0, 0, 1;
  const IntersectionMoments two = intersection_moments(l, l, pose(half_turn, Vector3d(2, 2, 0)), keep);
  ASSERT_TRUE(two.non_manifold_intersection);
  std::vector<Vector3d> first, second;
  for (const Vector3d& x : two.vertices) {  // the shared edge x = y = 1 in both
    if (x.x() <= 1 && x.y() >= 1) first.push_back(x);
    if (x.x() >= 1 && x.y() <= 1) second.push_back(x);
  }
  expect_the_boxs_corners(first, Vector3d(0, 1, -0.5), Vector3d(1, 2, 0.5), "first box");
  expect_the_boxs_corners(second, Vector3d(1, 0, -0.5), Vector3d(2, 1, 0.5), "second box");
}

// Issue 10, item 6: two boxes of side 2^-400 overlap in a box of exact volume
// 2^-1201, below the least subnormal: Eq. 20's division by V gave NaN cuboid
// dimensions. Such coordinates are now refused up front (outside [2^-256,
// 2^256], as for Polyhedron); at the small end of the range the volume
// (2^-769 here) and the centroid are representable.
TEST(IntersectionVolume, AnOverlapTooSmallForDoubleIsRefusedAsInput) {
  const double s = std::ldexp(1.0, -400);
  const TriangleSolid a = box(Vector3d::Zero(), Vector3d(s, s, s));
  const std::string message = test::message_of<contactref::InputError>(
      [&] { intersection_moments(a, a, translation(Vector3d(s / 2, 0, 0))); });
  EXPECT_NE(message.find("outside the supported magnitudes"), std::string::npos) << message;
  const double low = std::ldexp(1.0, -256);
  const TriangleSolid small = box(Vector3d::Zero(), Vector3d(low, low, low));
  const IntersectionMoments m = intersection_moments(small, small, translation(Vector3d(low / 2, 0, 0)));
  ASSERT_EQ(m.kind, IntersectionKind::kOverlapping);
  EXPECT_EQ(m.volume, std::ldexp(1.0, -769));  // (2^-256)^3 / 2, exact
  EXPECT_EQ(m.centroid, Vector3d(0.75, 0.5, 0.5) * low);
}

TEST(IntersectionVolume, BoxAndTetrahedronMatchTheCornerTetrahedron) {
  // B: the tetrahedron with legs 4 along the axes, moved to (-1, -1, -1):
  // {x, y, z >= -1, x + y + z <= 1}. A = [0, 5]^3. A ∩ B is the corner
  // tetrahedron T = {x, y, z >= 0, x + y + z <= 1}.
  const TriangleSolid a = box(Vector3d::Zero(), Vector3d::Constant(5));
  const TriangleSolid b = tetrahedron(Vector3d::Zero(), 4 * Vector3d::UnitX(), 4 * Vector3d::UnitY(), 4 * Vector3d::UnitZ());
  const IntersectionMoments m = intersection_moments(a, b, translation(Vector3d::Constant(-1)));
  ASSERT_EQ(m.kind, IntersectionKind::kOverlapping);
  // Dirichlet integrals over T: ∫ x^i y^j z^k = i! j! k! / (i + j + k + 3)!:
  // V = 1/6, ∫ x = 1/24 (c = 1/4), ∫ x^2 = 1/60, ∫ x y = 1/120, so
  // C_xx = 1/60 - (1/6)(1/16) = 1/160, C_xy = 1/120 - 1/96 = -1/480, and
  // M = tr(C) I - C: M_xx = 1/80, M_xy = 1/480. One rounding each (as the code).
  EXPECT_EQ(m.volume, 1.0 / 6);
  EXPECT_EQ(m.centroid, Vector3d::Constant(0.25));
  Matrix3d C = Matrix3d::Constant(-1.0 / 480), M = Matrix3d::Constant(1.0 / 480);
  C.diagonal().setConstant(1.0 / 160);
  M.diagonal().setConstant(1.0 / 80);
  EXPECT_EQ(m.covariance, C);
  EXPECT_EQ(m.second_moment, M);
  // The part of ∂B inside A is the slanted face x + y + z = 1 in the
  // octant: area sqrt(3)/2, normal (1,1,1)/sqrt(3), centroid (1,1,1)/3, so
  // ∫ n dA = (1/2, 1/2, 1/2) and ∫ x × n dA = centroid × (1/2, 1/2, 1/2) = 0.
  Vector6d expected;
  expected << 0, 0, 0, 0.5, 0.5, 0.5;
  EXPECT_EQ(m.gradient, expected);
  // C has eigenvalues 1/160 - 2/480 = 1/480 (axis (1,1,1)/sqrt 3) and
  // 1/160 + 1/480 = 1/120 (twice): the thinnest direction is along (1,1,1).
  EXPECT_TRUE(matrices_near(m.principal_covariances, Vector3d(1.0 / 480, 1.0 / 120, 1.0 / 120), tolerance<double>(16)));
  EXPECT_TRUE(matrices_near(m.principal_axes.col(0), Vector3d::Constant(1 / std::sqrt(3.0)), tolerance<double>(16)));
  EXPECT_TRUE(matrices_near(Matrix3d(m.principal_axes.transpose() * m.principal_axes), Matrix3d::Identity(),
                            tolerance<double>(8)));
  EXPECT_NEAR(m.principal_axes.determinant(), 1.0, tolerance<double>(8));
}

TEST(IntersectionVolume, GradientOfABoxInsideAndProtruding) {
  const Vector3d a_lo = Vector3d::Constant(-2), a_hi = Vector3d::Constant(2);
  const TriangleSolid a = box(a_lo, a_hi);
  // Fully inside: ∂B is closed and entirely inside A, so ∫ n_B dA = 0 and
  // ∫ x × n_B dA = 0 exactly: V = vol B does not change under small motions.
  const IntersectionMoments inside = intersection_moments(a, unit_cube(), translation(Vector3d(0.25, -0.5, 0.75)));
  EXPECT_EQ(inside.volume, 1.0);
  EXPECT_EQ(inside.centroid, Vector3d(0.75, 0, 1.25));
  EXPECT_EQ(inside.gradient, Vector6d::Zero());
  // Protruding through A's face x = 2: B = [1.5, 2.5] x [0,1] x [0,1]. Inside
  // A: B's face x = 1.5 (area 1, n = -x, centroid (1.5, 0.5, 0.5)) and the
  // halves x in [1.5, 2] of its four side faces, whose ∫ n and ∫ x × n cancel
  // in opposite pairs (same area and centroid offset, opposite normals). So
  //   ∫ n_B = (-1, 0, 0),  ∫ x × n_B = (1.5, .5, .5) × (-1, 0, 0) = (0, -.5, .5):
  // moving B along +x loses a unit cross-section; turning it about z by
  // omega moves the face x = 1.5 with normal speed omega y, mean y = 1/2.
  const IntersectionMoments out = intersection_moments(a, unit_cube(), translation(Vector3d(1.5, 0, 0)));
  EXPECT_EQ(out.volume, 0.5);
  Vector6d expected;
  expected << 0, -0.5, 0.5, -1, 0, 0;
  EXPECT_EQ(out.gradient, expected);  // exact sums of dyadic numbers
  EXPECT_EQ(out.gradient, box_gradient(a_lo, a_hi, Vector3d(1.5, 0, 0), Vector3d(2.5, 1, 1)));
}

// ---------------------------------------------------------------- gradient by differences

// The volume at B's pose moved by the twist step phi (angular; linear), the
// rotation about A's origin: E' = [exp(phi_w) | v] E (pure rotation or pure
// translation per call here).
double volume_at(const TriangleSolid& a, const TriangleSolid& b, const RigidPose<double>& E, int direction,
                 double step) {
  Matrix4d moved = E.matrix();
  if (direction < 3) {
    const Matrix3d R = Eigen::AngleAxisd(step, Vector3d::Unit(direction)).toRotationMatrix();
    moved = (pose(R, Vector3d::Zero()) * E).matrix();
  } else {
    moved(direction - 3, 3) += step;
  }
  return intersection_moments(a, b, RigidPose<double>::from_matrix(moved, "moved")).volume;
}

// Checks the gradient against
//  (1) central differences with h = 1e-4. V is piecewise smooth in the pose
//      (a cubic polynomial in a translation, a trigonometric polynomial in a
//      rotation angle, between the poses where the combinatorics change, and
//      C^2 across those for solids in general position), so the truncation
//      error is h^2/6 |V'''| <= 1.7e-9 |V'''|; |V'''| is estimated from the
//      five values below. The round-off: V is the exact volume rounded once
//      (1e-17 here), and the moved pose's entries are rounded (a few 1e-16
//      relative), which moves V by <= |∂V/∂pose| 1e-15; divided by 2h,
//      <= 1e-11. Bound: 2 h^2/6 max(|V'''|, 1) + 1e-10.
//  (2) five-point differences with h = 1e-4, exact for polynomials of degree
//      4: for a translation V is cubic within a combinatorial piece, so only
//      round-off remains, 18/(12 h) * 1e-15 ~ 1.5e-11; for a rotation the
//      truncation h^4/30 |V^(5)| adds ~ 3e-18 |V^(5)|. Bound 1e-9 (both,
//      assuming no change of combinatorics within 2h, which the seeded
//      configurations satisfy).
void expect_gradient_matches_differences(const TriangleSolid& a, const TriangleSolid& b, const RigidPose<double>& E,
                                         const std::string& label) {
  const IntersectionMoments m = intersection_moments(a, b, E);
  ASSERT_EQ(m.kind, IntersectionKind::kOverlapping) << label;
  constexpr double h = 1e-4;
  double worst3 = 0, worst5 = 0;
  for (int k = 0; k < 6; ++k) {
    const double vp = volume_at(a, b, E, k, h), vm = volume_at(a, b, E, k, -h);
    const double vp2 = volume_at(a, b, E, k, 2 * h), vm2 = volume_at(a, b, E, k, -2 * h);
    const double central = (vp - vm) / (2 * h);
    const double five = (vm2 - 8 * vm + 8 * vp - vp2) / (12 * h);
    const double third = (vp2 - 2 * vp + 2 * vm - vm2) / (2 * h * h * h);  // V''' estimate
    const double bound3 = 2 * h * h / 6 * std::max(std::abs(third), 1.0) + 1e-10;
    EXPECT_TRUE(scalars_near(central, m.gradient(k), bound3 * test::tolerance_scale(), test::kAbsolute))
        << label << ", direction " << k << " (central)";
    EXPECT_TRUE(scalars_near(five, m.gradient(k), 1e-9 * test::tolerance_scale(), test::kAbsolute))
        << label << ", direction " << k << " (five-point)";
    worst3 = std::max(worst3, std::abs(central - m.gradient(k)));
    worst5 = std::max(worst5, std::abs(five - m.gradient(k)));
  }
  std::printf("[gradient] %-28s |g| = %.3g  central(h=1e-4) err %.2e  five-point err %.2e\n", label.c_str(),
              m.gradient.norm(), worst3, worst5);
}

TEST(IntersectionVolume, GradientMatchesDifferencesOfTheExactVolume) {
  test::Rng rng(test::kSeed + 1);
  for (int trial = 0; trial < 3; ++trial) {
    const TriangleSolid a = random_hull(rng, 16, 1.0);
    const TriangleSolid b = random_hull(rng, 16, 1.0);
    const RigidPose<double> E = pose(fixtures::random_rotation(rng), fixtures::random_vector3(rng, 0.5));
    expect_gradient_matches_differences(a, b, E, "convex hulls #" + std::to_string(trial));
  }
  // Non-convex: two L-prisms crossing, and an L-prism with a hull.
  const TriangleSolid l = l_prism(1.0, -0.5, 0.5);
  test::Rng rng2(test::kSeed + 2);
  expect_gradient_matches_differences(l, l, pose(fixtures::random_rotation(rng2), Vector3d(0.6, 0.7, 0.1)),
                                      "L-prism / L-prism");
  expect_gradient_matches_differences(l, random_hull(rng2, 20, 0.8),
                                      pose(fixtures::random_rotation(rng2), Vector3d(0.9, 0.9, 0)),
                                      "L-prism / hull");
}

// ---------------------------------------------------------------- against Nef

// Both paths compute the same exact rationals (the same solid, integrated
// exactly over two different triangulations of its boundary) and round each
// once to nearest, so every moment and gradient entry agrees bitwise; the
// eigen-analysis then runs on the same double matrix.
void expect_same_as_nef(const TriangleSolid& a, const TriangleSolid& b, const RigidPose<double>& E,
                        const std::string& label) {
  const auto t0 = std::chrono::steady_clock::now();
  const IntersectionMoments m = intersection_moments(a, b, E);
  const auto t1 = std::chrono::steady_clock::now();
  const IntersectionMoments n = intersection_moments_nef(a, b, E);
  EXPECT_FALSE(n.non_manifold_intersection);
  const auto t2 = std::chrono::steady_clock::now();
  EXPECT_TRUE(n.rational_evaluation) << label;  // the oracle's integrals are in rationals
  EXPECT_EQ(m.kind, n.kind) << label;
  EXPECT_EQ(m.volume, n.volume) << label;
  EXPECT_EQ(m.centroid, n.centroid) << label;
  EXPECT_EQ(m.covariance, n.covariance) << label;
  EXPECT_EQ(m.second_moment, n.second_moment) << label;
  EXPECT_EQ(m.gradient, n.gradient) << label;
  EXPECT_EQ(m.gradient_interior, n.gradient_interior) << label;
  EXPECT_EQ(m.gradient_flush, n.gradient_flush) << label;
  EXPECT_EQ(m.cuboid_dimensions, n.cuboid_dimensions) << label;
  const double relative = std::abs(m.volume - n.volume) / std::max(n.volume, std::numeric_limits<double>::min());
  std::printf("[nef] %-34s V = %.17g (rel. diff %.1e), %zu / %zu triangles, corefine %.1f ms, Nef %.1f ms\n",
              label.c_str(), m.volume, relative, m.boundary_triangles, n.boundary_triangles,
              std::chrono::duration<double, std::milli>(t1 - t0).count(),
              std::chrono::duration<double, std::milli>(t2 - t1).count());
}

TEST(IntersectionVolume, CorefinementMatchesNefOnRandomConvexPairs) {
  test::Rng rng(test::kSeed + 3);
  for (int trial = 0; trial < 6; ++trial) {
    const TriangleSolid a = random_hull(rng, 12 + 4 * trial, 1.0);
    const TriangleSolid b = random_hull(rng, 12 + 4 * trial, 1.0);
    const RigidPose<double> E = pose(fixtures::random_rotation(rng), fixtures::random_vector3(rng, 0.6));
    expect_same_as_nef(a, b, E, "convex #" + std::to_string(trial));
  }
}

TEST(IntersectionVolume, CorefinementMatchesNefOnNonConvexPairs) {
  test::Rng rng(test::kSeed + 4);
  const TriangleSolid l = l_prism(1.0, -0.5, 0.5);
  for (int trial = 0; trial < 3; ++trial) {
    const RigidPose<double> E =
        pose(fixtures::random_rotation(rng), fixtures::random_vector3(rng, 0.5) + Vector3d(0.5, 0.5, 0));
    expect_same_as_nef(l, l, E, "L / L #" + std::to_string(trial));
    expect_same_as_nef(l, random_hull(rng, 24, 0.9), E, "L / hull #" + std::to_string(trial));
  }
  // A ∩ B of two L-prisms notched at opposite corners is two unit boxes
  // sharing one edge: a non-manifold solid, which CGAL's corefinement output
  // refuses; intersection_moments then assembles ∂Ω from the classified
  // corefined faces. V = 2, c = (1, 1, 0) by symmetry.
  const TriangleSolid notched_top_right = l_prism(1.0, -0.5, 0.5);
  Matrix3d half_turn;
  half_turn << -1, 0, 0, 0, -1, 0, 0, 0, 1;  // exact: (x, y) -> (2 - x, 2 - y)
  const RigidPose<double> exact_half_turn = pose(half_turn, Vector3d(2, 2, 0));
  const IntersectionMoments m = intersection_moments(notched_top_right, notched_top_right, exact_half_turn);
  EXPECT_TRUE(m.non_manifold_intersection);
  EXPECT_EQ(m.volume, 2.0);
  EXPECT_EQ(m.centroid, Vector3d(1, 1, 0));
  expect_same_as_nef(notched_top_right, notched_top_right, exact_half_turn, "two boxes sharing an edge");
}

// ---------------------------------------------------------------- certified vs rational

// The certified fixed-point evaluation against GMP rationals on the same
// corefined triangles: both return the exact values rounded to nearest, so
// every double agrees bitwise.
void expect_same_as_rational(const TriangleSolid& a, const TriangleSolid& b, const RigidPose<double>& E,
                             const std::string& label) {
  IntersectionOptions rational;
  rational.rational_only = true;
  const auto t0 = std::chrono::steady_clock::now();
  const IntersectionMoments m = intersection_moments(a, b, E);
  const auto t1 = std::chrono::steady_clock::now();
  const IntersectionMoments r = intersection_moments(a, b, E, rational);
  const auto t2 = std::chrono::steady_clock::now();
  EXPECT_FALSE(m.rational_evaluation) << label;  // generic values are decided by the certified bound
  EXPECT_TRUE(r.rational_evaluation) << label;
  EXPECT_EQ(m.kind, r.kind) << label;
  EXPECT_EQ(m.volume, r.volume) << label;
  EXPECT_EQ(m.centroid, r.centroid) << label;
  EXPECT_EQ(m.covariance, r.covariance) << label;
  EXPECT_EQ(m.second_moment, r.second_moment) << label;
  EXPECT_EQ(m.gradient, r.gradient) << label;
  EXPECT_EQ(m.gradient_interior, r.gradient_interior) << label;
  std::printf("[certified] %-28s %zu triangles: certified %.1f ms, rational %.1f ms\n", label.c_str(),
              m.boundary_triangles, std::chrono::duration<double, std::milli>(t1 - t0).count(),
              std::chrono::duration<double, std::milli>(t2 - t1).count());
}

TEST(IntersectionVolume, CertifiedEvaluationMatchesRationals) {
  test::Rng rng(test::kSeed + 6);
  for (const int n : {20, 100, 400}) {
    const TriangleSolid a = random_hull(rng, n, 1.0);
    const TriangleSolid b = random_hull(rng, n, 1.0);
    expect_same_as_rational(a, b, pose(fixtures::random_rotation(rng), fixtures::random_vector3(rng, 0.5)),
                            "hulls of " + std::to_string(n) + " points");
  }
  // Far from the origin and thin: the centre shift and the cancellation in C.
  const TriangleSolid slab = box(Vector3d(1000, 1000, 1000), Vector3d(1001, 1001, 1000.001));
  test::Rng rng2(test::kSeed + 7);
  expect_same_as_rational(slab, random_hull(rng2, 30, 0.8),
                          pose(fixtures::random_rotation(rng2), Vector3d(1000.5, 1000.5, 1000)), "thin slab far away");
}

TEST(IntersectionVolume, ATieIsRoundedToEvenThroughTheRationalFallback) {
  // A = [0, 1 + 2^-52] x [0, 1.5] x [0, 1] inside B: V = (1 + 2^-52) 1.5 =
  // 1.5 + 2^-52 + 2^-53, exactly halfway between two doubles. No certified
  // interval decides it; the rational evaluation rounds it to even, as IEEE
  // multiplication does.
  const double a = 1 + std::ldexp(1.0, -52);
  const TriangleSolid slab = box(Vector3d::Zero(), Vector3d(a, 1.5, 1));
  const IntersectionMoments m = intersection_moments(slab, box(Vector3d::Constant(-1), Vector3d::Constant(3)),
                                                     RigidPose<double>());
  EXPECT_TRUE(m.rational_evaluation);
  EXPECT_EQ(m.volume, a * 1.5);
  EXPECT_EQ(m.volume, 1.5 + std::ldexp(1.0, -51));
}

// ---------------------------------------------------------------- equivariance

TEST(IntersectionVolume, MovingBothSolidsMovesTheResultsRigidly) {
  // With both solids moved by G = (Q, p): V' = V, c' = Q c + p, C' = Q C Q^T,
  // and the gradient, a surface integral of (x × n; n), becomes
  // (Q gw + p × Q gv; Q gv). A is moved in double (its vertices rounded,
  // ~1e-16 relative), B through its pose; the bounds cover those roundings
  // (|x| <= 3, conditioning of the volume to vertex motion ~10).
  test::Rng rng(test::kSeed + 5);
  const TriangleSolid a = random_hull(rng, 20, 1.0);
  const TriangleSolid b = l_prism(0.7, -0.4, 0.4);
  const RigidPose<double> E = pose(fixtures::random_rotation(rng), Vector3d(-0.3, -0.2, 0.1));
  const Matrix3d Q = fixtures::random_rotation(rng);
  const Vector3d p(0.4, -1.1, 0.7);
  TriangleSolid a_moved = a;
  for (Vector3d& x : a_moved.vertices) x = Q * x + p;
  const IntersectionMoments m = intersection_moments(a, b, E);
  const IntersectionMoments g = intersection_moments(a_moved, b, pose(Q, p) * E);
  ASSERT_TRUE(m.has_volume());
  const double bound = tolerance<double>(64, 10);
  EXPECT_TRUE(scalars_near(g.volume, m.volume, bound));
  EXPECT_TRUE(matrices_near(g.centroid, Vector3d(Q * m.centroid + p), bound));
  EXPECT_TRUE(matrices_near(g.covariance, Matrix3d(Q * m.covariance * Q.transpose()), bound));
  EXPECT_TRUE(matrices_near(g.second_moment, Matrix3d(Q * m.second_moment * Q.transpose()), bound));
  Vector6d expected;
  expected << Q * m.gradient.head<3>() + p.cross(Q * m.gradient.tail<3>()), Q * m.gradient.tail<3>();
  EXPECT_TRUE(matrices_near(g.gradient, expected, bound));
}

// ---------------------------------------------------------------- empty and touching

TEST(IntersectionVolume, DisjointSolidsReportAnEmptyIntersection) {
  const IntersectionMoments m = intersection_moments(unit_cube(), unit_cube(), translation(Vector3d(1.5, 0, 0)));
  EXPECT_EQ(m.kind, IntersectionKind::kDisjoint);
  EXPECT_STREQ(to_string(m.kind), "disjoint");
  EXPECT_FALSE(m.has_volume());
  EXPECT_EQ(m.volume, 0.0);
  EXPECT_EQ(m.centroid, Vector3d::Zero());  // undefined, set to zero: no NaN
  EXPECT_TRUE(m.second_moment.allFinite());
  EXPECT_EQ(m.gradient, Vector6d::Zero());
  EXPECT_EQ(intersection_moments_nef(unit_cube(), unit_cube(), translation(Vector3d(1.5, 0, 0))).kind,
            IntersectionKind::kDisjoint);
}

TEST(IntersectionVolume, FaceToFaceTouchingGivesTheSymmetricDerivative) {
  // B = unit cube on top of A = unit cube, shifted by (0.25, 0.5): they share
  // the patch x in [0.25, 1], y in [0.5, 1] of the plane z = 1 (area 3/8),
  // B's outward normal there -z. Pushing B down by s > 0 gives V = 3/8 s,
  // lifting it V = 0: the one-sided derivatives along z are -3/8 and 0, and
  // gradient is their mean (the limit of central differences).
  const RigidPose<double> E = translation(Vector3d(0.25, 0.5, 1));
  const IntersectionMoments m = intersection_moments(unit_cube(), unit_cube(), E);
  EXPECT_EQ(m.kind, IntersectionKind::kTouching);
  EXPECT_EQ(m.volume, 0.0);
  // ∫ n_B = 3/8 (0, 0, -1); ∫ x × n_B = centroid (5/8, 3/4, 1) × (0, 0, -3/8).
  Vector6d touching;
  touching << -0.28125, 0.234375, 0, 0, 0, -0.375;
  EXPECT_EQ(m.gradient_touching, touching);
  EXPECT_EQ(m.gradient_interior, Vector6d::Zero());
  EXPECT_EQ(m.gradient, touching / 2);
  // One-sided (header): pushing B into A (v = -z, along n_B on the patch)
  // grows V at (interior + touching) . (0; v) = 3/8.
  Vector6d down;
  down << 0, 0, 0, 0, 0, -1;
  EXPECT_EQ((m.gradient_interior + m.gradient_touching).dot(down), 0.375);
  // Central differences of V along the translations agree exactly (V is
  // linear on each side, so the quotient is exact up to V's rounding).
  for (int k = 3; k < 6; ++k) {
    const double h = 1.0 / 1024;  // dyadic: the moved poses are exact
    const double central = (volume_at(unit_cube(), unit_cube(), E, k, h) - volume_at(unit_cube(), unit_cube(), E, k, -h)) / (2 * h);
    EXPECT_TRUE(scalars_near(central, m.gradient(k), tolerance<double>(4), test::kAbsolute)) << "direction " << k;
  }
  // The Nef oracle's regularised intersection has no face left: touching,
  // with a zero gradient (documented).
  const IntersectionMoments n = intersection_moments_nef(unit_cube(), unit_cube(), E);
  EXPECT_EQ(n.kind, IntersectionKind::kTouching);
  EXPECT_EQ(n.gradient, Vector6d::Zero());
}

TEST(IntersectionVolume, TouchingAtAnEdgeOrAVertexHasZeroGradient) {
  for (const Vector3d& t : {Vector3d(1, 1, 0), Vector3d(1, 1, 1), Vector3d(1, 0.5, 1)}) {
    // Edge contact, vertex contact, and an edge of B along A's top face edge.
    const IntersectionMoments m = intersection_moments(unit_cube(), unit_cube(), translation(t));
    EXPECT_EQ(m.kind, IntersectionKind::kTouching) << t.transpose();
    EXPECT_EQ(m.gradient, Vector6d::Zero()) << t.transpose();
  }
  // A tetrahedron's vertex resting on the cube's top face.
  const TriangleSolid tip = tetrahedron(Vector3d(0, 0, 0), Vector3d(1, 0, 1), Vector3d(0, 1, 1), Vector3d(-1, -1, 1));
  const IntersectionMoments m = intersection_moments(unit_cube(), tip, translation(Vector3d(0.5, 0.5, 1)));
  EXPECT_EQ(m.kind, IntersectionKind::kTouching);
  EXPECT_EQ(m.gradient, Vector6d::Zero());
}

TEST(IntersectionVolume, FlushFacesGiveTheSymmetricDerivative) {
  // B = unit cube inside A = [0,2]^3 with its top face on A's top face
  // (z = 2), both outward normals +z. Lifting B by s loses s of volume,
  // lowering it loses none: one-sided derivatives -1 and 0, symmetric -1/2.
  const RigidPose<double> E = translation(Vector3d(0.5, 0.5, 1));
  const TriangleSolid a = box(Vector3d::Zero(), Vector3d::Constant(2));
  const IntersectionMoments m = intersection_moments(a, unit_cube(), E);
  EXPECT_EQ(m.kind, IntersectionKind::kOverlapping);
  EXPECT_EQ(m.volume, 1.0);
  EXPECT_EQ(m.centroid, Vector3d(1, 1, 1.5));
  // Flush patch: ∫ n = (0, 0, 1), ∫ x × n = (1, 1, 2) × (0, 0, 1) = (1, -1, 0);
  // the rest of ∂B (inside A) integrates to the opposite.
  Vector6d flush;
  flush << 1, -1, 0, 0, 0, 1;
  EXPECT_EQ(m.gradient_flush, flush);
  EXPECT_EQ(m.gradient_interior, Vector6d(-flush));
  EXPECT_EQ(m.gradient, Vector6d(-flush / 2));
  // One-sided (header): lifting B (along n_B on the flush patch) loses V at
  // rate 1, (interior + touching) . (0; z) = -1; lowering it (against n_B)
  // changes nothing, (interior + flush) . (0; -z) = 0.
  Vector6d up;
  up << 0, 0, 0, 0, 0, 1;
  EXPECT_EQ((m.gradient_interior + m.gradient_touching).dot(up), -1.0);
  EXPECT_EQ((m.gradient_interior + m.gradient_flush).dot(-up), 0.0);
  for (int k = 3; k < 6; ++k) {
    const double h = 1.0 / 1024;
    const double central = (volume_at(a, unit_cube(), E, k, h) - volume_at(a, unit_cube(), E, k, -h)) / (2 * h);
    EXPECT_TRUE(scalars_near(central, m.gradient(k), tolerance<double>(4), test::kAbsolute)) << "direction " << k;
  }
  expect_same_as_nef(a, unit_cube(), E, "flush faces");
}

TEST(IntersectionVolume, IdenticalSolidsOverlapEntirely) {
  // A ∩ A = A: every face is flush. Any small motion of B loses volume to
  // first order on one side and gains none, symmetrically for ±h, so the
  // symmetric derivative is 0; ∂B on ∂A is all of ∂B, whose ∫ n and ∫ x × n
  // vanish (closed surface).
  const TriangleSolid l = l_prism(1.0, -0.5, 0.5);
  const IntersectionMoments m = intersection_moments(l, l, RigidPose<double>());
  EXPECT_EQ(m.kind, IntersectionKind::kOverlapping);
  EXPECT_EQ(m.volume, 3.0);  // three unit squares, unit height
  EXPECT_EQ(m.centroid, Vector3d(5.0 / 6, 5.0 / 6, 0));  // (3 squares' centres (1/2,1/2), (3/2,1/2), (1/2,3/2)) / 3
  EXPECT_EQ(m.gradient, Vector6d::Zero());
  EXPECT_EQ(m.gradient_interior, Vector6d::Zero());
  expect_same_as_nef(l, l, RigidPose<double>(), "identical L-prisms");
}

// ---------------------------------------------------------------- bad input

void expect_invalid(const TriangleSolid& a, const TriangleSolid& b, const RigidPose<double>& E,
                    const std::string& fragment) {
  try {
    intersection_moments(a, b, E);
    ADD_FAILURE() << "accepted; expected an error containing \"" << fragment << "\"";
  } catch (const contactref::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(IntersectionVolume, RejectsBadInputWithAClearMessage) {
  const TriangleSolid cube = unit_cube();
  const RigidPose<double> I;
  TriangleSolid open = cube;
  open.triangles.pop_back();
  expect_invalid(cube, open, I, "not closed");
  expect_invalid(open, cube, I, "solid A");
  TriangleSolid nan_vertex = cube;
  nan_vertex.vertices[3].y() = std::numeric_limits<double>::quiet_NaN();
  expect_invalid(cube, nan_vertex, I, "vertex 3 has a non-finite coordinate");
  // Issue 10, item 6: magnitudes outside [2^-256, 2^256] are refused up front,
  // as by Polyhedron, not found later as overflowing moments.
  for (const int exponent : {257, 300, -257, -300}) {
    TriangleSolid scaled = cube;
    for (Eigen::Vector3d& v : scaled.vertices) v *= std::ldexp(1.0, exponent);
    expect_invalid(cube, scaled, I, "outside the supported magnitudes");
  }
  for (const int exponent : {256, -256}) {  // the ends of the range are accepted
    TriangleSolid scaled = cube;
    for (Eigen::Vector3d& v : scaled.vertices) v *= std::ldexp(1.0, exponent);
    EXPECT_NO_THROW(validate_triangle_solid(scaled, "B")) << "2^" << exponent;
  }
  TriangleSolid out_of_range = cube;
  out_of_range.triangles[5][1] = 8;
  expect_invalid(cube, out_of_range, I, "out of range");
  TriangleSolid inward = cube;
  for (auto& t : inward.triangles) std::swap(t[1], t[2]);
  expect_invalid(cube, inward, I, "does not bound a volume");
  TriangleSolid flipped_one = cube;
  std::swap(flipped_one.triangles[0][1], flipped_one.triangles[0][2]);
  expect_invalid(cube, flipped_one, I, "same direction");
  // Two overlapping cubes in one mesh: closed and manifold, self-intersecting.
  TriangleSolid two = cube;
  const TriangleSolid other = box(Vector3d::Constant(0.5), Vector3d::Constant(1.5));
  for (const auto& v : other.vertices) two.vertices.push_back(v);
  for (const auto& t : other.triangles) two.triangles.push_back({t[0] + 8, t[1] + 8, t[2] + 8});
  expect_invalid(cube, two, I, "intersect");
  // Two cubes sharing only a vertex, in one mesh with that vertex merged.
  TriangleSolid pinched = cube;
  const TriangleSolid corner = box(Vector3d::Ones(), Vector3d::Constant(2));
  for (std::size_t i = 1; i < corner.vertices.size(); ++i) pinched.vertices.push_back(corner.vertices[i]);
  for (const auto& t : corner.triangles) {
    std::array<int, 3> u{};
    for (std::size_t k = 0; k < 3; ++k) u[k] = t[k] == 0 ? 7 : t[k] + 7;  // corner's vertex 0 is cube's vertex 7
    pinched.triangles.push_back(u);
  }
  expect_invalid(cube, pinched, I, "non-manifold");
  TriangleSolid degenerate = tetrahedron(Vector3d::Zero(), Vector3d::UnitX(), Vector3d::UnitY(), Vector3d::UnitZ());
  degenerate.vertices[3] = Vector3d(0.5, 0.5, 0);  // on the line through vertices 1 and 2
  expect_invalid(cube, degenerate, I, "degenerate");
  TriangleSolid empty;
  expect_invalid(cube, empty, I, "no triangles");
  // The Nef oracle validates the same way.
  EXPECT_THROW(intersection_moments_nef(cube, open, I), contactref::InputError);
}

}  // namespace
}  // namespace contactref::robust_geometry
