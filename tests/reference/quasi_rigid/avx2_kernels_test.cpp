// The AVX2 kernels (reference/quasi_rigid/avx2_kernels.hpp), each against an
// independent reference (the AVX2 parts only on a processor that has it):
//  - dense_product, both ways, against the product in long double within the
//    product's error bound cols eps |A| |x|, on shapes that exercise every
//    path of the kernel (rows and columns past multiples of 16 and 4, a
//    strided block); the AVX2 kernel bit for bit against its stated order of
//    operations, computed with scalar fused multiply-adds; mismatched shapes
//    refused; product_of_columns both ways against long double;
//  - the far field's sums against ResponseKernel::f_corrected in double,
//    summed in long double, within single precision's error per term;
//  - the response's far entries against the portable kernel
//    (ResponseKernel::f_of_squared, Eigen's): Boussinesq's bit for bit, the
//    volume-preserving kernel's within the two exponentials' rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <numbers>
#include <optional>
#include <vector>
#include <random>

#include "core/errors.hpp"
#include "reference/quasi_rigid/avx2_kernels.hpp"
#include "reference/quasi_rigid/dense_product.hpp"
#include "reference/quasi_rigid/parallel_dense_operator.hpp"
#include "reference/quasi_rigid/response_matrix.hpp"
#include "tests/kit/errors.hpp"

namespace contactref::quasi_rigid {
namespace {

using Product = void (*)(const Eigen::Ref<const Eigen::MatrixXd>&, const Eigen::Ref<const Eigen::VectorXd>&,
                         Eigen::Ref<Eigen::VectorXd>);

// The AVX2 kernel's order: four columns at a time, each row's sum
// fma(a3, x3, fma(a2, x2, fma(a1, x1, fma(a0, x0, y)))), then the columns
// past a multiple of four one by one.
Eigen::VectorXd in_kernel_order(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::VectorXd& x) {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(A.rows());
  Eigen::Index j = 0;
  for (; j + 4 <= A.cols(); j += 4) {
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
      y(i) = std::fma(A(i, j + 3), x(j + 3),
                      std::fma(A(i, j + 2), x(j + 2), std::fma(A(i, j + 1), x(j + 1), std::fma(A(i, j), x(j), y(i)))));
    }
  }
  for (; j < A.cols(); ++j) {
    for (Eigen::Index i = 0; i < A.rows(); ++i) y(i) = std::fma(A(i, j), x(j), y(i));
  }
  return y;
}

TEST(DenseProduct, BothWaysStayWithinTheProductsErrorBoundAndTheKernelKeepsItsOrder) {
  std::mt19937_64 rng(20261201);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const bool avx2 = avx2_kernels_available();
  std::cout << "[dense_product] AVX2 kernel on this processor: " << (avx2 ? "yes" : "no") << "\n";
  Eigen::MatrixXd storage(80, 40);
  for (Eigen::Index i = 0; i < storage.size(); ++i) storage(i) = uniform(rng);
  for (const Eigen::Index rows : {0, 1, 3, 4, 15, 16, 17, 35, 64, 77}) {
    for (const Eigen::Index cols : {0, 1, 3, 4, 5, 8, 13, 37}) {
      // A strided block: its columns 80 apart, not `rows`.
      const Eigen::Ref<const Eigen::MatrixXd> A = storage.block(2, 1, rows, cols);
      Eigen::VectorXd x(cols);
      for (Eigen::Index j = 0; j < cols; ++j) x(j) = uniform(rng);
      Eigen::VectorXd bound(rows);
      Eigen::Matrix<long double, Eigen::Dynamic, 1> exact(rows);
      for (Eigen::Index i = 0; i < rows; ++i) {
        long double sum = 0, magnitude = 0;
        for (Eigen::Index j = 0; j < cols; ++j) {
          sum += static_cast<long double>(A(i, j)) * x(j);
          magnitude += std::abs(static_cast<long double>(A(i, j)) * x(j));
        }
        exact(i) = sum;
        const long double eps = std::numeric_limits<double>::epsilon();
        bound(i) = static_cast<double>(static_cast<long double>(cols) * eps * magnitude) + 1e-300;
      }
      for (const auto& [name, product] : {std::pair<const char*, Product>{"portable", &dense_product_portable},
                                          std::pair<const char*, Product>{"avx2", &dense_product_avx2},
                                          std::pair<const char*, Product>{"dispatched", &dense_product}}) {
        if (std::string(name) == "avx2" && !avx2) continue;
        Eigen::VectorXd y = Eigen::VectorXd::Constant(rows, std::nan(""));  // every entry written
        product(A, x, y);
        for (Eigen::Index i = 0; i < rows; ++i) {
          EXPECT_LE(std::abs(static_cast<long double>(y(i)) - exact(i)), bound(i))
              << name << ": " << rows << " x " << cols << ", row " << i;
        }
        if (std::string(name) == "avx2") {
          EXPECT_EQ(y, in_kernel_order(A, x)) << rows << " x " << cols;
        }
      }
    }
  }
}

// product_of_columns (parallel_dense_operator.hpp) over columns in any
// order, some of them repeated in x's support but not in the list, with the
// AVX2 kernel and with the portable loop: against long double within
// count eps |A| |x|.
TEST(DenseProduct, AProductOfSomeColumnsIsWithinItsErrorBoundBothWays) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const Eigen::Index rows = 301, cols = 700;
  Eigen::MatrixXd M(rows, cols);
  for (Eigen::Index i = 0; i < M.size(); ++i) M(i) = uniform(rng);
  std::vector<int> columns;
  for (int j = cols - 1; j >= 0; j -= 3) columns.push_back(j);  // 234 columns, backwards
  Eigen::VectorXd x = Eigen::VectorXd::Zero(cols);
  for (int j : columns) x(j) = uniform(rng);
  for (const bool portable : {false, true}) {
    std::optional<PortableKernels> only_portable;
    if (portable) only_portable.emplace();
    const Eigen::VectorXd y = product_of_columns<double>(M, columns, x);
    for (Eigen::Index i = 0; i < rows; ++i) {
      long double exact = 0, magnitude = 0;
      for (int j : columns) {
        exact += static_cast<long double>(M(i, j)) * x(j);
        magnitude += std::abs(static_cast<long double>(M(i, j)) * x(j));
      }
      const long double eps = std::numeric_limits<double>::epsilon();
      EXPECT_LE(std::abs(static_cast<long double>(y(i)) - exact), static_cast<long double>(columns.size()) * eps * magnitude)
          << (portable ? "portable" : "AVX2 where available") << ", row " << i;
    }
  }
}

