// Block principal pivoting (reference/quasi_rigid/block_pivoting.hpp), the
// fast LCP solver, against Lemke (lemke.hpp), the reference: the same z on
// random positive definite problems (n = 40, double and 50 digits), on
// diagonally dominant non-symmetric ones (P-matrices), and on the Hertz problem's elastic LCP (the Boussinesq response of a
// sphere's contact); a matrix that is not a P-matrix is refused. (Degenerate
// ties: lemke_test, for both solvers.) The free sets' solves by GMRES
// (options.iterative_from) against Lemke on the same problems.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/errors.hpp"
#include "core/threads.hpp"
#include "reference/quasi_rigid/block_pivoting.hpp"
#include "reference/quasi_rigid/parallel_dense_operator.hpp"
#include "reference/quasi_rigid/response_matrix.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scalars.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::quasi_rigid {
namespace {

template <class T>
class BlockPivoting : public ::testing::Test {};
TYPED_TEST_SUITE(BlockPivoting, test::Scalars);

TYPED_TEST(BlockPivoting, AgreesWithLemkeOnRandomPositiveDefiniteAndPMatrixProblems) {
  using T = TypeParam;
  using std::abs;
  test::Rng rng(test::kSeed + 900);
  const int n = 40;
  int iterations = 0;
  for (int trial = 0; trial < 8; ++trial) {
    MatrixX<T> A(n, n);
    VectorX<T> q(n);
    for (int i = 0; i < n; ++i) {
      q(i) = T(fixtures::uniform(rng, -1, 1));
      for (int j = 0; j < n; ++j) A(i, j) = T(fixtures::uniform(rng, -1, 1));
    }
    // Even trials: symmetric positive definite; odd: non-symmetric with a
    // dominant diagonal (a P-matrix).
    const MatrixX<T> M = trial % 2 == 0 ? MatrixX<T>(A.transpose() * A + T(n) / T(4) * MatrixX<T>::Identity(n, n))
                                        : MatrixX<T>(A + T(2 * n) * MatrixX<T>::Identity(n, n));
    BlockPivotingOptions options;
    if (trial >= 4) options.iterative_from = 1;  // GMRES's solves (double only; the LU in 50 digits)
    const LcpSolution<T> fast = solve_lcp_block_pivoting(M, q, options);
    const LcpSolution<T> reference = solve_lcp_lemke(M, q);
    // Both solve the same well-conditioned problem (condition below about 10).
    EXPECT_LE((fast.z - reference.z).cwiseAbs().maxCoeff(), test::tolerance<T>(64 * n)) << "trial " << trial;
    EXPECT_GE(fast.z.minCoeff(), T(0));
    EXPECT_GE(fast.w.minCoeff(), -test::tolerance<T>(64 * n));
    iterations += fast.pivots;
  }
  EXPECT_GT(iterations, 8) << "the problems should need iterations";
}

TEST(BlockPivotingHertz, AgreesWithLemkeOnTheElasticLcpOfASphere) {
  // The sphere of the Hertz test (radius 5 cm, E* = 1.1 GPa, 100 N; a = 1.5
  // mm) on 253 nodes, pressed to Hertz's approach.
  const double a = 1.50554e-3, h = a / 6, radius = 0.05, E_star = 1e9 / (1 - 0.09);
  const std::vector<Eigen::Vector2d> nodes = square_grid_nodes(h, 9);
  const ShepardKernels kernels{h / 2, 2 * h};
  const Eigen::MatrixXd R =
      response_matrix(nodes, {ResponseKernel::Kind::kBoussinesq, 1 / (std::numbers::pi * E_star), 0}, kernels);
  Eigen::VectorXd q(Eigen::Index(nodes.size()));
  for (std::size_t k = 0; k < nodes.size(); ++k)
    q(Eigen::Index(k)) = radius - std::sqrt(radius * radius - nodes[k].squaredNorm()) - a * a / radius;
  const LcpSolution<double> fast = solve_lcp_block_pivoting<double>(R, q);
  const LcpSolution<double> reference = solve_lcp_lemke<double>(R, q);
  // Tractions of order p0 = 2e7 Pa; the LCP's condition (R's, below about
  // 1e3 here) times 64 n eps.
  EXPECT_LE((fast.z - reference.z).cwiseAbs().maxCoeff(), 1e3 * 64 * double(q.size()) * 2.2e-16 * reference.z.maxCoeff());
  // The same with every free set solved by GMRES instead of the LU: its
  // 1e-13 residual, times the condition, is inside the same bound; without
  // screening, through the same free sets.
  BlockPivotingOptions iterative;
  iterative.iterative_from = 1;
  iterative.screening = 0;
  const LcpSolution<double> by_gmres = solve_lcp_block_pivoting<double>(R, q, iterative);
  EXPECT_LE((by_gmres.z - reference.z).cwiseAbs().maxCoeff(),
            1e3 * 64 * double(q.size()) * 2.2e-16 * reference.z.maxCoeff());
  EXPECT_EQ(by_gmres.pivots, fast.pivots);
  // GMRES solved every free set (from the last iterate, its residual from
  // that iterate's w): the LU none.
  EXPECT_GT(fast.lu_solves, 1);
  EXPECT_EQ(by_gmres.lu_solves, 0);
  // Screened (the default): the free sets chosen by rough solves, the last
  // one solved in full, so Lemke's solution within the same bound; and from
  // a guess of z (Lemke's, perturbed by 10%), the same again.
  iterative.screening = BlockPivotingOptions{}.screening;
  const LcpSolution<double> screened = solve_lcp_block_pivoting<double>(R, q, iterative);
  EXPECT_LE((screened.z - reference.z).cwiseAbs().maxCoeff(),
            1e3 * 64 * double(q.size()) * 2.2e-16 * reference.z.maxCoeff());
  EXPECT_EQ(screened.lu_solves, 0);
  iterative.initial_z = 1.1 * reference.z;
  const LcpSolution<double> guessed = solve_lcp_block_pivoting<double>(R, q, iterative);
  EXPECT_LE((guessed.z - reference.z).cwiseAbs().maxCoeff(),
            1e3 * 64 * double(q.size()) * 2.2e-16 * reference.z.maxCoeff());
  EXPECT_EQ(guessed.lu_solves, 0);
  iterative.initial_z = Eigen::VectorXd::Zero(3);
  EXPECT_TRUE(test::contains(test::error_of([&] { solve_lcp_block_pivoting<double>(R, q, iterative); }),
                             "an initial z of 3 entries"));
  std::cout << "[block pivoting] Hertz LCP, n = " << q.size() << ": " << fast.pivots << " iterations (Lemke: "
            << reference.pivots << " pivots); |z - z_Lemke| / max z = "
            << (fast.z - reference.z).cwiseAbs().maxCoeff() / reference.z.maxCoeff() << "\n";
}

// LcpSolution::work counts what the solves touch, on cases whose solves are
// known: every index free at once (one LU of order n: its copy n^2, the LU
// 2 n^3 / 3 and its solve n^2, then w from n columns, n^2), and the same with
// GMRES, whose block preconditioner holds the whole matrix (n below
// BlockJacobi::kBlock: one group), so that one iteration solves it: the copy,
// the preconditioner (a pass n^2, and the LUs counted as 2 kBlock^2 n / 3),
// the initial residual n^2, the iteration's product n^2, block solve
// 2 n kBlock and three Householder reflections 2 n each, the solution's
// reflection 2 n, x = P^-1 y 2 n kBlock, and w; Lemke's pivots n (2 n + 2)
// each beside its set-up and w, 3 n^2.
TEST(BlockPivotingWork, CountsTheCopiesProductsAndFactorisationsOfTheSolves) {
  const int n = 40;
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(n, n) * 4;
  for (int i = 0; i + 1 < n; ++i) M(i, i + 1) = M(i + 1, i) = -1;
  const Eigen::VectorXd q = -Eigen::VectorXd::LinSpaced(n, 1, 2);  // M z = -q with z > 0: all free
  BlockPivotingOptions options;
  options.initial_free.assign(n, true);
  options.iterative_from = n + 1;
  const LcpSolution<double> lu = solve_lcp_block_pivoting<double>(M, q, options);
  ASSERT_EQ(lu.pivots, 0);
  const double n2 = double(n) * n;
  EXPECT_DOUBLE_EQ(lu.work, n2 + 2.0 / 3.0 * n2 * n + n2 + n2);
  options.iterative_from = 1;
  options.screening = 0;
  const LcpSolution<double> iterative = solve_lcp_block_pivoting<double>(M, q, options);
  const double block = double(BlockJacobi::kBlock);
  ASSERT_LT(n, block);
  EXPECT_DOUBLE_EQ(iterative.work, n2 + (n2 + 2.0 / 3.0 * n * block * block) + n2 +
                                       (n2 + 2 * n * block + 3 * 2 * n) + 2 * n + 2 * n * block + n2);
  const LcpSolution<double> lemke = solve_lcp_lemke<double>(M, q);
  EXPECT_DOUBLE_EQ(lemke.work, lemke.pivots * double(n) * (2 * n + 2) + 3 * n2);
  EXPECT_GE(lemke.pivots, n);  // every z_i enters
}

// full_final_solve = false ends at the first feasible screened free set
// (a split iteration before the last): z within 100 screening tolerances of
// the LU's solution (block_pivoting.hpp), for less work; true solves that
// set again to the LU's round-off.
TEST(BlockPivotingWork, AScreenedSolveEndsNearTheLusSolutionForLessWork) {
  const int n = 300;
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(n, n) * 4;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j) M(i, j) = 1.0 / (1.0 + 2.0 * std::abs(i - j));  // a decaying, diagonally dominant coupling
    }
  }
  Eigen::VectorXd q(n);
  for (int i = 0; i < n; ++i) q(i) = std::sin(0.05 * i) - 0.3;  // some indices free, some not
  BlockPivotingOptions exact;
  exact.iterative_from = n + 1;
  const LcpSolution<double> lu = solve_lcp_block_pivoting<double>(M, q, exact);
  BlockPivotingOptions full;
  full.iterative_from = 1;
  BlockPivotingOptions screened = full;
  screened.full_final_solve = false;
  const LcpSolution<double> in_full = solve_lcp_block_pivoting<double>(M, q, full);
  const LcpSolution<double> lean = solve_lcp_block_pivoting<double>(M, q, screened);
  const double scale = lu.z.cwiseAbs().maxCoeff();
  EXPECT_LE((in_full.z - lu.z).cwiseAbs().maxCoeff(), 1e-11 * scale);
  EXPECT_LE((lean.z - lu.z).cwiseAbs().maxCoeff(), 100 * screened.screening * scale);
  EXPECT_GT((lean.z - lu.z).cwiseAbs().maxCoeff(), 1e-11 * scale);  // not solved in full
  EXPECT_LT(lean.work, in_full.work);
}

