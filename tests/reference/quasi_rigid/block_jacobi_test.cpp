// The block-Jacobi preconditioner (block_jacobi.hpp) against independent
// references:
//  - on a block-diagonal matrix with its indices shuffled, the groups are its
//    blocks and the preconditioner is M's inverse: solve(M z) = z, with M z
//    formed directly;
//  - on the elastic response of a sampled plane (sampled_response.hpp),
//    GMRES with it on the right (ParallelDenseOperator, as block_pivoting.cpp
//    solves) reaches the LU's solution, in fewer iterations than with
//    Jacobi's.
#include <gtest/gtest.h>

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/LU>
#include <unsupported/Eigen/IterativeSolvers>
#include <algorithm>
#include <iostream>
#include <numeric>
#include <set>

#include "reference/quasi_rigid/block_jacobi.hpp"
#include "reference/quasi_rigid/parallel_dense_operator.hpp"
#include "reference/quasi_rigid/sampled_response.hpp"
#include "validation/fixtures/lattice_surfaces.hpp"
#include "tests/kit/random.hpp"

namespace contactref::quasi_rigid {
namespace {

TEST(BlockJacobi, FindsTheBlocksOfAShuffledBlockDiagonalMatrixAndInvertsIt) {
  test::Rng rng(test::kSeed + 1300);
  const Eigen::Index block = BlockJacobi::kBlock, n = 3 * block;
  // Block b holds the shuffled indices order[b block, (b + 1) block).
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::shuffle(order.begin(), order.end(), rng);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index b = 0; b < 3; ++b) {
    Eigen::MatrixXd A(block, block);
    for (Eigen::Index i = 0; i < block; ++i)
      for (Eigen::Index j = 0; j < block; ++j) A(i, j) = fixtures::uniform(rng, -1, 1);
    const Eigen::MatrixXd S = A.transpose() * A + Eigen::MatrixXd::Identity(block, block);  // positive definite
    for (Eigen::Index i = 0; i < block; ++i)
      for (Eigen::Index j = 0; j < block; ++j)
        M(order[std::size_t(b * block + i)], order[std::size_t(b * block + j)]) = S(i, j);
  }
  BlockJacobi preconditioner;
  preconditioner.compute(M);
  std::set<std::set<Eigen::Index>> groups, blocks;
  for (const auto& group : preconditioner.groups()) groups.emplace(group.begin(), group.end());
  for (Eigen::Index b = 0; b < 3; ++b) {
    blocks.emplace(order.begin() + b * block, order.begin() + (b + 1) * block);
  }
  EXPECT_EQ(groups, blocks);
  Eigen::VectorXd z(n);
  for (Eigen::Index k = 0; k < n; ++k) z(k) = fixtures::uniform(rng, -1, 1);
  // The blocks' condition (below about 1e3) times the LU's round-off.
  EXPECT_LE((preconditioner.solve(M * z) - z).cwiseAbs().maxCoeff(), 1e3 * 64 * double(block) * 2.2e-16);
}

TEST(BlockJacobi, TakesGmresOnTheRightToTheLuSolutionOfAnElasticResponseFasterThanJacobi) {
  // The volume-preserving response of the samples within 15 spacings of a
  // sampled plane's centre (about 700; the foot's kernel width, at a spacing
  // h = 1 mm), loaded by a unit gap.
  const double h = 1e-3;
  const MlsSurface plane(fixtures::lattice_plane(h, 22));
  const SurfaceSampling sampling(plane);
  std::vector<int> nodes;
  for (std::size_t k = 0; k < plane.samples().points.size(); ++k) {
    if (plane.samples().points[k].norm() <= 15 * h) nodes.push_back(static_cast<int>(k));
  }
  const Eigen::MatrixXd R = sampling.response(nodes, {ResponseKernel::Kind::kVolumePreserving, 1e-7, 10 * h});
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(R.rows());
  const Eigen::VectorXd exact = R.partialPivLu().solve(b);
  // R P^-1 y = b, x = P^-1 y; and Jacobi's (Eigen's, on the left).
  BlockJacobi P;
  P.compute(R);
  const ParallelDenseOperator R_P(R, &P);
  Eigen::GMRES<ParallelDenseOperator, Eigen::IdentityPreconditioner> blocked;
  Eigen::GMRES<Eigen::MatrixXd, Eigen::DiagonalPreconditioner<double>> jacobi;
  blocked.set_restart(50);  // block_pivoting.cpp's
  jacobi.set_restart(50);
  blocked.setTolerance(1e-13);
  jacobi.setTolerance(1e-13);
  const Eigen::VectorXd by_blocks = P.solve(blocked.compute(R_P).solve(b));
  const Eigen::VectorXd by_jacobi = jacobi.compute(R).solve(b);
  std::cout << "[block Jacobi] n = " << R.rows() << ": " << blocked.iterations() << " iterations (Jacobi: "
            << jacobi.iterations() << ")\n";
  // The residual 1e-13 times R's condition (about 1e2 here), with a factor
  // 10 to spare.
  const double bound = 10 * 1e2 * 1e-13 * exact.cwiseAbs().maxCoeff();
  EXPECT_LE((by_blocks - exact).cwiseAbs().maxCoeff(), bound);
  EXPECT_LE((by_jacobi - exact).cwiseAbs().maxCoeff(), bound);
  EXPECT_LT(blocked.iterations(), jacobi.iterations());
}

}  // namespace
}  // namespace contactref::quasi_rigid