TEST(DenseProduct, RefusesMismatchedShapes) {
  const Eigen::MatrixXd A = Eigen::MatrixXd::Ones(3, 2);
  Eigen::VectorXd y(3), short_y(2);
  const Eigen::VectorXd x = Eigen::VectorXd::Ones(2), long_x = Eigen::VectorXd::Ones(3);
  EXPECT_TRUE(test::contains(test::message_of<InternalError>([&] { dense_product(A, long_x, y); }), "shapes"));
  EXPECT_TRUE(test::contains(test::message_of<InternalError>([&] { dense_product(A, x, short_y); }), "shapes"));
  EXPECT_TRUE(test::contains(test::message_of<InternalError>([&] { dense_product_portable(A, long_x, y); }), "shapes"));
}

// Both kernels (Boussinesq's and the volume-preserving one at the foot's
// sigma), and `rows` points in a 3 x 3 x 1 cm box, one coordinate an array.
const ResponseKernel kKernels[] = {{ResponseKernel::Kind::kBoussinesq, 2e-7, 0},
                                   {ResponseKernel::Kind::kVolumePreserving, 2e-7, 0.01}};
struct RowPoints {
  std::vector<double> x, y, z;
};
RowPoints random_rows(long rows, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(0, 1);
  RowPoints at;
  for (long r = 0; r < rows; ++r) {
    at.x.push_back(0.03 * uniform(rng)), at.y.push_back(0.03 * uniform(rng)), at.z.push_back(0.01 * uniform(rng));
  }
  return at;
}

