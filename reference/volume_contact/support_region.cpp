#include "reference/volume_contact/support_region.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::volume_contact {
namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// The integral of sec^3 phi in s = tan phi (support_region.hpp).
double sec_cubed_integral(double s) { return (s * std::sqrt(1 + s * s) + std::asinh(s)) / 2; }

void check_region(const SupportRegion& region, const char* what) {
  if (region.empty()) throw InputError(std::string(what) + ": the support region is empty");
}

}  // namespace

SupportRegion support_region(const std::vector<Eigen::Vector2d>& points) {
  for (const Eigen::Vector2d& x : points)
    if (!x.allFinite()) throw InputError("support region: a non-finite point");
  // Andrew's monotone chain: lower then upper hull, counter-clockwise,
  // dropping collinear points (cross <= 0).
  std::vector<Eigen::Vector2d> sorted = points;
  std::sort(sorted.begin(), sorted.end(), [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  std::vector<Eigen::Vector2d> hull;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t start = hull.size();
    for (const Eigen::Vector2d& x : sorted) {
      while (hull.size() >= start + 2 && cross(hull.back() - hull[hull.size() - 2], x - hull[hull.size() - 2]) <= 0)
        hull.pop_back();
      hull.push_back(x);
    }
    hull.pop_back();  // the chain's last point starts the other chain
    std::reverse(sorted.begin(), sorted.end());
  }
  SupportRegion region;
  if (hull.size() < 3) {
    std::ostringstream os;
    os << "support region: the hull of " << points.size() << " points has no area";
    throw InputError(os.str());
  }
  // Area and centroid (shoelace about the first vertex).
  const Eigen::Vector2d& o = hull.front();
  Eigen::Vector2d moment = Eigen::Vector2d::Zero();
  for (std::size_t i = 1; i + 1 < hull.size(); ++i) {
    const double twice = cross(hull[i] - o, hull[i + 1] - o);
    region.area += twice / 2;
    moment += twice / 6 * (hull[i] - o + hull[i + 1] - o);
  }
  if (!(region.area > 0)) throw InputError("support region: the hull has no area");
  region.centroid = o + moment / region.area;
  region.vertices = std::move(hull);
  // Mean distance from g: the fan of triangles (g, v_i, v_i+1), in polar
  // coordinates about g (the header).
  double integral = 0;
  const std::size_t n = region.vertices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d a = region.vertices[i] - region.centroid, b = region.vertices[(i + 1) % n] - region.centroid;
    const Eigen::Vector2d e = (b - a).normalized();
    const double h = cross(a, e);  // the distance to the edge's line (outward normal (e_y, -e_x)): > 0, g is inside
    if (!(h > 0)) continue;        // g on an edge's line only by round-off: a triangle without area
    integral += h * h * h / 3 * (sec_cubed_integral(e.dot(b) / h) - sec_cubed_integral(e.dot(a) / h));
  }
  region.mean_distance = integral / region.area;
  return region;
}

PatchProjection project_onto_region(const Eigen::Vector2d& d, const SupportRegion& region) {
  check_region(region, "support region projection");
  if (!d.allFinite()) throw InputError("support region projection: a non-finite point");
  PatchProjection out;
  out.point = d;
  const std::size_t n = region.vertices.size();
  bool inside = true;
  for (std::size_t i = 0; i < n && inside; ++i)
    inside = cross(region.vertices[(i + 1) % n] - region.vertices[i], d - region.vertices[i]) >= 0;
  if (inside) return out;
  out.inside = false;
  double nearest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {  // the closest point of the boundary
    const Eigen::Vector2d& a = region.vertices[i];
    const Eigen::Vector2d ab = region.vertices[(i + 1) % n] - a;
    const double t = std::clamp((d - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
    const Eigen::Vector2d x = a + t * ab;
    if ((d - x).squaredNorm() < nearest) {
      nearest = (d - x).squaredNorm();
      out.point = x;
    }
  }
  return out;
}

double region_gauge(const Eigen::Vector2d& p, const SupportRegion& region) {
  check_region(region, "support region gauge");
  double gauge = 0;
  const std::size_t n = region.vertices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d a = region.vertices[i] - region.centroid;
    const Eigen::Vector2d e = (region.vertices[(i + 1) % n] - region.vertices[i]).normalized();
    const double h = cross(a, e);  // the outward normal (e_y, -e_x) dotted with a
    gauge = std::max(gauge, cross(p - region.centroid, e) / h);
  }
  return gauge;
}

double region_spin_torque_bound(const Eigen::Vector2d& p, const SupportRegion& region, double f_n, double mu) {
  check_region(region, "support region spin torque bound");
  const double gauge = p.allFinite() ? region_gauge(p, region) : std::numeric_limits<double>::infinity();
  // A boundary point from project_onto_region has gauge 1 to round-off.
  if (!(gauge <= 1 + 1e-9) || !(std::isfinite(f_n) && f_n >= 0) || !(std::isfinite(mu) && mu >= 0)) {
    std::ostringstream os;
    os << "support region spin torque bound: need p in the region (gauge " << gauge << "), f_n, mu finite and >= 0, "
       << "got f_n = " << f_n << ", mu = " << mu;
    throw InputError(os.str());
  }
  return mu * f_n * region.mean_distance * std::max(0.0, 1 - gauge);
}

}  // namespace contactref::volume_contact
