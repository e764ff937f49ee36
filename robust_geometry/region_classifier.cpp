#include "robust_geometry/region_classifier.hpp"

// Cells and distances. A node's cell lies in all its "on" ancestors' planes:
// its direction space is R^3 (3-cell), the plane with normal h (2-cell) or
// the line with direction l (1-cell). Within it, the distance from x to a cut
// plane n . x + d = 0 is |n . x + d| / |m| with m the orthogonal projection of
// n onto the direction space (m = n, n - (n.h / h.h) h, (n.l / l.l) l), and
// x - ((n . x + d) / (m . m)) m is the point of the cut nearest to x within
// the cell. Both are exact rational constructions; a point of a piece in a
// cell lies exactly in the cell's affine hull (it was projected when it went
// "on"), so the projections keep it there.
#include <CGAL/Interval_nt.h>

#include <array>
#include <utility>

namespace contactref::robust_geometry::detail {

Entity entity_of(const Tag& tag) { return {EntityKind(int(tag.kind)), tag.index}; }

Entity entity_of(const Location& location) {
  switch (location.region) {
    case Region::vertex: return {EntityKind::vertex, location.entity};
    case Region::edge: return {EntityKind::edge, location.entity};
    default: return {EntityKind::face, location.entity};
  }
}

namespace {

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

}  // namespace

Classifier::Classifier(const BrepIndex& index, double tolerance)
    : index_(index), tolerance_(tolerance), planes_(exact_cut_planes(index)) {
  const FT eps(tolerance);
  eps2_ = eps * eps;
}

void Classifier::run(std::vector<Piece> pieces) {
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

Location Classifier::locate(const Vec& x) const {
  int i = 0;
  while (!index_.node(i).is_leaf()) {
    const BrepIndexNode& node = index_.node(i);
    const int s = side(planes_[std::size_t(node.cut)], x);
    i = node.children[s > 0 ? 0 : s == 0 ? 1 : 2];
  }
  return index_.node(i).location;
}

std::vector<Entity> Classifier::entities_near(const Box& box) const {
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

// The side of x (the current point, whose original is x0) under the
// tolerance; x becomes its projection p onto the plane within the cell where
// the side is 0 and x is not exactly on it. x is the orthogonal projection of
// x0 onto the cell's affine hull (an invariant: every snap projects
// orthogonally within the cell, crossings combine corners affinely), so
// x0 - x is orthogonal to the cell and x - p lies in it:
// |x0 - p|^2 = |x0 - x|^2 + v^2 / mm, the distance from the original to the
// innermost subspace, whatever the number of snaps before (no composition).
// The side is 0 iff that is <= eps^2, exactly.
int Classifier::side_within_tolerance(const XPlane& plane, const Vec& m, const FT& mm, const Vec& x0, Vec& x) const {
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

void Classifier::reach_leaf(const Location& location, std::vector<Piece>& pieces) {
  if (location.region == Region::outside) return;
  if (location.region == Region::inside) {
    for (const Piece& p : pieces) penetrating.insert(entity_of(p.tag));
    return;
  }
  const Entity y = entity_of(location);
  for (Piece& p : pieces) leaves.push_back({y, std::move(p)});
}

}  // namespace contactref::robust_geometry::detail
