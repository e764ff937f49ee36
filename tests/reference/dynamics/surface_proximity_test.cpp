// Collision detection between smooth surfaces (surface_proximity.hpp), each
// test against an independent reference:
//  - closed forms: sphere-sphere (centre distance less the radii), sphere and
//    plane (height less the radius), an ellipsoid over a plane (its support
//    function h(n) = |A R^T n|), a tilted torus over a plane (lowest point
//    R sin(tilt) + r below the centre), a sphere in a torus's hole (R - r -
//    offset - radius), each also interpenetrating slightly (the same closed
//    forms, negative);
//  - dense sampling of both surfaces: the App. B.2 bowl (Loop, extraordinary
//    vertices) over a curved bicubic Bezier patch: no sample pair is closer
//    than Newton's pair, and the closest sample pair is within the samples'
//    spacing of it; a ball between two domes, where two stationary pairs
//    rival each other within the bounds: no sample of the domes is nearer
//    than the pair found; the tessellation bound against dense sampling of
//    every triangle (bowl, ellipsoid atlas, torus, Bezier);
//  - an instrumented patch that counts its evaluations: far-apart queries
//    return nullopt without evaluating a surface;
//  - Newton's observed order of convergence (50 digits): 2;
//  - the 50-digit result: the double result agrees with it to double's
//    round-off;
//  - a ProximityCache: along a path of poses, and across seeded jumps
//    (its traversal front then covering other parts of the bodies), each
//    query with the cache gives the cold query's pair to round-off.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <iostream>
#include <memory>
#include <numbers>
#include <optional>
#include <random>

#include <fcl/math/bv/RSS.h>

#include "core/errors.hpp"
#include "reference/dynamics/surface_proximity.hpp"
#include "reference/spatial/pose.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/ellipsoid_atlas.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/transformed_patch.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/sanitized.hpp"
#include "tests/kit/scalars.hpp"
#include "tests/kit/source_dir.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;
using su::Vec2;
using test::tolerance;

// The tessellation bound the tests ask for (m): 0.5 mm, the scale of a
// simulation's collision tolerance for bodies of about 10 cm.
constexpr double kTarget = 5e-4;

template <class T>
su::PatchComplex<T> single_patch(std::unique_ptr<su::Patch<T>> patch) {
  su::PatchComplex<T> complex;
  complex.links.emplace_back(patch->domain().polygon.size());  // no neighbours
  complex.patches.push_back(std::move(patch));
  return complex;
}

// The inside of a cylinder: CylinderPatch with t reversed (its normals
// point to the axis).
class PipePatch final : public su::Patch<double> {
 public:
  explicit PipePatch(double radius) : cylinder_(radius) {}
  su::PatchJet<double> evaluate(const double& s, const double& t) const override {
    su::PatchJet<double> jet = cylinder_.evaluate(s, -t);
    for (int i = 0; i <= 3; ++i)
      for (int j = 1; i + j <= 3; j += 2) jet.derivative(i, j) *= -1.0;
    return jet;
  }
  const su::Domain<double>& domain() const override { return cylinder_.domain(); }
  std::string describe() const override { return "pipe"; }

 private:
  su::CylinderPatch<double> cylinder_;
};

template <class T>
Mat4<T> pose(const Vec3<double>& rotation_vector, const Vec3<double>& translation) {
  return spatial::make_pose<T>(spatial::so3_exp<T>(rotation_vector.cast<T>()), translation.cast<T>());
}

template <class T>
double dbl(const T& x) {
  return static_cast<double>(x);
}
// |a - b|, taken in T (two T values a rounding apart may round to doubles
// apart by one double spacing).
template <class T>
double difference(const T& a, const T& b) {
  using std::abs;
  return static_cast<double>(T(abs(T(a - b))));
}

// Newton's pair is a pair of the surfaces: each point on its body's patch at
// the returned parameters, valid there (inside the band of an atlas's chart).
template <class T>
void expect_on_surfaces(const SurfaceClosestPoints<T>& r, const su::PatchComplex<T>& body1, const Mat4<T>& E_w_1,
                        const su::PatchComplex<T>& body2, const Mat4<T>& E_w_2) {
  const auto world = [](const su::PatchComplex<T>& body, int patch, const Vec2<T>& x, const Mat4<T>& E) {
    const Vec3<T> c = body.patches[std::size_t(patch)]->evaluate(x.x(), x.y()).c();
    return Vec3<T>(spatial::rotation_of<T>(E) * c + spatial::translation_of<T>(E));
  };
  // The evaluations repeat the result's own (8 roundings of coordinates <= 1 m).
  EXPECT_LE(dbl(T((world(body1, r.patch1, r.st, E_w_1) - r.p1_w).norm())), dbl(tolerance<T>(8)));
  EXPECT_LE(dbl(T((world(body2, r.patch2, r.uv, E_w_2) - r.p2_w).norm())), dbl(tolerance<T>(8)));
  for (const auto& [body, patch, x] : {std::tuple{&body1, r.patch1, r.st}, std::tuple{&body2, r.patch2, r.uv}}) {
    const su::Domain<T>& domain = body->patches[std::size_t(patch)]->domain();
    EXPECT_TRUE(domain.contains(x.x(), x.y(), tolerance<T>(8)));
    if (body->is_atlas()) {
      EXPECT_GE(dbl(body->band_distance(patch, x.x())), 0.0);
    }
  }
  EXPECT_LE(difference(T(r.normal_w.norm()), T(1)), dbl(tolerance<T>(8)));
}

template <class T>
class SurfaceProximityTyped : public ::testing::Test {};
TYPED_TEST_SUITE(SurfaceProximityTyped, test::Scalars);

// Sphere-sphere: distance |c1 - c2| - r1 - r2 along u = (c1 - c2) / |c1 - c2|,
// p1 = c1 - r1 u, p2 = c2 + r2 u, normal u; apart (1 cm) and overlapping
// (1 mm). The line of centres runs along body 1's x axis, the pole of the
// atlas's chart 0: the pair must be returned on chart 1.
TYPED_TEST(SurfaceProximityTyped, SphereSphereClosedForm) {
  using T = TypeParam;
  const double r1 = 0.05, r2 = 0.08;
  const su::PatchComplex<T> sphere1 = su::ellipsoid_atlas<T>(Vec3<T>::Constant(T(r1)));
  const su::PatchComplex<T> sphere2 = su::ellipsoid_atlas<T>(Vec3<T>::Constant(T(r2)));
  const SurfaceHierarchy<T> h1(sphere1, kTarget), h2(sphere2, kTarget);
  const Vec3<double> c2(0.1, -0.2, 0.3), u = Vec3<double>(1, 2, -0.5).normalized();
  const Mat4<T> E_w_2 = pose<T>(Vec3<double>(0.3, -0.2, 0.9), c2);
  // Body 1's x axis along -u: its point nearest body 2 is its +x... pole of chart 0.
  const Vec3<double> axis = Vec3<double>::UnitX().cross(-u);
  const double angle = std::acos(Vec3<double>::UnitX().dot(-u));
  const Vec3<T> uT = Vec3<T>(T(1), T(2), T(-0.5)).normalized(), c2T = c2.cast<T>();
  for (const double gap : {0.01, -0.001}) {
    const Vec3<T> c1 = c2T + T(r1 + r2 + gap) * uT;
    const Mat4<T> E_w_1 = spatial::make_pose<T>(spatial::so3_exp<T>(Vec3<T>((axis.normalized() * angle).cast<T>())), c1);
    const auto r = closest_points(h1, E_w_1, h2, E_w_2, T(0.1));
    ASSERT_TRUE(r.has_value());
    // The closed form in T from the same inputs: about 10 roundings; Newton
    // stops at round-off of the 0.4 m coordinates (20 roundings); the
    // relative curvature 1/r1 + 1/r2 conditions the points by at most its
    // ratio to the smaller, about 2.
    EXPECT_LE(difference(r->distance, T(T(r1 + r2 + gap) - T(r1) - T(r2))), dbl(tolerance<T>(32)));
    EXPECT_LE(dbl(T((r->p1_w - (c1 - T(r1) * uT)).norm())), dbl(tolerance<T>(32, 2)));
    EXPECT_LE(dbl(T((r->p2_w - (c2T + T(r2) * uT)).norm())), dbl(tolerance<T>(32, 2)));
    EXPECT_LE(dbl(T((r->normal_w - uT).norm())), dbl(tolerance<T>(32, 2)));
    EXPECT_EQ(r->patch1, 1);  // chart 1: chart 0's pole is the contact point
    expect_on_surfaces(*r, sphere1, E_w_1, sphere2, E_w_2);
    // The lower bound: never above the distance, and at least
    // min(D / 2 - 1.5 B, D - 3 B) (surface_proximity.hpp; the polyhedral
    // distance is within B of D), less FCL's round-off (128 roundings of the
    // 0.4 m coordinates).
    const T lower = distance_lower_bound(h1, E_w_1, h2, E_w_2);
    const double B = h1.bound() + h2.bound();
    EXPECT_LE(dbl(lower), std::max(gap, 0.0));
    EXPECT_GE(dbl(lower), std::min(gap / 2 - 1.5 * B, gap - 3 * B) - 128 * 0.4 * std::numeric_limits<double>::epsilon());
  }
}

