#pragma once
// Tests' reference cut of exact pieces: every piece split by a plane with
// exact_pieces' split_piece (each point's side by its own exact test), the
// parts above, below and on the plane in one list.
#include <vector>

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

}  // namespace contactref::robust_geometry::test_solids
