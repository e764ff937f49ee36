#include "reference/quasi_rigid/row_blocks.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace contactref::quasi_rigid {

namespace {

// The 21 low bits of v spread to every third bit.
std::uint64_t spread(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

}  // namespace

RowBlocks::RowBlocks(const Eigen::ArrayX3d& at) {
  const Eigen::Index n = at.rows();
  std::vector<std::uint64_t> code(static_cast<std::size_t>(n), 0);
  if (n > 0) {
    const Eigen::Array3d low = at.colwise().minCoeff().transpose();
    // One cell size on every axis (cubes): a thin sheet's normal axis then
    // takes few of the code's bits.
    const double extent = std::max((at.colwise().maxCoeff().transpose() - low).maxCoeff(), 1e-300);
    constexpr double kCells = 2097151;  // 2^21 - 1 along the longest axis
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::Array3d cell = ((at.row(i).transpose() - low) / extent * kCells).round();
      code[static_cast<std::size_t>(i)] = spread(static_cast<std::uint64_t>(cell.x())) |
                                          spread(static_cast<std::uint64_t>(cell.y())) << 1 |
                                          spread(static_cast<std::uint64_t>(cell.z())) << 2;
    }
  }
  row_.resize(static_cast<std::size_t>(n));
  std::iota(row_.begin(), row_.end(), Eigen::Index{0});
  std::sort(row_.begin(), row_.end(), [&](Eigen::Index x, Eigen::Index y) {
    const std::uint64_t cx = code[static_cast<std::size_t>(x)], cy = code[static_cast<std::size_t>(y)];
    return cx != cy ? cx < cy : x < y;
  });
  position_.resize(static_cast<std::size_t>(n));
  sorted_.resize(n, 3);
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Index i = row_[static_cast<std::size_t>(k)];
    position_[static_cast<std::size_t>(i)] = k;
    sorted_.row(k) = at.row(i);
  }
  // The octree's cells, depth first: [begin, end) shares the code's bits
  // above `bit`; split at the first code with that bit set.
  std::vector<std::uint64_t> sorted_code(static_cast<std::size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k) sorted_code[static_cast<std::size_t>(k)] = code[static_cast<std::size_t>(row_[static_cast<std::size_t>(k)])];
  const auto split = [&](const auto& self, Eigen::Index begin, Eigen::Index end, int bit) -> void {
    if (end - begin <= kRows || bit < 0) {
      for (Eigen::Index b = begin; b < end; b += kRows) start_.push_back(b);  // equal codes: kRows at a time
      return;
    }
    const std::uint64_t mask = std::uint64_t{1} << bit;
    const auto middle = std::partition_point(sorted_code.begin() + begin, sorted_code.begin() + end,
                                             [&](std::uint64_t c) { return (c & mask) == 0; });
    const auto cut = static_cast<Eigen::Index>(middle - sorted_code.begin());
    if (cut > begin) self(self, begin, cut, bit - 1);
    if (end > cut) self(self, cut, end, bit - 1);
  };
  split(split, 0, n, 62);
  start_.push_back(n);
  for (Eigen::Index b = 0; b < static_cast<Eigen::Index>(start_.size()) - 1; ++b) {
    const auto rows_of_b = sorted_.middleRows(first(b), size(b));
    low_.emplace_back(rows_of_b.colwise().minCoeff().transpose());
    high_.emplace_back(rows_of_b.colwise().maxCoeff().transpose());
  }
}

double RowBlocks::distance_sq(Eigen::Index b, const Eigen::Vector3d& q) const {
  const auto k = static_cast<std::size_t>(b);
  return (low_[k] - q).cwiseMax(q - high_[k]).cwiseMax(0.0).squaredNorm();
}

}  // namespace contactref::quasi_rigid
