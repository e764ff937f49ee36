#include "reference/quasi_rigid/dense_product.hpp"

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
  product_avx2(A.data(), static_cast<long>(A.outerStride()), static_cast<long>(A.rows()), static_cast<long>(A.cols()),
               x.data(), y.data());
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
