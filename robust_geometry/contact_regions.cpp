#include "robust_geometry/contact_regions.hpp"

// Intersect (Bouma & Vanecek, Section 4.3) over the Brep-index of A, with the
// tolerance policy of contact_regions.hpp; MergeRegions as the union of the
// pieces that reach the same pair of entities, split into connected
// components (Lemma 1).
//
// Cells and distances. A node's cell lies in all its "on" ancestors' planes:
// its direction space is R^3 (3-cell), the plane with normal h (2-cell) or
// the line with direction l (1-cell). Within it, the distance from x to a cut
// plane n . x + d = 0 is |n . x + d| / |m| with m the orthogonal projection of
// n onto the direction space (m = n, n - (n.h / h.h) h, (n.l / l.l) l), and
// x - ((n . x + d) / (m . m)) m is the point of the cut nearest to x within
// the cell. Both are exact rational constructions; a point of a piece in a
// cell lies exactly in the cell's affine hull (it was projected when it went
// "on"), so the projections keep it there.
//
// Merging. The pieces that reach leaves of entity y of A and carry entity x of
// B make up x ∩ y; their highest dimension is the region's (x ∩ y is open in
// its affine hull, so lower-dimensional pieces of the same pair lie in the
// closure of the higher ones):
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
#include <CGAL/Interval_nt.h>
#include <CGAL/box_intersection_d.h>
#include <CGAL/squared_distance_3.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "robust_geometry/exact_pieces.hpp"
#include "robust_geometry/rigid_pose.hpp"

namespace contactref::robust_geometry {

using namespace detail;

std::string to_string(const Entity& entity) {
  return std::string(kind_name(Kind(int(entity.kind)))) + " " + std::to_string(entity.index);
}

int dimension(EntityKind kind) { return int(kind); }

namespace {

Entity entity_of(const Tag& tag) { return {EntityKind(int(tag.kind)), tag.index}; }

Entity entity_of(const Location& location) {
  switch (location.region) {
    case Region::vertex: return {EntityKind::vertex, location.entity};
    case Region::edge: return {EntityKind::edge, location.entity};
    default: return {EntityKind::face, location.entity};
  }
}

// Points in exact lexicographic order (for maps and for a canonical start).
struct PointLess {
  bool operator()(const Vec& a, const Vec& b) const { return lexicographic_less(a, b); }
};

Eigen::Vector3d rounded(const Vec& p) {
  for (const FT& x : p) x.exact();  // tighten the approximations: within an ulp
  return to_double(p);
}

// ------------------------------------------------------------ Intersect

struct Subspace {
  int dim = 3;
  Vec normal;  // dim 2
  Vec line;    // dim 1
};

Vec project(const Vec& n, const Subspace& s) {
  switch (s.dim) {
    case 3: return n;
    case 2: return sub(n, mul(dot(n, s.normal) / dot(s.normal, s.normal), s.normal));
    default: return mul(dot(n, s.line) / dot(s.line, s.line), s.line);
  }
}

Subspace on_subspace(const Subspace& s, const Vec& n) {
  Subspace out = s;
  out.dim = s.dim - 1;
  if (s.dim == 3) out.normal = n;
  if (s.dim == 2) out.line = cross(s.normal, n);
  return out;
}

struct LeafPiece {
  Entity entity_a;
  Piece piece;
};

class Classifier {
 public:
  Classifier(const BrepIndex& index, double tolerance)
      : index_(index), tolerance_(tolerance), planes_(exact_cut_planes(index)) {
    const FT eps(tolerance);
    eps2_ = eps * eps;
  }

