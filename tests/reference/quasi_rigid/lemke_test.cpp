// Lemke's method (reference/quasi_rigid/lemke.hpp) against an independent
// oracle: the brute-force enumeration of all 2^n complementary bases (solve
// M_SS z_S = -q_S, keep the one with z_S >= 0 and w >= 0), unique for a
// symmetric positive definite M; in double and in 50 digits, and double
// against 50 digits. Also: q >= 0 (no pivot), a 1 x 1 closed form, a
// degenerate problem (ties in the ratio test), an elementwise-positive
// non-symmetric M (copositive, Pauly et al.'s case), ray termination on an
// infeasible LCP, and bad input.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "reference/quasi_rigid/block_pivoting.hpp"
#include "reference/quasi_rigid/lemke.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scalars.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::quasi_rigid {
namespace {

// A random symmetric positive definite n x n matrix A^T A + n/4 I (condition
// number below about 10) and a q of mixed signs.
template <class T>
std::pair<MatrixX<T>, VectorX<T>> random_spd_problem(int n, std::uint64_t seed) {
  test::Rng rng(seed);
  MatrixX<T> A(n, n);
  VectorX<T> q(n);
  for (int i = 0; i < n; ++i) {
    q(i) = T(fixtures::uniform(rng, -1, 1));
    for (int j = 0; j < n; ++j) A(i, j) = T(fixtures::uniform(rng, -1, 1));
  }
  return {MatrixX<T>(A.transpose() * A + T(n) / T(4) * MatrixX<T>::Identity(n, n)), q};
}

// Every complementary solution by enumeration of the 2^n supports.
template <class T>
std::vector<VectorX<T>> all_solutions(const MatrixX<T>& M, const VectorX<T>& q, const T& tolerance) {
  const int n = int(q.size());
  std::vector<VectorX<T>> solutions;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    std::vector<int> support;
    for (int i = 0; i < n; ++i)
      if (mask & (1u << i)) support.push_back(i);
    const int k = int(support.size());
    MatrixX<T> M_S(k, k);
    VectorX<T> q_S(k);
    for (int a = 0; a < k; ++a) {
      q_S(a) = q(support[std::size_t(a)]);
      for (int b = 0; b < k; ++b) M_S(a, b) = M(support[std::size_t(a)], support[std::size_t(b)]);
    }
    VectorX<T> z = VectorX<T>::Zero(n);
    if (k > 0) {
      const VectorX<T> z_S = M_S.fullPivLu().solve(VectorX<T>(-q_S));
      for (int a = 0; a < k; ++a) z(support[std::size_t(a)]) = z_S(a);
    }
    const VectorX<T> w = M * z + q;
    if (z.minCoeff() >= -tolerance && w.minCoeff() >= -tolerance) solutions.push_back(z);
  }
  return solutions;
}

template <class T>
void expect_complementary(const LcpSolution<T>& s, const T& tolerance) {
  using std::abs;
  EXPECT_GE(s.z.minCoeff(), T(0));
  EXPECT_GE(s.w.minCoeff(), -tolerance);
  EXPECT_LE(abs(s.z.dot(s.w)), tolerance * std::max(T(1), s.z.norm()));
}

template <class T>
class Lemke : public ::testing::Test {};
TYPED_TEST_SUITE(Lemke, test::Scalars);

TYPED_TEST(Lemke, MatchesTheEnumeratedSolutionOfRandomPositiveDefiniteProblems) {
  using T = TypeParam;
  const T tolerance = test::tolerance<T>(1024);  // n = 8, condition below 10: 1024 roundings
  int total_pivots = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const auto [M, q] = random_spd_problem<T>(8, test::kSeed + 700 + std::uint64_t(trial));
    const LcpSolution<T> s = solve_lcp_lemke(M, q);
    expect_complementary(s, tolerance);
    const std::vector<VectorX<T>> oracle = all_solutions(M, q, tolerance);
    ASSERT_EQ(oracle.size(), 1u) << "SPD: unique solution (trial " << trial << ")";
    EXPECT_LE((s.z - oracle[0]).cwiseAbs().maxCoeff(), tolerance) << "trial " << trial;
    total_pivots += s.pivots;
  }
  EXPECT_GT(total_pivots, 12) << "the problems should need pivots";
}

TYPED_TEST(Lemke, NonnegativeQNeedsNoPivotAndOneByOneIsClosedForm) {
  using T = TypeParam;
  using std::abs;
  MatrixX<T> M(2, 2);
  M << T(2), T(1), T(1), T(3);
  const LcpSolution<T> zero = solve_lcp_lemke(M, VectorX<T>(VectorX<T>::Constant(2, T(0.5))));
  EXPECT_EQ(zero.pivots, 0);
  EXPECT_EQ(zero.z, VectorX<T>::Zero(2));
  // 2 z - 4 = w, complementary: z = 2, w = 0.
  const LcpSolution<T> one = solve_lcp_lemke(MatrixX<T>(MatrixX<T>::Constant(1, 1, T(2))),
                                             VectorX<T>(VectorX<T>::Constant(1, T(-4))));
  EXPECT_LE(abs(one.z(0) - T(2)), test::tolerance<T>(4));
  EXPECT_LE(abs(one.w(0)), test::tolerance<T>(4));
}

