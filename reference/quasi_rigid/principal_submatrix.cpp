#include "reference/quasi_rigid/principal_submatrix.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <algorithm>
#include <functional>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>

namespace contactref::quasi_rigid {
namespace {

// The largest storage given back and not yet taken, up to the limit
// (keep_storage_up_to), one per process and scalar type: taken by a
// submatrix that needs at least a quarter of its entries (not by the coarse
// levels' small LCPs). Only for scalars without destructors (the 50-digit
// type's entries would hold their own memory).
template <class T>
class SpareStorage {
 public:
  static SpareStorage& instance() {
    static SpareStorage spare;
    return spare;
  }
  // Storage of at least `entries` entries, and their number.
  std::pair<std::unique_ptr<T[]>, std::size_t> take(std::size_t entries) {
    if constexpr (std::is_trivially_destructible_v<T>) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (storage_ && entries <= entries_ && entries_ <= 4 * entries) return {std::move(storage_), std::exchange(entries_, 0)};
    }
    return {std::make_unique_for_overwrite<T[]>(entries), entries};
  }
  void give(std::unique_ptr<T[]> storage, std::size_t entries) {
    if constexpr (std::is_trivially_destructible_v<T>) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (entries > entries_ && entries <= limit_ / sizeof(T)) {
        std::swap(storage_, storage);
        entries_ = entries;
      }
    }
  }  // the one not kept is freed here
  std::size_t bytes() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return entries_ * sizeof(T);
  }
  void limit(std::size_t bytes) {
    const std::lock_guard<std::mutex> lock(mutex_);
    limit_ = bytes;
    if (entries_ > limit_ / sizeof(T)) {
      storage_.reset();
      entries_ = 0;
    }
  }

 private:
  std::mutex mutex_;
  std::unique_ptr<T[]> storage_;
  std::size_t entries_ = 0;
  std::size_t limit_ = PrincipalSubmatrix<T>::kDefaultKeptBytes;
};

}  // namespace

template <class T>
PrincipalSubmatrix<T>::PrincipalSubmatrix(const MatrixX<T>& M)
    : M_(M), slot_of_(static_cast<std::size_t>(M.rows()), -1) {}

template <class T>
PrincipalSubmatrix<T>::~PrincipalSubmatrix() {
  if (storage_) SpareStorage<T>::instance().give(std::move(storage_), entries_);
}

template <class T>
void PrincipalSubmatrix<T>::keep_storage_up_to(std::size_t bytes) {
  SpareStorage<T>::instance().limit(bytes);
}

template <class T>
std::size_t PrincipalSubmatrix<T>::kept_bytes() {
  return SpareStorage<T>::instance().bytes();
}

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
      const auto needed = static_cast<std::size_t>(capacity_ * capacity_);
      if (needed > entries_) {  // gathered anew: the old entries are not needed
        if (storage_) SpareStorage<T>::instance().give(std::move(storage_), entries_);
        std::tie(storage_, entries_) = SpareStorage<T>::instance().take(needed);
      }
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
