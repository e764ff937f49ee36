#include "robust_geometry/local_cones.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

namespace contactref::robust_geometry::detail {

namespace {

void add_unique(std::vector<Vec>& out, const Vec& v) {
  if (std::none_of(out.begin(), out.end(), [&](const Vec& w) { return same(w, v); })) out.push_back(v);
}

int orient(const Vec& a, const Vec& b, const Vec& c) { return sign(dot(a, cross(b, c))); }

// A nonzero vector perpendicular to m (not zero): m x e_k for the axis e_k
// along m's smallest component.
Vec perpendicular(const Vec& m) {
  std::size_t k = 0;
  for (std::size_t j = 1; j < 3; ++j)
    if (CGAL::abs(m[j]) < CGAL::abs(m[k])) k = j;
  Vec axis{FT(0), FT(0), FT(0)};
  axis[k] = FT(1);
  return cross(m, axis);
}

}  // namespace

std::vector<Vec> cone_rays(const std::vector<Vec>& rows_in) {
  std::vector<Vec> rows;  // distinct directions
  for (const Vec& r : rows_in)
    if (!is_zero(r)) add_unique(rows, scaled_to_unit_box(r));
  const auto inside = [&](const Vec& c) {
    return std::all_of(rows.begin(), rows.end(), [&](const Vec& m) { return dot_sign(m, c) <= 0; });
  };
  std::vector<Vec> out;
  const auto offer = [&](const Vec& c) {
    if (is_zero(c)) return;
    for (const Vec& x : {c, neg(c)})
      if (inside(x)) add_unique(out, scaled_to_unit_box(x));
  };
  // The rank of the rows: two independent ones (i, j), and a third (k).
  std::optional<Vec> line;  // rows[i] x rows[j] for the first independent pair
  bool rank3 = false;
  for (std::size_t i = 0; i < rows.size() && !rank3; ++i)
    for (std::size_t j = i + 1; j < rows.size() && !rank3; ++j) {
      const Vec c = cross(rows[i], rows[j]);
      if (is_zero(c)) continue;
      if (!line) line = c;
      rank3 = std::any_of(rows.begin(), rows.end(), [&](const Vec& m) { return dot_sign(m, *line) != 0; });
    }
  if (rows.empty()) {
    for (std::size_t k = 0; k < 3; ++k) {
      Vec axis{FT(0), FT(0), FT(0)};
      axis[k] = FT(1);
      offer(axis);
    }
  } else if (!line) {  // rank 1: a halfspace or a plane
    const Vec u = perpendicular(rows.front());
    offer(u);
    offer(cross(rows.front(), u));
    offer(rows.front());
  } else if (!rank3) {  // rank 2: the line, and the sides of a sector across it
    offer(*line);
    for (const Vec& m : rows) offer(cross(m, *line));
  } else {  // rank 3: a pointed cone, its extreme rays where two planes meet
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t j = i + 1; j < rows.size(); ++j) offer(cross(rows[i], rows[j]));
  }
  return out;
}

ConvexCone halfspaces(std::vector<Vec> facets) {
  std::vector<Vec> rays = cone_rays(facets);
  return {std::move(facets), std::move(rays)};
}

bool in_polar(const Vec& n, const ConvexCone& cone) {
  return std::all_of(cone.rays.begin(), cone.rays.end(), [&](const Vec& r) { return dot_sign(n, r) <= 0; });
}

bool zero_in_hull(const std::vector<Vec>& rows) {
  const std::size_t n = rows.size();
  for (const Vec& r : rows)
    if (is_zero(r)) return true;
  // Two: opposite directions.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (is_zero(cross(rows[i], rows[j])) && sign(dot(rows[i], rows[j])) < 0) return true;
  // Three coplanar with 0, 0 inside their triangle (not collinear).
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        const Vec &a = rows[i], &b = rows[j], &c = rows[k];
        if (orient(a, b, c) != 0) continue;
        const Vec normal = cross(sub(b, a), sub(c, a));
        if (is_zero(normal)) continue;  // collinear: covered by the pairs
        const int s1 = sign(dot(normal, cross(a, b))), s2 = sign(dot(normal, cross(b, c))),
                  s3 = sign(dot(normal, cross(c, a)));
        if ((s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)) return true;
      }
  // Four: 0 in the closed tetrahedron.
  const Vec zero{FT(0), FT(0), FT(0)};
  const auto orient4 = [](const Vec& p, const Vec& q, const Vec& r, const Vec& s) {
    return sign(dot(cross(sub(q, p), sub(r, p)), sub(s, p)));
  };
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k)
        for (std::size_t l = k + 1; l < n; ++l) {
          const std::array<const Vec*, 4> t{&rows[i], &rows[j], &rows[k], &rows[l]};
          const int volume = orient4(*t[0], *t[1], *t[2], *t[3]);
          if (volume == 0) continue;  // flat: covered by the triples
          bool inside = true;
          for (std::size_t f = 0; f < 4 && inside; ++f) {
            std::array<const Vec*, 4> u = t;
            u[f] = &zero;
            inside = orient4(*u[0], *u[1], *u[2], *u[3]) * volume >= 0;
          }
          if (inside) return true;
        }
  return false;
}

