#include "reference/quasi_rigid/dense_product.hpp"

#include <vector>

#include "core/errors.hpp"
#include "reference/quasi_rigid/avx2_kernels.hpp"

namespace contactref::quasi_rigid {
namespace {

void check_shapes(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& x,
                  const Eigen::Ref<Eigen::VectorXd>& y) {
  check_invariant(A.cols() == x.size() && A.rows() == y.size(), "dense_product: the shapes of A, x and y disagree");
}

}  // namespace

void dense_product_portable(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& x,
                            Eigen::Ref<Eigen::VectorXd> y) {
  check_shapes(A, x, y);
  y.noalias() = A * x;
}

void dense_product_avx2(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& x,
                        Eigen::Ref<Eigen::VectorXd> y) {
  check_shapes(A, x, y);
  check_invariant(avx2_kernels_available(), "dense_product_avx2 where the AVX2 kernels may not run");
  std::vector<const double*> columns;
  columns.reserve(static_cast<std::size_t>(A.cols()));
  for (Eigen::Index j = 0; j < A.cols(); ++j) columns.push_back(A.col(j).data());
  product_avx2(columns.data(), static_cast<long>(A.rows()), static_cast<long>(A.cols()), x.data(), y.data());
}

void dense_product(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::VectorXd> y) {
  if (avx2_kernels_available()) {
    dense_product_avx2(A, x, y);
  } else {
    dense_product_portable(A, x, y);
  }
}

}  // namespace contactref::quasi_rigid