// A sphere over a plane (body 2, rotated and moved): distance n . (c - o) - r,
// p1 = c - r n, p2 its foot point, normal n; the plane as body 1 instead:
// the same distance, the normal -n (the sphere's outward normal at p2).
TYPED_TEST(SurfaceProximityTyped, SpherePlaneClosedForm) {
  using T = TypeParam;
  const double radius = 0.05;
  const su::PatchComplex<T> sphere = su::ellipsoid_atlas<T>(Vec3<T>::Constant(T(radius)));
  const su::PatchComplex<T> plane = single_patch<T>(std::make_unique<su::PlanePatch<T>>());
  const SurfaceHierarchy<T> hs(sphere, kTarget), hp(plane, kTarget);
  EXPECT_TRUE(hp.is_half_space());
  const Mat4<T> E_w_p = pose<T>(Vec3<double>(0.2, -0.4, 0.1), Vec3<double>(0.3, 0.1, -0.2));
  const Vec3<T> n = spatial::rotation_of<T>(E_w_p).col(2), o = spatial::translation_of<T>(E_w_p);
  for (const double gap : {0.02, -0.002}) {
    const T height = T(radius + gap), expected = height - T(radius);
    const Vec3<T> c = o + height * n + spatial::rotation_of<T>(E_w_p) * Vec3<T>(T(0.4), T(-0.7), T(0));
    const Mat4<T> E_w_s = spatial::make_pose<T>(spatial::so3_exp<T>(Vec3<T>(T(1), T(2), T(3))), c);
    // Inputs of magnitude about 1 m through about 20 roundings.
    const auto below = closest_points(hs, E_w_s, hp, E_w_p, T(0.1));
    ASSERT_TRUE(below.has_value());
    EXPECT_LE(difference(below->distance, expected), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((below->p1_w - (c - T(radius) * n)).norm())), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((below->p2_w - (c - height * n)).norm())), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((below->normal_w - n).norm())), dbl(tolerance<T>(64)));
    expect_on_surfaces(*below, sphere, E_w_s, plane, E_w_p);
    const auto above = closest_points(hp, E_w_p, hs, E_w_s, T(0.1));
    ASSERT_TRUE(above.has_value());
    EXPECT_LE(difference(above->distance, expected), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((above->normal_w + n).norm())), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((above->p2_w - (c - T(radius) * n)).norm())), dbl(tolerance<T>(64)));
    // Against the half-space: at least D - 2 B, less round-off.
    const T lower = distance_lower_bound(hs, E_w_s, hp, E_w_p);
    EXPECT_LE(dbl(lower), std::max(gap, 0.0));
    EXPECT_GE(dbl(lower), gap - 2 * hs.bound() - 128 * 1.0 * std::numeric_limits<double>::epsilon());
  }
}

// A sphere beside a rod (an infinite cylinder of radius R about the axis
// o + u a, body 2, rotated and moved): with rho the unit direction from the
// axis to the centre c, distance |c - o|_across - R - r, p1 = c - r rho,
// p2 = o + u a + R rho, normal rho; the rod as body 1 instead: the normal
// -rho. Apart (2 cm) and overlapping (1 mm); beyond the query: nullopt.
TYPED_TEST(SurfaceProximityTyped, SphereBesideRodClosedForm) {
  using T = TypeParam;
  const double radius = 0.05, R = 0.3;
  const su::PatchComplex<T> sphere = su::ellipsoid_atlas<T>(Vec3<T>::Constant(T(radius)));
  const su::PatchComplex<T> cylinder = single_patch<T>(std::make_unique<su::CylinderPatch<T>>(T(R)));
  const SurfaceHierarchy<T> hs(sphere, kTarget), hr(cylinder, kTarget);
  ASSERT_TRUE(hr.rod().has_value());
  EXPECT_TRUE(hr.is_analytic());
  EXPECT_TRUE(hr.vertices().empty());
  const Mat4<T> E_w_r = pose<T>(Vec3<double>(0.4, -0.2, 0.9), Vec3<double>(0.1, 0.3, -0.2));
  const Mat3<T> R_w_r = spatial::rotation_of<T>(E_w_r);
  const Vec3<T> a = R_w_r.col(2), o = spatial::translation_of<T>(E_w_r);  // CylinderPatch's axis is its z
  using std::cos;
  using std::sin;
  const Vec3<T> rho = R_w_r * Vec3<T>(T(cos(T(2.2))), T(sin(T(2.2))), T(0));
  for (const double gap : {0.02, -0.001}) {
    const Vec3<T> foot = o + T(0.7) * a + T(R) * rho;
    const T offset = T(radius + gap), expected = offset - T(radius);
    const Vec3<T> c = foot + offset * rho;
    const Mat4<T> E_w_s = spatial::make_pose<T>(spatial::so3_exp<T>(Vec3<T>(T(-1), T(0.5), T(2))), c);
    // Inputs of magnitude about 1 m through about 30 roundings.
    const auto beside = closest_points(hs, E_w_s, hr, E_w_r, T(0.1));
    ASSERT_TRUE(beside.has_value());
    EXPECT_LE(difference(beside->distance, expected), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((beside->p1_w - (c - T(radius) * rho)).norm())), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((beside->p2_w - foot).norm())), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((beside->normal_w - rho).norm())), dbl(tolerance<T>(64)));
    expect_on_surfaces(*beside, sphere, E_w_s, cylinder, E_w_r);
    const auto swapped = closest_points(hr, E_w_r, hs, E_w_s, T(0.1));
    ASSERT_TRUE(swapped.has_value());
    EXPECT_LE(difference(swapped->distance, expected), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((swapped->normal_w + rho).norm())), dbl(tolerance<T>(64)));
    // Against the rod: at least D - 2 B, less round-off.
    const T lower = distance_lower_bound(hs, E_w_s, hr, E_w_r);
    EXPECT_LE(dbl(lower), std::max(gap, 0.0));
    EXPECT_GE(dbl(lower), gap - 2 * hs.bound() - 128 * 2.0 * std::numeric_limits<double>::epsilon());
  }
  const Mat4<T> far = spatial::make_pose<T>(Mat3<T>::Identity(), Vec3<T>(o + T(R + radius + 0.5) * rho));
  EXPECT_FALSE(closest_points(hs, far, hr, E_w_r, T(0.1)).has_value());
}

// An ellipsoid (semi-axes A = diag(a, b, c), rotation R, centre z0) over the
// plane z = 0: its lowest point is z0 - h with the support function
// h = |A R^T e_z|, at centre - R A^2 R^T e_z / h; also 1 mm into the plane.
TYPED_TEST(SurfaceProximityTyped, EllipsoidOverPlaneSupportFunction) {
  using T = TypeParam;
  const Vec3<T> axes(T(0.09), T(0.05), T(0.03));
  const su::PatchComplex<T> ellipsoid = su::ellipsoid_atlas<T>(axes);
  const su::PatchComplex<T> plane = single_patch<T>(std::make_unique<su::PlanePatch<T>>());
  const SurfaceHierarchy<T> he(ellipsoid, kTarget), hp(plane, kTarget);
  const Mat4<T> E_w_p = Mat4<T>::Identity();
  const Mat3<T> R = spatial::so3_exp<T>(Vec3<T>(T(0.7), T(-0.3), T(0.5)));
  const Vec3<T> A2n = R * axes.cwiseProduct(axes).asDiagonal() * R.transpose() * Vec3<T>::UnitZ();
  using std::sqrt;
  const T h = sqrt(A2n.z());
  for (const double gap : {0.015, -0.001}) {
    const Vec3<T> centre(T(0.2), T(-0.1), h + T(gap));
    const T expected = centre.z() - h;
    const Mat4<T> E_w_e = spatial::make_pose<T>(R, centre);
    const auto r = closest_points(he, E_w_e, hp, E_w_p, T(0.1));
    ASSERT_TRUE(r.has_value());
    // About 30 roundings of 0.2 m coordinates; the lowest point's position is
    // conditioned by the largest radius of curvature over the smallest, at
    // most (a / c)^2 = 9.
    EXPECT_LE(difference(r->distance, expected), dbl(tolerance<T>(64)));
    EXPECT_LE(dbl(T((r->p1_w - (centre - A2n / h)).norm())), dbl(tolerance<T>(64, 9)));
    EXPECT_LE(dbl(T((r->normal_w - Vec3<T>::UnitZ()).norm())), dbl(tolerance<T>(64)));
    expect_on_surfaces(*r, ellipsoid, E_w_e, plane, E_w_p);
  }
}