// One BlockPivoting for a sequence of LCPs with one M and moving q (the
// split iterations), each warm-started from the last solution as
// point_contact.cpp does: every z the LU's (a fresh solve of that q alone),
// and, from the second on, less work than the same warm-started solve on a
// fresh solver (M_FF kept, not gathered anew).
TEST(BlockPivotingReuse, SolvesOfOneMatrixKeepItsFreeBlockAndMatchFreshSolves) {
  const int n = 300;
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(n, n) * 4;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j) M(i, j) = 1.0 / (1.0 + 2.0 * std::abs(i - j)) + (i < j ? 0.01 : 0.0);  // not symmetric
    }
  }
  quasi_rigid::BlockPivoting<double> kept(M);  // the class, not this file's typed test suite
  BlockPivotingOptions options, exact;
  options.iterative_from = 1;
  exact.iterative_from = n + 1;
  for (int k = 0; k < 4; ++k) {
    Eigen::VectorXd q(n);
    for (int i = 0; i < n; ++i) q(i) = std::sin(0.05 * i + 0.02 * k) - 0.3;
    const LcpSolution<double> reused = kept.solve(q, options);
    const LcpSolution<double> fresh = solve_lcp_block_pivoting<double>(M, q, options);
    const LcpSolution<double> lu = solve_lcp_block_pivoting<double>(M, q, exact);
    const double scale = lu.z.cwiseAbs().maxCoeff();
    EXPECT_LE((reused.z - lu.z).cwiseAbs().maxCoeff(), 1e-11 * scale) << "solve " << k;
    EXPECT_LE((reused.w - lu.w).cwiseAbs().maxCoeff(), 1e-11 * lu.w.cwiseAbs().maxCoeff()) << "solve " << k;
    if (k > 0) {
      EXPECT_LT(reused.work, fresh.work) << "solve " << k;
    }
    options.initial_free.clear();
    for (int i = 0; i < n; ++i) options.initial_free.push_back(reused.z(i) > 0);
    options.initial_z = reused.z;
  }
  EXPECT_THROW(quasi_rigid::BlockPivoting<double>(Eigen::MatrixXd::Zero(2, 3)), InputError);
  EXPECT_TRUE(test::contains(test::error_of([&] { kept.solve(Eigen::VectorXd::Zero(3)); }), "q has 3 entries"));
}

