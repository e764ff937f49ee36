// Issue 34 item 3: the intersection moments of two convex polyhedra by
// double-precision clipping (robust_geometry/convex_moments.hpp) beside the
// exact corefinement (intersection_volume.hpp) on the same pairs:
//  - .../boxes: two 0.1 m cubes, the upper one turned by the rotation
//    vector (0.01, 0.02, 0.03) rad and sunk 1 mm into the lower one (the
//    stack's interface, off the flush case);
//  - .../n, n > 0: an n-sided prism (circumradius 0.1 m, height 0.05 m) on
//    a 1 x 1 x 0.1 m box, 1 mm deep: lying on its side (a corner down), and
//    at -n standing on its n-gon face, turned by 1e-3 rad about x and y (the
//    octagon's contact with n sides; the 4096-sided prism took 26 s
//    for one exact detection: run once).
// Before timing, each pair's two results must agree (volume to 1e-12
// relative, the gradient's linear part to 1e-12 of its norm) or the program
// aborts: no timing of a wrong answer.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numbers>
#include <string>

#include "robust_geometry/convex_moments.hpp"
#include "robust_geometry/triangle_solid.hpp"
#include "validation/fixtures/contact_scenes.hpp"

namespace {

namespace rg = contactref::robust_geometry;
namespace fx = contactref::fixtures;
using Eigen::Vector3d;

struct Pair {
  rg::Polyhedron a, b;
  rg::ConvexPolyhedron convex_a, convex_b;
  rg::TriangleSolid solid_a, solid_b;
  contactref::RigidPose<double> pose;
};

contactref::RigidPose<double> pose_of(const Eigen::Matrix3d& R, const Vector3d& t) {
  Eigen::Matrix4d E = Eigen::Matrix4d::Identity();
  E.topLeftCorner<3, 3>() = R;
  E.topRightCorner<3, 1>() = t;
  return contactref::RigidPose<double>::from_matrix(E, "benchmark pose");
}

Pair make_pair(rg::Polyhedron a, rg::Polyhedron b, const contactref::RigidPose<double>& pose) {
  rg::ConvexPolyhedron ca(a), cb(b);
  rg::TriangleSolid sa = rg::triangle_solid(a), sb = rg::triangle_solid(b);
  return {std::move(a), std::move(b), std::move(ca), std::move(cb), std::move(sa), std::move(sb), pose};
}

// sides 0: the two cubes; else the prism on the box.
const Pair& pair(int sides) {
  static std::map<int, Pair> pairs;
  if (auto it = pairs.find(sides); it != pairs.end()) return it->second;
  if (sides == 0) {
    const rg::Polyhedron cube = fx::box(Vector3d::Constant(-0.05), Vector3d::Constant(0.05));
    const double angle = Vector3d(0.01, 0.02, 0.03).norm();
    const Eigen::Matrix3d R = Eigen::AngleAxisd(angle, Vector3d(0.01, 0.02, 0.03) / angle).toRotationMatrix();
    return pairs.emplace(sides, make_pair(cube, cube, pose_of(R, Vector3d(0, 0, 0.099 - 0.0026)))).first->second;
  }
  std::vector<Eigen::Vector2d> profile;
  const int n = std::abs(sides);
  for (int k = 0; k < n; ++k) {
    const double t = 2 * std::numbers::pi * k / n;
    profile.emplace_back(0.1 * std::cos(t), 0.1 * std::sin(t));
  }
  const rg::Polyhedron prism = fx::prism_xz(profile, -0.025, 0.025, "prism");
  const rg::Polyhedron box = fx::box(Vector3d(-0.5, -0.5, -0.1), Vector3d(0.5, 0.5, 0));
  if (sides < 0) {  // standing: prism_xz's axis y turned to z, then tilted
    const Eigen::Matrix3d R = (Eigen::AngleAxisd(1e-3, Vector3d(1, 1, 0).normalized()) *
                               Eigen::AngleAxisd(std::numbers::pi / 2, Vector3d::UnitX()))
                                  .toRotationMatrix();
    return pairs.emplace(sides, make_pair(box, prism, pose_of(R, Vector3d(0.01, 0.02, 0.024)))).first->second;
  }
  // prism_xz's axis is y: the prism lies on its side, a corner 1 mm deep.
  return pairs.emplace(sides, make_pair(box, prism, pose_of(Eigen::Matrix3d::Identity(), Vector3d(0.01, 0.02, 0.099))))
      .first->second;
}

rg::IntersectionMoments exact(const Pair& p) {
  rg::IntersectionOptions trusted;
  trusted.assume_valid_solids = true;
  return rg::intersection_moments(p.solid_a, p.solid_b, p.pose, trusted);
}

rg::IntersectionMoments clipped(const Pair& p) {
  const std::optional<rg::IntersectionMoments> m = rg::convex_intersection_moments(p.convex_a, p.convex_b, p.pose);
  if (!m) {
    std::fprintf(stderr, "bench_convex_moments: the clipping left the pair undecided\n");
    std::abort();
  }
  return *m;
}

// Once per pair: the clipping agrees with the exact path, or abort.
void check(int sides) {
  static std::map<int, bool> checked;
  if (checked[sides]) return;
  const rg::IntersectionMoments e = exact(pair(sides)), c = clipped(pair(sides));
  const double dv = std::abs(c.volume - e.volume) / e.volume;
  const double dg = (c.gradient.tail<3>() - e.gradient.tail<3>()).norm() / e.gradient.tail<3>().norm();
  if (!e.has_volume() || !c.has_volume() || !(dv <= 1e-12) || !(dg <= 1e-12)) {
    std::fprintf(stderr, "bench_convex_moments: sides %d: clipping vs exact: volume %.3g, gradient %.3g relative\n",
                 sides, dv, dg);
    std::abort();
  }
  std::fprintf(stderr, "sides %d: volume %.17g m^3; clipping vs exact: volume %.2g, gradient %.2g relative\n", sides,
               e.volume, dv, dg);
  checked[sides] = true;
}

template <rg::IntersectionMoments (*Moments)(const Pair&)>
void BM_Moments(benchmark::State& state) {
  const int sides = int(state.range(0));
  check(sides);
  const Pair& p = pair(sides);
  rg::IntersectionMoments m;
  for (auto _ : state) {
    m = Moments(p);
    benchmark::DoNotOptimize(m);
  }
  state.counters["faces"] = double(p.a.face_count() + p.b.face_count());
  state.counters["boundary_triangles"] = double(m.boundary_triangles);
  state.SetLabel(sides == 0 ? "boxes" : (sides > 0 ? "prism on its side on a box" : "prism standing on a box"));
}

BENCHMARK_TEMPLATE(BM_Moments, clipped)->Args({0})->Args({64})->Args({4096})->Args({-64})->Args({-4096})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Moments, exact)->Args({0})->Args({64})->Args({-64})->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Moments, exact)->Args({4096})->Args({-4096})->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
