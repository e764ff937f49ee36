#pragma once
// A dense square matrix as an operator for Eigen's iterative solvers whose
// products run on oneTBB's threads (Eigen's own are single-threaded without
// OpenMP): sum_in_column_chunks over its columns (contiguous in the
// column-major matrix, read as one stream: chunks of rows read a short piece
// of every column, and were 6% slower on one thread), each chunk's product
// one dense_product (AVX2 where the processor has it). Eigen's matrix-free
// pattern ("Matrix-free solvers" in its documentation): an EigenBase with the
// traits of a sparse matrix, and the product's scaleAndAddTo. With a right
// preconditioner P (block_jacobi.hpp) it is M P^-1, whose residuals are M's
// own: block_pivoting.cpp's GMRES solves M P^-1 y = r and stops on the true
// residual's norm.
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <algorithm>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <type_traits>
#include <vector>

#include "reference/quasi_rigid/avx2_kernels.hpp"
#include "reference/quasi_rigid/block_jacobi.hpp"
#include "reference/quasi_rigid/dense_product.hpp"

namespace contactref::quasi_rigid {

class ParallelDenseOperator;

// The sum of `count` columns' contributions, rows long: the columns in fixed
// chunks of kSumChunk, add(first, count, sum) adding a chunk's into its own
// zeroed sum on one of oneTBB's threads, the chunks' sums then added in
// order, so the result does not depend on the thread count.
inline constexpr Eigen::Index kSumChunk = 256;
template <class T, class Add>
Eigen::Matrix<T, Eigen::Dynamic, 1> sum_in_column_chunks(Eigen::Index rows, Eigen::Index count, const Add& add) {
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  const Eigen::Index chunks = (count + kSumChunk - 1) / kSumChunk;
  Matrix partial = Matrix::Zero(rows, chunks);
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, chunks), [&](const tbb::blocked_range<Eigen::Index>& range) {
    for (Eigen::Index c = range.begin(); c != range.end(); ++c) {
      auto sum = partial.col(c);
      add(c * kSumChunk, std::min(kSumChunk, count - c * kSumChunk), sum);
    }
  });
  Eigen::Matrix<T, Eigen::Dynamic, 1> total = Eigen::Matrix<T, Eigen::Dynamic, 1>::Zero(rows);
  for (Eigen::Index c = 0; c < chunks; ++c) total += partial.col(c);
  return total;
}

// M x from the columns `columns` of M alone, x being zero elsewhere: rows
// times columns.size() entries, not all of M's (sum_in_column_chunks); in
// double, each chunk by the AVX2 kernel where it may run (avx2_kernels.hpp).
template <class T>
Eigen::Matrix<T, Eigen::Dynamic, 1> product_of_columns(const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>& M,
                                                       const std::vector<int>& columns,
                                                       const Eigen::Matrix<T, Eigen::Dynamic, 1>& x) {
  const bool vectorised = std::is_same_v<T, double> && avx2_kernels_available();
  return sum_in_column_chunks<T>(M.rows(), static_cast<Eigen::Index>(columns.size()),
                                 [&](Eigen::Index first, Eigen::Index count, auto& sum) {
                                   if constexpr (std::is_same_v<T, double>) {
                                     if (vectorised) {
                                       std::vector<const double*> a;
                                       std::vector<double> x_a;
                                       for (Eigen::Index k = first; k < first + count; ++k) {
                                         const int j = columns[static_cast<std::size_t>(k)];
                                         a.push_back(M.col(j).data());
                                         x_a.push_back(x(j));
                                       }
                                       product_avx2(a.data(), static_cast<long>(M.rows()), static_cast<long>(count),
                                                    x_a.data(), sum.data());
                                       return;
                                     }
                                   }
                                   for (Eigen::Index a = first; a < first + count; ++a) {
                                     const int j = columns[static_cast<std::size_t>(a)];
                                     sum += x(j) * M.col(j);
                                   }
                                 });
}

}  // namespace contactref::quasi_rigid

namespace Eigen::internal {
template <>
struct traits<contactref::quasi_rigid::ParallelDenseOperator> : public traits<SparseMatrix<double>> {};
}  // namespace Eigen::internal

namespace contactref::quasi_rigid {

class ParallelDenseOperator : public Eigen::EigenBase<ParallelDenseOperator> {
 public:
  using Scalar = double;
  using RealScalar = double;
  using StorageIndex = int;
  enum { ColsAtCompileTime = Eigen::Dynamic, MaxColsAtCompileTime = Eigen::Dynamic, IsRowMajor = false };
  // P: the right preconditioner (none: M alone); M and P must outlive it.
  explicit ParallelDenseOperator(const Eigen::Ref<const Eigen::MatrixXd>& M, const BlockJacobi* P = nullptr)
      : M_(M), P_(P) {}
  Eigen::Index rows() const { return M_.rows(); }
  Eigen::Index cols() const { return M_.cols(); }
  const Eigen::Ref<const Eigen::MatrixXd>& matrix() const { return M_; }

  template <class Rhs>
  Eigen::Product<ParallelDenseOperator, Rhs, Eigen::AliasFreeProduct> operator*(const Eigen::MatrixBase<Rhs>& x) const {
    return Eigen::Product<ParallelDenseOperator, Rhs, Eigen::AliasFreeProduct>(*this, x.derived());
  }

  // y += alpha M P^-1 x; nothing for x = 0 (the solvers' first residual
  // from a zero guess).
  template <class Dest>
  void multiply_add(const Eigen::VectorXd& x, double alpha, Dest& y) const {
    if ((x.array() == 0).all()) return;
    const Eigen::VectorXd x_P = P_ ? P_->solve(x) : x;
    y.noalias() += alpha * sum_in_column_chunks<double>(rows(), cols(), [&](Eigen::Index first, Eigen::Index count, auto& sum) {
      dense_product(M_.middleCols(first, count), x_P.segment(first, count), sum);
    });
  }

 private:
  Eigen::Ref<const Eigen::MatrixXd> M_;
  const BlockJacobi* P_;
};

}  // namespace contactref::quasi_rigid

namespace Eigen::internal {
template <class Rhs>
struct generic_product_impl<contactref::quasi_rigid::ParallelDenseOperator, Rhs, SparseShape, DenseShape, GemvProduct>
    : generic_product_impl_base<contactref::quasi_rigid::ParallelDenseOperator, Rhs,
                                generic_product_impl<contactref::quasi_rigid::ParallelDenseOperator, Rhs>> {
  template <class Dest>
  static void scaleAndAddTo(Dest& dst, const contactref::quasi_rigid::ParallelDenseOperator& lhs, const Rhs& rhs,
                            const double& alpha) {
    lhs.multiply_add(Eigen::VectorXd(rhs), alpha, dst);
  }
};
}  // namespace Eigen::internal
