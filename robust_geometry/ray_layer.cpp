// The rays of one axis through two closed meshes by scan conversion
// (raycast_moments.hpp, "Method" and "Robustness").
#include "robust_geometry/ray_layer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <Eigen/Geometry>

namespace contactref::robust_geometry::detail {
namespace {

using Eigen::Vector3d;

// The sign of orient2d(p, q, r) = (p - r) × (q - r) (> 0: r left of p -> q),
// exact: Shewchuk's static filter (errbound A = (3 + 16 eps) eps times
// |detleft| + |detright|, "Adaptive precision floating-point arithmetic and
// fast robust geometric predicates", 1997), valid while the products neither
// underflow nor overflow (|det| >= 2^-960 keeps underflow's absolute errors,
// <= 2^-1074 each, below its relative ones); otherwise CGAL's exact
// predicate on the same doubles (exact_orientation).
[[gnu::noinline]] int exact_orientation(double px, double py, double qx, double qy, double rx, double ry) {
  using P = CGAL::Epick::Point_2;
  const CGAL::Orientation o = CGAL::orientation(P(px, py), P(qx, qy), P(rx, ry));
  return o == CGAL::LEFT_TURN ? 1 : (o == CGAL::RIGHT_TURN ? -1 : 0);
}

inline int orientation(double px, double py, double qx, double qy, double rx, double ry) {
  constexpr double eps = std::numeric_limits<double>::epsilon() / 2;
  constexpr double errbound_a = (3 + 16 * eps) * eps;
  const double detleft = (px - rx) * (qy - ry), detright = (py - ry) * (qx - rx);
  const double det = detleft - detright;
  const double magnitude = std::abs(det);
  if (magnitude > errbound_a * (std::abs(detleft) + std::abs(detright)) && magnitude >= 0x1p-960 &&
      magnitude <= std::numeric_limits<double>::max()) {
    return det > 0 ? 1 : -1;
  }
  return exact_orientation(px, py, qx, qy, rx, ry);
}

// The side of the ray point r = (ru, rv) of the directed edge p -> q, as if r
// were moved to r + (ε, ε^2) for an infinitesimal ε > 0 (simulation of
// simplicity): never 0 for a non-degenerate edge. With e = q - p,
// orient2d(p, q, r + δ) = orient2d(p, q, r) + e_u δ_v - e_v δ_u, whose
// leading term at orient2d = 0 is -e_v ε, or e_u ε^2 when e_v = 0 (the sign
// of a difference of doubles is exact). Every ray thus passes at a generic
// point: through the interior of exactly the projected triangles that
// contain r + δ, the same answer for both triangles of a shared edge and
// for every triangle around a shared vertex.
inline int side(double pu, double pv, double qu, double qv, double ru, double rv) {
  const int o = orientation(pu, pv, qu, qv, ru, rv);
  if (o != 0) return o;
  if (qv != pv) return qv > pv ? -1 : 1;
  return qu > pu ? 1 : -1;
}

// A crossing of a ray with a triangle: its depth, its ray, and
// bit 0: B (else A), bit 1: entering (the triangle's outward normal has
// n_k < 0: the ray, along +e_k, passes from outside to inside).
struct Hit {
  double z;
  std::uint32_t ray;
  std::uint8_t code;
};
constexpr std::uint8_t kFromB = 1, kEntering = 2;

// The ray indices [first, last) whose centres lie in [lo, hi]: the centres
// are lo_grid + (i + 1/2) h, increasing; the index from the arithmetic is
// only a guess, corrected against the stored centres (which every triangle
// is tested at).
std::pair<int, int> covered(const std::vector<double>& centres, double lo_grid, double h, double lo, double hi) {
  const int n = int(centres.size());
  const auto guess = [&](double x) { return int(std::clamp(std::ceil((x - lo_grid) / h - 0.5), 0.0, double(n))); };
  int first = guess(lo), last = guess(hi);
  while (first > 0 && centres[std::size_t(first - 1)] >= lo) --first;
  while (first < n && centres[std::size_t(first)] < lo) ++first;
  last = std::max(last, first);
  while (last < n && centres[std::size_t(last)] <= hi) ++last;
  while (last > first && centres[std::size_t(last - 1)] > hi) --last;
  return {first, last};
}

class Rasteriser {
 public:
  Rasteriser(RayLayer& layer, const Vector3d& lo, const Vector3d& hi)
      : layer_(layer), k_(layer.axis), a_((k_ + 1) % 3), b_((k_ + 2) % 3), lo_k_(lo(k_)), hi_k_(hi(k_)),
        lo_a_(lo(a_)), hi_a_(hi(a_)), lo_b_(lo(b_)), hi_b_(hi(b_)) {
    const std::size_t rays = std::size_t(layer.cells) * std::size_t(layer.cells);
    below_a_.assign(rays, 0);
    below_b_.assign(rays, 0);
    hits_.reserve(2 * rays);  // two crossings per ray and solid is typical: few reallocations
  }

