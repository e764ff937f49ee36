// The double half-space moments against the exact ones (Bouchard et al.
// Eqs. 14-16 and the volume gradient); see geometry_audit.hpp.
//
// The reference is not a 50-digit run of the same code (the double path is
// not templated) but the exact path: intersection_moments of the cube with
// the half-space as a large box (fixtures::halfspace_box_around), whose results
// are the exact values rounded once to double. The difference
// |x_double - x_exact| / |x_exact| is therefore computed in double: the
// reference's own error is half an ulp.
//
// Inputs, per sample (seeded):
//   - a bumpy cube: n in [6, 12] (432 to 1728 triangles, so the exact path
//     stays fast: ~40 ms a sample, 60 samples), half size h in [0.25, 1], 1 to 5 bumps,
//     amplitude of either sign within the bumpy_cube limits;
//   - its tilt against the plane: a random yaw, then 3 to 30 degrees about a
//     random horizontal axis;
//   - the depth of its lowest point below the plane: log-uniform from 1% to
//     60% of its height (a corner or the bump tips only, through past the
//     middle);
//   - the plane itself tilted in A's frame by 3 to 30 degrees about e_x or
//     e_y, and the whole configuration translated by up to 3 h per axis.
// Both paths get exactly the same half-space: the plane's pose (R, t) is a
// rotation about e_x or e_y with cos and sin rounded to multiples of 2^-40
// (rigid to ~1e-12) and t on a 2^-9 grid, |t_i| <= 3, so that
// R e_x × R e_y = R e_z and u · t (u = R e_z) are exact in double (checked
// below): the box's top face, which intersection_moments poses exactly, is
// the plane {u · x = u · t} the double path is given, with no rounding
// between them. (The cube's vertices are rotated and translated in double;
// those rounded vertices are the input of both paths.)
//
// Compared (each norm-wise, the max over the samples):
//   volume         |dV| / V;
//   centroid       |dc| / (|c| + 2h): c is a position, which may lie near
//                  the origin; the cube's edge 2h is the length scale its
//                  error is relative to (the double path's centroid error is
//                  ~eps times A's size, not times |c|);
//   second_moment  |dM|_F / |M|_F;
//   gradient       |dg| / |g| over the 6-vector (torque; force) about A's
//                  origin (the plane moving rigidly, as intersection_volume.hpp
//                  defines it).
//
// Conditioning (halfspace_moments.hpp, "Accuracy"): a cut point is placed to
// ~eps R (R the cube's bounding-box diagonal), so V, c and the gradient carry
// cond_v = R A_cap / V, ~1/depth: a few hundred for the 1% cuts. M is summed
// about the projection onto the plane of the mean of the vertices inside the
// half-space, close to the clipped part, and shifted to the centroid; with o
// under the cube's centre instead, shallow corner cuts cancelled by up to
// 1 + V R^2 / tr C ~ 2e4 and M kept only 11.5 digits. Measured over the 60
// samples: V 6e-15, c 1.3e-16, M 1.4e-14, gradient 1.2e-14.
#include "validation/audit/geometry_audit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>

#include <Eigen/Geometry>

#include "core/errors.hpp"
#include "core/scalar.hpp"
#include "robust_geometry/halfspace_moments.hpp"
#include "robust_geometry/intersection_volume.hpp"
#include "validation/fixtures/bumpy_cube.hpp"
#include "validation/fixtures/halfspace_box.hpp"
#include "validation/fixtures/random_spatial.hpp"

