#pragma once
// Internal to the Brep-index (brep_index.cpp): its pieces (exact_pieces.hpp's
// convex atoms, cut by planes) in a compact layout. A piece holds the ids of
// its corners in one table of exact points shared by every piece of the
// build, so that
//   - a point's side of a cut is evaluated once per cut, not once per piece
//     that has it as a corner (a vertex is a corner of about a dozen atoms);
//   - the point where a cut crosses a segment is constructed once per cut and
//     segment (an edge and the triangles on either side of it share it);
//   - moving a piece to a child cell copies 20 bytes, with no allocation.
// The parts of a split piece and their corners are those of split_piece
// (exact_pieces.hpp), in the same order; each point keeps its carrier.
// (The tests' reference, tests/robust_geometry/piece_cuts.hpp, gives
// split_piece's parts their carriers the same way.)
#include <cstdint>
#include <span>
#include <vector>

#include "robust_geometry/exact_pieces.hpp"
#include "robust_geometry/filtered_sign.hpp"

namespace contactref::robust_geometry::detail {

// Two vertices a <= b of the polyhedron such that a point lies on the closed
// segment between them (a == b: the point is vertex a); a = -1 where no such
// pair is known. A point on a segment between two vertices of a face lies in
// the face's support plane, exactly: a zero that needs no evaluation.
struct Carrier {
  int a = -1, b = -1;
  bool known() const { return a >= 0; }
};
// The carrier of a point strictly between two points carried by c and d:
// the segment of the vertices of both, if there are at most two of them.
Carrier merged(const Carrier& c, const Carrier& d);

struct BrepPiece {
  Tag tag;
  int dim;
  int first;  // the corners' ids: PieceTable::corners
  int count;
};

class PieceTable {
 public:
  // The atoms of the polyhedron (exact_pieces.hpp's atom_corners), whose
  // vertex v is `vertices[v]` and point v of the table.
  std::vector<BrepPiece> atoms(const Polyhedron& polyhedron, const std::vector<Vec>& vertices);

  const Vec& point(int id) const { return points_[std::size_t(id)]; }
  const Carrier& carrier(int id) const { return carriers_[std::size_t(id)]; }
  // The point's interval approximation, as it was when the point was added.
  const Vec3<Approximation>& approximation(int id) const { return approximations_[std::size_t(id)]; }
  std::span<const int> corners(const BrepPiece& piece) const {
    return {corner_ids_.data() + piece.first, std::size_t(piece.count)};
  }

  // Starts a cut by `plane`: forgets the sides and crossings of the last one.
  void begin_cut(const XPlane& plane);
  // The side of point `id` of the current cut: side_of(id), asked for once
  // per cut and point.
  template <class SideOf>
  int side(int id, const SideOf& side_of) {
    Side& known = sides_[std::size_t(id)];
    if (known.cut != cut_) known = {cut_, std::int8_t(side_of(id))};
    return known.side;
  }
  // split_piece for a piece with corners strictly on both sides of the
  // current cut (signs: its corners' sides, in order): appends its parts.
  void split(const BrepPiece& piece, std::span<const int> signs, std::vector<BrepPiece>& above,
             std::vector<BrepPiece>& on, std::vector<BrepPiece>& below);

 private:
  int add_point(const Vec& x, const Carrier& carrier);
  // The point where the current cut crosses the segment between points i and
  // j (on opposite sides), constructed on its first request in this cut.
  int crossing(int i, int j);
  BrepPiece add_piece(const Tag& tag, int dim, std::span<const int> ids);

  std::vector<Vec> points_;
  std::vector<Carrier> carriers_;
  std::vector<Vec3<Approximation>> approximations_;
  std::vector<int> corner_ids_;  // every piece's corners, appended, never removed
  // Per point: its side of a cut, and the cut (0: none).
  struct Side {
    std::uint32_t cut;
    std::int8_t side;
  };
  std::vector<Side> sides_;
  std::uint32_t cut_ = 0;
  XPlane plane_;
  // The current cut's crossings, hashed by segment (its two ids, lower
  // first) with open addressing; a slot of another cut is free, so that
  // starting a cut clears nothing (a build makes 10^5-10^6 cuts, most of
  // them crossing nothing).
  struct Crossing {
    std::uint64_t segment;
    int id;
    std::uint32_t cut;
  };
  std::vector<Crossing> crossings_ = std::vector<Crossing>(64);
  std::size_t crossing_count_ = 0;  // in the current cut
  std::vector<int> part_ids_[3];  // split's buffers: above, on, below
};

}  // namespace contactref::robust_geometry::detail