// A torus (R, r) with its axis tilted by theta from z, over the plane z = 0:
// its lowest point is R sin(theta) + r below its centre (the lowest point of
// the tube's centre circle, then the tube's radius straight down).
TYPED_TEST(SurfaceProximityTyped, TiltedTorusOverPlane) {
  using T = TypeParam;
  const double R = 0.1, r = 0.03, theta = 0.4;
  const su::PatchComplex<T> torus = single_patch<T>(std::make_unique<su::TorusPatch<T>>(T(R), T(r)));
  const su::PatchComplex<T> plane = single_patch<T>(std::make_unique<su::PlanePatch<T>>());
  const SurfaceHierarchy<T> ht(torus, kTarget), hp(plane, kTarget);
  using std::cos;
  using std::sin;
  const T tilt(theta);
  for (const double gap : {0.01, -0.001}) {
    const Vec3<T> centre(T(0.05), T(0.02), T(R * std::sin(theta) + r + gap));
    const Mat4<T> E_w_t = spatial::make_pose<T>(spatial::so3_exp<T>(Vec3<T>(tilt, T(0), T(0))), centre);
    const auto result = closest_points(ht, E_w_t, hp, Mat4<T>(Mat4<T>::Identity()), T(0.1));
    ASSERT_TRUE(result.has_value());
    const T expected = centre.z() - T(R) * sin(tilt) - T(r);
    EXPECT_LE(difference(result->distance, expected), dbl(tolerance<T>(64)));
    // The axis R_x(theta) e_z = (0, -sin, cos): the tube's centre circle is
    // lowest at centre + R (0, -cos, -sin), the torus r below it.
    const Vec3<T> lowest = centre + T(R) * Vec3<T>(T(0), -cos(tilt), -sin(tilt)) - T(r) * Vec3<T>::UnitZ();
    // The outer equator's curvatures 1/r and about 1/(R + r): conditioning
    // about (R + r) / r = 4.
    EXPECT_LE(dbl(T((result->p1_w - lowest).norm())), dbl(tolerance<T>(64, 4)))
        << "the lowest point is on the other side or elsewhere";
    expect_on_surfaces(*result, torus, E_w_t, plane, Mat4<T>(Mat4<T>::Identity()));
  }
}

// A sphere of radius rho in the hole of a torus (R, r), its centre offset by
// delta towards +x in the torus's plane: the nearest torus point is on the
// inner equator at (R - r, 0, 0), at distance R - r - delta - rho, with the
// torus's outward normal -x there (towards the axis).
TYPED_TEST(SurfaceProximityTyped, SphereInTorusHole) {
  using T = TypeParam;
  const double R = 0.1, r = 0.03, rho = 0.04;
  const su::PatchComplex<T> torus = single_patch<T>(std::make_unique<su::TorusPatch<T>>(T(R), T(r)));
  const su::PatchComplex<T> sphere = su::ellipsoid_atlas<T>(Vec3<T>::Constant(T(rho)));
  const SurfaceHierarchy<T> ht(torus, kTarget), hs(sphere, kTarget);
  const Mat4<T> E_w_t = pose<T>(Vec3<double>(0.2, 0.5, -0.3), Vec3<double>(0.1, 0.0, 0.2));
  for (const double delta : {0.01, 0.032}) {  // 2 cm apart; 2 mm overlap
    const Vec3<T> centre_t(T(delta), T(0), T(0));
    const Mat4<T> E_w_s = E_w_t * pose<T>(Vec3<double>(1, -1, 2), centre_t.template cast<double>());
    const auto result = closest_points(hs, E_w_s, ht, E_w_t, T(0.1));
    ASSERT_TRUE(result.has_value());
    EXPECT_LE(difference(result->distance, T(T(R) - T(r) - T(delta) - T(rho))), dbl(tolerance<T>(64)));
    const Mat3<T> R_t = spatial::rotation_of<T>(E_w_t);
    const Vec3<T> p2 = R_t * Vec3<T>(T(R - r), T(0), T(0)) + spatial::translation_of<T>(E_w_t);
    // The inner equator's relative curvature 1/rho - 1/(R - r) = 10.7 / m
    // conditions the points: about 1 / (0.07 * 10.7) = 1.3 times the
    // coordinates' round-off.
    EXPECT_LE(dbl(T((result->p2_w - p2).norm())), dbl(tolerance<T>(64, 2)));
    EXPECT_LE(dbl(T((result->normal_w + R_t.col(0)).norm())), dbl(tolerance<T>(64, 2)));
    expect_on_surfaces(*result, sphere, E_w_s, torus, E_w_t);
  }
}

// ---------------------------------------------------------------------------
// The bowl (Kry's App. B.2 mesh, 0.0872 m per unit, notes Section 8) and a
// curved bicubic Bezier patch.

template <class T>
std::unique_ptr<su::LoopSurface<T>> bowl() {
  su::TriangleMesh mesh =
      su::read_triangle_mesh(test::source_dir() / "validation/fixtures/meshes" / "bowl_b2.obj");
  for (Vec3<double>& x : mesh.vertices) x *= 0.0872;
  return std::make_unique<su::LoopSurface<T>>(mesh, "bowl_b2.obj");
}

// A bump over [-0.3, 0.3]^2: heights up to 2 cm, curved both ways (with
// other heights along x, another bump; all 0, a flat square).
template <class T>
su::PatchComplex<T> bezier_bump(const std::array<double, 4>& heights = {0.0, 0.02, 0.015, -0.01}) {
  std::array<Vec3<T>, 16> control;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      control[std::size_t(4 * i + j)] = Vec3<T>(T(-0.3 + 0.2 * i), T(-0.3 + 0.2 * j),
                                                T(heights[std::size_t(i)] * (1 - 0.5 * j * (3 - j) / 2.0)));
  return single_patch<T>(std::make_unique<su::BezierPatch<T>>(control));
}

// The bowl above the bump, tilted so that one point of its base's rim comes
// nearest.
template <class T>
Mat4<T> bowl_pose(double height) {
  return pose<T>(Vec3<double>(0.35, -0.2, 0.3), Vec3<double>(0.01, -0.02, height));
}

// Samples of a patch complex on a barycentric grid of each face (n per
// side, at the sub-triangles' centroids: never a corner, where an
// extraordinary patch is not evaluated) or a square grid, in world
// coordinates, and the largest distance between neighbouring samples.
struct Samples {
  std::vector<Vec3<double>> points;
  double spacing = 0;
};

Samples sample_loop(const su::PatchComplex<double>& complex, const Mat4<double>& E, int n) {
  Samples out;
  for (const auto& patch : complex.patches) {
    const auto at = [&](int i, int j) {
      const Vec3<double> c = patch->evaluate((i + 1.0 / 3) / n, (j + 1.0 / 3) / n).c();
      return Vec3<double>(E.topLeftCorner<3, 3>() * c + E.topRightCorner<3, 1>());
    };
    for (int j = 0; j < n; ++j)
      for (int i = 0; i + j < n; ++i) {
        out.points.push_back(at(i, j));
        if (i + j + 1 < n) {
          out.spacing = std::max({out.spacing, (at(i, j) - at(i + 1, j)).norm(), (at(i, j) - at(i, j + 1)).norm()});
        }
      }
  }
  return out;
}

Samples sample_square(const su::Patch<double>& patch, const Mat4<double>& E, int n) {
  Samples out;
  const auto at = [&](int i, int j) {
    const Vec3<double> c = patch.evaluate(double(i) / n, double(j) / n).c();
    return Vec3<double>(E.topLeftCorner<3, 3>() * c + E.topRightCorner<3, 1>());
  };
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      out.points.push_back(at(i, j));
      if (i < n && j < n) out.spacing = std::max({out.spacing, (at(i, j) - at(i + 1, j)).norm(), (at(i, j) - at(i, j + 1)).norm()});
    }
  return out;
}