namespace contactref::audit {
namespace {

namespace rg = contactref::robust_geometry;
using Eigen::Matrix3d;
using Eigen::Vector3d;
using fixtures::Rng;
using fixtures::uniform;

constexpr int kGeometrySamples = 60;
constexpr std::uint64_t kSeed = 601;
constexpr double kDegree = std::numbers::pi / 180;

// x rounded to the nearest multiple of 2^-bits.
double on_grid(double x, int bits) { return std::ldexp(std::nearbyint(std::ldexp(x, bits)), -bits); }

// A rotation by angle about e_x (axis 0) or e_y (axis 1) whose columns satisfy
// R e_x × R e_y = R e_z exactly in double: cos and sin on a 2^-40 grid make
// every product in the cross product (each involving a 0 or a 1) exact.
Matrix3d exact_axis_rotation(int axis, double angle) {
  const double c = on_grid(std::cos(angle), 40), s = on_grid(std::sin(angle), 40);
  Matrix3d R;
  if (axis == 0) {
    R << 1, 0, 0, 0, c, -s, 0, s, c;
  } else {
    R << c, 0, s, 0, 1, 0, -s, 0, c;
  }
  return R;
}

struct Differences {
  double volume = 0, centroid = 0, second_moment = 0, gradient = 0;
};

// One seeded configuration, both paths, the four relative differences.
Differences measure_sample(Rng& rng, int index) {
  const int n = std::uniform_int_distribution<int>(6, 12)(rng);
  const double h = uniform(rng, 0.25, 1.0);
  const int bumps = std::uniform_int_distribution<int>(1, 5)(rng);
  // bumpy_cube's limits: |amplitude| < h / 2 and |amplitude| bumps pi < 2 h.
  const double limit = std::min(h / 2, 2 * h / (bumps * std::numbers::pi));
  const double sign = std::bernoulli_distribution(0.5)(rng) ? 1.0 : -1.0;
  rg::TriangleSolid cube = fixtures::bumpy_cube(n, h, sign * uniform(rng, 0.1, 0.9) * limit, bumps);

  // The cube in the plane's frame (plane z = 0, H below it).
  const double yaw = uniform(rng, 0, 2 * std::numbers::pi), azimuth = uniform(rng, 0, 2 * std::numbers::pi);
  const double tilt = uniform(rng, 3 * kDegree, 30 * kDegree);
  const Matrix3d Q = (Eigen::AngleAxisd(tilt, Vector3d(std::cos(azimuth), std::sin(azimuth), 0)) *
                      Eigen::AngleAxisd(yaw, Vector3d::UnitZ()))
                         .toRotationMatrix();
  double z_min = std::numeric_limits<double>::infinity(), z_max = -z_min;
  for (Vector3d& x : cube.vertices) {
    x = Q * x;
    z_min = std::min(z_min, x.z());
    z_max = std::max(z_max, x.z());
  }
  const double depth = (z_max - z_min) * std::exp(uniform(rng, std::log(0.01), std::log(0.6)));

  // The plane's frame in A's frame: tilted about e_x or e_y, translated.
  const int axis = std::uniform_int_distribution<int>(0, 1)(rng);
  const double plane_tilt = (std::bernoulli_distribution(0.5)(rng) ? 1.0 : -1.0) * uniform(rng, 3 * kDegree, 30 * kDegree);
  const Matrix3d R = exact_axis_rotation(axis, plane_tilt);
  Vector3d t;
  for (Eigen::Index i = 0; i < 3; ++i) t(i) = on_grid(uniform(rng, -3 * h, 3 * h), 9);
  for (Vector3d& x : cube.vertices) x = R * (x - Vector3d(0, 0, z_min + depth)) + t;

  const fixtures::HalfSpaceBox plane = fixtures::halfspace_box_around(cube, R, t);
  // The box's top face is the double path's plane exactly (see the top).
  const Vector3d u = plane.half_space.normal;
  if (R.col(0).cross(R.col(1)) != u ||
      u.cast<Real50>().dot(t.cast<Real50>()) != Real50(plane.half_space.offset)) {
    throw ComputationError("geometry audit: sample " + std::to_string(index) +
                           ": the plane's pose is not exact in double (the box's face and the half-space differ)");
  }
  const rg::IntersectionMoments fast = rg::halfspace_intersection_moments(cube, plane.half_space);
  const rg::IntersectionMoments exact = rg::intersection_moments(cube, plane.box, plane.pose);
  if (fast.kind != rg::IntersectionKind::kOverlapping || exact.kind != rg::IntersectionKind::kOverlapping) {
    throw ComputationError("geometry audit: sample " + std::to_string(index) + ": kinds " + rg::to_string(fast.kind) +
                           " (double) and " + rg::to_string(exact.kind) + " (exact), both should be overlapping");
  }
  Differences d;
  d.volume = std::abs(fast.volume - exact.volume) / exact.volume;
  d.centroid = (fast.centroid - exact.centroid).norm() / (exact.centroid.norm() + 2 * h);
  d.second_moment = (fast.second_moment - exact.second_moment).norm() / exact.second_moment.norm();
  d.gradient = (fast.gradient - exact.gradient).norm() / exact.gradient.norm();
  return d;
}

struct Measured {
  validation::AuditResult volume, centroid, second_moment, gradient;
};

// The samples are shared by the four entries: run once, on first use.
const Measured& measured() {
  static const Measured result = [] {
    Rng rng(kSeed);
    Measured m;
    for (int k = 0; k < kGeometrySamples; ++k) {
      const Differences d = measure_sample(rng, k);
      const auto add = [](validation::AuditResult& r, double diff) {
        r.max_rel_diff = std::max(r.max_rel_diff, diff);
        ++r.samples;
      };
      add(m.volume, d.volume);
      add(m.centroid, d.centroid);
      add(m.second_moment, d.second_moment);
      add(m.gradient, d.gradient);
    }
    return m;
  }();
  return result;
}

}  // namespace

std::vector<validation::AuditEntrySpec> geometry_audit_entries() {
  const std::string cut =
      " of bumpy cubes (n = 6..12) cut 1-60% deep by planes tilted 3-30 deg: double halfspace_intersection_moments "
      "vs the exact corefinement (rounded once), relative difference in double";
  return {
      {"geometry.halfspace.volume", "V (Eq. 14), |dV|/V" + cut, [] { return measured().volume; }},
      {"geometry.halfspace.centroid", "c (Eq. 15), |dc|/(|c| + cube edge)" + cut, [] { return measured().centroid; }},
      {"geometry.halfspace.second_moment",
       "M (Eq. 16), Frobenius" + cut, [] { return measured().second_moment; }},
      {"geometry.halfspace.gradient", "dV/d(omega; v) of the plane, the 6-vector" + cut,
       [] { return measured().gradient; }},
  };
}

}  // namespace contactref::audit
