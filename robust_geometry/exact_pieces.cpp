#include "robust_geometry/exact_pieces.hpp"

#include <algorithm>
#include <cstddef>

#include "robust_geometry/filtered_sign.hpp"

namespace contactref::robust_geometry::detail {

Vec exact_point(const Eigen::Vector3d& p) { return {FT(p.x()), FT(p.y()), FT(p.z())}; }

Eigen::Vector3d to_double(const Vec& p) {
  return {CGAL::to_double(p[0]), CGAL::to_double(p[1]), CGAL::to_double(p[2])};
}

Vec exact_vertex(const Polyhedron& p, int v) {
  const auto& x = p.exact_vertex(v);
  return {x.x(), x.y(), x.z()};
}

Eigen::Vector3d rounded(const Vec& p) {
  for (const FT& x : p) x.exact();  // tighten the approximations
  return to_double(p);
}

FT max_abs(const Vec& v) {
  FT largest = CGAL::abs(v[0]);
  for (std::size_t k = 1; k < 3; ++k)
    if (CGAL::abs(v[k]) > largest) largest = CGAL::abs(v[k]);
  return largest;
}

Vec scaled_to_unit_box(const Vec& v) {
  const FT largest = max_abs(v);
  Vec out{v[0] / largest, v[1] / largest, v[2] / largest};
  for (const FT& x : out) x.exact();  // tighten the approximations: to_double is then within an ulp
  return out;
}

Eigen::Vector3d unit_vector(const Vec& v) {
  return (to_double(scaled_to_unit_box(v)).normalized().array() + 0.0).matrix();
}

XPlane plane_through(const Vec& normal, const Vec& x) { return {normal, -dot(normal, x)}; }

int side(const XPlane& plane, const Vec& x) { return side_of_plane(plane.n, plane.d, source(x)); }

int dot_sign(const Vec& a, const Vec& b) { return dot_sign_of(source(a), source(b)); }

int projected_dot_sign(const Vec& m, const Vec& n, const Vec& N) {
  return projected_dot_sign_of(source(m), source(n), source(N));
}

bool parallel(const Vec& a, const Vec& b) { return parallel_of(source(a), source(b)); }

int triple_sign(const Vec& a, const Vec& b, const Vec& c) { return triple_sign_of(source(a), source(b), source(c)); }

int crossing_triple_sign(const Vec& n, const Vec& e, const Vec& m, const Vec& u, const Vec& q) {
  return crossing_triple_sign_of(source(n), source(e), source(m), source(u), source(q));
}

Vec crossing(const Vec& p, const Vec& q, const FT& vp, const FT& vq) {
  const FT t = vp / (vp - vq);
  return add(p, mul(t, sub(q, p)));
}

const char* kind_name(Kind kind) { return kind == Kind::vertex ? "vertex" : kind == Kind::edge ? "edge" : "face"; }

std::vector<Atom> atom_corners(const Polyhedron& polyhedron, const std::function<bool(const Tag&)>& keep) {
  const auto kept = [&](Kind kind, int index) { return !keep || keep({kind, index}); };
  std::vector<Atom> out;
  for (int v = 0; v < polyhedron.vertex_count(); ++v)
    if (kept(Kind::vertex, v)) out.push_back({{Kind::vertex, v}, 0, {v, -1, -1}});
  for (int e = 0; e < polyhedron.edge_count(); ++e) {
    if (!kept(Kind::edge, e)) continue;
    const auto& ends = polyhedron.edge(e).vertices;
    out.push_back({{Kind::edge, e}, 1, {ends[0], ends[1], -1}});
  }
  std::vector<std::array<int, 3>> diagonals;  // (face, a, b) with a < b
  for (const Triangle& t : polyhedron.triangles()) {
    if (!kept(Kind::face, t.face)) continue;
    out.push_back({{Kind::face, t.face}, 2, t.vertices});
    const auto& face = polyhedron.face(t.face);
    const auto position = [&](int v) { return std::ptrdiff_t(std::find(face.begin(), face.end(), v) - face.begin()); };
    for (std::size_t i = 0; i < 3; ++i) {
      const int a = t.vertices[i], b = t.vertices[(i + 1) % 3];
      const std::ptrdiff_t gap = std::abs(position(a) - position(b));
      if (gap == 1 || gap == std::ptrdiff_t(face.size()) - 1) continue;  // a polygon side: an edge
      diagonals.push_back({t.face, std::min(a, b), std::max(a, b)});
    }
  }
  std::sort(diagonals.begin(), diagonals.end());
  diagonals.erase(std::unique(diagonals.begin(), diagonals.end()), diagonals.end());
  for (const auto& [f, a, b] : diagonals) out.push_back({{Kind::face, f}, 1, {a, b, -1}});
  return out;
}

std::vector<Piece> atoms(const Polyhedron& polyhedron, const std::vector<Vec>& points,
                         const std::function<bool(const Tag&)>& keep) {
  std::vector<Piece> out;
  for (const Atom& atom : atom_corners(polyhedron, keep)) {
    Piece p{atom.tag, atom.dim, {}};
    for (const int v : atom.corners()) p.points.push_back(points[std::size_t(v)]);
    out.push_back(std::move(p));
  }
  return out;
}

namespace {

FT squared_distance(const Vec& a, const Vec& b) {
  const Vec d = sub(a, b);
  return dot(d, d);
}

}  // namespace

Piece normalised(Piece piece) {
  auto& pts = piece.points;
  auto& orig = piece.originals;
  const bool tracked = !orig.empty();
  std::vector<Vec> distinct, distinct_orig;
  for (std::size_t k = 0; k < pts.size(); ++k)
    if (std::none_of(distinct.begin(), distinct.end(), [&](const Vec& q) { return is_zero(sub(pts[k], q)); })) {
      distinct.push_back(pts[k]);
      if (tracked) distinct_orig.push_back(orig[k]);
    }
  const bool flat = piece.dim == 2 && [&] {
    for (std::size_t i = 2; i < distinct.size(); ++i)
      if (!is_zero(cross(sub(distinct[1], distinct[0]), sub(distinct[i], distinct[0])))) return false;
    return true;
  }();
  if (distinct.size() == 1) {
    piece.dim = 0;
    pts = std::move(distinct);
    orig = std::move(distinct_orig);
  } else if ((piece.dim == 1 && distinct.size() > 2) || flat) {
    std::size_t best_i = 0, best_j = 1;
    FT best = squared_distance(distinct[0], distinct[1]);
    for (std::size_t i = 0; i < distinct.size(); ++i)
      for (std::size_t j = i + 1; j < distinct.size(); ++j)
        if (const FT d = squared_distance(distinct[i], distinct[j]); d > best) {
          best = d;
          best_i = i;
          best_j = j;
        }
    piece.dim = 1;
    pts = {distinct[best_i], distinct[best_j]};
    if (tracked) orig = {distinct_orig[best_i], distinct_orig[best_j]};
  } else {
    pts = std::move(distinct);
    orig = std::move(distinct_orig);
  }
  return piece;
}

void split_piece(const Piece& piece, const XPlane& plane, const std::vector<int>& signs,
                 const std::vector<Vec>& on_points, std::vector<Piece>& above, std::vector<Piece>& on,
                 std::vector<Piece>& below) {
  const std::size_t n = piece.points.size();
  const bool tracked = !piece.originals.empty();
  const bool positive = std::any_of(signs.begin(), signs.end(), [](int s) { return s > 0; });
  const bool negative = std::any_of(signs.begin(), signs.end(), [](int s) { return s < 0; });
  if (!positive && !negative) {
    on.push_back({piece.tag, piece.dim, on_points, piece.originals});
    return;
  }
  if (!negative) {
    above.push_back(piece);
    return;
  }
  if (!positive) {
    below.push_back(piece);
    return;
  }
  // Corners strictly on both sides: the values (lazy exact) for the crossings.
  std::vector<FT> values;
  values.reserve(n);
  for (const Vec& p : piece.points) values.push_back(value(plane, p));
  // The crossing of side i -> j and, tracked, its original (the same
  // combination of the corners' originals).
  const auto cross_at = [&](std::size_t i, std::size_t j, Vec& x, Vec& x0) {
    const FT t = values[i] / (values[i] - values[j]);
    x = add(piece.points[i], mul(t, sub(piece.points[j], piece.points[i])));
    if (tracked) x0 = add(piece.originals[i], mul(t, sub(piece.originals[j], piece.originals[i])));
  };
  // The originals of a part, when tracked.
  const auto originals = [&](std::vector<Vec> list) { return tracked ? std::move(list) : std::vector<Vec>{}; };
  if (piece.dim == 1) {
    Vec x, x0;
    cross_at(0, 1, x, x0);
    const std::size_t up = signs[0] > 0 ? 0 : 1;
    const Vec& up0 = tracked ? piece.originals[up] : x0;
    const Vec& down0 = tracked ? piece.originals[1 - up] : x0;
    above.push_back({piece.tag, 1, {piece.points[up], x}, originals({up0, x0})});
    below.push_back({piece.tag, 1, {x, piece.points[1 - up]}, originals({x0, down0})});
    on.push_back({piece.tag, 0, {x}, originals({x0})});
    return;
  }
  // A convex polygon (Sutherland-Hodgman); its on-part is a segment.
  std::vector<Vec> a, b, o, a0, b0, o0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    if (signs[i] >= 0) a.push_back(piece.points[i]);
    if (signs[i] <= 0) b.push_back(piece.points[i]);
    if (signs[i] == 0) o.push_back(on_points[i]);
    if (tracked) {
      if (signs[i] >= 0) a0.push_back(piece.originals[i]);
      if (signs[i] <= 0) b0.push_back(piece.originals[i]);
      if (signs[i] == 0) o0.push_back(piece.originals[i]);
    }
    if (signs[i] * signs[j] < 0) {
      Vec x, x0;
      cross_at(i, j, x, x0);
      a.push_back(x);
      b.push_back(x);
      o.push_back(x);
      if (tracked) {
        a0.push_back(x0);
        b0.push_back(x0);
        o0.push_back(x0);
      }
    }
  }
  above.push_back({piece.tag, 2, std::move(a), std::move(a0)});
  below.push_back({piece.tag, 2, std::move(b), std::move(b0)});
  on.push_back({piece.tag, 1, std::move(o), std::move(o0)});
}

}  // namespace contactref::robust_geometry::detail
