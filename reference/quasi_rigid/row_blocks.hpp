#pragma once
// The rows of a far-field sum (the midpoint rule of sampled_response.hpp: the
// response's columns, the displacement field) in blocks of spatially close
// rows, each with its bounding box. A column whose kernel is negligible over a
// whole block (ResponseKernel::far_reach) skips it, and the blocks are the
// unit of the parallel loops: every row is summed by one thread, over the
// columns in their order, so the sums are the same on any number of threads.
// The order is Morton's (Z-order) on the rows' positions quantised in a cube
// about them, ties by row, and a block is a cell of the octree that order
// walks (the rows sharing a code's leading bits), split until it holds at
// most kRows: a block spans a few of the rows' spacings, where kRows
// consecutive rows could straddle the jump between two distant cells.
#include <Eigen/Core>
#include <vector>

namespace contactref::quasi_rigid {

class RowBlocks {
 public:
  static constexpr Eigen::Index kRows = 64;  // the most rows a block holds

  // at: the rows' positions, one coordinate a column (m).
  explicit RowBlocks(const Eigen::ArrayX3d& at);

  Eigen::Index count() const { return static_cast<Eigen::Index>(low_.size()); }
  // Block b holds the sorted positions first(b) .. first(b) + size(b) - 1.
  Eigen::Index first(Eigen::Index b) const { return start_[static_cast<std::size_t>(b)]; }
  Eigen::Index size(Eigen::Index b) const { return start_[static_cast<std::size_t>(b) + 1] - first(b); }
  Eigen::Index rows() const { return sorted_.rows(); }
  // The row at each sorted position, and each row's sorted position.
  const std::vector<Eigen::Index>& row() const { return row_; }
  const std::vector<Eigen::Index>& position() const { return position_; }
  // The rows' positions in sorted order (a coordinate a column).
  const Eigen::ArrayX3d& sorted() const { return sorted_; }
  // The squared distance from q to block b's bounding box (0 inside).
  double distance_sq(Eigen::Index b, const Eigen::Vector3d& q) const;

 private:
  std::vector<Eigen::Index> row_, position_, start_;  // start_: each block's first, then rows()
  Eigen::ArrayX3d sorted_;
  std::vector<Eigen::Vector3d> low_, high_;
};

}  // namespace contactref::quasi_rigid
