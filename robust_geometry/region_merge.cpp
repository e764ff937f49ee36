#include "robust_geometry/region_merge.hpp"

// The pieces that reach leaves of entity y of A and carry entity x of B make
// up x ∩ y (a union, split into connected components: Lemma 1); their
// highest dimension is the region's (x ∩ y is open in its affine hull, so
// lower-dimensional pieces of the same pair lie in the closure of the higher
// ones):
//   2: convex polygons in y's plane. Their union's boundary is what remains
//      of their directed edges (oriented counter-clockwise about y's normal)
//      after splitting edges at each other's vertices and cancelling opposite
//      pairs; it is traced into cycles turning as far clockwise as possible
//      at each vertex (so that components meeting at one vertex come out as
//      separate cycles). Counter-clockwise cycles are outer boundaries,
//      clockwise ones holes of the smallest outer boundary around them.
//   1: segments on one line, merged where they overlap, or meet at a point
//      that is itself in x ∩ y (a 0D piece of the pair there).
//   0: points, one region each.
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "robust_geometry/plane_frame.hpp"

namespace contactref::robust_geometry::detail {

namespace {

// Points in exact lexicographic order (for maps and for a canonical start).
struct PointLess {
  bool operator()(const Vec& a, const Vec& b) const { return lexicographic_less(a, b); }
};

bool strictly_between(const Vec& x, const Vec& p, const Vec& q) {
  const Vec d = sub(q, p), w = sub(x, p);
  if (!is_zero(cross(d, w))) return false;
  const FT t = dot(w, d);
  return sign(t) > 0 && t < dot(d, d);
}

// Rotates a cycle to start at its lexicographically smallest point.
std::vector<Eigen::Vector3d> canonical_cycle(const std::vector<Vec>& cycle) {
  const auto start = std::min_element(cycle.begin(), cycle.end(), lexicographic_less) - cycle.begin();
  std::vector<Eigen::Vector3d> out;
  for (std::size_t i = 0; i < cycle.size(); ++i) out.push_back(rounded(cycle[(std::size_t(start) + i) % cycle.size()]));
  return out;
}

}  // namespace

std::vector<ContactRegion> merge_polygons(const Entity& a, const Entity& b, const std::vector<const Piece*>& pieces,
                                          const Vec& normal) {
  const PlaneFrame frame(normal);
  std::map<Vec, int, PointLess> ids;
  std::vector<Vec> points;
  const auto id = [&](const Vec& p) {
    auto [it, fresh] = ids.emplace(p, int(points.size()));
    if (fresh) points.push_back(p);
    return it->second;
  };
  std::vector<std::vector<int>> polygons;
  for (const Piece* piece : pieces) {
    if (piece->dim != 2) continue;
    std::vector<Vec> corners = piece->points;
    const int orientation = sign(frame.twice_area(corners));
    if (orientation == 0) continue;
    if (orientation < 0) std::reverse(corners.begin(), corners.end());
    std::vector<int> polygon;
    for (const Vec& c : corners) polygon.push_back(id(c));
    polygons.push_back(std::move(polygon));
  }
  // Directed edges, split at every point strictly inside them, with opposite
  // pairs cancelled.
  std::map<std::pair<int, int>, int> edges;
  const auto add_edge = [&](int i, int j) {
    if (auto it = edges.find({j, i}); it != edges.end() && it->second > 0) {
      if (--it->second == 0) edges.erase(it);
    } else {
      ++edges[{i, j}];
    }
  };
  for (const auto& polygon : polygons)
    for (std::size_t k = 0; k < polygon.size(); ++k) {
      const int i = polygon[k], j = polygon[(k + 1) % polygon.size()];
      const Vec& p = points[std::size_t(i)];
      const Vec& q = points[std::size_t(j)];
      std::vector<std::pair<FT, int>> inner;
      for (std::size_t s = 0; s < points.size(); ++s)
        if (strictly_between(points[s], p, q)) inner.emplace_back(dot(sub(points[s], p), sub(q, p)), int(s));
      std::sort(inner.begin(), inner.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      int from = i;
      for (const auto& [t, s] : inner) {
        add_edge(from, s);
        from = s;
      }
      add_edge(from, j);
    }
  std::multimap<int, int> out_edges;
  for (const auto& [e, count] : edges)
    for (int c = 0; c < count; ++c) out_edges.emplace(e.first, e.second);
  // The clockwise angle class of direction d from reference r (0: (0, pi),
  // 1: pi, 2: (pi, 2 pi), 3: 2 pi), for choosing the next edge.
  const auto angle_class = [&](const Vec& r, const Vec& d) {
    const int o = frame.orientation(r, d);
    if (o < 0) return 0;
    if (o > 0) return 2;
    return sign(dot(r, d)) < 0 ? 1 : 3;
  };
  std::vector<std::vector<Vec>> outer, holes;
  while (!out_edges.empty()) {
    auto first = out_edges.begin();
    const int start = first->first;
    int previous = start, current = first->second;
    out_edges.erase(first);
    std::vector<int> cycle{start};
    while (current != start) {
      cycle.push_back(current);
      const Vec back = sub(points[std::size_t(previous)], points[std::size_t(current)]);
      auto [lo, hi] = out_edges.equal_range(current);
      if (lo == hi) throw ComputationError("MergeRegions: an open boundary chain in region " + to_string(a) + " / " + to_string(b));
      auto best = lo;
      for (auto it = std::next(lo); it != hi; ++it) {
        const Vec d1 = sub(points[std::size_t(best->second)], points[std::size_t(current)]);
        const Vec d2 = sub(points[std::size_t(it->second)], points[std::size_t(current)]);
        const int c1 = angle_class(back, d1), c2 = angle_class(back, d2);
        if (c2 < c1 || (c2 == c1 && frame.orientation(d2, d1) < 0)) best = it;
      }
      previous = current;
      current = best->second;
      out_edges.erase(best);
    }
    // Drop corners where the boundary goes straight on.
    std::vector<Vec> corners;
    for (std::size_t k = 0; k < cycle.size(); ++k) {
      const Vec& p = points[std::size_t(cycle[(k + cycle.size() - 1) % cycle.size()])];
      const Vec& x = points[std::size_t(cycle[k])];
      const Vec& q = points[std::size_t(cycle[(k + 1) % cycle.size()])];
      const Vec d1 = sub(x, p), d2 = sub(q, x);
      if (is_zero(cross(d1, d2)) && sign(dot(d1, d2)) > 0) continue;
      corners.push_back(x);
    }
    if (corners.size() < 3) continue;
    (sign(frame.twice_area(corners)) > 0 ? outer : holes).push_back(std::move(corners));
  }
  std::vector<ContactRegion> out;
  for (const auto& boundary : outer) out.push_back({a, b, 2, canonical_cycle(boundary), {}});
  for (const auto& hole : holes) {
    std::size_t best = outer.size();
    for (std::size_t k = 0; k < outer.size(); ++k)
      if (frame.inside(hole.front(), outer[k]) &&
          (best == outer.size() || frame.twice_area(outer[k]) < frame.twice_area(outer[best])))
        best = k;
    if (best == outer.size())
      throw ComputationError("MergeRegions: a hole outside every boundary in region " + to_string(a) + " / " +
                                     to_string(b));
    out[best].holes.push_back(canonical_cycle(hole));
  }
  return out;
}

std::vector<ContactRegion> merge_segments(const Entity& a, const Entity& b, const std::vector<const Piece*>& pieces) {
  // A parameter along the common line: t(x) = (x - p0) . d.
  const Vec& p0 = pieces.front()->points.front();
  Vec far = p0;
  for (const Piece* piece : pieces)
    for (const Vec& x : piece->points)
      if (dot(sub(x, p0), sub(x, p0)) > dot(sub(far, p0), sub(far, p0))) far = x;
  const Vec d = sub(far, p0);
  const auto t = [&](const Vec& x) { return dot(sub(x, p0), d); };
  struct Interval {
    FT lo, hi;
    Vec plo, phi;
  };
  std::vector<Interval> intervals;
  std::vector<std::pair<FT, Vec>> singles;
  for (const Piece* piece : pieces) {
    if (piece->dim == 0) {
      singles.emplace_back(t(piece->points.front()), piece->points.front());
      continue;
    }
    Interval in{t(piece->points[0]), t(piece->points[1]), piece->points[0], piece->points[1]};
    if (in.hi < in.lo) {
      std::swap(in.lo, in.hi);
      std::swap(in.plo, in.phi);
    }
    intervals.push_back(std::move(in));
  }
  std::sort(intervals.begin(), intervals.end(), [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
  const auto is_single = [&](const FT& at) {
    return std::any_of(singles.begin(), singles.end(), [&](const auto& s) { return s.first == at; });
  };
  std::vector<Interval> merged;
  for (Interval& in : intervals) {
    if (!merged.empty() && (in.lo < merged.back().hi || (in.lo == merged.back().hi && is_single(in.lo)))) {
      if (merged.back().hi < in.hi) {
        merged.back().hi = in.hi;
        merged.back().phi = in.phi;
      }
    } else {
      merged.push_back(std::move(in));
    }
  }
  std::vector<ContactRegion> out;
  for (const Interval& in : merged) {
    std::vector<Vec> ends{in.plo, in.phi};
    std::sort(ends.begin(), ends.end(), lexicographic_less);
    out.push_back({a, b, 1, {rounded(ends[0]), rounded(ends[1])}, {}});
  }
  // Points of the pair outside every segment (not expected: x ∩ y is open in
  // its line; kept rather than lost).
  for (const auto& single : singles) {
    const auto& at = single.first;  // not a structured binding: clang 14 cannot capture those
    if (std::none_of(merged.begin(), merged.end(), [&](const Interval& in) { return !(at < in.lo) && !(in.hi < at); }))
      out.push_back({a, b, 0, {rounded(single.second)}, {}});
  }
  return out;
}

std::vector<ContactRegion> merge_points(const Entity& a, const Entity& b, const std::vector<const Piece*>& pieces) {
  std::set<Vec, PointLess> points;
  for (const Piece* piece : pieces) points.insert(piece->points.front());
  std::vector<ContactRegion> out;
  for (const Vec& x : points) out.push_back({a, b, 0, {rounded(x)}, {}});
  return out;
}

}  // namespace contactref::robust_geometry::detail
