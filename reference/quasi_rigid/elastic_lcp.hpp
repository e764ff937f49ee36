#pragma once
// The elastic LCP of Pauly et al. Eq. 10, s = R p + q >= 0, p >= 0,
// s^T p = 0, solved by block principal pivoting (the fast solver), and by
// Lemke (the reference) where R turns out not to be a P-matrix.
#include <Eigen/Core>
#include <vector>

#include "reference/quasi_rigid/block_pivoting.hpp"
#include "reference/quasi_rigid/lemke.hpp"

namespace contactref::quasi_rigid {

struct ElasticLcpSolution {
  LcpSolution<double> lcp;  // z = p, w = s
  bool lemke = false;       // block pivoting failed; Lemke solved it
};

// The LCPs of one response R (the split iterations): block pivoting keeps
// R's check and its free sets' blocks from one solve to the next.
class ElasticLcp {
 public:
  // InputError as check_lcp_matrix. R must outlive this object and stay
  // unchanged while it serves it.
  explicit ElasticLcp(const Eigen::MatrixXd& R) : R_(R), fast_(R) {}

  // InputError as check_lcp_vector; ComputationError where neither solver
  // solves it. initial_free: block pivoting's first free set (a warm
  // start), or empty; initial_p: a guess of p, where its iterative solves
  // start, or empty. full: false where the solution only starts another
  // solve (block pivoting's full_final_solve, its screening at 1e-6).
  ElasticLcpSolution solve(const Eigen::VectorXd& q, const std::vector<bool>& initial_free = {},
                           const Eigen::VectorXd& initial_p = {}, bool full = true);

 private:
  const Eigen::MatrixXd& R_;
  BlockPivoting<double> fast_;
};

// One LCP: ElasticLcp(R).solve(q, ...).
ElasticLcpSolution solve_elastic_lcp(const Eigen::MatrixXd& R, const Eigen::VectorXd& q,
                                     const std::vector<bool>& initial_free = {},
                                     const Eigen::VectorXd& initial_p = {}, bool full = true);

}  // namespace contactref::quasi_rigid