// The smallest distance between the two sample sets, pruning the first
// set's samples by height (the second lies below z_max: a sample at height
// z is at least z - z_max from it).
// The closest sample pair: the upper samples from the lowest up, until they
// are higher than the best distance above every lower sample; against each,
// only the lower samples within the best distance in x (sorted by x).
double sampled_distance(const Samples& upper, const Samples& lower) {
  double z_max = -1e300;
  for (const Vec3<double>& x : lower.points) z_max = std::max(z_max, x.z());
  std::vector<Vec3<double>> lower_by_x = lower.points;
  std::sort(lower_by_x.begin(), lower_by_x.end(), [](const auto& a, const auto& b) { return a.x() < b.x(); });
  std::vector<const Vec3<double>*> order;
  for (const Vec3<double>& x : upper.points) order.push_back(&x);
  std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->z() < b->z(); });
  double best = 1e300;
  for (const Vec3<double>* x : order) {
    if (x->z() - z_max > best) break;
    auto y = std::lower_bound(lower_by_x.begin(), lower_by_x.end(), x->x() - best,
                              [](const Vec3<double>& a, double value) { return a.x() < value; });
    for (; y != lower_by_x.end() && y->x() <= x->x() + best; ++y) best = std::min(best, (*x - *y).norm());
  }
  return best;
}

// Newton's pair is the global closest pair: no sample pair of dense samples
// of both surfaces (spacing 1.5 mm and 3 mm) is closer, and the closest
// sample pair is within the samples' reach of it: a surface point lies
// within two spacings of a sample (a grid cell's diameter is at most two of
// its edges), so the sampled distance exceeds the true one by at most two
// spacings of each set. (The sanitized build samples at twice the spacings:
// the same code, a looser bound; the release build checks the fine one.)
TEST(SurfaceProximity, BowlOverBezierAgainstDenseSampling) {
  const auto surface = bowl<double>();
  const su::PatchComplex<double> bump = bezier_bump<double>();
  const SurfaceHierarchy<double> hb(surface->complex(), kTarget), hz(bump, kTarget);
  const Mat4<double> E_w_b = bowl_pose<double>(0.11), E_w_z = pose<double>(Vec3<double>(0.05, -0.03, 0), Vec3<double>::Zero());
  const auto r = closest_points(hb, E_w_b, hz, E_w_z, 0.1);
  ASSERT_TRUE(r.has_value());
  expect_on_surfaces(*r, surface->complex(), E_w_b, bump, E_w_z);
  const int coarser = test::kSanitized ? 2 : 1;
  const Samples bowl_samples = sample_loop(surface->complex(), E_w_b, 80 / coarser);
  const Samples bump_samples = sample_square(*bump.patches[0], E_w_z, 200 / coarser);
  const double sampled = sampled_distance(bowl_samples, bump_samples);
  // Round-off of the sampled distances: 16 roundings of 0.3 m coordinates.
  EXPECT_LE(r->distance, sampled + 16 * 0.3 * std::numeric_limits<double>::epsilon()) << "a sample pair is closer";
  EXPECT_LE(sampled - r->distance, 2 * (bowl_samples.spacing + bump_samples.spacing));
  EXPECT_GT(r->distance, 0.0);
  // Newton from the neighbouring face across the edge nearest the closest
  // point (0.1 into it from that edge) converges to the same pair: it moves
  // across the patch edge.
  const su::Domain<double>& domain = surface->complex().patches[std::size_t(r->patch1)]->domain();
  std::size_t edge = 0;
  for (std::size_t k = 1; k < 3; ++k)
    if (domain.edge_side(k, r->st) < domain.edge_side(edge, r->st)) edge = k;
  const su::EdgeLink link = surface->complex().links[std::size_t(r->patch1)][edge];
  const Vec2<double>& a = domain.polygon[edge];
  const Vec2<double>& b = domain.polygon[(edge + 1) % 3];
  const double alpha = (r->st - a).dot(b - a) / (b - a).squaredNorm();
  const std::vector<Vec2<double>>& next = surface->complex().patches[std::size_t(link.patch)]->domain().polygon;
  const Vec2<double> on_edge = next[std::size_t(link.edge)] + (1 - alpha) * (next[std::size_t(link.edge + 1) % 3] - next[std::size_t(link.edge)]);
  const Vec2<double> start = on_edge + 0.1 * (Vec2<double>(1.0 / 3, 1.0 / 3) - on_edge).normalized();
  const SurfaceClosestPoints<double> again = newton_closest_points(hb, E_w_b, link.patch, start, hz, E_w_z, r->patch2, r->uv);
  EXPECT_EQ(again.patch1, r->patch1);
  // Both converged to round-off: the distance to 64 roundings of 0.3 m; the
  // points to that over the smallest relative curvature's share, about 5.
  EXPECT_NEAR(again.distance, r->distance, 64 * 0.3 * std::numeric_limits<double>::epsilon());
  EXPECT_LE((again.p1_w - r->p1_w).norm(), 5 * 64 * 0.3 * std::numeric_limits<double>::epsilon()) << "another stationary pair";
}

// detail::bounding_volume_gap against FCL's RSS distance (an independent
// computation of the exact distance between the two volumes): never above
// it, on seeded random pairs (rotations, centres within 10 cm, half sides up
// to 5 cm, a tenth of each side's volumes a sphere, radii up to 1 cm); and equal to it, to
// round-off, for flat rectangles facing each other across a gap with
// overlapping footprints (the case it is made for); more than a third of
// the random pairs apart, so the bound is not vacuous.
TEST(SurfaceProximity, BoundingVolumeGapIsALowerBoundOfTheRssDistance) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1, 1), size(0, 0.05), radius(0, 0.01);
  const auto rotation = [&] {
    Vec3<double> w;
    for (int i = 0; i < 3; ++i) w(i) = 2 * unit(random);
    return spatial::so3_exp<double>(w);
  };
  const auto swept = [&](const Vec3<double>& centre, const Mat3<double>& axes, double half0, double half1, double r) {
    fcl::RSSd rss;
    rss.axis = axes;
    rss.To = centre - axes * Vec3<double>(half0, half1, 0);
    rss.l[0] = 2 * half0, rss.l[1] = 2 * half1, rss.r = r;
    return std::pair{detail::SweptRectangle{centre, axes, half0, half1, r, std::hypot(half0, half1) + r}, rss};
  };
  const double roundoff = 64 * 0.3 * std::numeric_limits<double>::epsilon();
  int apart = 0;
  constexpr int kPairs = 20000;
  // One draw per statement: the order of a call's arguments is the compiler's.
  const auto point = [&] {
    Vec3<double> x;
    for (int i = 0; i < 3; ++i) x(i) = 0.1 * unit(random);
    return x;
  };
  const auto volume = [&](bool sphere) {
    const Vec3<double> centre = point();
    const Mat3<double> axes = rotation();
    const double half0 = sphere ? 0.0 : size(random);
    const double half1 = sphere ? 0.0 : size(random);
    return swept(centre, axes, half0, half1, radius(random));
  };
  for (int k = 0; k < kPairs; ++k) {
    const auto [a, rss_a] = volume(k % 10 == 0);
    const auto [b, rss_b] = volume(k % 10 == 5);
    const Mat3<double> R_a_b = rotation();
    const Vec3<double> p_a_b = point();
    const double exact = fcl::distance(R_a_b, p_a_b, rss_a, rss_b);
    const double gap = detail::bounding_volume_gap(a, b, R_a_b, p_a_b, std::numeric_limits<double>::infinity());
    ASSERT_LE(gap, exact + roundoff) << "pair " << k;
    ASSERT_GE(gap, 0.0) << "pair " << k;
    apart += gap > 0;
  }
  EXPECT_GT(apart, kPairs / 3);
  // Flat and facing: a 4 x 6 cm rectangle (radius 1 mm) above a 5 x 5 cm one
  // (radius 0.5 mm), normals along z, turned 0.4 rad about it, its centre 2
  // cm over and 1 cm aside: the distance is 2 cm less both radii.
  const auto [low, rss_low] = swept(Vec3<double>::Zero(), Mat3<double>::Identity(), 0.025, 0.025, 0.0005);
  const auto [high, rss_high] = swept(Vec3<double>::Zero(), Mat3<double>::Identity(), 0.02, 0.03, 0.001);
  const Mat3<double> turn = spatial::so3_exp<double>(Vec3<double>(0, 0, 0.4));
  const Vec3<double> over(0.01, 0, 0.02);
  EXPECT_NEAR(detail::bounding_volume_gap(low, high, turn, over, std::numeric_limits<double>::infinity()), 0.0185, roundoff);
  EXPECT_NEAR(fcl::distance(turn, over, rss_low, rss_high), 0.0185, roundoff);
}