// ------------------------------------------------------------ LocalGeometry

LocalGeometry::LocalGeometry(const Polyhedron& p, const RigidPose<double>& pose)
    : p_(p),
      pose_(pose.matrix()),
      normals_(std::size_t(p.face_count())),
      points_(std::size_t(p.vertex_count())),
      convexity_(std::size_t(p.edge_count())) {}

const Vec& LocalGeometry::normal(int f) const {
  auto& n = normals_[std::size_t(f)];
  if (!n) {
    const auto& plane = p_.exact_plane(f);
    n = rotate({plane.a(), plane.b(), plane.c()});
  }
  return *n;
}

const Vec& LocalGeometry::point(int v) const {
  auto& x = points_[std::size_t(v)];
  if (!x) {
    Vec moved = rotate(exact_vertex(p_, v));
    for (std::size_t r = 0; r < 3; ++r) moved[r] += FT(pose_(int(r), 3));
    x = moved;
  }
  return *x;
}

int LocalGeometry::convexity(int e) const {
  auto& c = convexity_[std::size_t(e)];
  if (!c) {
    const Edge& edge = p_.edge(e);
    const Vec w2 = cross(normal(edge.faces[1]), sub(point(edge.vertices[0]), point(edge.vertices[1])));
    c = sign(dot(normal(edge.faces[0]), w2));
  }
  return *c;
}

bool LocalGeometry::convex_vertex(int v) const {
  const auto& edges = p_.vertex_edges(v);
  return std::all_of(edges.begin(), edges.end(), [&](int e) { return convexity(e) <= 0; });
}

bool LocalGeometry::convex(const Entity& x) const {
  switch (x.kind) {
    case EntityKind::face: return true;
    case EntityKind::edge: return convexity(x.index) <= 0;
    case EntityKind::vertex: return convex_vertex(x.index);
  }
  return false;
}

std::vector<ConvexCone> LocalGeometry::convex_pieces(const Entity& x) const {
  switch (x.kind) {
    case EntityKind::face: return {halfspaces({normal(x.index)})};
    case EntityKind::edge: {
      const auto& faces = p_.edge(x.index).faces;
      const Vec& n1 = normal(faces[0]);
      const Vec& n2 = normal(faces[1]);
      const int c = convexity(x.index);
      if (c < 0) return {halfspaces({n1, n2})};
      if (c > 0) return {halfspaces({n1}), halfspaces({n2})};
      return {halfspaces({n1})};
    }
    case EntityKind::vertex:
      if (convex_vertex(x.index)) return {halfspaces(face_normals(x))};
      if (const auto known = vertex_pieces_.find(x.index); known != vertex_pieces_.end()) return known->second;
      return vertex_pieces_[x.index] = arrangement_pieces(x.index);
  }
  return {};
}

std::vector<ConvexCone> LocalGeometry::arrangement_pieces(int v) const {
  std::vector<Vec> planes;  // the faces' support planes through v, each once
  for (const int f : p_.vertex_faces(v)) {
    const Vec n = scaled_to_unit_box(normal(f));
    if (std::none_of(planes.begin(), planes.end(), [&](const Vec& m) { return is_zero(cross(m, n)); }))
      planes.push_back(n);
  }
  // Cells as sign vectors over the planes, refined one plane at a time; a
  // cell's closure is {d : -s_j m_j . d <= 0}.
  struct Cell {
    std::vector<Vec> facets;
    std::vector<Vec> rays;
    Vec interior;
  };
  const auto realise = [](std::vector<Vec> facets) -> std::optional<Cell> {
    std::vector<Vec> rays = cone_rays(facets);
    Vec sum{FT(0), FT(0), FT(0)};
    for (const Vec& r : rays) sum = add(sum, r);
    for (const Vec& m : facets)
      if (dot_sign(m, sum) >= 0) return std::nullopt;
    return Cell{std::move(facets), std::move(rays), sum};
  };
  std::vector<Cell> cells{Cell{}};
  for (const Vec& m : planes) {
    std::vector<Cell> refined;
    for (const Cell& cell : cells)
      for (const Vec& facet : {m, neg(m)}) {
        std::vector<Vec> facets = cell.facets;
        facets.push_back(facet);
        if (auto c = realise(std::move(facets))) refined.push_back(std::move(*c));
      }
    cells = std::move(refined);
  }
  std::vector<ConvexCone> out;
  for (Cell& cell : cells)
    if (inside_at_vertex(v, cell.interior)) out.push_back({std::move(cell.facets), std::move(cell.rays)});
  return out;
}