// parallel_dense_operator.hpp: its products are M x to round-off (against
// Eigen's own), and M P^-1 x with the block preconditioner P; block
// pivoting's results (its gathers, products and w on oneTBB's threads) are
// the same bits on one thread or two.
TEST(ParallelDenseOperator, ProductsAreTheMatrixsAndSolvesTheSameBitsOnAnyThreadCount) {
  const int n = 700;
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(n, n) * 4;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j) M(i, j) = 1.0 / (1.0 + 2.0 * std::abs(i - j));
    }
  }
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n, -1, 2);
  const Eigen::VectorXd eigen = M * x;
  const ParallelDenseOperator A(M);
  const Eigen::VectorXd ours = A * x;
  EXPECT_LE((ours - eigen).cwiseAbs().maxCoeff(), 1e-14 * n * M.cwiseAbs().maxCoeff() * x.cwiseAbs().maxCoeff());
  // With the block preconditioner on the right: M D^-1 x, D the block
  // diagonal of M on P's groups, formed and solved by Eigen's LU.
  BlockJacobi P;
  P.compute(M);
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(n, n);
  for (const std::vector<Eigen::Index>& group : P.groups()) {
    for (Eigen::Index i : group)
      for (Eigen::Index j : group) D(i, j) = M(i, j);
  }
  const Eigen::VectorXd right = M * D.partialPivLu().solve(x);
  const Eigen::VectorXd ours_right = ParallelDenseOperator(M, &P) * x;
  EXPECT_LE((ours_right - right).cwiseAbs().maxCoeff(), 1e-13 * right.cwiseAbs().maxCoeff());
  EXPECT_TRUE((ParallelDenseOperator(M, &P) * Eigen::VectorXd::Zero(n)).isZero(0));
  Eigen::VectorXd q(n);
  for (int i = 0; i < n; ++i) q(i) = std::sin(0.05 * i) - 0.3;
  BlockPivotingOptions options;
  options.iterative_from = 1;
  const auto solve = [&](int threads) {
    const ThreadLimit limit(threads);
    return solve_lcp_block_pivoting<double>(M, q, options);
  };
  const LcpSolution<double> one = solve(1), two = solve(2);
  EXPECT_TRUE(one.z == two.z);
  EXPECT_TRUE(one.w == two.w);
  EXPECT_EQ(one.work, two.work);
}

TEST(BlockPivotingErrors, ANonPMatrixIsRefused) {
  // M = [[0, 1], [1, 0]] has zero principal minors of order 1; with q = (-1,
  // 1) the first iteration frees index 0 alone and meets M_00 = 0.
  Eigen::MatrixXd M(2, 2);
  M << 0, 1, 1, 0;
  const Eigen::Vector2d q(-1, 1);
  EXPECT_TRUE(test::contains(test::message_of<ComputationError>([&] {
                               solve_lcp_block_pivoting<double>(M, Eigen::VectorXd(q));
                             }),
                             "not a P-matrix"));
}

}  // namespace
}  // namespace contactref::quasi_rigid