  // Every crossing of the rays with the triangles of `mesh`.
  void add(const PlacedMesh& mesh, std::uint8_t solid) {
    const std::vector<Vector3d>& x = *mesh.vertices;
    for (const std::array<int, 3>& t : *mesh.triangles)
      add_triangle(x[std::size_t(t[0])], x[std::size_t(t[1])], x[std::size_t(t[2])], solid);
  }

  std::vector<Hit>& hits() { return hits_; }
  const std::vector<std::int32_t>& below(std::uint8_t solid) const { return solid == kFromB ? below_b_ : below_a_; }

 private:
  void add_triangle(const Vector3d& p0, const Vector3d& p1, const Vector3d& p2, std::uint8_t solid) {
    const double z_min = std::min({p0(k_), p1(k_), p2(k_)}), z_max = std::max({p0(k_), p1(k_), p2(k_)});
    if (z_min > hi_k_) return;  // beyond the box: nothing after it matters
    const double u_min = std::min({p0(a_), p1(a_), p2(a_)}), u_max = std::max({p0(a_), p1(a_), p2(a_)});
    const double v_min = std::min({p0(b_), p1(b_), p2(b_)}), v_max = std::max({p0(b_), p1(b_), p2(b_)});
    if (u_max < lo_a_ || u_min > hi_a_ || v_max < lo_b_ || v_min > hi_b_) return;
    const auto [i0, i1] = covered(layer_.centre_a, lo_a_, layer_.width_a, u_min, u_max);
    const auto [j0, j1] = covered(layer_.centre_b, lo_b_, layer_.width_b, v_min, v_max);
    if (i0 == i1 || j0 == j1) return;
    // n_k = (p1 - p0) × (p2 - p0) · e_k, the projected orientation: its
    // exact sign; 0 (the triangle contains a ray direction) is never crossed
    // by a ray at a generic point.
    const int orient = orientation(p0(a_), p0(b_), p1(a_), p1(b_), p2(a_), p2(b_));
    if (orient == 0) return;
    const std::uint8_t code = std::uint8_t(solid | (orient < 0 ? kEntering : 0));
    std::vector<std::int32_t>& below = solid == kFromB ? below_b_ : below_a_;
    const std::int32_t step = orient < 0 ? 1 : -1;
    // The plane z = p0_k + du (u - p0_a) + dv (v - p0_b), from the normal
    // n = (p1 - p0) × (p2 - p0) (du = -n_a / n_k, dv = -n_b / n_k).
    const Vector3d n = (p1 - p0).cross(p2 - p0);
    const double du = -n(a_) / n(k_), dv = -n(b_) / n(k_);
    const bool all_below = z_max < lo_k_;
    const std::array<const Vector3d*, 3> corner{&p0, &p1, &p2};
    for (int j = j0; j < j1; ++j) {
      const double v = layer_.centre_b[std::size_t(j)];
      // The row's cells inside the triangle: for each edge p -> q,
      // orient2d(p, q, (u, v)) = (p_v - q_v) u + const is monotone in u, and
      // so is its side with the tie rule: the cells on the inner side form
      // a prefix or a suffix of the row, found by bisection with the exact
      // test; the three together leave an interval [first, last).
      int first = i0, last = i1;
      for (std::size_t e = 0; e < 3 && first < last; ++e) {
        const Vector3d& p = *corner[e];
        const Vector3d& q = *corner[(e + 1) % 3];
        const auto inner = [&](int i) {
          return side(p(a_), p(b_), q(a_), q(b_), layer_.centre_a[std::size_t(i)], v) == orient;
        };
        const double slope = p(b_) - q(b_);
        if (slope == 0) {
          if (!inner(first)) last = first;
          continue;
        }
        const bool suffix = (slope > 0) == (orient > 0);
        int lo = first, hi = last;  // the boundary lies in [lo, hi]
        while (lo < hi) {
          const int mid = lo + (hi - lo) / 2;
          if (inner(mid) == suffix) {
            hi = mid;
          } else {
            lo = mid + 1;
          }
        }
        (suffix ? first : last) = lo;
      }
      for (int i = first; i < last; ++i) {
        const double u = layer_.centre_a[std::size_t(i)];
        const std::uint32_t ray = std::uint32_t(i) + std::uint32_t(layer_.cells) * std::uint32_t(j);
        // The depth, kept within the triangle's range (a plane nearly
        // parallel to the rays extrapolates rounding errors; NaN from an
        // underflowed n_k becomes z_min).
        double z = all_below ? z_min : p0(k_) + du * (u - p0(a_)) + dv * (v - p0(b_));
        if (!(z >= z_min)) z = z_min;
        if (z > z_max) z = z_max;
        if (z < lo_k_) {
          below[ray] += step;  // before the box: only the winding number matters
        } else {
          hits_.push_back({z, ray, code});
        }
      }
    }
  }