  // Pieces of B's edges and faces (vertices: see contact_points below); with
  // a tolerance, their originals are tracked (set here).
  void run(std::vector<Piece> pieces) {
    struct Work {
      int node;
      Subspace cell;
      std::vector<Piece> pieces;
    };
    if (tolerance_ > 0)
      for (Piece& p : pieces) p.originals = p.points;
    std::vector<Work> stack;
    stack.push_back({0, Subspace{}, std::move(pieces)});
    while (!stack.empty()) {
      Work work = std::move(stack.back());
      stack.pop_back();
      const BrepIndexNode& node = index_.node(work.node);
      if (node.is_leaf()) {
        reach_leaf(node.location, work.pieces);
        continue;
      }
      const XPlane& plane = planes_[std::size_t(node.cut)];
      // Only the support plane of a face of A is a surface: there a point
      // within the tolerance snaps; any other cut decides by the exact sign.
      const bool snaps = tolerance_ > 0 && index_.cuts()[std::size_t(node.cut)].kind == CutKind::support;
      const Vec m = project(plane.n, work.cell);
      const FT mm = dot(m, m);
      std::array<std::vector<Piece>, 3> parts;
      for (const Piece& piece : work.pieces) {
        std::vector<int> signs;
        std::vector<Vec> on_points;
        signs.reserve(piece.points.size());
        on_points.reserve(piece.points.size());
        for (std::size_t k = 0; k < piece.points.size(); ++k) {
          on_points.push_back(piece.points[k]);
          signs.push_back(snaps ? side_within_tolerance(plane, m, mm, piece.originals[k], on_points.back())
                                : side(plane, piece.points[k]));
        }
        plane_tests += long(piece.points.size());
        const std::size_t first_on = parts[1].size();
        split_piece(piece, plane, signs, on_points, parts[0], parts[1], parts[2]);
        if (snaps)
          for (std::size_t k = first_on; k < parts[1].size(); ++k) parts[1][k] = normalised(std::move(parts[1][k]));
      }
      for (std::size_t k = 0; k < 3; ++k)
        if (!parts[k].empty())
          stack.push_back({node.children[k], k == 1 ? on_subspace(work.cell, plane.n) : work.cell, std::move(parts[k])});
    }
  }

  // The exact location of a point (no tolerance).
  Location locate(const Vec& x) const {
    int i = 0;
    while (!index_.node(i).is_leaf()) {
      const BrepIndexNode& node = index_.node(i);
      const int s = side(planes_[std::size_t(node.cut)], x);
      i = node.children[s > 0 ? 0 : s == 0 ? 1 : 2];
    }
    return index_.node(i).location;
  }

  // The entities of A (faces, edges, vertices) with a leaf whose cell may
  // meet the box: a superset of those with a point in the box (a cut the box
  // lies strictly on one side of, by interval arithmetic on the exact
  // plane's approximation, sends it to that side only).
  std::vector<Entity> entities_near(const CGAL::Box_intersection_d::Box_with_info_d<double, 3, int>& box) const {
    using I = CGAL::Interval_nt<false>;
    std::set<Entity> found;
    std::vector<int> stack{0};
    while (!stack.empty()) {
      const BrepIndexNode& node = index_.node(stack.back());
      stack.pop_back();
      if (node.is_leaf()) {
        const Region r = node.location.region;
        if (r == Region::face || r == Region::edge || r == Region::vertex) found.insert(entity_of(node.location));
        continue;
      }
      const XPlane& plane = planes_[std::size_t(node.cut)];
      int side_of_box = 0;
      {
        CGAL::Protect_FPU_rounding<true> protect;
        I v = plane.d.approx();
        for (int k = 0; k < 3; ++k) v += plane.n[std::size_t(k)].approx() * I(box.min_coord(k), box.max_coord(k));
        side_of_box = v.inf() > 0 ? 1 : v.sup() < 0 ? -1 : 0;
      }
      if (side_of_box >= 0) stack.push_back(node.children[0]);
      if (side_of_box == 0) stack.push_back(node.children[1]);
      if (side_of_box <= 0) stack.push_back(node.children[2]);
    }
    return {found.begin(), found.end()};
  }

  std::vector<LeafPiece> leaves;
  std::set<Entity> penetrating;
  long plane_tests = 0;

 private:
  // The side of x (the current point, whose original is x0) under the
  // tolerance; x becomes its projection p onto the plane within the cell
  // where the side is 0 and x is not exactly on it. x is the orthogonal
  // projection of x0 onto the cell's affine hull (an invariant: every snap
  // projects orthogonally within the cell, crossings combine corners
  // affinely), so x0 - x is orthogonal to the cell and x - p lies in it:
  // |x0 - p|^2 = |x0 - x|^2 + v^2 / mm, the distance from the original to
  // the innermost subspace, whatever the number of snaps before (no
  // composition). The side is 0 iff that is <= eps^2, exactly.
  int side_within_tolerance(const XPlane& plane, const Vec& m, const FT& mm, const Vec& x0, Vec& x) const {
    const int s = side(plane, x);
    if (s == 0) return s;
    const FT v = value(plane, x);
    const FT bound = eps2_ * mm;
    const FT v2 = v * v;
    if (CGAL::compare(v2, bound) == CGAL::LARGER) return s;  // the cheap necessary condition
    const Vec moved = sub(x0, x);
    if (CGAL::compare(v2 + dot(moved, moved) * mm, bound) == CGAL::LARGER) return s;
    x = sub(x, mul(v / mm, m));
    return 0;
  }

