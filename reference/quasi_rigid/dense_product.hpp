#pragma once
// y = A x for a dense column-major A (the GMRES operator's products,
// parallel_dense_operator.hpp): on a processor with AVX2 and FMA, a kernel
// of four columns at a time in 256-bit fused multiply-adds, chosen at run
// time (the release build is portable: its Eigen products are SSE2's, half
// as wide); elsewhere Eigen's product. Either is deterministic: the same
// result for the same A and x on one machine; the two differ by rounding
// (the kernel fuses each multiply-add), each within the product's error
// bound |y - A x| <= cols eps |A| |x| (+ O(eps^2)). y must not overlap A or
// x; InternalError when the shapes disagree.
#include <Eigen/Core>

namespace contactref::quasi_rigid {

void dense_product(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::VectorXd> y);

// The two ways by name (for tests: the AVX2 one only where
// avx2_kernels_available(), avx2_kernels.hpp).
void dense_product_portable(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& x,
                            Eigen::Ref<Eigen::VectorXd> y);
void dense_product_avx2(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& x,
                        Eigen::Ref<Eigen::VectorXd> y);

}  // namespace contactref::quasi_rigid