  RayLayer& layer_;
  int k_, a_, b_;
  double lo_k_, hi_k_, lo_a_, hi_a_, lo_b_, hi_b_;
  std::vector<Hit> hits_;
  std::vector<std::int32_t> below_a_, below_b_;
};

// The hits grouped by ray (a counting sort: O(hits + rays)), each ray's
// sorted by depth; offsets[r] .. offsets[r + 1] are ray r's.
std::vector<Hit> by_ray(const std::vector<Hit>& hits, std::size_t rays, std::vector<std::size_t>& offsets) {
  offsets.assign(rays + 1, 0);
  for (const Hit& h : hits) ++offsets[h.ray + 1];
  for (std::size_t r = 0; r < rays; ++r) offsets[r + 1] += offsets[r];
  std::vector<Hit> sorted(hits.size());
  std::vector<std::size_t> next(offsets.begin(), offsets.end() - 1);
  for (const Hit& h : hits) sorted[next[h.ray]++] = h;
  for (std::size_t r = 0; r < rays; ++r) {
    std::sort(sorted.begin() + std::ptrdiff_t(offsets[r]), sorted.begin() + std::ptrdiff_t(offsets[r + 1]),
              [](const Hit& x, const Hit& y) { return x.z < y.z; });
  }
  return sorted;
}

// One ray: its hits in depth order, grouped by equal depth. Between groups
// a point is in a solid when the solid's winding number is positive (1 for
// a valid solid; positive rather than odd keeps two crossings of a
// silhouette edge computed in the wrong order from opening an interval).
// A crossing of ∂B is interior when A's winding is positive on both sides
// of its group, on ∂A when only on one side (the A crossings of the same
// depth: coplanar faces), then touching if A's outward normal there is
// opposite to B's (A's winding rises where B's falls), else flush.
void sweep(const Hit* first, const Hit* last, std::int32_t wa, std::int32_t wb, double origin_k, std::size_t ray,
           RayLayer& layer) {
  double length = 0, moment1 = 0, moment2 = 0;
  std::int32_t interior = 0, touching = 0, flush = 0;
  bool inside = false;  // in Ω before the current group
  double z_open = 0;    // where Ω's current interval began
  for (const Hit* g = first; g != last;) {
    const double z = g->z;
    const Hit* g_end = g;
    std::int32_t da = 0, db = 0;
    for (; g_end != last && g_end->z == z; ++g_end) {
      const std::int32_t step = (g_end->code & kEntering) ? 1 : -1;
      ((g_end->code & kFromB) ? db : da) += step;
    }
    const bool a_before = wa > 0, a_after = wa + da > 0;
    const bool b_before = wb > 0, b_after = wb + db > 0;
    for (const Hit* h = g; h != g_end; ++h) {
      if (!(h->code & kFromB)) continue;
      const bool b_entering = (h->code & kEntering) != 0;
      const std::int32_t sign_n = b_entering ? -1 : 1;  // sign of n_B · e_k
      if (a_before && a_after) {
        interior += sign_n;
      } else if (a_before != a_after) {
        (b_entering == a_after ? flush : touching) += sign_n;  // A entering here: n_A · e_k < 0
      }
    }
    if ((a_before || a_after) && (b_before || b_after)) layer.solids_meet = true;
    wa += da;
    wb += db;
    const bool inside_after = wa > 0 && wb > 0;
    if (inside && !inside_after) {
      // Ω's interval [z_open, z]: ∫ 1, ∫ z, ∫ z^2 (z from origin_k).
      const double s = z_open - origin_k, t = z - origin_k, d = z - z_open;
      length += d;
      moment1 += d * (s + t) / 2;
      moment2 += d * (s * s + s * t + t * t) / 3;
    } else if (!inside && inside_after) {
      z_open = z;
    }
    inside = inside_after;
    g = g_end;
  }
  layer.length[ray] = length;
  layer.first[ray] = moment1;
  layer.second[ray] = moment2;
  layer.interior[ray] = interior;
  layer.touching[ray] = touching;
  layer.flush[ray] = flush;
}

}  // namespace

RayLayer cast_rays(const PlacedMesh& a, const PlacedMesh& b, const Vector3d& lo, const Vector3d& hi, int axis,
                   int cells, double origin_k) {
  RayLayer layer;
  layer.axis = axis;
  const int ia = (axis + 1) % 3, ib = (axis + 2) % 3;
  layer.width_a = (hi(ia) - lo(ia)) / cells;
  layer.width_b = (hi(ib) - lo(ib)) / cells;
  if (!(layer.width_a > 0 && layer.width_b > 0)) return layer;  // flat across the rays: no rays
  layer.cells = cells;
  for (int i = 0; i < cells; ++i) {
    layer.centre_a.push_back(lo(ia) + (i + 0.5) * layer.width_a);
    layer.centre_b.push_back(lo(ib) + (i + 0.5) * layer.width_b);
  }
  Rasteriser rasteriser(layer, lo, hi);
  rasteriser.add(a, 0);
  rasteriser.add(b, kFromB);
  const std::size_t rays = std::size_t(cells) * std::size_t(cells);
  std::vector<std::size_t> offsets;
  const std::vector<Hit> hits = by_ray(rasteriser.hits(), rays, offsets);
  rasteriser.hits() = std::vector<Hit>();  // release the unsorted copy
  layer.hits = hits.size();
  layer.length.assign(rays, 0);
  layer.first.assign(rays, 0);
  layer.second.assign(rays, 0);
  layer.interior.assign(rays, 0);
  layer.touching.assign(rays, 0);
  layer.flush.assign(rays, 0);
  const std::vector<std::int32_t>& below_a = rasteriser.below(0);
  const std::vector<std::int32_t>& below_b = rasteriser.below(kFromB);
  for (std::size_t r = 0; r < rays; ++r)
    sweep(hits.data() + offsets[r], hits.data() + offsets[r + 1], below_a[r], below_b[r], origin_k, r, layer);
  return layer;
}

}  // namespace contactref::robust_geometry::detail
