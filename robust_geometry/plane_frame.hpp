#pragma once
// Exact orientation and point-in-polygon tests in a plane of given normal
// (contact regions: MergeRegions, and the distance to a face).
#include <cstddef>
#include <vector>

#include "robust_geometry/exact_pieces.hpp"

namespace contactref::robust_geometry::detail {

// Orientation in a plane with normal n, from the two coordinates left after
// dropping n's dominant one (cyclically, so that the sign is that of the
// orientation about n's dominant axis), times the sign of that component:
// > 0 counter-clockwise about n.
class PlaneFrame {
 public:
  explicit PlaneFrame(const Vec& n) {
    std::size_t k = 0;
    for (std::size_t i = 1; i < 3; ++i)
      if (CGAL::abs(n[i]) > CGAL::abs(n[k])) k = i;
    u_ = (k + 1) % 3;
    v_ = (k + 2) % 3;
    flip_ = sign(n[k]);
  }
  int orientation(const Vec& a, const Vec& b) const {  // of the directions a, b
    return flip_ * sign(a[u_] * b[v_] - a[v_] * b[u_]);
  }
  FT twice_area(const std::vector<Vec>& polygon) const {
    FT sum(0);
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      const Vec& p = polygon[i];
      const Vec& q = polygon[(i + 1) % polygon.size()];
      sum += p[u_] * q[v_] - p[v_] * q[u_];
    }
    return flip_ > 0 ? sum : -sum;
  }
  // Point strictly inside a polygon (even-odd rule; x not on its boundary).
  bool inside(const Vec& x, const std::vector<Vec>& polygon) const {
    bool in = false;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      const Vec& p = polygon[i];
      const Vec& q = polygon[(i + 1) % polygon.size()];
      if ((p[v_] > x[v_]) == (q[v_] > x[v_])) continue;
      // Crossing of the horizontal line through x: right of x?
      const FT s = (q[u_] - p[u_]) * (x[v_] - p[v_]) - (x[u_] - p[u_]) * (q[v_] - p[v_]);
      if ((sign(s) > 0) == (q[v_] > p[v_])) in = !in;
    }
    return in;
  }

 private:
  std::size_t u_ = 0, v_ = 1;
  int flip_ = 1;
};

}  // namespace contactref::robust_geometry::detail
