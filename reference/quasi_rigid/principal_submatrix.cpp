#include "reference/quasi_rigid/principal_submatrix.hpp"

#include <algorithm>
#include <functional>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

namespace contactref::quasi_rigid {

template <class T>
PrincipalSubmatrix<T>::PrincipalSubmatrix(const MatrixX<T>& M)
    : M_(M), slot_of_(static_cast<std::size_t>(M.rows()), -1) {}

template <class T>
typename PrincipalSubmatrix<T>::Block PrincipalSubmatrix<T>::matrix() const {
  const auto m = static_cast<Eigen::Index>(indices_.size());
  return Block(storage_.get(), m, m, Eigen::OuterStride<>(std::max<Eigen::Index>(capacity_, 1)));
}

template <class T>
void PrincipalSubmatrix<T>::fill(Eigen::Index slot) {
  const int i = indices_[static_cast<std::size_t>(slot)];
  for (std::size_t a = 0; a < indices_.size(); ++a) {
    const auto row = static_cast<Eigen::Index>(a);
    at(row, slot) = M_(indices_[a], i);
    at(slot, row) = M_(i, indices_[a]);
  }
}

template <class T>
double PrincipalSubmatrix<T>::assign(const std::vector<int>& F) {
  const auto m = static_cast<Eigen::Index>(F.size());
  std::vector<Eigen::Index> leaving;  // slots whose index left F
  std::vector<char> in_F(slot_of_.size(), 0);
  for (int i : F) in_F[static_cast<std::size_t>(i)] = 1;
  for (std::size_t a = 0; a < indices_.size(); ++a) {
    if (!in_F[static_cast<std::size_t>(indices_[a])]) leaving.push_back(static_cast<Eigen::Index>(a));
  }
  std::vector<int> joining;
  for (int i : F) {
    if (slot_of_[static_cast<std::size_t>(i)] < 0) joining.push_back(i);
  }
  const auto changes = static_cast<Eigen::Index>(leaving.size() + joining.size());
  if (changes == 0) return 0;
  if (indices_.empty() || m > capacity_ || 16 * changes > m) {
    // Anew, in F's order (M is column-major: column by column).
    for (int i : indices_) slot_of_[static_cast<std::size_t>(i)] = -1;
    if (m > capacity_) {
      capacity_ = std::min<Eigen::Index>(M_.rows(), m + m / 4);
      storage_ = std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(capacity_ * capacity_));
    }
    indices_ = F;
    for (std::size_t a = 0; a < F.size(); ++a) slot_of_[static_cast<std::size_t>(F[a])] = static_cast<Eigen::Index>(a);
    tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, m), [&](const tbb::blocked_range<Eigen::Index>& columns) {
      for (Eigen::Index b = columns.begin(); b != columns.end(); ++b) {
        for (Eigen::Index a = 0; a < m; ++a) at(a, b) = M_(F[static_cast<std::size_t>(a)], F[static_cast<std::size_t>(b)]);
      }
    });
    return double(m) * double(m);
  }
  double read = 0;
  // The last slot fills each vacated one, the highest first (so that the
  // last slot is never one that leaves).
  std::sort(leaving.begin(), leaving.end(), std::greater<>());
  for (Eigen::Index slot : leaving) {
    slot_of_[static_cast<std::size_t>(indices_[static_cast<std::size_t>(slot)])] = -1;
    const int last = indices_.back();
    indices_.pop_back();
    if (slot == static_cast<Eigen::Index>(indices_.size())) continue;
    indices_[static_cast<std::size_t>(slot)] = last;
    slot_of_[static_cast<std::size_t>(last)] = slot;
    fill(slot);
    read += 2.0 * double(indices_.size());
  }
  for (int i : joining) {
    slot_of_[static_cast<std::size_t>(i)] = static_cast<Eigen::Index>(indices_.size());
    indices_.push_back(i);
    fill(static_cast<Eigen::Index>(indices_.size()) - 1);
    read += 2.0 * double(indices_.size());
  }
  return read;
}

#define CONTACTREF_INSTANTIATE(T) template class PrincipalSubmatrix<T>;
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::quasi_rigid