TYPED_TEST(Lemke, DegenerateTiesDoNotCycleInEitherSolver) {
  using T = TypeParam;
  using std::abs;
  // M = I with equal negative entries of q (ties in every ratio test) and
  // zeros: z = max(-q, 0) componentwise, from Lemke and from block pivoting.
  const MatrixX<T> M = MatrixX<T>::Identity(6, 6);
  VectorX<T> q(6);
  q << T(-1), T(-1), T(0), T(-1), T(0), T(2);
  for (const LcpSolution<T>& s : {solve_lcp_lemke(M, q), solve_lcp_block_pivoting(M, q)})
    for (int i = 0; i < 6; ++i) EXPECT_LE(abs(s.z(i) - std::max(T(0), T(-q(i)))), test::tolerance<T>(16)) << i;
}

TYPED_TEST(Lemke, SolvesElementwisePositiveNonsymmetricMatrices) {
  using T = TypeParam;
  // Pauly et al.'s R is elementwise positive (copositive), not symmetric in
  // general: Lemke must end with a solution.
  test::Rng rng(test::kSeed + 777);
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 10;
    MatrixX<T> M(n, n);
    VectorX<T> q(n);
    for (int i = 0; i < n; ++i) {
      q(i) = T(fixtures::uniform(rng, -1, 0.5));
      for (int j = 0; j < n; ++j) M(i, j) = T(fixtures::uniform(rng, 0.01, 1)) + (i == j ? T(2) : T(0));
    }
    expect_complementary(solve_lcp_lemke(M, q), test::tolerance<T>(4096));
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(LemkeDoubleAgainst50Digits, AgreeToTheConditionOfTheProblem) {
  double worst = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const auto [M, q] = random_spd_problem<double>(12, test::kSeed + 800 + std::uint64_t(trial));
    const auto [M50, q50] = random_spd_problem<Real50>(12, test::kSeed + 800 + std::uint64_t(trial));
    const LcpSolution<double> s = solve_lcp_lemke(M, q);
    const LcpSolution<Real50> s50 = solve_lcp_lemke(M50, q50);
    for (int i = 0; i < 12; ++i) worst = std::max(worst, std::abs(s.z(i) - double(s50.z(i))));
  }
  // The draws are the same doubles; the solution's error is the condition
  // number (below about 10 here) times the rounding of 12 x 12 eliminations.
  EXPECT_LT(worst, 1e-13);
}
#endif  // CONTACTREF_HAS_REAL50

TEST(LemkeErrors, RayTerminationAndBadInputAreNamed) {
  // w = -z - 1 >= 0 has no solution with z >= 0.
  using test::contains;
  using test::message_of;
  EXPECT_TRUE(contains(message_of<ComputationError>([] {
                         solve_lcp_lemke<double>(MatrixX<double>::Constant(1, 1, -1), VectorX<double>::Constant(1, -1));
                       }),
                       "ended on a ray"));
  EXPECT_TRUE(contains(message_of<InputError>([] {
                         solve_lcp_lemke<double>(MatrixX<double>::Zero(2, 3), VectorX<double>::Zero(2));
                       }),
                       "M must be square"));
  EXPECT_TRUE(contains(message_of<InputError>([] {
                         solve_lcp_lemke<double>(MatrixX<double>::Zero(2, 2), VectorX<double>::Zero(3));
                       }),
                       "q has 3 entries"));
  MatrixX<double> nan = MatrixX<double>::Identity(2, 2);
  nan(0, 1) = std::nan("");
  EXPECT_TRUE(contains(message_of<InputError>([&] { solve_lcp_lemke<double>(nan, VectorX<double>::Constant(2, -1)); }),
                       "finite"));
}

// check_lcp_input finds M's scale and its non-finite entries in one
// vectorised pass: a NaN or an infinity anywhere (the packets' heads and
// tails of an odd order included) is refused, in both precisions, and the
// scales are the largest magnitudes (an independent scalar loop).
TYPED_TEST(Lemke, ANonFiniteEntryAnywhereIsRefusedAndTheScalesAreTheLargestMagnitudes) {
  using T = TypeParam;
  const int n = 7;
  const auto problem = random_spd_problem<T>(n, 11);  // named, not bound: lambdas below capture them
  MatrixX<T> M = problem.first;
  const VectorX<T> q = problem.second;
  M(3, 5) = T(-40);  // the largest magnitude, negative
  const LcpScales<T> scales = check_lcp_input(M, q);
  using std::abs;
  T largest_q = 0;
  for (int i = 0; i < n; ++i) largest_q = std::max<T>(largest_q, abs(q(i)));
  EXPECT_EQ(scales.M, T(40));
  EXPECT_EQ(scales.q, largest_q);
  for (const T& bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                      -std::numeric_limits<T>::infinity()}) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        MatrixX<T> with_bad = M;
        with_bad(i, j) = bad;
        EXPECT_TRUE(test::contains(test::message_of<InputError>([&] { check_lcp_input(with_bad, q); }), "must be finite"))
            << "at (" << i << ", " << j << ")";
      }
      VectorX<T> q_bad = q;
      q_bad(i) = bad;
      EXPECT_TRUE(test::contains(test::message_of<InputError>([&] { check_lcp_input(M, q_bad); }), "must be finite")) << i;
    }
  }
  const LcpScales<T> empty = check_lcp_input(MatrixX<T>(0, 0), VectorX<T>(0));
  EXPECT_EQ(empty.M, T(0));
  EXPECT_EQ(empty.q, T(0));
}

}  // namespace
}  // namespace contactref::quasi_rigid
