#pragma once
// The parameter domain of a patch: a convex polygon listed counter-clockwise
// (Loop triangles, Bezier squares, S-patch n-gons), or a chart of an analytic
// surface given by an interval per parameter, each possibly unbounded or
// periodic (plane, ellipsoid, torus, cylinder, paraboloid).
#include <limits>
#include <vector>

#include "reference/surfaces/patch_jet.hpp"

namespace contactref::surfaces {

template <class T>
struct Interval {
  T lo = -std::numeric_limits<double>::infinity();
  T hi = std::numeric_limits<double>::infinity();
  bool periodic = false;  // period hi - lo; the parameter may take any value
};

template <class T>
struct Domain {
  std::vector<Vec2<T>> polygon;  // counter-clockwise; empty for a chart
  Interval<T> s, t;              // used when polygon is empty

  static Domain make_polygon(std::vector<Vec2<T>> vertices) {
    Domain domain;
    domain.polygon = std::move(vertices);
    return domain;
  }
  static Domain make_chart(Interval<T> s_range, Interval<T> t_range) {
    Domain domain;
    domain.s = s_range;
    domain.t = t_range;
    return domain;
  }

  bool is_polygon() const { return !polygon.empty(); }

  // The signed distance-like test of (s, t) against edge k (from vertex k to
  // k + 1): positive inside (left of the edge).
  T edge_side(std::size_t k, const Vec2<T>& x) const {
    const Vec2<T>& a = polygon[k];
    const Vec2<T>& b = polygon[(k + 1) % polygon.size()];
    return (b - a).x() * (x - a).y() - (b - a).y() * (x - a).x();
  }

  // Closed-domain membership with slack `tolerance` (in parameter units for
  // charts, in units of the edge length times the parameter for polygons).
  bool contains(const T& s_value, const T& t_value, const T& tolerance = T(0)) const {
    if (is_polygon()) {
      const Vec2<T> x(s_value, t_value);
      for (std::size_t k = 0; k < polygon.size(); ++k)
        if (edge_side(k, x) < -tolerance) return false;
      return true;
    }
    const auto inside = [&](const Interval<T>& range, const T& value) {
      return range.periodic || (value >= range.lo - tolerance && value <= range.hi + tolerance);
    };
    return inside(s, s_value) && inside(t, t_value);
  }
};

}  // namespace contactref::surfaces
