#include "robust_geometry/brep_pieces.hpp"

#include <algorithm>
#include <array>

#include "robust_geometry/crossing_point.hpp"

namespace contactref::robust_geometry::detail {

std::vector<BrepPiece> PieceTable::atoms(const Polyhedron& polyhedron, const std::vector<Vec>& vertices) {
  for (std::size_t v = 0; v < vertices.size(); ++v) add_point(vertices[v], {int(v), int(v)});
  std::vector<BrepPiece> out;
  for (const Atom& atom : atom_corners(polyhedron)) out.push_back(add_piece(atom.tag, atom.dim, atom.corners()));
  return out;
}

Carrier merged(const Carrier& c, const Carrier& d) {
  if (!c.known() || !d.known()) return {};
  std::array<int, 4> v{c.a, c.b, d.a, d.b};
  std::sort(v.begin(), v.end());
  const auto end = std::unique(v.begin(), v.end());
  if (end - v.begin() > 2) return {};
  return {v[0], *(end - 1)};
}

void PieceTable::begin_cut(const XPlane& plane) {
  plane_ = plane;
  ++cut_;
  crossing_count_ = 0;
}

int PieceTable::add_point(const Vec& x, const Carrier& carrier) {
  points_.push_back(x);
  carriers_.push_back(carrier);
  approximations_.push_back(read(x, Approximate{}));
  sides_.push_back({0, 0});
  return int(points_.size()) - 1;
}

BrepPiece PieceTable::add_piece(const Tag& tag, int dim, std::span<const int> ids) {
  const BrepPiece piece{tag, dim, int(corner_ids_.size()), int(ids.size())};
  corner_ids_.insert(corner_ids_.end(), ids.begin(), ids.end());
  return piece;
}

int PieceTable::crossing(int i, int j) {
  const auto [lo, hi] = std::minmax(i, j);
  const std::uint64_t segment = std::uint64_t(std::uint32_t(lo)) << 32 | std::uint32_t(hi);
  const auto slot_of = [&](std::uint64_t key) {
    const std::size_t mask = crossings_.size() - 1;  // a power of two
    std::size_t s = std::size_t((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    while (crossings_[s].cut == cut_ && crossings_[s].segment != key) s = (s + 1) & mask;
    return s;
  };
  std::size_t s = slot_of(segment);
  if (crossings_[s].cut == cut_) return crossings_[s].id;
  if (2 * (crossing_count_ + 1) > crossings_.size()) {  // keep the table at most half full
    std::vector<Crossing> old = std::move(crossings_);
    crossings_.assign(2 * old.size(), Crossing{});
    for (const Crossing& c : old)
      if (c.cut == cut_) crossings_[slot_of(c.segment)] = c;
    s = slot_of(segment);
  }
  const int id = add_point(crossing_point(point(i), point(j), plane_), merged(carrier(i), carrier(j)));
  crossings_[s] = {segment, id, cut_};
  ++crossing_count_;
  return id;
}

void PieceTable::split(const BrepPiece& piece, std::span<const int> signs, std::vector<BrepPiece>& above,
                       std::vector<BrepPiece>& on, std::vector<BrepPiece>& below) {
  // Ids, not references: crossing() appends to the tables.
  const std::size_t n = std::size_t(piece.count);
  const auto corner = [&](std::size_t k) { return corner_ids_[std::size_t(piece.first) + k]; };
  if (piece.dim == 1) {
    const int x = crossing(corner(0), corner(1));
    const std::size_t up = signs[0] > 0 ? 0 : 1;
    const int top = corner(up), bottom = corner(1 - up);
    above.push_back(add_piece(piece.tag, 1, std::array{top, x}));
    below.push_back(add_piece(piece.tag, 1, std::array{x, bottom}));
    on.push_back(add_piece(piece.tag, 0, std::array{x}));
    return;
  }
  // A convex polygon (Sutherland-Hodgman); its on-part is a segment.
  auto& [a, o, b] = part_ids_;
  a.clear();
  o.clear();
  b.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    const int p = corner(i);
    if (signs[i] >= 0) a.push_back(p);
    if (signs[i] <= 0) b.push_back(p);
    if (signs[i] == 0) o.push_back(p);
    if (signs[i] * signs[j] < 0) {
      const int x = crossing(p, corner(j));
      a.push_back(x);
      b.push_back(x);
      o.push_back(x);
    }
  }
  above.push_back(add_piece(piece.tag, 2, a));
  below.push_back(add_piece(piece.tag, 2, b));
  on.push_back(add_piece(piece.tag, 1, o));
}

}  // namespace contactref::robust_geometry::detail
