#include "reference/quasi_rigid/point_samples.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "core/errors.hpp"
#include "reference/quasi_rigid/point_index.hpp"

namespace contactref::quasi_rigid {

void check_samples(const SurfaceSamples& samples) {
  if (samples.points.empty()) throw InputError(samples.name + ": no sample");
  if (samples.normals.size() != samples.points.size()) {
    throw InputError(samples.name + ": " + std::to_string(samples.normals.size()) + " normals for " +
                     std::to_string(samples.points.size()) + " samples");
  }
  for (std::size_t i = 0; i < samples.points.size(); ++i) {
    const std::string which = samples.name + ": sample " + std::to_string(i);
    if (!samples.points[i].allFinite()) throw InputError(which + " is not finite");
    const double length = samples.normals[i].norm();
    if (!std::isfinite(length) || std::abs(length - 1) > 1e-6) {
      throw InputError(which + " has a normal of length " + std::to_string(length) + " (not a unit normal)");
    }
  }
}

SurfaceSamples surface_samples(const PointCloud& cloud) {
  if (cloud.points.empty()) throw InputError(cloud.name + ": no point");
  if (cloud.normals.empty()) throw InputError(cloud.name + ": the points have no normals (nx ny nz)");
  SurfaceSamples samples;
  samples.name = cloud.name;
  samples.points = cloud.points;
  samples.normals.reserve(cloud.normals.size());
  for (std::size_t i = 0; i < cloud.points.size(); ++i) {
    const int line = i < cloud.point_lines.size() ? cloud.point_lines[i] : 0;
    const std::string which = located(cloud.name, line) + "point " + std::to_string(i);
    if (!cloud.points[i].allFinite()) throw InputError(which + " is not finite");
    const double length = cloud.normals[i].norm();
    if (!std::isfinite(length)) throw InputError(which + " has a non-finite normal");
    if (!(length > 0)) throw InputError(which + " has a zero normal");
    samples.normals.push_back(cloud.normals[i] / length);
  }
  return samples;
}

SurfaceSamples poisson_disk_subset(const SurfaceSamples& candidates, double spacing) {
  check_samples(candidates);
  if (!(std::isfinite(spacing) && spacing > 0)) throw InputError("Poisson-disk spacing must be finite and > 0");
  const PointIndex index(candidates.points);
  std::vector<char> covered(candidates.points.size(), 0);
  std::vector<Neighbour> near;
  SurfaceSamples kept;
  kept.name = candidates.name;
  for (std::size_t i = 0; i < candidates.points.size(); ++i) {
    if (covered[i]) continue;
    kept.points.push_back(candidates.points[i]);
    kept.normals.push_back(candidates.normals[i]);
    index.within(candidates.points[i], spacing, near);
    for (const Neighbour& n : near) covered[static_cast<std::size_t>(n.index)] = 1;
  }
  return kept;
}

double unit_uniform(std::uint64_t draw) { return static_cast<double>(draw >> 11) * 0x1.0p-53; }

namespace {

// The number of candidates for `area` at `spacing` (InputError above 50 million).
long candidate_count(const std::string& name, double area, double spacing, double oversampling) {
  if (!(std::isfinite(spacing) && spacing > 0)) throw InputError(name + ": sampling spacing must be finite and > 0");
  if (!(std::isfinite(oversampling) && oversampling >= 1)) {
    throw InputError(name + ": oversampling must be finite and >= 1");
  }
  const double count = std::ceil(oversampling * area / (spacing * spacing));
  if (!(count <= 5e7)) {
    throw InputError(name + ": sampling at spacing " + std::to_string(spacing) + " needs " + std::to_string(count) +
                     " candidates (more than 50 million)");
  }
  return static_cast<long>(count);
}

}  // namespace

SurfaceSamples sample_sphere(const Eigen::Vector3d& centre, double radius, double spacing, double oversampling,
                             std::uint64_t seed) {
  if (!centre.allFinite() || !(std::isfinite(radius) && radius > 0)) {
    throw InputError("sphere samples: the centre must be finite and the radius finite and > 0");
  }
  const long count = candidate_count("sphere samples", 4 * std::numbers::pi * radius * radius, spacing, oversampling);
  std::mt19937_64 rng(seed);
  SurfaceSamples candidates;
  candidates.name = "sphere";
  for (long i = 0; i < count; ++i) {
    const double z = 2 * unit_uniform(rng()) - 1;
    const double azimuth = 2 * std::numbers::pi * unit_uniform(rng());
    const double ring = std::sqrt(std::max(0.0, 1 - z * z));
    const Eigen::Vector3d normal(ring * std::cos(azimuth), ring * std::sin(azimuth), z);
    candidates.points.push_back(centre + radius * normal);
    candidates.normals.push_back(normal);
  }
  return poisson_disk_subset(candidates, spacing);
}

SurfaceSamples sample_mesh(const PolygonSoup& mesh, double spacing, double oversampling, std::uint64_t seed) {
  if (mesh.faces.empty()) throw InputError(mesh.name + ": no face to sample");
  const auto vertex_count = static_cast<int>(mesh.vertices.size());

  struct Triangle {
    Eigen::Vector3d a, b, c, normal;
  };
  std::vector<Triangle> triangles;
  std::vector<double> cumulative_area;
  double area = 0;
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const std::vector<int>& face = mesh.faces[f];
    const std::string which = located(mesh.name, mesh.face_line(static_cast<int>(f))) + "face " + std::to_string(f);
    if (face.size() < 3) throw InputError(which + " has fewer than 3 corners");
    for (int v : face) {
      if (v < 0 || v >= vertex_count) throw InputError(which + " names vertex " + std::to_string(v) + ", out of range");
    }
    const Eigen::Vector3d& a = mesh.vertices[static_cast<std::size_t>(face[0])];
    double face_area = 0;
    for (std::size_t k = 1; k + 1 < face.size(); ++k) {
      const Eigen::Vector3d& b = mesh.vertices[static_cast<std::size_t>(face[k])];
      const Eigen::Vector3d& c = mesh.vertices[static_cast<std::size_t>(face[k + 1])];
      const Eigen::Vector3d cross = (b - a).cross(c - a);
      const double twice = cross.norm();
      if (!std::isfinite(twice)) throw InputError(which + " has a non-finite corner");
      if (twice == 0) continue;  // a collinear fan triangle of a valid polygon
      face_area += twice / 2;
      area += twice / 2;
      triangles.push_back({a, b, c, cross / twice});
      cumulative_area.push_back(area);
    }
    if (!(face_area > 0)) throw InputError(which + " is degenerate (zero area)");
  }

  const long count = candidate_count(mesh.name, area, spacing, oversampling);
  std::mt19937_64 rng(seed);
  SurfaceSamples candidates;
  candidates.name = mesh.name;
  candidates.points.reserve(static_cast<std::size_t>(count));
  candidates.normals.reserve(static_cast<std::size_t>(count));
  for (long i = 0; i < count; ++i) {
    const double pick = unit_uniform(rng()) * area;
    const auto t = static_cast<std::size_t>(std::upper_bound(cumulative_area.begin(), cumulative_area.end(), pick) -
                                            cumulative_area.begin());
    const Triangle& tri = triangles[std::min(t, triangles.size() - 1)];
    // A uniform point of the triangle: reflect (u, v) out of the far half.
    double u = unit_uniform(rng());
    double v = unit_uniform(rng());
    if (u + v > 1) {
      u = 1 - u;
      v = 1 - v;
    }
    candidates.points.push_back(tri.a + u * (tri.b - tri.a) + v * (tri.c - tri.a));
    candidates.normals.push_back(tri.normal);
  }
  return poisson_disk_subset(candidates, spacing);
}

}  // namespace contactref::quasi_rigid
