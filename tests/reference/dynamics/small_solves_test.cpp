// The fixed-size solves of the contact ODE (small_solves.hpp) against
// references independent of them, on seeded random matrices of each size:
//  - the Cholesky factor against Eigen's LLT in 50 digits (L L^T = A for
//    the factor, the same factor as the reference), and a matrix that is
//    not positive definite (or whose pivot is below the floor) refused;
//  - the triangular inverse and the LU inverse up to its columns, through
//    the 1-norm condition number, against the 50-digit inverse by Eigen's
//    full-pivoting LU.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>

#include "reference/dynamics/small_solves.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scalars.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::dynamics {
namespace {

namespace ss = small_solves;

template <int N>
ss::Square<double, N> random_square(test::Rng& rng) {
  ss::Square<double, N> A;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) A(i, j) = fixtures::uniform(rng, -1.0, 1.0);
  return A;
}

// ss::cholesky in double (a name without commas for the test macros).
template <int N>
bool factor(const ss::Square<double, N>& A, double pivot_floor, ss::Square<double, N>& L) {
  return ss::cholesky<double, N>(A, pivot_floor, L);
}

template <int N>
void check_size(test::Rng& rng) {
  for (int trial = 0; trial < 20; ++trial) {
    const ss::Square<double, N> B = random_square<N>(rng);
    const ss::Square<double, N> A = B * B.transpose() + 1e-3 * ss::Square<double, N>::Identity();  // SPD
    const ss::Square<Real50, N> A50 = A.template cast<Real50>();
    const ss::Square<Real50, N> A50_inverse = Eigen::FullPivLU<ss::Square<Real50, N>>(A50).inverse();
    // cond(A) is at most about 1e3 N^2 (the added diagonal): the errors below scale with it.
    const double cond = double(ss::condition_number<Real50, N>(A50, A50_inverse));

    ss::Square<double, N> L;
    ASSERT_TRUE(factor<N>(A, 64 * N * test::kEps, L));
    const ss::Square<Real50, N> L50 = Eigen::LLT<ss::Square<Real50, N>>(A50).matrixL();
    // Cholesky is backward stable (|dA| <= ~N eps |A|), and the factor's relative
    // perturbation is at most cond(A) times A's (Sun 1991).
    EXPECT_TRUE(test::matrices_near(L.template cast<Real50>(), L50, test::tolerance<double>(4 * N, cond)));

    // The condition number from L^-1 (as contact_dynamics forms it) and from the LU
    // inverse up to its columns, against the 50-digit inverse: relative cond eps.
    const ss::Square<double, N> X = ss::lower_triangular_inverse<double, N>(L);
    const Real50 from_cholesky(ss::condition_number<double, N>(A, ss::Square<double, N>(X.transpose() * X)));
    const Real50 reference = ss::condition_number<Real50, N>(A50, A50_inverse);
    EXPECT_TRUE(test::scalars_near(from_cholesky, reference, test::tolerance<double>(8 * N, cond)));

    const ss::Square<double, N> C = random_square<N>(rng);  // general, for LU
    const ss::Square<Real50, N> C50 = C.template cast<Real50>();
    const ss::Square<Real50, N> C50_inverse = Eigen::FullPivLU<ss::Square<Real50, N>>(C50).inverse();
    const double cond_C = double(ss::condition_number<Real50, N>(C50, C50_inverse));
    const Real50 from_lu(ss::condition_number<double, N>(C, ss::lu_inverse_columns<double, N>(Eigen::PartialPivLU<ss::Square<double, N>>(C))));
    EXPECT_TRUE(test::scalars_near(from_lu, ss::condition_number<Real50, N>(C50, C50_inverse), test::tolerance<double>(8 * N, cond_C)));
  }
  // Refusals: a rank-deficient matrix (a pivot at round-off), an indefinite
  // one (a negative pivot), a NaN.
  ss::Square<double, N> L;
  const ss::Square<double, N> B = random_square<N>(rng);
  ss::Square<double, N> singular = B * B.transpose();
  singular.row(N - 1).setZero();
  singular.col(N - 1).setZero();
  EXPECT_FALSE(factor<N>(singular, 64 * N * test::kEps, L));
  EXPECT_FALSE(factor<N>(-ss::Square<double, N>::Identity(), 0.0, L));
  ss::Square<double, N> nan = ss::Square<double, N>::Identity();
  nan(N - 1, N - 1) = std::nan("");
  EXPECT_FALSE(factor<N>(nan, 0.0, L));
}

TEST(SmallSolves, CholeskyAndConditionNumbersAgainst50DigitReferences) {
  test::Rng rng(test::kSeed);
  check_size<1>(rng);
  check_size<2>(rng);
  check_size<3>(rng);
  check_size<4>(rng);
  check_size<5>(rng);
}

}  // namespace
}  // namespace contactref::dynamics
