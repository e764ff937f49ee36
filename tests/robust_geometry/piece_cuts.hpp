#pragma once
// Tests' reference cut of exact pieces: every piece split by a plane with
// exact_pieces' split_piece (each point's side by its own exact test), the
// parts above, below and on the plane in one list; and the reference for the
// Brep-index table's carriers (brep_pieces.hpp): pieces whose points carry
// their carriers, a corner's own in each part, a crossing the merged carrier
// of its segment's two corners.
#include <stdexcept>
#include <vector>

#include "robust_geometry/brep_pieces.hpp"
#include "robust_geometry/exact_pieces.hpp"

namespace contactref::robust_geometry::test_solids {

inline std::vector<detail::Piece> split_all(const std::vector<detail::Piece>& pieces, const detail::XPlane& plane) {
  std::vector<detail::Piece> parts;
  for (const detail::Piece& piece : pieces) {
    std::vector<int> signs;
    for (const detail::Vec& x : piece.points) signs.push_back(detail::side(plane, x));
    detail::split_piece(piece, plane, signs, piece.points, parts, parts, parts);
  }
  return parts;
}

// A piece and its points' carriers (parallel to piece.points).
struct CarriedPiece {
  detail::Piece piece;
  std::vector<detail::Carrier> carriers;
};

// The atoms of the polyhedron (exact_pieces' atoms, its vertices mapped
// through `points`), each corner carried by its vertex.
inline std::vector<CarriedPiece> carried_atoms(const Polyhedron& polyhedron, const std::vector<detail::Vec>& points) {
  const std::vector<detail::Piece> pieces = detail::atoms(polyhedron, points);
  const std::vector<detail::Atom> corners = detail::atom_corners(polyhedron);
  std::vector<CarriedPiece> out;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    CarriedPiece p{pieces[i], {}};
    for (const int v : corners[i].corners()) p.carriers.push_back({v, v});
    out.push_back(std::move(p));
  }
  return out;
}

// The carriers of the parts split_piece appends for a piece with these
// carriers and signs, in its order (above, below, on where it splits).
inline std::vector<std::vector<detail::Carrier>> split_carriers(int dim, const std::vector<detail::Carrier>& carriers,
                                                               const std::vector<int>& signs) {
  bool positive = false, negative = false;
  for (const int s : signs) {
    positive = positive || s > 0;
    negative = negative || s < 0;
  }
  if (!positive || !negative) return {carriers};  // whole, to one side
  if (dim == 1) {
    const std::size_t up = signs[0] > 0 ? 0 : 1;
    const detail::Carrier x = detail::merged(carriers[0], carriers[1]);
    return {{carriers[up], x}, {x, carriers[1 - up]}, {x}};
  }
  std::vector<detail::Carrier> above, below, on;  // Sutherland-Hodgman, as split_piece
  const std::size_t n = carriers.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    if (signs[i] >= 0) above.push_back(carriers[i]);
    if (signs[i] <= 0) below.push_back(carriers[i]);
    if (signs[i] == 0) on.push_back(carriers[i]);
    if (signs[i] * signs[j] < 0) {
      const detail::Carrier x = detail::merged(carriers[i], carriers[j]);
      above.push_back(x);
      below.push_back(x);
      on.push_back(x);
    }
  }
  return {above, below, on};
}

// split_all for carried pieces.
inline std::vector<CarriedPiece> split_all(const std::vector<CarriedPiece>& pieces, const detail::XPlane& plane) {
  std::vector<CarriedPiece> out;
  for (const CarriedPiece& p : pieces) {
    std::vector<int> signs;
    for (const detail::Vec& x : p.piece.points) signs.push_back(detail::side(plane, x));
    std::vector<detail::Piece> parts;
    detail::split_piece(p.piece, plane, signs, p.piece.points, parts, parts, parts);
    std::vector<std::vector<detail::Carrier>> carriers = split_carriers(p.piece.dim, p.carriers, signs);
    if (carriers.size() != parts.size()) throw std::logic_error("split_carriers disagrees with split_piece");
    for (std::size_t k = 0; k < parts.size(); ++k) {
      if (carriers[k].size() != parts[k].points.size()) throw std::logic_error("a part's carriers and points differ");
      out.push_back({std::move(parts[k]), std::move(carriers[k])});
    }
  }
  return out;
}

}  // namespace contactref::robust_geometry::test_solids
