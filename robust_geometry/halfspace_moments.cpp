// A closed triangle mesh ∩ a half-space in double (Bouchard et al. Eqs.
// 14-20); the derivation is in halfspace_moments.hpp.
#include "robust_geometry/halfspace_moments.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "core/errors.hpp"
#include "robust_geometry/moment_sums.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Vector3d;
using detail::MomentSums;

[[noreturn]] void bad_input(const std::string& what) {
  throw InputError("halfspace_intersection_moments: " + what);
}

std::string format(const Vector3d& p) {
  std::ostringstream out;
  out.precision(17);
  out << "(" << p.x() << ", " << p.y() << ", " << p.z() << ")";
  return out.str();
}

// The point where edge (in, out) crosses the plane, computed from the inside
// vertex so that both triangles of the edge get the same point.
inline Vector3d cut(const Vector3d& y_in, double s_in, const Vector3d& y_out, double s_out) {
  const double t = s_in / (s_in - s_out);  // s_in <= 0 < s_out: t in [0, 1)
  return y_in + t * (y_out - y_in);
}

// The gradient of a group of triangles (sums of 2N and s × 2N in y), as
// (∫ x × n dA ; ∫ n dA) in A's frame: only the components exact arithmetic
// allows (linear along u, angular about o orthogonal to u), see the header.
Vector6d group_gradient(const MomentSums& sums, const Vector3d& u, const Vector3d& o) {
  const Vector3d linear = u.dot(sums.area / 2) * u;
  const Vector3d angular_o = sums.moment / 6;
  Vector6d g;
  g.head<3>() = angular_o - u.dot(angular_o) * u + o.cross(linear);
  g.tail<3>() = linear;
  return g;
}

// A clearly negative volume: far above the rounding of Σ D (~1e-13 Σ |D|).
constexpr double kNegativeVolume = 1e-9;

}  // namespace