// Rows in a 3 cm cube, columns about it (some at a row's own point, whose
// term is 0), for both kernels, with and without the second-moment term, on
// row counts past multiples of 8. Each term's error is below 1e-6 of the
// sum of its terms' sizes, c / r + m c (1 / r^3 + 2 beta / sigma^2
// + (r + beta r^2) / sigma^4), Boussinesq's c / r + m c / r^3 (float's
// rounding, 6e-8, in some ten operations; response_matrix.hpp's bound for
// the portable kernel).
TEST(Avx2Kernels, FarFieldSumsAreTheDoubleKernelsWithinSinglePrecisionsErrorPerTerm) {
  if (!avx2_kernels_available()) GTEST_SKIP() << "no AVX2 and FMA on this processor";
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(0, 1);
  for (const ResponseKernel& kernel : kKernels) {
    const bool boussinesq = kernel.kind == ResponseKernel::Kind::kBoussinesq;
    const FarKernelTerms terms = kernel.far_terms();
    const double beta = boussinesq ? 0 : std::sqrt(std::numbers::pi / 2) / kernel.sigma;
    const double sigma2 = kernel.sigma * kernel.sigma;
    for (const long rows : {1L, 7L, 8L, 13L, 64L}) {
      for (const double moment_scale : {0.0, 1e-7}) {
        const auto [x, y, z] = random_rows(rows, rng);
        std::vector<double> qx, qy, qz, load;
        std::vector<float> moment;
        std::vector<int> own;
        for (int c = 0; c < 40; ++c) {
          const bool at_row = c % 9 == 0;
          const std::size_t r = static_cast<std::size_t>(c) % x.size();
          qx.push_back(at_row ? x[r] : -0.02 + 0.07 * uniform(rng));
          qy.push_back(at_row ? y[r] : -0.02 + 0.07 * uniform(rng));
          qz.push_back(at_row ? z[r] : 0.01 * uniform(rng));
          moment.push_back(static_cast<float>(moment_scale * (0.5 + uniform(rng))));
          load.push_back(uniform(rng) * 1e-3);
          own.push_back(at_row ? static_cast<int>(r) : -1);
        }
        const FarColumns columns{qx.data(), qy.data(), qz.data(), moment.data(), load.data(), own.data(), 40};
        std::vector<double> sum(x.size(), 0.0);
        add_far_field_avx2(x.data(), y.data(), z.data(), rows, columns, terms, sum.data());
        for (std::size_t r = 0; r < x.size(); ++r) {
          long double exact = 0, size = 0;
          for (std::size_t c = 0; c < qx.size(); ++c) {
            if (own[c] == static_cast<int>(r)) continue;
            const double distance = Eigen::Vector3d(x[r] - qx[c], y[r] - qy[c], z[r] - qz[c]).norm(), m = moment[c];
            const double c_r = kernel.compliance / distance;
            exact += static_cast<long double>(load[c]) * kernel.f_corrected(distance, m);
            const double spread =
                boussinesq ? 0 : 2 * beta / sigma2 + (distance + beta * distance * distance) / (sigma2 * sigma2);
            size += load[c] * (c_r + m * kernel.compliance * (1 / (distance * distance * distance) + spread));
          }
          EXPECT_LE(std::abs(static_cast<long double>(sum[r]) - exact), 1e-6L * size)
              << (boussinesq ? "Boussinesq" : "volume-preserving") << ", " << rows << " rows, m " << moment_scale
              << ", row " << r;
        }
      }
    }
  }
}

// A column's far entries on row counts past multiples of 4, its own row 0,
// against f_of_squared (the portable loop's kernel) on the same squared
// distances: the same operations but the exponential (SLEEF's and Eigen's,
// each within about an ulp), so Boussinesq's entries are equal to the bit
// and the volume-preserving kernel's within 4 eps of each.
TEST(Avx2Kernels, ResponseColumnsAreThePortableKernelsToTheExponentialsRounding) {
  if (!avx2_kernels_available()) GTEST_SKIP() << "no AVX2 and FMA on this processor";
  std::mt19937_64 rng(11);
  for (const ResponseKernel& kernel : kKernels) {
    const bool boussinesq = kernel.kind == ResponseKernel::Kind::kBoussinesq;
    for (const long rows : {1L, 3L, 4L, 13L, 64L}) {
      for (const double moment : {0.0, 1.3e-7}) {
        const auto [x, y, z] = random_rows(rows, rng);
        const long own = rows / 2;
        const auto o = static_cast<std::size_t>(own);
        const double q[3] = {x[o], y[o], z[o]};
        const double area = 7e-7;
        std::vector<double> f(x.size());
        far_column_avx2(x.data(), y.data(), z.data(), rows, q, moment, area, own, kernel.far_terms(), f.data());
        Eigen::VectorXd expected(rows);
        for (std::size_t r = 0; r < x.size(); ++r) {
          const double dx = x[r] - q[0], dy = y[r] - q[1], dz = z[r] - q[2];
          expected(static_cast<Eigen::Index>(r)) = dx * dx + dy * dy + dz * dz;
        }
        kernel.f_of_squared(expected, moment);
        expected *= area;
        expected(own) = 0;
        for (Eigen::Index r = 0; r < rows; ++r) {
          const double allowed = boussinesq ? 0.0 : 4 * std::numeric_limits<double>::epsilon() * std::abs(expected(r));
          EXPECT_LE(std::abs(f[static_cast<std::size_t>(r)] - expected(r)), allowed)
              << (boussinesq ? "Boussinesq" : "volume-preserving") << ", " << rows << " rows, m " << moment
              << ", row " << r;
        }
      }
    }
  }
}

}  // namespace
}  // namespace contactref::quasi_rigid