std::array<Vec, 2> LocalGeometry::sector_sides(int f, int v) const {
  const auto& corners = p_.face(f);
  const std::size_t n = corners.size();
  const std::size_t k = std::size_t(std::find(corners.begin(), corners.end(), v) - corners.begin());
  const Vec& here = point(v);
  return {sub(point(corners[(k + n - 1) % n]), here), sub(point(corners[(k + 1) % n]), here)};
}

// With a = next - v (the outgoing side) and b = v - previous (the incoming
// one), faces counter-clockwise about their outward normal n: the polygon is
// to the left of both sides near v, i.e. y is inside iff (a x y) . n > 0 and
// (b x y) . n > 0 at a convex corner ((b x a) . n > 0), either of the two at a
// reflex one, and the first at a straight one.
int LocalGeometry::sector_side(int f, int v, const Vec& y) const {
  if (is_zero(y)) return 0;
  const auto [to_previous, a] = sector_sides(f, v);
  const Vec b = neg(to_previous);
  const Vec& n = normal(f);
  const int left_a = dot_sign(cross(a, y), n), left_b = dot_sign(cross(b, y), n);
  const int corner = dot_sign(cross(b, a), n);
  if (left_a == 0 || (corner != 0 && left_b == 0)) return 0;
  if (corner > 0) return left_a > 0 && left_b > 0 ? 1 : -1;
  if (corner < 0) return left_a > 0 || left_b > 0 ? 1 : -1;
  return left_a;
}

Vec LocalGeometry::sector_point(int f, int v, int t) const {
  const auto [to_previous, a] = sector_sides(f, v);
  const int corner = dot_sign(cross(a, to_previous), normal(f));  // (b x a) . n with b = -to_previous
  if (corner > 0) return add(a, mul(FT(t), to_previous));        // between the two sides
  if (corner < 0) return neg(add(a, mul(FT(t), to_previous)));   // opposite the exterior wedge
  return add(cross(normal(f), a), mul(FT(t - 1), a));             // left of a straight corner
}

bool LocalGeometry::inside_at_vertex(int v, const Vec& d) const {
  const auto& faces = p_.vertex_faces(v);
  for (const int f : faces)
    for (int t = 1; t <= 8; ++t) {
      const Vec x = sector_point(f, v, t);
      const Vec& nf = normal(f);
      int crossings = 0;
      bool degenerate = false;
      for (const int g : faces) {
        if (g == f || is_zero(cross(normal(g), nf))) continue;  // the segment meets f's plane only at x
        const FT gd = dot(normal(g), d), gx = dot(normal(g), x);
        const int sd = sign(gd), sx = sign(gx);
        if (sx == 0 || sd == 0) {
          degenerate = true;
          break;
        }
        if (sd == sx) continue;
        const int state = sector_side(g, v, crossing(d, x, gd, gx));
        if (state == 0) {
          degenerate = true;
          break;
        }
        if (state > 0) ++crossings;
      }
      if (!degenerate) return (dot_sign(nf, d) < 0) != (crossings % 2 == 1);
    }
  throw ComputationError("cannot classify a cell of the tangent cone at vertex " + std::to_string(v) + " of " +
                                 p_.name() + ": every test segment is degenerate");
}

std::vector<Vec> LocalGeometry::face_normals(const Entity& x) const {
  std::vector<Vec> out;
  switch (x.kind) {
    case EntityKind::face: out.push_back(normal(x.index)); break;
    case EntityKind::edge:
      for (const int f : p_.edge(x.index).faces) out.push_back(normal(f));
      break;
    case EntityKind::vertex:
      for (const int f : p_.vertex_faces(x.index)) out.push_back(normal(f));
      break;
  }
  return out;
}

Vec LocalGeometry::edge_direction(int e) const {
  const auto& ends = p_.edge(e).vertices;
  return sub(point(ends[1]), point(ends[0]));
}

bool LocalGeometry::in_boundary(const Entity& x, const Entity& y) const {
  if (int(x.kind) >= int(y.kind)) return false;
  if (y.kind == EntityKind::edge) {
    const auto& ends = p_.edge(y.index).vertices;
    return ends[0] == x.index || ends[1] == x.index;
  }
  const auto& ids = x.kind == EntityKind::vertex ? p_.face(y.index) : p_.face_edges(y.index);
  return std::find(ids.begin(), ids.end(), x.index) != ids.end();
}

Vec LocalGeometry::rotate(const Vec& x) const {
  Vec out;
  for (int r = 0; r < 3; ++r)
    out[std::size_t(r)] = FT(pose_(r, 0)) * x[0] + FT(pose_(r, 1)) * x[1] + FT(pose_(r, 2)) * x[2];
  return out;
}

}  // namespace contactref::robust_geometry::detail