IntersectionMoments halfspace_intersection_moments(const TriangleSolid& a, const HalfSpace& h, bool keep_vertices) {
  const Vector3d& n = h.normal;
  if (!n.allFinite()) bad_input("HalfSpace::normal has a non-finite component " + format(n));
  const double n_norm = n.stableNorm();  // no overflow or underflow of |n|^2
  if (!(n_norm > 0)) bad_input("HalfSpace::normal is zero");
  if (!std::isfinite(h.offset)) bad_input("HalfSpace::offset is not finite (" + std::to_string(h.offset) + ")");
  if (a.triangles.empty()) bad_input("solid A: the mesh has no triangles");
  const Vector3d u = n / n_norm;

  // Pass over the vertices: finite, bounding box, s_i = n · x_i - d.
  const std::size_t vertex_count = a.vertices.size();
  std::vector<double> s(vertex_count);
  Vector3d lo = Vector3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  Vector3d inside_sum = Vector3d::Zero();
  std::size_t inside_count = 0;
  for (std::size_t v = 0; v < vertex_count; ++v) {
    const Vector3d& x = a.vertices[v];
    if (!x.allFinite()) bad_input("solid A: vertex " + std::to_string(v) + " has a non-finite coordinate " + format(x));
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
    s[v] = n.dot(x) - h.offset;
    if (s[v] <= 0) {
      inside_sum += x;
      ++inside_count;
    }
  }
  // o: the mean of the vertices inside H (else the bounding box's centre),
  // projected onto the plane: near the clipped part, so that the shift of
  // the second moment to the centroid (C = ∫ y y^T - V c c^T) cancels little
  // even for a shallow cut far from A's centre.
  const Vector3d centre = inside_count > 0 ? Vector3d(inside_sum / double(inside_count)) : Vector3d((lo + hi) / 2);
  const Vector3d o = centre - (u.dot(centre) - h.offset / n_norm) * u;

  detail::PairwiseMomentSums pieces;
  MomentSums touching, flush;
  double s_min = std::numeric_limits<double>::infinity(), s_max = -s_min;
  std::vector<Vector3d> corners;  // relative to o
  const auto piece = [&](const Vector3d& p0, const Vector3d& p1, const Vector3d& p2) {
    if (keep_vertices) corners.insert(corners.end(), {p0, p1, p2});
    pieces.add_piece(p0, p1, p2);
  };
  for (std::size_t t = 0; t < a.triangles.size(); ++t) {
    const std::array<int, 3>& tri = a.triangles[t];
    std::array<std::size_t, 3> idx{};
    for (std::size_t k = 0; k < 3; ++k) {
      idx[k] = static_cast<std::size_t>(tri[k]);
      if (tri[k] < 0 || idx[k] >= vertex_count) {
        bad_input("solid A: triangle " + std::to_string(t) + " has vertex index " + std::to_string(tri[k]) +
                  " out of range [0, " + std::to_string(vertex_count) + ")");
      }
    }
    const std::array<double, 3> st{s[idx[0]], s[idx[1]], s[idx[2]]};
    s_min = std::min({s_min, st[0], st[1], st[2]});
    s_max = std::max({s_max, st[0], st[1], st[2]});
    const int inside = int(st[0] <= 0) + int(st[1] <= 0) + int(st[2] <= 0);
    if (inside == 0) continue;
    const auto y = [&](std::size_t k) -> Vector3d { return a.vertices[idx[k]] - o; };
    if (inside == 3) {
      if (st[0] == 0 && st[1] == 0 && st[2] == 0) {  // in the plane: touching or flush
        const Vector3d y0 = y(0), y1 = y(1), y2 = y(2);
        const Vector3d n2 = (y1 - y0).cross(y2 - y0);
        (n2.dot(u) < 0 ? touching : flush).add_gradient(y0, y1, y2);
      } else {
        piece(y(0), y(1), y(2));
      }
      continue;
    }
    // Rotate (keeping the orientation) so that vertex 0 is the odd one out:
    // the only one inside (inside == 1) or the only one outside (inside == 2).
    const bool odd_inside = inside == 1;
    std::size_t k0 = 0;
    while ((st[k0] <= 0) != odd_inside) ++k0;
    const std::size_t k1 = (k0 + 1) % 3, k2 = (k0 + 2) % 3;
    const Vector3d y0 = y(k0), y1 = y(k1), y2 = y(k2);
    if (odd_inside) {
      piece(y0, cut(y0, st[k0], y1, st[k1]), cut(y0, st[k0], y2, st[k2]));
    } else {  // y1, y2 inside: the quad y1 y2 c20 c01
      const Vector3d c20 = cut(y2, st[k2], y0, st[k0]), c01 = cut(y1, st[k1], y0, st[k0]);
      piece(y1, y2, c20);
      piece(y1, c20, c01);
    }
  }
  const MomentSums total = pieces.total();

  IntersectionMoments result;
  if (s_min > 0) return result;  // kDisjoint
  if (total.volume < -kNegativeVolume * total.volume_abs) {
    bad_input("solid A: the clipped volume is negative (" + std::to_string(total.volume / 6) +
              "): the mesh is not outward oriented (see validate_triangle_solid)");
  }
  // Gradient parts (header): interior = -S - flush, touching = -P_touching,
  // flush = +P_flush, gradient = -S - (P_touching + P_flush) / 2. All zero
  // when every vertex is strictly inside (no cap).
  if (s_max >= 0) {
    const Vector6d g_s = group_gradient(total, u, o), g_t = group_gradient(touching, u, o),
                   g_f = group_gradient(flush, u, o);
    result.gradient_interior = -g_s - g_f;
    result.gradient_touching = -g_t;
    result.gradient_flush = g_f;
    result.gradient = -g_s - (g_t + g_f) / 2;
  }
  const double volume = total.volume / 6;  // Eq. 14
  if (!(s_min < 0 && volume > 0)) {
    result.kind = IntersectionKind::kTouching;
    return result;
  }
  result.kind = IntersectionKind::kOverlapping;
  result.boundary_triangles = pieces.pieces();
  for (const Vector3d& y : corners) result.vertices.push_back(o + y);
  detail::set_volume_moments(result, total, o);
  return result;
}

}  // namespace contactref::robust_geometry
