#include "robust_geometry/contact_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "robust_geometry/plane_frame.hpp"

namespace contactref::robust_geometry::detail {

namespace {

// A box around exact points, widened by r and rounded outward (each bound one
// ulp beyond its round-to-nearest value, so it holds the exact widened box).
Box box_around(const std::vector<const Vec*>& points, double r, int info) {
  double lo[3], hi[3];
  for (std::size_t k = 0; k < 3; ++k) {
    lo[k] = std::numeric_limits<double>::infinity();
    hi[k] = -lo[k];
    for (const Vec* x : points) {
      lo[k] = std::min(lo[k], (*x)[k].approx().inf());
      hi[k] = std::max(hi[k], (*x)[k].approx().sup());
    }
    lo[k] = std::nextafter(lo[k] - r, -std::numeric_limits<double>::infinity());
    hi[k] = std::nextafter(hi[k] + r, std::numeric_limits<double>::infinity());
  }
  return Box(lo, hi, info);
}

bool overlaps(const Box& x, const Box& y) {
  for (int k = 0; k < 3; ++k)
    if (x.max_coord(k) < y.min_coord(k) || y.max_coord(k) < x.min_coord(k)) return false;
  return true;
}

// One solid's entities as exact geometry in A's frame: those kept and whose
// box meets `region` (each with its box; only these are looked at).
struct ExactSurface {
  std::vector<Entity> entities;  // the boxes' info indexes this
  std::vector<Box> boxes;
  const Polyhedron* polyhedron = nullptr;
  std::function<Vec(int)> point;  // the exact position of a vertex
  // The support plane's normal of a face (exact, not zero).
  Vec normal(int f) const {
    const auto& [i, j, k] = polyhedron->plane_vertices(f);
    const Vec p = point(i);
    return cross(sub(point(j), p), sub(point(k), p));
  }
};

// `box_of(corners)`: a box holding the exact points of those vertices;
// `only`: the entities to look at (all if null).
template <class BoxOf>
ExactSurface exact_surface(const Polyhedron& p, std::function<Vec(int)> point, const std::function<bool(const Tag&)>& keep,
                           const Box& region, const BoxOf& box_of, const std::vector<Entity>* only = nullptr) {
  ExactSurface s;
  s.polyhedron = &p;
  s.point = std::move(point);
  const auto add_entity = [&](Entity e, const std::vector<int>& corners) {
    Box box = box_of(corners, int(s.entities.size()));
    if (!overlaps(box, region)) return;
    s.boxes.push_back(box);
    s.entities.push_back(e);
  };
  const auto add = [&](const Entity& e) {
    if (!keep({Kind(int(e.kind)), e.index})) return;
    switch (e.kind) {
      case EntityKind::vertex: add_entity(e, {e.index}); break;
      case EntityKind::edge: add_entity(e, {p.edge(e.index).vertices[0], p.edge(e.index).vertices[1]}); break;
      default: add_entity(e, p.face(e.index));
    }
  };
  if (only) {
    for (const Entity& e : *only) add(e);
    return s;
  }
  for (int v = 0; v < p.vertex_count(); ++v) add({EntityKind::vertex, v});
  for (int e = 0; e < p.edge_count(); ++e) add({EntityKind::edge, e});
  for (int f = 0; f < p.face_count(); ++f) add({EntityKind::face, f});
  return s;
}

FT squared_distance_to_segment(const Vec& x, const Vec& p, const Vec& q) {
  const Vec u = sub(q, p);
  const FT t = dot(sub(x, p), u);
  if (sign(t) <= 0) return dot(sub(x, p), sub(x, p));
  const FT uu = dot(u, u);
  if (!(t < uu)) return dot(sub(x, q), sub(x, q));
  const Vec d = sub(sub(x, p), mul(t / uu, u));
  return dot(d, d);
}

// The squared distance from x to the closure of entity e of surface s: for a
// face, the distance to its plane where the foot lies inside the polygon,
// otherwise the distance to its boundary (the same on the boundary).
FT squared_distance_to(const Vec& x, const ExactSurface& s, const Entity& e) {
  const Polyhedron& p = *s.polyhedron;
  switch (e.kind) {
    case EntityKind::vertex: {
      const Vec d = sub(x, s.point(e.index));
      return dot(d, d);
    }
    case EntityKind::edge: return squared_distance_to_segment(x, s.point(p.edge(e.index).vertices[0]), s.point(p.edge(e.index).vertices[1]));
    default: {
      std::vector<Vec> corners;
      for (const int v : p.face(e.index)) corners.push_back(s.point(v));
      const Vec n = s.normal(e.index);
      const FT h = dot(n, sub(x, corners.front()));
      const FT nn = dot(n, n);
      const Vec foot = sub(x, mul(h / nn, n));
      if (PlaneFrame(n).inside(foot, corners)) return h * h / nn;
      std::optional<FT> best;
      for (std::size_t i = 0; i < corners.size(); ++i) {
        const FT d2 = squared_distance_to_segment(x, corners[i], corners[(i + 1) % corners.size()]);
        if (!best || d2 < *best) best = d2;
      }
      return *best;
    }
  }
}

// Of the entities `candidates` of s, the one that x touches: the entities
// whose closure lies within the tolerance of x (squared distance <= eps2),
// and of those the lowest-dimensional, then the nearest, then the lowest
// index.
std::optional<Entity> touched_entity(const Vec& x, const ExactSurface& s, const std::vector<int>& candidates,
                                     const FT& eps2) {
  std::optional<Entity> best;
  FT best_d2;
  for (const int c : candidates) {
    const Entity& e = s.entities[std::size_t(c)];
    if (best && best->kind < e.kind) continue;  // a lower dimension is already touched
    const FT d2 = squared_distance_to(x, s, e);
    if (eps2 < d2) continue;
    if (!best || e.kind < best->kind || d2 < best_d2 || (d2 == best_d2 && e.index < best->index)) {
      best = e;
      best_d2 = d2;
    }
  }
  return best;
}

// The point of A's entity e nearest to x (x within the tolerance of e's
// closure and of no entity of A of lower dimension: the orthogonal
// projection onto e's affine hull, which lies in e).
Vec foot_on(const Vec& x, const ExactSurface& a, const Entity& e) {
  switch (e.kind) {
    case EntityKind::vertex: return a.point(e.index);
    case EntityKind::edge: {
      const auto& ends = a.polyhedron->edge(e.index).vertices;
      const Vec p = a.point(ends[0]);
      const Vec u = sub(a.point(ends[1]), p);
      return add(p, mul(dot(sub(x, p), u) / dot(u, u), u));
    }
    default: {
      const Vec n = a.normal(e.index);
      const Vec p = a.point(a.polyhedron->face(e.index).front());
      return sub(x, mul(dot(n, sub(x, p)) / dot(n, n), n));
    }
  }
}

}  // namespace

ContactPoints contact_points(const Polyhedron& a, const Polyhedron& b, const std::vector<Vec>& points_b,
                             const std::vector<bool>& placed, const std::function<bool(const Tag&)>& keep,
                             double tolerance, const Classifier& classifier,
                             const std::function<bool(const Entity&, const Entity&)>& skip_edges) {
  const FT eps(tolerance);
  const FT eps2 = eps * eps;
  const auto point_a = [&](int v) { return exact_vertex(a, v); };
  const auto point_b = [&](int v) { return points_b[std::size_t(v)]; };
  // Boxes: A's from its double coordinates (exact); B's from the interval
  // approximations of its exact posed coordinates (rounded outward).
  const auto box_a = [&](const std::vector<int>& corners, int info) {
    double lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
      lo[k] = hi[k] = a.vertex(corners.front())[k];
      for (const int v : corners) {
        lo[k] = std::min(lo[k], a.vertex(v)[k]);
        hi[k] = std::max(hi[k], a.vertex(v)[k]);
      }
    }
    return Box(lo, hi, info);
  };
  const auto box_b = [&](const std::vector<int>& corners, int info) {
    std::vector<const Vec*> pts;
    for (const int v : corners) pts.push_back(&points_b[std::size_t(v)]);
    return box_around(pts, 0, info);
  };
  // Each solid's entities near the other's box widened by the tolerance.
  std::vector<int> placed_b;
  for (int v = 0; v < b.vertex_count(); ++v)
    if (placed[std::size_t(v)]) placed_b.push_back(v);
  if (placed_b.empty()) return {};  // every entity of B culled
  const auto widened = [&](Box box) {
    double lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::nextafter(box.min_coord(k) - tolerance, -std::numeric_limits<double>::infinity());
      hi[k] = std::nextafter(box.max_coord(k) + tolerance, std::numeric_limits<double>::infinity());
    }
    return Box(lo, hi, box.info());
  };
  // A's entities near B, from A's Brep-index (not a scan of A).
  const Box near_b_box = widened(box_b(placed_b, 0));
  const std::vector<Entity> near_entities = classifier.entities_near(near_b_box);
  const ExactSurface sa =
      exact_surface(a, point_a, [](const Tag&) { return true; }, near_b_box, box_a, &near_entities);
  // B's entities near those (the box of their vertices, widened).
  std::vector<int> near_a_vertices;
  for (const Entity& e : near_entities) {
    if (e.kind == EntityKind::vertex) near_a_vertices.push_back(e.index);
    if (e.kind == EntityKind::edge)
      for (const int v : a.edge(e.index).vertices) near_a_vertices.push_back(v);
    if (e.kind == EntityKind::face)
      for (const int v : a.face(e.index)) near_a_vertices.push_back(v);
  }
  const ExactSurface sb = near_a_vertices.empty()
                              ? ExactSurface{{}, {}, &b, point_b}
                              : exact_surface(b, point_b, keep, widened(box_a(near_a_vertices, 0)), box_b);
  ContactPoints out;
  // The boxes of one kind of entity of s, widened by the tolerance.
  const auto boxes_of = [&](const ExactSurface& s, EntityKind kind, bool widen) {
    std::vector<Box> boxes;
    for (const Box& box : s.boxes)
      if (s.entities[std::size_t(box.info())].kind == kind) boxes.push_back(widen ? widened(box) : box);
    return boxes;
  };
  // For each entity of `from` (its index there), the entities of `to` whose
  // boxes meet its widened box.
  const auto candidates = [&](const ExactSurface& from, EntityKind kind, const ExactSurface& to,
                              const std::vector<Box>& targets) {
    std::vector<std::vector<int>> out_lists(from.entities.size());
    std::vector<Box> queries = boxes_of(from, kind, true);
    std::vector<Box> to_boxes = targets;
    if (queries.empty() || to_boxes.empty()) return out_lists;
    CGAL::box_intersection_d(queries.begin(), queries.end(), to_boxes.begin(), to_boxes.end(),
                             [&](const Box& q, const Box& t) { out_lists[std::size_t(q.info())].push_back(t.info()); });
    for (auto& list : out_lists) std::sort(list.begin(), list.end());
    (void)to;
    return out_lists;
  };

  // Vertices of B against A.
  const auto near_b = candidates(sb, EntityKind::vertex, sa, sa.boxes);
  for (std::size_t k = 0; k < sb.entities.size(); ++k) {
    const Entity& vertex_b = sb.entities[k];
    if (vertex_b.kind != EntityKind::vertex) continue;
    const Vec& x = points_b[std::size_t(vertex_b.index)];
    if (const auto y = touched_entity(x, sa, near_b[k], eps2))
      out.regions.push_back({*y, vertex_b, 0, {rounded(foot_on(x, sa, *y))}, {}});
  }
  // A vertex of B that touches nothing is penetrating if it lies inside A
  // (also those far from A: the located point is then outside).
  for (int v = 0; v < b.vertex_count(); ++v) {
    const Entity vertex_b{EntityKind::vertex, v};
    if (!keep({Kind::vertex, v})) continue;
    if (std::any_of(out.regions.begin(), out.regions.end(), [&](const ContactRegion& r) { return r.entity_b == vertex_b; }))
      continue;
    if (classifier.locate(points_b[std::size_t(v)]).region == Region::inside) out.penetrating.push_back(vertex_b);
  }

  // Vertices of A against B.
  const auto near_a = candidates(sa, EntityKind::vertex, sb, sb.boxes);
  for (std::size_t k = 0; k < sa.entities.size(); ++k) {
    const Entity& vertex_a = sa.entities[k];
    if (vertex_a.kind != EntityKind::vertex) continue;
    const Vec x = point_a(vertex_a.index);
    if (const auto y = touched_entity(x, sb, near_a[k], eps2)) {
      const bool seen = y->kind == EntityKind::vertex &&
                        std::any_of(out.regions.begin(), out.regions.end(), [&](const ContactRegion& r) {
                          return r.entity_a == vertex_a && r.entity_b == *y;
                        });
      if (!seen) out.regions.push_back({vertex_a, *y, 0, {rounded(x)}, {}});
    }
  }

  // Edges of A against edges of B.
  const auto near_e = candidates(sa, EntityKind::edge, sb, boxes_of(sb, EntityKind::edge, false));
  for (std::size_t k = 0; k < sa.entities.size(); ++k) {
    const Entity& edge_a = sa.entities[k];
    if (edge_a.kind != EntityKind::edge) continue;
    for (const int c : near_e[k]) {
      const Entity& edge_b = sb.entities[std::size_t(c)];
      const auto& ends_a = a.edge(edge_a.index).vertices;
      const auto& ends_b = b.edge(edge_b.index).vertices;
      // Edges that share an end point meet there (or are collinear): not an
      // interior crossing; cheap to see, and spares the exact evaluation
      // of the closest points' parameters, which are then exactly 0 or 1.
      const auto same = [](const Vec& x, const Vec& y) { return x[0] == y[0] && x[1] == y[1] && x[2] == y[2]; };
      bool shared = false;
      for (const int va : ends_a)
        for (const int vb : ends_b) shared = shared || same(point_a(va), points_b[std::size_t(vb)]);
      if (shared) continue;
      const Vec p = point_a(ends_a[0]);
      const Vec& q = points_b[std::size_t(ends_b[0])];
      const Vec u = sub(point_a(ends_a[1]), p);
      const Vec w = sub(points_b[std::size_t(ends_b[1])], q);
      const Vec r = sub(p, q);
      const FT uu = dot(u, u), uw = dot(u, w), ww = dot(w, w), ur = dot(u, r), wr = dot(w, r);
      const FT den = uu * ww - uw * uw;  // |u x w|^2
      if (sign(den) == 0) continue;      // parallel: not a point contact
      // The lines' closest points p + s u and q + t w.
      const FT s = (uw * wr - ww * ur) / den;
      const FT t = (uu * wr - uw * ur) / den;
      if (sign(s) <= 0 || !(s < FT(1)) || sign(t) <= 0 || !(t < FT(1))) continue;
      const Vec x = add(p, mul(s, u));
      const Vec gap = sub(x, add(q, mul(t, w)));
      if (eps2 < dot(gap, gap) || skip_edges(edge_a, edge_b)) continue;
      out.regions.push_back({edge_a, edge_b, 0, {rounded(x)}, {}});
    }
  }
  return out;
}

}  // namespace contactref::robust_geometry::detail