// detail::MotionBound, the bound by which a cache keeps a front pair, against
// the points' displacements (closed form: X_to x - X_from x):
//  - seeded random pose pairs, turned by 1e-9 to 3.1 rad about random axes
//    and shifted up to 5 cm, balls of random centres and reaches: no point of
//    the ball (its centre, points on its sphere, points inside) moves
//    farther than the bound;
//  - tight where it can be: a pure shift moves every point by exactly it
//    (the bound adds only its padding, sqrt(16 eps) of the reach), and a
//    turn by theta about an axis through the centre moves the points of the
//    sphere's equator by 2 sin(theta / 2) reach, which the bound equals to
//    round-off.
TEST(SurfaceProximity, MotionBoundHoldsEveryDisplacementAndIsTight) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> unit(-1, 1), reach_of(0, 0.1);
  const auto vector = [&](double scale) {
    Vec3<double> v;
    for (int i = 0; i < 3; ++i) v(i) = scale * unit(random);
    return v;
  };
  const double eps = std::numeric_limits<double>::epsilon();
  for (const double angle : {1e-9, 1e-4, 0.05, 1.0, 3.1}) {
    for (int k = 0; k < 200; ++k) {
      const Mat4<double> from = spatial::make_pose<double>(spatial::so3_exp<double>(vector(2)), vector(0.5));
      const Mat3<double> turn = spatial::so3_exp<double>(Vec3<double>(vector(1).normalized() * angle));
      const Mat4<double> to = spatial::make_pose<double>(Mat3<double>(turn * from.topLeftCorner<3, 3>()),
                                                         Vec3<double>(from.topRightCorner<3, 1>() + vector(0.05)));
      const Vec3<double> centre = vector(0.2);
      const double reach = reach_of(random);
      const double bound = detail::MotionBound(from, to).of(centre, reach);
      for (int j = 0; j < 20; ++j) {
        const Vec3<double> direction = vector(1).normalized();
        const double r = j == 0 ? 0.0 : j < 10 ? reach : reach * std::abs(unit(random));
        const Vec3<double> x = centre + r * direction;
        const double moved = ((to.topLeftCorner<3, 3>() - from.topLeftCorner<3, 3>()) * x + to.topRightCorner<3, 1>() -
                              from.topRightCorner<3, 1>()).norm();
        ASSERT_LE(moved, bound) << "angle " << angle << ", pose pair " << k << ", point " << j;
      }
    }
  }
  const Mat4<double> from = spatial::make_pose<double>(spatial::so3_exp<double>(Vec3<double>(0.3, -0.2, 0.5)),
                                                       Vec3<double>(0.1, 0.2, -0.3));
  const Vec3<double> centre(0.05, -0.02, 0.08), shift(0.01, -0.03, 0.02);
  const double reach = 0.07;
  const Mat4<double> shifted = spatial::make_pose<double>(Mat3<double>(from.topLeftCorner<3, 3>()),
                                                          Vec3<double>(from.topRightCorner<3, 1>() + shift));
  EXPECT_NEAR(detail::MotionBound(from, shifted).of(centre, reach), shift.norm(), std::sqrt(16 * eps) * reach + 64 * eps);
  // A turn by 1 rad about the axis a through the centre's place c_w: the
  // new pose is T(c_w) R_a T(-c_w) applied after `from`.
  const Vec3<double> axis = Vec3<double>(1, 2, -2) / 3;
  const Vec3<double> c_w = from.topLeftCorner<3, 3>() * centre + from.topRightCorner<3, 1>();
  const Mat3<double> R_a = spatial::so3_exp<double>(Vec3<double>(axis * 1.0));
  const Mat4<double> turned = spatial::make_pose<double>(Mat3<double>(R_a * from.topLeftCorner<3, 3>()),
                                                         Vec3<double>(R_a * (from.topRightCorner<3, 1>() - c_w) + c_w));
  EXPECT_NEAR(detail::MotionBound(from, turned).of(centre, reach), 2 * std::sin(0.5) * reach, 64 * eps);
}

// The bowl over the bump, with their hierarchies at the tests' bound, for
// the cache's tests; their results agree to the coordinates' round-off, 64
// roundings of 0.3 m.
struct BowlOverBump {
  std::unique_ptr<su::LoopSurface<double>> surface = bowl<double>();
  su::PatchComplex<double> bump = bezier_bump<double>();
  SurfaceHierarchy<double> hb{surface->complex(), kTarget}, hz{bump, kTarget};
};
constexpr double kCoordinateRoundoff = 64 * 0.3 * std::numeric_limits<double>::epsilon();

// A ProximityCache changes where the search starts, not what it finds: along
// a path of the bowl over the bump (descending from 2 cm towards contact,
// turning and sliding), each query with the cache of the path's previous
// ones gives the cold query's pair, to round-off (the distance to 64
// roundings of 0.3 m; the points to 5 times that, as in the test above),
// and some of the front's pairs are kept untested (the motion bound).
// Given another pair of hierarchies (the bodies swapped), the cache starts
// again (its indices are the first pair's) and the result is the swapped
// cold query's.
TEST(SurfaceProximity, CacheKeepsTheColdResult) {
  const BowlOverBump scene;
  const SurfaceHierarchy<double>& hb = scene.hb;
  const SurfaceHierarchy<double>& hz = scene.hz;
  const Mat4<double> E_w_z = Mat4<double>::Identity();
  ProximityCache<double> cache;
  int compared = 0;
  long kept = 0;
  for (int k = 0; k < 24; ++k) {
    const Mat4<double> E_w_b = pose<double>(Vec3<double>(0.35 + 0.02 * k, -0.2, 0.3 + 0.05 * k),
                                            Vec3<double>(0.01 + 0.002 * k, -0.02, 0.13 - 0.001 * k));
    const auto cold = closest_points(hb, E_w_b, hz, E_w_z, 0.1);
    const auto warm = closest_points(hb, E_w_b, hz, E_w_z, 0.1, &cache);
    ASSERT_EQ(cold.has_value(), warm.has_value()) << "pose " << k;
    if (!cold) continue;
    ++compared;
    EXPECT_NEAR(warm->distance, cold->distance, kCoordinateRoundoff) << "pose " << k;
    EXPECT_LE((warm->p1_w - cold->p1_w).norm(), 5 * kCoordinateRoundoff) << "pose " << k;
    EXPECT_LE((warm->p2_w - cold->p2_w).norm(), 5 * kCoordinateRoundoff) << "pose " << k;
    EXPECT_FALSE(cache.triangle_pairs.empty()) << "pose " << k << ": the query's seeds were not kept";
    EXPECT_LE(cache.front.size(), 2 * cache.front_from_roots) << "pose " << k << ": the front outgrew its bound";
    kept += cache.work.kept;
  }
  EXPECT_EQ(compared, 24) << "every pose is within the query distance";
  EXPECT_GT(kept, 0) << "no front pair was kept by the motion bound: the path does not exercise it";
  const Mat4<double> E_w_b = bowl_pose<double>(0.11);
  const auto cold = closest_points(hz, E_w_z, hb, E_w_b, 0.1);
  const auto swapped = closest_points(hz, E_w_z, hb, E_w_b, 0.1, &cache);
  ASSERT_TRUE(cold && swapped);
  EXPECT_EQ(cache.body1, hz.serial());
  EXPECT_NEAR(swapped->distance, cold->distance, kCoordinateRoundoff);
  EXPECT_LE((swapped->p1_w - cold->p1_w).norm(), 5 * kCoordinateRoundoff);
  EXPECT_LE((swapped->p2_w - cold->p2_w).norm(), 5 * kCoordinateRoundoff);
}