  void reach_leaf(const Location& location, std::vector<Piece>& pieces) {
    if (location.region == Region::outside) return;
    if (location.region == Region::inside) {
      for (const Piece& p : pieces) penetrating.insert(entity_of(p.tag));
      return;
    }
    const Entity y = entity_of(location);
    for (Piece& p : pieces) leaves.push_back({y, std::move(p)});
  }

  const BrepIndex& index_;
  double tolerance_;
  FT eps2_;
  const std::vector<XPlane>& planes_;
};

// ------------------------------------------------------------ MergeRegions

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
      if (lo == hi) throw GeometryComputationError("MergeRegions: an open boundary chain in region " + to_string(a) + " / " + to_string(b));
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
      throw GeometryComputationError("MergeRegions: a hole outside every boundary in region " + to_string(a) + " / " +
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

// ------------------------------------------------------------ contact points

// The regions of dimension 0 whose pair has a vertex (of A or of B) or two
// edges, decided by exact distances between the closures of the entities
// (contact_regions.hpp), without the Brep-index: their answer then cannot
// depend on the tree.

using Box = CGAL::Box_intersection_d::Box_with_info_d<double, 3, int>;

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

struct ContactPoints {
  std::vector<ContactRegion> regions;
  std::vector<Entity> penetrating;  // vertices of B inside A beyond the tolerance
};

// The 0D regions with a vertex or two edges (see contact_regions.hpp):
//   a vertex v of B touches the entity of A that touched_entity picks
//   (region at the nearest point of that entity); a vertex w of A likewise
//   touches an entity of B (region at w); two edges that are not parallel
//   touch where their lines' closest points lie inside both edges and are
//   within the tolerance (region at the point on A's edge). A vertex of B
//   that touches nothing is penetrating if it lies inside A (exactly).
// `skip_edges(e_a, e_b)` leaves out edge pairs that Intersect gives a 1D
// region.
template <class Skip>
ContactPoints contact_points(const Polyhedron& a, const Polyhedron& b, const std::vector<Vec>& points_b,
                             const std::vector<bool>& placed, const std::function<bool(const Tag&)>& keep, double tolerance, const Classifier& classifier,
                             const Skip& skip_edges) {
  const FT eps(tolerance);
  const FT eps2 = eps * eps;
  const auto point_a = [&](int v) {
    const auto& x = a.exact_vertex(v);
    return Vec{x.x(), x.y(), x.z()};
  };
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

// ------------------------------------------------------------ nesting

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
  throw GeometryComputationError("nesting test: no generic ray found");
}

// Whether a point of A lies inside B farther than the tolerance from B's
// surface, given that no piece of B reaches A's interior beyond it (issue 10,
// item 1: nested solids, apart or touching). A's interior is connected and
// (beyond the tolerance) does not meet B's surface, so it lies inside B or
// outside it, and one point of A farther than the tolerance from B's surface
// decides which, touching anywhere else or not. The candidates, in order: A's
// vertices, then the centroids of A's triangles (an A whose every candidate
// is within the tolerance of B's surface throws GeometryComputationError).
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
  const auto exact_vertex = [&](int v) {
    const auto& x = a.exact_vertex(v);
    return Vec{x.x(), x.y(), x.z()};
  };
  for (int v = 0; v < a.vertex_count(); ++v)  // the cheap test first, on every vertex
    if (outside_box(exact_vertex(v))) return false;
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
    if (const auto nested = decides(exact_vertex(v))) return *nested;
  for (const Triangle& t : a.triangles()) {
    const Vec sum = add(add(exact_vertex(t.vertices[0]), exact_vertex(t.vertices[1])), exact_vertex(t.vertices[2]));
    if (const auto nested = decides(mul(FT(1) / FT(3), sum))) return *nested;
  }
  throw GeometryComputationError("nesting test: every vertex and triangle centroid of " + a.name() +
                                 " lies within the touch tolerance of the other solid's surface");
}

}  // namespace

void check_touch_tolerance(double touch_tolerance, const Polyhedron& a, const Polyhedron& b, const std::string& name) {
  if (!(touch_tolerance >= 0) || !std::isfinite(touch_tolerance))
    throw GeometryInputError(name + " must be finite and >= 0 (it is " + std::to_string(touch_tolerance) + ")");
  if (touch_tolerance == 0) return;  // exact: every edge is longer than 0
  const Polyhedron* shortest_in = &a;
  Vec shortest;  // the shortest edge, exactly
  FT shortest2 = -1;
  for (const Polyhedron* p : {&a, &b})
    for (const Edge& e : p->edges()) {
      const auto& x = p->exact_vertex(e.vertices[0]);
      const auto& y = p->exact_vertex(e.vertices[1]);
      const Vec d{x.x() - y.x(), x.y() - y.y(), x.z() - y.z()};
      if (const FT d2 = dot(d, d); sign(shortest2) < 0 || d2 < shortest2) {
        shortest = d;
        shortest2 = d2;
        shortest_in = p;
      }
    }
  const FT eps(touch_tolerance);
  if (FT(4) * eps * eps < shortest2) return;
  // |d| = max|d_k| |d / max|d_k||, each factor within double's range.
  const double half_length = CGAL::to_double(max_abs(shortest)) * to_double(scaled_to_unit_box(shortest)).norm() / 2;
  const auto shortest_text = [](double x) {  // the shortest decimal that reads back as x
    std::array<char, 32> text{};
    return std::string(text.data(), std::to_chars(text.data(), text.data() + text.size(), x).ptr);
  };
  throw GeometryInputError(name + " " + shortest_text(touch_tolerance) +
                           " is not below half the shortest edge of the solids (" +
                           shortest_text(half_length) + ", in " + shortest_in->name() +
                           "): which entity a point touches is then undefined");
}

IntersectionSet intersect(const Polyhedron& a, const BrepIndex& index_a, const Polyhedron& b,
                          const Eigen::Matrix4d& pose_b, const IntersectOptions& options, const EntityMask& mask_b) {
  validate_rigid_pose(pose_b, "pose_b");
  check_touch_tolerance(options.touch_tolerance, a, b, "touch_tolerance");
  const auto check_mask = [](const std::vector<bool>& mask, int count, const char* what) {
    if (!mask.empty() && int(mask.size()) != count)
      throw GeometryInputError(std::string("mask of B's ") + what + " has " + std::to_string(mask.size()) +
                               " entries; B has " + std::to_string(count));
  };
  check_mask(mask_b.vertices, b.vertex_count(), "vertices");
  check_mask(mask_b.edges, b.edge_count(), "edges");
  check_mask(mask_b.faces, b.face_count(), "faces");

  // B's vertices in A's frame, exactly: R x + t from the double entries;
  // only those of the entities kept (the nesting test below may ask for
  // the others).
  const auto keep = [&](const Tag& tag) {
    const auto& mask = tag.kind == Kind::vertex ? mask_b.vertices : tag.kind == Kind::edge ? mask_b.edges : mask_b.faces;
    return mask.empty() || mask[std::size_t(tag.index)];
  };
  std::vector<Vec> points_b(std::size_t(b.vertex_count()));
  std::vector<bool> placed(std::size_t(b.vertex_count()), false);
  const auto place = [&](int v) {
    if (placed[std::size_t(v)]) return;
    const Eigen::Vector3d& x = b.vertex(v);
    for (int r = 0; r < 3; ++r)
      points_b[std::size_t(v)][std::size_t(r)] = FT(pose_b(r, 0)) * FT(x.x()) + FT(pose_b(r, 1)) * FT(x.y()) +
                                                 FT(pose_b(r, 2)) * FT(x.z()) + FT(pose_b(r, 3));
    placed[std::size_t(v)] = true;
  };
  for (int v = 0; v < b.vertex_count(); ++v)
    if (keep({Kind::vertex, v})) place(v);
  for (int e = 0; e < b.edge_count(); ++e)
    if (keep({Kind::edge, e}))
      for (const int v : b.edge(e).vertices) place(v);
  for (int f = 0; f < b.face_count(); ++f)
    if (keep({Kind::face, f}))
      for (const int v : b.face(f)) place(v);
  // B's edges and faces go through A's Brep-index; B's vertices do not (see
  // contact_points).
  std::vector<Piece> pieces = atoms(b, points_b, [&](const Tag& tag) { return tag.kind != Kind::vertex && keep(tag); });

  IntersectionSet out;
  out.pieces = long(pieces.size());
  Classifier classifier(index_a, options.touch_tolerance);
  classifier.run(std::move(pieces));
  out.plane_tests = classifier.plane_tests;

  // The pieces at A's vertices, and edge-edge pairs met only in points, are
  // left to contact_points.
  // Under a tolerance, a piece that reaches an edge leaf is clipped to the
  // closed edge: a snapped piece is the projection of its original onto the
  // cell's line, and where the cell is bounded by a cut that is not a surface
  // (balancing, auxiliary) or by another face's plane, that projection can
  // reach past the edge's end vertex by up to eps; the part beyond, and a
  // piece left with no length, are not on the edge (what touches the vertex
  // is contact_points' to find).
  if (options.touch_tolerance > 0)
    for (LeafPiece& leaf : classifier.leaves) {
      if (leaf.entity_a.kind != EntityKind::edge) continue;
      const auto& ends = a.edge(leaf.entity_a.index).vertices;
      const auto& e0 = a.exact_vertex(ends[0]);
      const auto& e1 = a.exact_vertex(ends[1]);
      const Vec p{e0.x(), e0.y(), e0.z()}, q{e1.x(), e1.y(), e1.z()};
      const Vec u = sub(q, p);
      const FT uu = dot(u, u);
      std::vector<Vec> kept;
      std::vector<FT> ts;
      for (const Vec& x : leaf.piece.points) ts.push_back(dot(sub(x, p), u) / uu);
      if (leaf.piece.dim == 0) {
        if (!(sign(ts[0]) > 0 && ts[0] < FT(1))) leaf.piece.points.clear();
        continue;
      }
      FT lo = ts[0], hi = ts[1];
      Vec plo = leaf.piece.points[0], phi = leaf.piece.points[1];
      if (hi < lo) {
        std::swap(lo, hi);
        std::swap(plo, phi);
      }
      if (sign(lo) < 0) {
        lo = FT(0);
        plo = p;
      }
      if (FT(1) < hi) {
        hi = FT(1);
        phi = q;
      }
      if (!(lo < hi))
        leaf.piece.points.clear();
      else
        leaf.piece.points = {plo, phi};
    }
  // Likewise a piece at a face leaf is clipped to the closed face (to each of
  // its triangles, exactly: the parts within a triangle's three inward
  // half-planes, or all of a piece lying on a triangle's side line).
  if (options.touch_tolerance > 0) {
    std::map<int, std::vector<std::array<int, 3>>> face_triangles;
    for (const LeafPiece& leaf : classifier.leaves)
      if (leaf.entity_a.kind == EntityKind::face) face_triangles[leaf.entity_a.index];
    if (!face_triangles.empty())
      for (const Triangle& t : a.triangles())
        if (const auto it = face_triangles.find(t.face); it != face_triangles.end()) it->second.push_back(t.vertices);
    const auto point_a = [&](int v) {
      const auto& x = a.exact_vertex(v);
      return Vec{x.x(), x.y(), x.z()};
    };
    std::vector<LeafPiece> clipped;
    for (LeafPiece& leaf : classifier.leaves) {
      if (leaf.entity_a.kind != EntityKind::face) {
        clipped.push_back(std::move(leaf));
        continue;
      }
      const auto& plane = a.exact_plane(leaf.entity_a.index);
      const Vec n{plane.a(), plane.b(), plane.c()};
      for (const auto& corners : face_triangles[leaf.entity_a.index]) {
        std::optional<Piece> part = leaf.piece;
        for (std::size_t i = 0; i < 3 && part; ++i) {
          const Vec p = point_a(corners[i]);
          const XPlane inward = plane_through(cross(n, sub(point_a(corners[(i + 1) % 3]), p)), p);
          std::vector<int> signs;
          for (const Vec& x : part->points) signs.push_back(side(inward, x));
          if (std::all_of(signs.begin(), signs.end(), [](int sg) { return sg == 0; })) continue;
          std::vector<Piece> above, on, below;
          split_piece(*part, inward, signs, part->points, above, on, below);
          if (above.empty())
            part.reset();
          else
            part = std::move(above.front());
        }
        if (part) clipped.push_back({leaf.entity_a, std::move(*part)});
      }
    }
    classifier.leaves = std::move(clipped);
  }
  std::map<std::pair<Entity, Entity>, std::vector<const Piece*>> groups;
  for (const LeafPiece& leaf : classifier.leaves)
    if (leaf.entity_a.kind != EntityKind::vertex && !leaf.piece.points.empty())
      groups[{leaf.entity_a, entity_of(leaf.piece.tag)}].push_back(&leaf.piece);
  std::set<std::pair<Entity, Entity>> segments_on_edges;  // (edge of A, edge of B) with a 1D region
  for (const auto& [pair, group] : groups) {
    int dim = 0;
    for (const Piece* p : group) dim = std::max(dim, p->dim);
    const bool edges = pair.first.kind == EntityKind::edge && pair.second.kind == EntityKind::edge;
    // Point contacts are contact_points'. Under a tolerance the tree's other
    // point pieces (an edge crossing a face: penetration) are left out too:
    // short pieces cut near a point contact snap onto neighbouring planes
    // and lines and would report it again, at points off A.
    if (dim == 0 && (edges || options.touch_tolerance > 0)) continue;
    if (edges) segments_on_edges.insert(pair);
    std::vector<ContactRegion> regions;
    if (dim == 2) {
      const auto& plane = a.exact_plane(pair.first.index);
      const Vec normal_a{plane.a(), plane.b(), plane.c()};
      regions = merge_polygons(pair.first, pair.second, group, normal_a);
      const auto& plane_b = b.exact_plane(pair.second.index);
      Vec normal_b;  // R n_b, exactly
      for (int r = 0; r < 3; ++r)
        normal_b[std::size_t(r)] = FT(pose_b(r, 0)) * plane_b.a() + FT(pose_b(r, 1)) * plane_b.b() + FT(pose_b(r, 2)) * plane_b.c();
      if (!regions.empty() && sign(dot(normal_a, normal_b)) > 0) out.flush_faces.push_back(pair);
    } else if (dim == 1) {
      regions = merge_segments(pair.first, pair.second, group);
    } else {
      regions = merge_points(pair.first, pair.second, group);
    }
    for (ContactRegion& r : regions) out.regions.push_back(std::move(r));
  }
  ContactPoints points = contact_points(a, b, points_b, placed, keep, options.touch_tolerance, classifier,
                                        [&](const Entity& edge_a, const Entity& edge_b) {
                                          return segments_on_edges.count({edge_a, edge_b}) > 0;
                                        });
  for (ContactRegion& r : points.regions) out.regions.push_back(std::move(r));
  std::set<Entity> penetrating = classifier.penetrating;
  penetrating.insert(points.penetrating.begin(), points.penetrating.end());
  out.penetrating_b.assign(penetrating.begin(), penetrating.end());
  std::stable_sort(out.regions.begin(), out.regions.end(), [](const ContactRegion& x, const ContactRegion& y) {
    if (x.entity_a != y.entity_a) return x.entity_a < y.entity_a;
    if (x.entity_b != y.entity_b) return x.entity_b < y.entity_b;
    if (x.dimension != y.dimension) return x.dimension < y.dimension;
    return std::lexicographical_compare(x.points.front().data(), x.points.front().data() + 3,
                                        y.points.front().data(), y.points.front().data() + 3);
  });

  // Nested: A inside B, apart or touching (no piece of B reaches A's interior).
  if (!out.penetrating()) {
    for (int v = 0; v < b.vertex_count(); ++v) place(v);
    std::vector<std::array<Vec, 3>> triangles;
    for (const Triangle& t : b.triangles())
      triangles.push_back({points_b[std::size_t(t.vertices[0])], points_b[std::size_t(t.vertices[1])],
                           points_b[std::size_t(t.vertices[2])]});
    out.a_inside_b = a_nested_in_b(a, points_b, triangles, FT(options.touch_tolerance));
  }
  return out;
}

}  // namespace contactref::robust_geometry
