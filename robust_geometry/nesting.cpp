#include "robust_geometry/nesting.hpp"

#include <optional>

#include <CGAL/squared_distance_3.h>

#include "core/errors.hpp"

namespace contactref::robust_geometry::detail {

namespace {

enum class SurfaceSide { outside, on, inside };

// The side of x with respect to the closed surface made of `triangles`
// (parity of the crossings of a ray from x, exact; a ray that meets an edge
// or a vertex, or runs in a triangle's plane, is replaced by another).
SurfaceSide side_of_surface(const Vec& x, const std::vector<std::array<Vec, 3>>& triangles) {
  const auto orient = [](const Vec& p, const Vec& q, const Vec& r, const Vec& t) {
    return sign(dot(cross(sub(q, p), sub(r, p)), sub(t, p)));
  };
  const auto same_signs = [](int s1, int s2, int s3) {
    return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
  };
  for (int attempt = 1; attempt <= 64; ++attempt) {
    const Vec dir{FT(1), FT(attempt) / FT(67), FT(attempt * attempt) / FT(4099)};
    const Vec y = add(x, dir);
    bool generic = true, in = false;
    for (const auto& [a, b, c] : triangles) {
      const Vec n = cross(sub(b, a), sub(c, a));
      const int sx = sign(dot(n, sub(x, a)));
      const int sd = sign(dot(n, dir));
      if (sx == 0) {
        const Vec z = add(x, n);
        if (same_signs(orient(x, z, a, b), orient(x, z, b, c), orient(x, z, c, a))) return SurfaceSide::on;
        if (sd == 0) generic = false;  // the ray runs in the triangle's plane
        if (!generic) break;
        continue;  // the ray leaves the plane at once, outside the triangle
      }
      const int s1 = orient(x, y, a, b), s2 = orient(x, y, b, c), s3 = orient(x, y, c, a);
      if (!same_signs(s1, s2, s3)) continue;  // the line misses the triangle
      if (s1 == 0 || s2 == 0 || s3 == 0) {
        generic = false;  // the line meets the triangle's boundary
        break;
      }
      // The line crosses the open triangle at x + s dir, s = -n.(x - a) / n.dir:
      // ahead of x iff s > 0.
      if (sx != sd) in = !in;
    }
    if (generic) return in ? SurfaceSide::inside : SurfaceSide::outside;
  }
  throw ComputationError("nesting test: no generic ray found");
}

}  // namespace

// Whether a point of A lies inside B farther than the tolerance from B's
// surface, given that no piece of B reaches A's interior beyond it (issue 10,
// item 1: nested solids, apart or touching). A's interior is connected and
// (beyond the tolerance) does not meet B's surface, so it lies inside B or
// outside it, and one point of A farther than the tolerance from B's surface
// decides which, touching anywhere else or not. The candidates, in order: A's
// vertices, then the centroids of A's triangles (an A whose every candidate
// is within the tolerance of B's surface throws ComputationError).
// A vertex of A outside B's bounding box widened by the tolerance is outside
// B and farther than the tolerance from it: this test is exact (rational
// comparisons of the exact posed vertices; item 7), made first on every
// vertex, and it settles most touching pairs at once. Otherwise a
// candidate's exact squared distance to each of B's triangles is compared
// with the tolerance's square, and a candidate beyond it is classified
// exactly (side_of_surface).
bool a_nested_in_b(const Polyhedron& a, const std::vector<Vec>& points_b,
                   const std::vector<std::array<Vec, 3>>& triangles_b, const FT& tolerance) {
  Vec low = points_b.front(), high = points_b.front();
  for (const Vec& x : points_b)
    for (std::size_t k = 0; k < 3; ++k) {
      if (x[k] < low[k]) low[k] = x[k];
      if (high[k] < x[k]) high[k] = x[k];
    }
  const auto outside_box = [&](const Vec& x) {
    for (std::size_t k = 0; k < 3; ++k)
      if (x[k] < low[k] - tolerance || high[k] + tolerance < x[k]) return true;
    return false;
  };
  const auto vertex_a = [&](int v) { return exact_vertex(a, v); };
  for (int v = 0; v < a.vertex_count(); ++v)  // the cheap test first, on every vertex
    if (outside_box(vertex_a(v))) return false;
  const auto decides = [&](const Vec& x) -> std::optional<bool> {
    if (sign(tolerance) > 0) {
      const Epeck::Point_3 p(x[0], x[1], x[2]);
      const FT tolerance2 = tolerance * tolerance;
      for (const auto& [u, v, w] : triangles_b) {
        const Epeck::Triangle_3 t(Epeck::Point_3(u[0], u[1], u[2]), Epeck::Point_3(v[0], v[1], v[2]),
                                  Epeck::Point_3(w[0], w[1], w[2]));
        if (!(tolerance2 < CGAL::squared_distance(p, t))) return std::nullopt;
      }
    }
    const SurfaceSide s = side_of_surface(x, triangles_b);
    if (s == SurfaceSide::on) return std::nullopt;
    return s == SurfaceSide::inside;
  };
  for (int v = 0; v < a.vertex_count(); ++v)
    if (const auto nested = decides(vertex_a(v))) return *nested;
  for (const Triangle& t : a.triangles()) {
    const Vec sum = add(add(vertex_a(t.vertices[0]), vertex_a(t.vertices[1])), vertex_a(t.vertices[2]));
    if (const auto nested = decides(mul(FT(1) / FT(3), sum))) return *nested;
  }
  throw ComputationError("nesting test: every vertex and triangle centroid of " + a.name() +
                                 " lies within the touch tolerance of the other solid's surface");
}

}  // namespace contactref::robust_geometry::detail