// A hierarchy rebuilt where another stood (std::optional's storage: the same
// address), with another tessellation (a bound four times coarser: fewer
// triangles and bounding volumes): the cache names hierarchies by their
// serials, so it starts again instead of reading the old one's indices
// (past the new one's arrays: the sanitized build would report it), and
// the query gives the cold query's pair.
TEST(SurfaceProximity, CacheStartsAgainForAHierarchyRebuiltAtTheSameAddress) {
  const BowlOverBump scene;
  std::optional<SurfaceHierarchy<double>> bump;
  bump.emplace(scene.bump, kTarget);
  const SurfaceHierarchy<double>* first = &*bump;
  const std::uint64_t first_serial = bump->serial();
  const Mat4<double> E_w_b = bowl_pose<double>(0.11), E_w_z = Mat4<double>::Identity();
  ProximityCache<double> cache;
  ASSERT_TRUE(closest_points(scene.hb, E_w_b, *bump, E_w_z, 0.1, &cache).has_value());
  ASSERT_FALSE(cache.front.empty());
  const std::size_t first_triangles = bump->triangles().size();
  bump.emplace(scene.bump, 4 * kTarget);
  ASSERT_EQ(&*bump, first) << "the test needs the new hierarchy at the old one's address";
  ASSERT_NE(bump->serial(), first_serial);
  ASSERT_LT(bump->triangles().size(), first_triangles);
  const auto cold = closest_points(scene.hb, E_w_b, *bump, E_w_z, 0.1);
  const auto warm = closest_points(scene.hb, E_w_b, *bump, E_w_z, 0.1, &cache);
  ASSERT_TRUE(cold && warm);
  EXPECT_EQ(cache.body2, bump->serial());
  EXPECT_NEAR(warm->distance, cold->distance, kCoordinateRoundoff);
  EXPECT_LE((warm->p1_w - cold->p1_w).norm(), 5 * kCoordinateRoundoff);
}

// The cache's front (ProximityCache) is a cut of the two hierarchies: a
// query from it visits or prunes every pair of triangles. Poses that jump
// across the bump (seeded, up to 30 cm sideways, 11 cm in height and 0.2
// rad in each rotation component between queries, some beyond the query
// distance), so that the nearest pair lies under other parts of the front
// each time: each query with the cache gives the cold query's pair, to
// round-off as above, a query that finds nothing keeps its front (the next
// query starts from it), and the front stays within twice the last front a
// traversal from the roots left.
TEST(SurfaceProximity, CacheFrontKeepsTheColdResultAcrossJumps) {
  const BowlOverBump scene;
  const SurfaceHierarchy<double>& hb = scene.hb;
  const SurfaceHierarchy<double>& hz = scene.hz;
  const Mat4<double> E_w_z = Mat4<double>::Identity();
  std::mt19937 random(20261130);
  std::uniform_real_distribution<double> across(-0.15, 0.15), height(0.11, 0.22), turn(-0.1, 0.1);
  ProximityCache<double> cache;
  int near = 0, far = 0, far_with_front = 0;
  for (int k = 0; k < 60; ++k) {
    // One draw per statement: the order of a call's arguments is the compiler's.
    Vec3<double> rotation(0.35, -0.2, 0.3), position;
    for (int i = 0; i < 3; ++i) rotation(i) += turn(random);
    for (int i = 0; i < 2; ++i) position(i) = across(random);
    position.z() = height(random);
    const Mat4<double> E_w_b = pose<double>(rotation, position);
    const auto cold = closest_points(hb, E_w_b, hz, E_w_z, 0.1);
    const auto warm = closest_points(hb, E_w_b, hz, E_w_z, 0.1, &cache);
    ASSERT_EQ(cold.has_value(), warm.has_value()) << "pose " << k;
    EXPECT_LE(cache.front.size(), 2 * cache.front_from_roots) << "pose " << k << ": the front outgrew its bound";
    if (!cold) {
      ++far;
      far_with_front += !cache.front.empty();
      continue;
    }
    ++near;
    EXPECT_NEAR(warm->distance, cold->distance, kCoordinateRoundoff) << "pose " << k;
    EXPECT_LE((warm->p1_w - cold->p1_w).norm(), 5 * kCoordinateRoundoff) << "pose " << k;
    EXPECT_LE((warm->p2_w - cold->p2_w).norm(), 5 * kCoordinateRoundoff) << "pose " << k;
  }
  // Both kinds of query (27 near and 33 far with this seed: the draws are
  // the same for every compiler), and near queries that start from a far
  // query's front.
  EXPECT_GE(near, 10);
  EXPECT_GE(far, 10);
  EXPECT_GT(far_with_front, 0) << "no far query kept a front: the path does not exercise it";
}

// Two domes side by side, each a bicubic Bezier patch over a 10 cm square
// (x in [-0.1, 0] and [0, 0.1], y in [-0.05, 0.05]) whose boundary control
// points are at height 0 and inner four at 3.5 cm (2 cm high at the
// centre), with no neighbours: between them a valley with walls of about 47
// degrees.
su::PatchComplex<double> two_domes() {
  su::PatchComplex<double> complex;
  for (const double x0 : {-0.1, 0.0}) {
    std::array<Vec3<double>, 16> control;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const bool inner = i % 3 != 0 && j % 3 != 0;
        control[std::size_t(4 * i + j)] = Vec3<double>(x0 + 0.1 * i / 3, -0.05 + 0.1 * j / 3, inner ? 0.035 : 0.0);
      }
    complex.patches.push_back(std::make_unique<su::BezierPatch<double>>(control));
    complex.links.emplace_back(4);  // no neighbours
  }
  return complex;
}

