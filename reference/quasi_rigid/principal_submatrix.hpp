#pragma once
// M_FF, the principal submatrix of a square M on an index set F, kept while F
// changes by a few indices at a time: between block pivoting's iterations,
// and between the LCPs that share one M (the split iterations of
// point_contact.hpp). Its rows and columns are in slot order: an index that
// leaves F gives its slot to the last one, an index that joins takes a new
// last slot, and each moved or new slot reads its row and column from M (2 m
// entries, where gathering M_FF anew reads m^2). Where more than a sixteenth
// of F changes, or F outgrows the storage, M_FF is gathered anew, in F's
// order, on oneTBB's threads.
//
// Its storage outlives it: the last one's is kept for the next (a
// simulation's or a root-find's LCPs are of about the same order), so that
// a run of contact solves maps and unmaps no large block. On this project's
// VMs an unmapping of some 30 MB made every page the process touched next
// slow once more: the foot's second solve took 540-600 ms against 370-400
// for the later ones (README, after its SIMD paragraph).
#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <vector>

#include "reference/quasi_rigid/lemke.hpp"

namespace contactref::quasi_rigid {

template <class T>
class PrincipalSubmatrix {
 public:
  using Block = Eigen::Map<const MatrixX<T>, 0, Eigen::OuterStride<>>;

  // M must outlive this object and stay unchanged while it serves it.
  explicit PrincipalSubmatrix(const MatrixX<T>& M);
  ~PrincipalSubmatrix();  // gives the storage back for the next one
  PrincipalSubmatrix(const PrincipalSubmatrix&) = delete;
  PrincipalSubmatrix& operator=(const PrincipalSubmatrix&) = delete;

  // M_FF for F (ascending indices of M). Returns the entries of M read
  // (LcpSolution::work).
  double assign(const std::vector<int>& F);
  // Slot a holds M's index indices()[a]: matrix()(a, b) = M(indices()[a], indices()[b]).
  const std::vector<int>& indices() const { return indices_; }
  Block matrix() const;

  // The largest storage kept for the next submatrix, in bytes (at most one
  // block per process and scalar type; by default 256 MiB, so that storage
  // of capacity 5,793 or more in double, for free sets of about 4,600 and
  // more, is given back); a block kept now that is larger is freed, so 0
  // frees it and keeps nothing more.
  static constexpr std::size_t kDefaultKeptBytes = std::size_t(256) << 20;
  static void keep_storage_up_to(std::size_t bytes);
  static std::size_t kept_bytes();  // the size of the block kept now, or 0

 private:
  // Slot `slot`'s row and column (up to the last slot) from M.
  void fill(Eigen::Index slot);
  T& at(Eigen::Index a, Eigen::Index b) { return storage_[static_cast<std::size_t>(b * capacity_ + a)]; }

  const MatrixX<T>& M_;
  // Column-major, capacity_ x capacity_, in a block of entries_ >= capacity_^2
  // (a kept one may be larger); left uninitialised: only its m x m corner is
  // read, and every entry there is written first.
  std::unique_ptr<T[]> storage_;
  std::size_t entries_ = 0;
  Eigen::Index capacity_ = 0;
  std::vector<int> indices_;
  std::vector<Eigen::Index> slot_of_;  // each index of M's slot, or -1
};

}  // namespace contactref::quasi_rigid
