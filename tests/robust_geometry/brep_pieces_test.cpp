// The Brep-index's compact pieces (robust_geometry/brep_pieces.hpp) against
// exact_pieces.hpp's split_piece, the independent reference: the atoms of two
// non-convex solids (non-convex faces, so diagonals too) cut by twelve
// seeded planes both ways give the same parts in the same order, with the
// same exact corners and carriers; each crossing is constructed once per cut
// (no two points of the table are equal), and each point's side is asked
// for once per cut.
#include "robust_geometry/brep_pieces.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "tests/robust_geometry/piece_cuts.hpp"
#include "tests/robust_geometry/test_solids.hpp"

namespace contactref::robust_geometry {
namespace {

using detail::Vec;

void expect_same_cuts(const Polyhedron& solid) {
  std::vector<Vec> vertices;
  for (int v = 0; v < solid.vertex_count(); ++v) vertices.push_back(detail::exact_vertex(solid, v));
  std::vector<detail::Piece> reference = detail::atoms(solid, vertices, {}, true);
  detail::PieceTable table;
  std::vector<detail::BrepPiece> pieces = table.atoms(solid, vertices);
  Eigen::Vector3d lo = solid.vertex(0), hi = lo;
  for (const auto& x : solid.vertices()) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(0.1, 0.9), direction(-1, 1);
  int split_count = 0;
  for (int k = 0; k < 12; ++k) {
    const Eigen::Vector3d through = lo + Eigen::Vector3d(unit(rng), unit(rng), unit(rng)).cwiseProduct(hi - lo);
    const detail::XPlane plane = detail::plane_through(
        detail::exact_point({direction(rng), direction(rng), direction(rng)}), detail::exact_point(through));
    reference = test_solids::split_all(reference, plane);

    table.begin_cut(plane);
    std::set<int> asked;
    const auto side_of = [&](const Vec& x, const detail::Carrier&) {
      const int s = detail::side(plane, x);
      EXPECT_TRUE(asked.insert(int(&x - &table.point(0))).second) << "a side asked for twice in one cut";
      return s;
    };
    std::vector<detail::BrepPiece> parts;
    for (const detail::BrepPiece& piece : pieces) {
      std::vector<int> signs;
      for (const int id : table.corners(piece)) signs.push_back(table.side(id, side_of));
      const bool above = std::any_of(signs.begin(), signs.end(), [](int s) { return s > 0; });
      const bool below = std::any_of(signs.begin(), signs.end(), [](int s) { return s < 0; });
      if (above && below) {
        table.split(piece, signs, parts, parts, parts);
        ++split_count;
      } else {
        parts.push_back(piece);
      }
    }
    pieces = std::move(parts);
  }
  EXPECT_GT(split_count, 20) << solid.name() << ": the planes must split pieces for the test to mean anything";

  ASSERT_EQ(pieces.size(), reference.size()) << solid.name();
  std::set<int> ids;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const detail::Piece& want = reference[i];
    const detail::BrepPiece& got = pieces[i];
    EXPECT_TRUE(got.tag == want.tag && got.dim == want.dim) << solid.name() << ": piece " << i;
    const auto corners = table.corners(got);
    ASSERT_EQ(corners.size(), want.points.size()) << solid.name() << ": piece " << i;
    for (std::size_t k = 0; k < corners.size(); ++k) {
      ids.insert(corners[k]);
      EXPECT_TRUE(detail::same(table.point(corners[k]), want.points[k])) << solid.name() << ": piece " << i;
      EXPECT_EQ(table.carrier(corners[k]).a, want.carriers[k].a) << solid.name() << ": piece " << i;
      EXPECT_EQ(table.carrier(corners[k]).b, want.carriers[k].b) << solid.name() << ": piece " << i;
    }
  }
  // One point per place: a crossing built twice would be two equal points.
  std::vector<Vec> points;
  for (const int id : ids) points.push_back(table.point(id));
  std::sort(points.begin(), points.end(), detail::lexicographic_less);
  for (std::size_t i = 1; i < points.size(); ++i)
    EXPECT_FALSE(detail::same(points[i - 1], points[i])) << solid.name() << ": a point constructed twice";
}

TEST(BrepPieces, CutsGiveSplitPiecesPartsWithOnePointPerPlaceAndOneSideTestPerPointAndCut) {
  expect_same_cuts(read_polyhedron(test_solids::polyhedra_folder() / "l_prism.off"));
  expect_same_cuts(read_polyhedron(test_solids::geometry_data_folder() / "torus_frame.off"));
}

}  // namespace
}  // namespace contactref::robust_geometry