// Rival basins: a ball of 3 cm radius in the valley between the domes
// touches each wall at a stationary pair of its own, and the two are
// equally near when it is centred (x = 0). Moved 0.1 to 2 mm either way (in
// steps of 0.1 mm, so that some lie between the smooth tie and the
// polyhedral one), one wall is nearer by less than the bounds (a coarse
// tessellation, 2 mm),
// so that the nearest triangle pair often lies on the farther wall and only
// Newton from the other patch pair's seed (within twice its patches' bounds
// of the best distance, seed_pairs) finds the global pair. At each offset,
// the ball lowered to about 2 mm above the walls, cold and with a cache
// along the offsets: no dense sample of the domes (0.25 mm apart) is nearer
// the ball's surface than the pair found (a pair on the wrong wall is
// farther than the samples about the other's), and the nearest sample is
// within two spacings of it.
TEST(SurfaceProximity, TheGlobalPairBetweenRivalBasins) {
  const su::PatchComplex<double> ball = su::ellipsoid_atlas<double>(Vec3<double>::Constant(0.03));
  const su::PatchComplex<double> domes = two_domes();
  const SurfaceHierarchy<double> h_ball(ball, 2e-3), h_domes(domes, 2e-3);
  const Mat4<double> I = Mat4<double>::Identity();
  const int n = test::kSanitized ? 200 : 400;
  Samples samples;
  for (const auto& patch : domes.patches) {
    const Samples one = sample_square(*patch, I, n);
    samples.points.insert(samples.points.end(), one.points.begin(), one.points.end());
    samples.spacing = std::max(samples.spacing, one.spacing);
  }
  const auto sampled_gap = [&](const Vec3<double>& centre) {
    double nearest = 1e300;
    for (const Vec3<double>& x : samples.points) nearest = std::min(nearest, (x - centre).norm());
    return nearest - 0.03;
  };
  ProximityCache<double> cache;
  int compared = 0;
  for (int step = -20; step <= 20; ++step) {
    if (step == 0) continue;
    const double offset = step * 1e-4;
    Vec3<double> centre(offset, 0.001, 0.1);
    for (int k = 0; k < 6; ++k) centre.z() -= 1.3 * (sampled_gap(centre) - 2e-3);  // the walls' slope: about 1 / 0.68
    const Mat4<double> E_w_b = pose<double>(Vec3<double>(0.3, -0.2, 0.1), centre);
    const double sampled = sampled_gap(centre);
    const auto cold = closest_points(h_ball, E_w_b, h_domes, I, 0.1);
    const auto warm = closest_points(h_ball, E_w_b, h_domes, I, 0.1, &cache);
    ASSERT_TRUE(cold && warm) << "offset " << offset;
    for (const SurfaceClosestPoints<double>* r : {&*cold, &*warm}) {
      EXPECT_LE(r->distance, sampled + kCoordinateRoundoff) << "offset " << offset << ": a sample is nearer (the other wall)";
      EXPECT_LE(sampled - r->distance, 2 * samples.spacing) << "offset " << offset;
      EXPECT_EQ(r->patch2, offset < 0 ? 0 : 1) << "offset " << offset << ": not the nearer wall";
    }
    ++compared;
  }
  EXPECT_EQ(compared, 40);
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
// The double result agrees with the 50-digit one to double's round-off: the
// distance (a minimum: first-order insensitive to the parameters' error) to
// the coordinates' round-off, 64 roundings of 0.3 m; the points to that
// times the conditioning of the minimum, the largest radius of curvature of
// the bump (about 1.5 m) over the coordinates' scale (0.3 m): 5.
TEST(SurfaceProximity, Real50AgreesWithDouble) {
  const auto bowl_d = bowl<double>();
  const auto bowl_50 = bowl<Real50>();
  const su::PatchComplex<double> bump_d = bezier_bump<double>();
  const su::PatchComplex<Real50> bump_50 = bezier_bump<Real50>();
  const SurfaceHierarchy<double> hb_d(bowl_d->complex(), kTarget), hz_d(bump_d, kTarget);
  const SurfaceHierarchy<Real50> hb_50(bowl_50->complex(), kTarget), hz_50(bump_50, kTarget);
  const auto r_d = closest_points(hb_d, bowl_pose<double>(0.11), hz_d, Mat4<double>(Mat4<double>::Identity()), 0.1);
  const auto r_50 = closest_points(hb_50, bowl_pose<Real50>(0.11), hz_50, Mat4<Real50>(Mat4<Real50>::Identity()), Real50(0.1));
  ASSERT_TRUE(r_d && r_50);
  const double roundoff = 64 * 0.3 * std::numeric_limits<double>::epsilon();
  EXPECT_NEAR(r_d->distance, dbl(r_50->distance), roundoff);
  EXPECT_LE((r_d->p1_w - r_50->p1_w.template cast<double>()).norm(), 5 * roundoff);
  EXPECT_LE((r_d->p2_w - r_50->p2_w.template cast<double>()).norm(), 5 * roundoff);
  EXPECT_EQ(r_d->patch1, r_50->patch1);
  EXPECT_EQ(r_d->patch2, r_50->patch2);
}

// Newton's method converges quadratically: in 50 digits, from a start 0.1
// off in each parameter, the observed order log(e_k+1 / e_k) / log(e_k /
// e_k-1) of the step lengths e_k is 2 once in the asymptotic range (e_k <
// 1e-3) and above round-off (e_k+1 > 1e-40); 1.8 leaves room for the next
// term of the expansion at e_k = 1e-3.
TEST(SurfaceProximity, NewtonConvergesQuadratically) {
  using T = Real50;
  const auto surface = bowl<T>();
  const su::PatchComplex<T> bump = bezier_bump<T>();
  const SurfaceHierarchy<T> hb(surface->complex(), kTarget), hz(bump, kTarget);
  const Mat4<T> E_w_b = bowl_pose<T>(0.11);
  const auto r = closest_points(hb, E_w_b, hz, Mat4<T>(Mat4<T>::Identity()), T(0.1));
  ASSERT_TRUE(r.has_value());
  std::vector<T> steps;
  const Vec2<T> st0 = r->st + Vec2<T>(T(-0.05), T(-0.05)), uv0 = r->uv + Vec2<T>(T(0.1), T(-0.1));
  const SurfaceClosestPoints<T> again = newton_closest_points(hb, E_w_b, r->patch1, st0, hz, Mat4<T>(Mat4<T>::Identity()), r->patch2, uv0, &steps);
  EXPECT_LE(dbl(T(abs(again.distance - r->distance))), 1e-40);
  int checked = 0;
  for (std::size_t k = 1; k + 1 < steps.size(); ++k) {
    if (!(steps[k] < T(1e-3)) || !(steps[k + 1] > T(1e-40))) continue;
    const double order = dbl(T(log(steps[k + 1] / steps[k]) / log(steps[k] / steps[k - 1])));
    EXPECT_GE(order, 1.8) << "step " << k;
    ++checked;
  }
  EXPECT_GE(checked, 2);
}
#endif  // CONTACTREF_HAS_REAL50

// ---------------------------------------------------------------------------
// The tessellation bound against dense sampling: for every triangle and 45
// points x of it (a barycentric grid), |c(x) - L(x)| <= the triangle's bound
// (L the triangle's linear interpolation: (B1) of surface_proximity.cpp);
// the innermost triangle at an extraordinary vertex E: every surface point
// over it is within its bound of c(E).
// Prints (information) the largest error over bound, how tight it is.
void expect_bound_holds(const std::string& name, const SurfaceHierarchy<double>& h, const su::PatchComplex<double>& complex) {
  const int n = 8;
  double worst_ratio = 0;
  for (const auto& tri : h.triangles()) {
    const su::Patch<double>& patch = *complex.patches[std::size_t(tri.patch)];
    std::array<Vec2<double>, 3> q;
    std::array<Vec3<double>, 3> v;
    int singular = -1;
    for (std::size_t k = 0; k < 3; ++k) {
      q[k] = h.vertex_parameters()[std::size_t(tri.vertices[k])];
      v[k] = h.vertices()[std::size_t(tri.vertices[k])];
      for (const auto& corner : patch.singular_corners())
        if (patch.domain().polygon[std::size_t(corner.corner)] == q[k]) singular = int(k);
    }
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j) {
        const double a = double(i) / n, b = double(j) / n;
        const Vec2<double> x = q[0] + a * (q[1] - q[0]) + b * (q[2] - q[0]);
        if (singular >= 0 && (x - q[std::size_t(singular)]).norm() == 0) continue;
        const Vec3<double> c = patch.evaluate(x.x(), x.y()).c();
        const double error = singular >= 0 ? (c - v[std::size_t(singular)]).norm()
                                           : (c - (v[0] + a * (v[1] - v[0]) + b * (v[2] - v[0]))).norm();
        // The evaluations' round-off: 32 roundings of coordinates <= 0.3 m.
        EXPECT_LE(error, tri.bound + 32 * 0.3 * std::numeric_limits<double>::epsilon())
            << patch.describe() << " at (" << x.transpose() << ")";
        if (tri.bound > 0) worst_ratio = std::max(worst_ratio, error / tri.bound);
      }
  }
  EXPECT_LE(h.bound(), kTarget);
  std::cout << name << ": " << h.triangles().size() << " triangles, bound " << h.bound()
            << " m, largest sampled error / triangle bound " << worst_ratio << "\n";
}

TEST(SurfaceProximity, TessellationBoundAgainstDenseSampling) {
  const auto surface = bowl<double>();
  const SurfaceHierarchy<double> hb(surface->complex(), kTarget);
  expect_bound_holds("bowl", hb, surface->complex());
  const su::PatchComplex<double> ellipsoid = su::ellipsoid_atlas<double>(Vec3<double>(0.09, 0.05, 0.03));
  expect_bound_holds("ellipsoid atlas", SurfaceHierarchy<double>(ellipsoid, kTarget), ellipsoid);
  const su::PatchComplex<double> torus = single_patch<double>(std::make_unique<su::TorusPatch<double>>(0.1, 0.03));
  expect_bound_holds("torus", SurfaceHierarchy<double>(torus, kTarget), torus);
  const su::PatchComplex<double> bump = bezier_bump<double>();
  expect_bound_holds("bezier bump", SurfaceHierarchy<double>(bump, kTarget), bump);
}

// The triangle cap bounds a hierarchy's memory: the bowl at kTarget takes
// some thousands of triangles; capped just below its count it is refused by
// name, and at its count it is built the same.
TEST(SurfaceProximity, TriangleCapRefusesALargerTessellation) {
  const auto surface = bowl<double>();
  const std::size_t count = SurfaceHierarchy<double>(surface->complex(), kTarget).triangles().size();
  ASSERT_GT(count, 1000u);
  EXPECT_EQ(SurfaceHierarchy<double>(surface->complex(), kTarget, count).triangles().size(), count);
  EXPECT_NE(test::message_of<ComputationError>([&] { SurfaceHierarchy<double>(surface->complex(), kTarget, count - 1); })
                .find("past its cap of triangles"),
            std::string::npos);
}

// ---------------------------------------------------------------------------
// Far apart: nullopt, without evaluating a surface. The bodies' patches
// count their evaluations (a wrapper that forwards every call).
struct Counting final : su::Patch<double> {
  explicit Counting(std::unique_ptr<su::Patch<double>> p) : inner(std::move(p)) {}
  su::PatchJet<double> evaluate(const double& s, const double& t) const override {
    ++count;
    return inner->evaluate(s, t);
  }
  su::PatchJet<double> evaluate_piece(const double& s, const double& t, const Vec2<double>& inside) const override {
    ++count;
    return inner->evaluate_piece(s, t, inside);
  }
  const su::Domain<double>& domain() const override { return inner->domain(); }
  std::string describe() const override { return inner->describe(); }
  std::optional<Vec2<double>> parameters_of(const Vec3<double>& x) const override { return inner->parameters_of(x); }
  std::unique_ptr<su::Patch<double>> inner;
  static inline std::atomic<long> count{0};
};

