// The Brep-index's compact pieces (robust_geometry/brep_pieces.hpp) against
// exact_pieces.hpp's split_piece, the independent reference: the atoms of two
// non-convex solids (non-convex faces, so diagonals too) cut by twelve
// seeded planes both ways give the same parts in the same order, with the
// same exact corners and carriers; each crossing is constructed once per cut
// (no two points of the table are equal), and each point's side is asked
// for once per cut; the table's copies of its points' intervals hold them.
// The table's crossings (crossing_point.hpp, lazy numbers
// of our own nodes) against the same formula in CGAL's nodes: equal exactly,
// and their intervals hold their exact values.
#include "robust_geometry/brep_pieces.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "robust_geometry/crossing_point.hpp"
#include "tests/robust_geometry/piece_cuts.hpp"
#include "tests/robust_geometry/test_solids.hpp"

namespace contactref::robust_geometry {
namespace {

using detail::Vec;

void expect_same_cuts(const Polyhedron& solid) {
  std::vector<Vec> vertices;
  for (int v = 0; v < solid.vertex_count(); ++v) vertices.push_back(detail::exact_vertex(solid, v));
  std::vector<test_solids::CarriedPiece> reference = test_solids::carried_atoms(solid, vertices);
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
    const auto side_of = [&](int id) {
      EXPECT_TRUE(asked.insert(id).second) << "a side asked for twice in one cut";
      return detail::side(plane, table.point(id));
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
    const detail::Piece& want = reference[i].piece;
    const std::vector<detail::Carrier>& want_carriers = reference[i].carriers;
    const detail::BrepPiece& got = pieces[i];
    EXPECT_TRUE(got.tag == want.tag && got.dim == want.dim) << solid.name() << ": piece " << i;
    const auto corners = table.corners(got);
    ASSERT_EQ(corners.size(), want.points.size()) << solid.name() << ": piece " << i;
    for (std::size_t k = 0; k < corners.size(); ++k) {
      ids.insert(corners[k]);
      EXPECT_TRUE(detail::same(table.point(corners[k]), want.points[k])) << solid.name() << ": piece " << i;
      EXPECT_EQ(table.carrier(corners[k]).a, want_carriers[k].a) << solid.name() << ": piece " << i;
      EXPECT_EQ(table.carrier(corners[k]).b, want_carriers[k].b) << solid.name() << ": piece " << i;
    }
  }
  // The table's copies of the points' intervals (read by the Brep-index's
  // side tests) hold the exact points.
  for (const int id : ids)
    for (std::size_t k = 0; k < 3; ++k) {
      const CGAL::Interval_nt<false> kept = table.approximation(id)[k];
      const CGAL::Interval_nt<false> exact = CGAL::to_interval(CGAL::exact(table.point(id)[k]));
      EXPECT_TRUE(kept.inf() <= exact.inf() && exact.sup() <= kept.sup()) << solid.name() << ": point " << id;
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

// crossing_point against exact_pieces' crossing (CGAL's one-operation lazy
// nodes): seeded segments between points of doubles and between constructed
// points (whose intervals are not points), cut by seeded planes through
// their insides, give the same exact point; each coordinate's interval, read
// before any exact evaluation, holds the exact value (the filters' premise);
// and a crossing that doubles hold exactly has point intervals (the premise
// of the Brep-index's double-precision side test).
TEST(BrepPieces, CrossingPointsAreSplitPiecesCrossingsWithIntervalsThatHoldThem) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> coordinate(-2, 2), direction(-1, 1), inside(0.05, 0.95);
  const auto random_point = [&] { return detail::exact_point({coordinate(rng), coordinate(rng), coordinate(rng)}); };
  int checked = 0;
  for (int k = 0; k < 200; ++k) {
    Vec p = random_point(), q = random_point();
    if (k % 2 == 1) {  // constructed ends: midpoints of random points
      p = detail::mul(detail::FT(0.5), detail::add(p, random_point()));
      q = detail::mul(detail::FT(0.5), detail::add(q, random_point()));
    }
    const double s = inside(rng);
    const Vec through = detail::add(p, detail::mul(detail::FT(s), detail::sub(q, p)));
    const detail::XPlane plane = detail::plane_through(
        detail::exact_point({direction(rng), direction(rng), direction(rng)}), through);
    if (detail::side(plane, p) * detail::side(plane, q) >= 0) continue;
    const Vec x = detail::crossing_point(p, q, plane);
    std::array<CGAL::Interval_nt<false>, 3> before;
    for (std::size_t i = 0; i < 3; ++i) before[i] = x[i].approx();
    const Vec want = detail::crossing(p, q, detail::value(plane, p), detail::value(plane, q));
    EXPECT_TRUE(detail::same(x, want)) << "segment " << k;
    for (std::size_t i = 0; i < 3; ++i) {
      const CGAL::Interval_nt<false> exact = CGAL::to_interval(CGAL::exact(x[i]));
      EXPECT_TRUE(before[i].inf() <= exact.inf() && exact.sup() <= before[i].sup()) << "segment " << k;
    }
    ++checked;
  }
  EXPECT_GT(checked, 100);
  // The plane x = 1/2 crosses (0, 0, 0)-(1, 1, 1) at (1/2, 1/2, 1/2).
  const detail::XPlane half{detail::exact_point({1, 0, 0}), detail::FT(-0.5)};
  const Vec x = detail::crossing_point(detail::exact_point({0, 0, 0}), detail::exact_point({1, 1, 1}), half);
  for (const detail::FT& c : x) {
    EXPECT_TRUE(c.approx().is_point());
    EXPECT_EQ(c.approx().inf(), 0.5);
  }
  EXPECT_TRUE(detail::same(x, detail::exact_point({0.5, 0.5, 0.5})));
}

}  // namespace
}  // namespace contactref::robust_geometry
