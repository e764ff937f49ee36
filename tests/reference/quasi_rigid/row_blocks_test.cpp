// row_blocks.hpp: the far fields' blocks of rows. Checked against what the
// far-field loops rely on: every row in exactly one block, each block's box
// holding its rows (a column skips a block only when the box is out of
// reach, so a row outside its box could lose a near pair), and blocks
// compact on a thin sheet (the foot's sole: a first version scaled each
// axis to its own extent, and blocks of a flat lattice spanned 30 spacings).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include "reference/quasi_rigid/row_blocks.hpp"

namespace contactref::quasi_rigid {
namespace {

TEST(RowBlocks, EveryRowIsInOneBlockInsideItsBox) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
  Eigen::ArrayX3d at(1000, 3);
  for (Eigen::Index i = 0; i < at.rows(); ++i) at.row(i) << coordinate(random), coordinate(random), 1e-3 * coordinate(random);
  const RowBlocks blocks(at);
  Eigen::Index rows = 0;
  for (Eigen::Index b = 0; b < blocks.count(); ++b) {
    EXPECT_GE(blocks.size(b), 1);
    EXPECT_LE(blocks.size(b), RowBlocks::kRows);
    EXPECT_EQ(blocks.first(b), rows);
    rows += blocks.size(b);
  }
  EXPECT_EQ(rows, 1000);
  std::vector<int> seen(1000, 0);
  for (Eigen::Index b = 0; b < blocks.count(); ++b) {
    for (Eigen::Index k = blocks.first(b); k < blocks.first(b) + blocks.size(b); ++k) {
      const Eigen::Index row = blocks.row()[static_cast<std::size_t>(k)];
      ++seen[static_cast<std::size_t>(row)];
      EXPECT_EQ(blocks.position()[static_cast<std::size_t>(row)], k);
      EXPECT_EQ(blocks.sorted().row(k).matrix(), at.row(row).matrix());
      EXPECT_EQ(blocks.distance_sq(b, at.row(row).transpose().matrix()), 0.0);
    }
  }
  for (int count : seen) EXPECT_EQ(count, 1);
  // Outside a box: the distance to the point of the rows' bounding box
  // nearest to it.
  const Eigen::Vector3d far(3.0, -2.0, 0.5);
  const auto rows_of_2 = blocks.sorted().middleRows(blocks.first(2), blocks.size(2));
  const Eigen::Vector3d nearest = far.array().max(rows_of_2.colwise().minCoeff().transpose()).min(rows_of_2.colwise().maxCoeff().transpose());
  EXPECT_NEAR(blocks.distance_sq(2, far), (far - nearest).squaredNorm(), 1e-14);
}

TEST(RowBlocks, BlocksOfAFlatLatticeSpanAFewSpacings) {
  const double h = 1e-3;
  const int side = 200;  // 200 x 200 samples on a sheet 0.2 m wide, 0.1 mm thick
  Eigen::ArrayX3d at(side * side, 3);
  for (int i = 0; i < side; ++i) {
    for (int j = 0; j < side; ++j) at.row(i * side + j) << i * h, j * h, 1e-4 * std::sin(i + 0.3 * j);
  }
  const RowBlocks blocks(at);
  double worst = 0, mean = 0;  // diagonals in spacings
  for (Eigen::Index b = 0; b < blocks.count(); ++b) {
    const auto rows = blocks.sorted().middleRows(blocks.first(b), blocks.size(b));
    const double diagonal = (rows.colwise().maxCoeff() - rows.colwise().minCoeff()).matrix().norm() / h;
    worst = std::max(worst, diagonal);
    mean += diagonal / static_cast<double>(blocks.count());
  }
  // A block is a quadtree cell holding at most 64 samples (the thin axis
  // takes few bits), and the cells lie inside the lattice (the cube about the
  // rows is the lattice's square): a square of side 9 h there holds at least
  // 9 x 9 samples, so a block's samples span less than 9 spacings a side, a
  // diagonal below 9 sqrt(2) spacings.
  EXPECT_LT(worst, 9 * std::sqrt(2.0));
  std::cout << "block diagonal: mean " << mean << ", largest " << worst << " spacings\n";
}

}  // namespace
}  // namespace contactref::quasi_rigid