su::PatchComplex<double> counted(su::PatchComplex<double> complex) {
  for (auto& patch : complex.patches) patch = std::make_unique<Counting>(std::move(patch));
  return complex;
}

TEST(SurfaceProximity, FarApartReturnsNulloptWithoutNewton) {
  // Two cigars (0.2 x 0.02 x 0.02 m) side by side, 5 cm apart: their
  // bounding spheres overlap, so the polyhedral distance (FCL) decides.
  const su::PatchComplex<double> cigar1 = counted(su::ellipsoid_atlas<double>(Vec3<double>(0.2, 0.02, 0.02)));
  const su::PatchComplex<double> cigar2 = counted(su::ellipsoid_atlas<double>(Vec3<double>(0.2, 0.02, 0.02)));
  const su::PatchComplex<double> plane = counted(single_patch<double>(std::make_unique<su::PlanePatch<double>>()));
  const SurfaceHierarchy<double> h1(cigar1, kTarget), h2(cigar2, kTarget), hp(plane, kTarget);
  const Mat4<double> E_w_2 = Mat4<double>::Identity();
  const Mat4<double> beside = pose<double>(Vec3<double>::Zero(), Vec3<double>(0, 0.09, 0));  // 5 cm apart
  const Mat4<double> far = pose<double>(Vec3<double>(0.1, 0.2, 0.3), Vec3<double>(3, 1, 2));
  Counting::count = 0;
  EXPECT_FALSE(closest_points(h1, far, h2, E_w_2, 0.01).has_value());     // bounding spheres
  EXPECT_FALSE(closest_points(h1, beside, h2, E_w_2, 0.01).has_value());  // polyhedral distance
  EXPECT_FALSE(closest_points(h1, far, hp, E_w_2, 0.01).has_value());     // sphere over the plane
  // The support over the plane: the lowest point 3 cm up, the sphere 15 cm down.
  EXPECT_FALSE(closest_points(h1, pose<double>(Vec3<double>::Zero(), Vec3<double>(0, 0, 0.05)), hp, E_w_2, 0.01).has_value());
  EXPECT_EQ(Counting::count.load(), 0);
  // Within the query distance: Newton evaluates, and finds the 5 cm.
  const auto r = closest_points(h1, beside, h2, E_w_2, 0.1);
  ASSERT_TRUE(r.has_value());
  // The closed form 0.09 - 2 x 0.02, to 64 roundings of 0.2 m coordinates.
  EXPECT_NEAR(r->distance, 0.05, 64 * 0.2 * std::numeric_limits<double>::epsilon());
  EXPECT_GT(Counting::count.load(), 0);
}

// A stationary pair that is not a closest pair is refused, naming the
// patches: Newton started at sphere 1's far side and sphere 2's near side
// converges to the pair along the line of centres whose normals are parallel
// (both along +u). And a closest point on the open edge of a single Bezier
// patch (a sphere beyond the bump's corner) is refused: the stationarity
// conditions do not hold on a boundary.
TEST(SurfaceProximity, RefusesPairsThatAreNotClosest) {
  const su::PatchComplex<double> sphere1 = su::ellipsoid_atlas<double>(Vec3<double>::Constant(0.05));
  const su::PatchComplex<double> sphere2 = su::ellipsoid_atlas<double>(Vec3<double>::Constant(0.08));
  const SurfaceHierarchy<double> h1(sphere1, kTarget), h2(sphere2, kTarget);
  const Mat4<double> E_w_1 = pose<double>(Vec3<double>::Zero(), Vec3<double>(0, 0.2, 0));
  const Mat4<double> E_w_2 = Mat4<double>::Identity();
  // Chart 0 of each: s from the +x pole, t about x; the equator point on +y
  // is (s, t) = (pi/2, 0), on -y (pi/2, pi).
  const std::string message = test::message_of<ComputationError>([&] {
    newton_closest_points(h1, E_w_1, 0, Vec2<double>(std::numbers::pi / 2, 0.1), h2, E_w_2, 0, Vec2<double>(std::numbers::pi / 2, 0.1));
  });
  EXPECT_NE(message.find("normals are parallel"), std::string::npos) << message;
  EXPECT_NE(message.find("(patch 0 of body 1) and ellipsoid chart 0 (poles on body x) (patch 0 of body 2)"), std::string::npos) << message;

  const su::PatchComplex<double> bump = bezier_bump<double>();
  const SurfaceHierarchy<double> hz(bump, kTarget);
  const std::string boundary = test::message_of<ComputationError>([&] {
    closest_points(h1, pose<double>(Vec3<double>::Zero(), Vec3<double>(0.4, 0.4, 0.05)), hz, E_w_2, 0.5);
  });
  EXPECT_NE(boundary.find("boundary edge without a neighbour"), std::string::npos) << boundary;
}

// Bad input: InputError naming the field or patch.
TEST(SurfaceProximity, RefusesBadInput) {
  const su::PatchComplex<double> sphere = su::ellipsoid_atlas<double>(Vec3<double>::Constant(0.05));
  for (const double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()})
    EXPECT_NE(test::message_of<InputError>([&] { SurfaceHierarchy<double>(sphere, bad); }).find("target_bound"),
              std::string::npos);
  // An elliptic cylinder (a rod scaled across its axis) and a paraboloid are
  // unbounded and neither a plane nor a rod; the inside of a cylinder (its
  // normals towards the axis: t reversed) is not a solid rod.
  const su::PatchComplex<double> elliptic = single_patch<double>(std::make_unique<su::TransformedPatch<double>>(
      std::make_unique<su::CylinderPatch<double>>(0.1), su::SceneTransform<double>{Vec3<double>(1, 2, 1)}));
  EXPECT_NE(test::message_of<InputError>([&] { SurfaceHierarchy<double>(elliptic, kTarget); }).find("is unbounded and not a plane"),
            std::string::npos);
  const su::PatchComplex<double> paraboloid = single_patch<double>(std::make_unique<su::ParaboloidPatch<double>>(2.0, 3.0));
  EXPECT_NE(test::message_of<InputError>([&] { SurfaceHierarchy<double>(paraboloid, kTarget); }).find("is unbounded and not a plane"),
            std::string::npos);
  const su::PatchComplex<double> pipe = single_patch<double>(std::make_unique<PipePatch>(0.1));
  EXPECT_NE(test::message_of<InputError>([&] { SurfaceHierarchy<double>(pipe, kTarget); }).find("the inside of a cylinder"),
            std::string::npos);
  su::PatchComplex<double> rod_and_sphere = su::ellipsoid_atlas<double>(Vec3<double>::Constant(0.05));
  rod_and_sphere.patches.push_back(std::make_unique<su::CylinderPatch<double>>(0.1));
  rod_and_sphere.links.emplace_back();
  EXPECT_NE(test::message_of<InputError>([&] { SurfaceHierarchy<double>(rod_and_sphere, kTarget); }).find("patch 2 is an infinite cylinder beside"),
            std::string::npos);
  const su::PatchComplex<double> cylinder = single_patch<double>(std::make_unique<su::CylinderPatch<double>>(0.1));
  const SurfaceHierarchy<double> hr(cylinder, kTarget);
  su::PatchComplex<double> plane_and_sphere = su::ellipsoid_atlas<double>(Vec3<double>::Constant(0.05));
  plane_and_sphere.patches.push_back(std::make_unique<su::PlanePatch<double>>());
  plane_and_sphere.links.emplace_back();
  EXPECT_NE(test::message_of<InputError>([&] { SurfaceHierarchy<double>(plane_and_sphere, kTarget); }).find("patch 2 is an unbounded plane"),
            std::string::npos);
  const su::PatchComplex<double> plane = single_patch<double>(std::make_unique<su::PlanePatch<double>>());
  const SurfaceHierarchy<double> hp(plane, kTarget);
  EXPECT_NE(test::message_of<InputError>([&] { closest_points(hp, Mat4<double>(Mat4<double>::Identity()), hp, Mat4<double>(Mat4<double>::Identity()), 1.0); })
                .find("both bodies are planes or rods"),
            std::string::npos);
  EXPECT_NE(test::message_of<InputError>([&] { distance_lower_bound(hr, Mat4<double>(Mat4<double>::Identity()), hp, Mat4<double>(Mat4<double>::Identity())); })
                .find("both bodies are planes or rods"),
            std::string::npos);
}

}  // namespace
}  // namespace contactref::dynamics
