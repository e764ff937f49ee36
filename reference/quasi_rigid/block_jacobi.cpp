#include "reference/quasi_rigid/block_jacobi.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <oneapi/tbb/parallel_for.h>

namespace contactref::quasi_rigid {

BlockJacobi& BlockJacobi::compute(const Eigen::Ref<const Eigen::MatrixXd>& M) {
  const Eigen::Index m = M.rows();
  groups_.clear();
  std::vector<char> grouped(static_cast<std::size_t>(m), 0);
  std::vector<std::pair<double, Eigen::Index>> coupling;
  for (Eigen::Index i = 0; i < m; ++i) {
    if (grouped[static_cast<std::size_t>(i)]) continue;
    coupling.clear();
    for (Eigen::Index j = 0; j < m; ++j) {
      if (j != i && !grouped[static_cast<std::size_t>(j)]) coupling.emplace_back(-std::abs(M(i, j)), j);
    }
    const auto others = std::min(kBlock - 1, static_cast<Eigen::Index>(coupling.size()));
    std::partial_sort(coupling.begin(), coupling.begin() + others, coupling.end());
    std::vector<Eigen::Index> group{i};
    for (Eigen::Index k = 0; k < others; ++k) group.push_back(coupling[static_cast<std::size_t>(k)].second);
    for (Eigen::Index g : group) grouped[static_cast<std::size_t>(g)] = 1;
    groups_.push_back(std::move(group));
  }
  // Each group's block and its LU, on oneTBB's threads.
  blocks_.assign(groups_.size(), {});
  tbb::parallel_for(std::size_t{0}, groups_.size(), [&](std::size_t k) {
    const std::vector<Eigen::Index>& group = groups_[k];
    const auto size = static_cast<Eigen::Index>(group.size());
    Eigen::MatrixXd block(size, size);
    for (Eigen::Index b = 0; b < size; ++b) {
      for (Eigen::Index a = 0; a < size; ++a) block(a, b) = M(group[static_cast<std::size_t>(a)], group[static_cast<std::size_t>(b)]);
    }
    blocks_[k].compute(block);
  });
  return *this;
}

Eigen::VectorXd BlockJacobi::solve(const Eigen::Ref<const Eigen::VectorXd>& r) const {
  Eigen::VectorXd z(r.size());
  // The groups on oneTBB's threads (each writes its own entries of z).
  tbb::parallel_for(std::size_t{0}, groups_.size(), [&](std::size_t k) {
    const std::vector<Eigen::Index>& group = groups_[k];
    Eigen::VectorXd r_G(static_cast<Eigen::Index>(group.size()));
    for (std::size_t a = 0; a < group.size(); ++a) r_G(static_cast<Eigen::Index>(a)) = r(group[a]);
    const Eigen::VectorXd z_G = blocks_[k].solve(r_G);
    for (std::size_t a = 0; a < group.size(); ++a) z(group[a]) = z_G(static_cast<Eigen::Index>(a));
  });
  return z;
}

}  // namespace contactref::quasi_rigid
