#include "reference/quasi_rigid/elastic_lcp.hpp"

#include "core/errors.hpp"
#include "reference/quasi_rigid/block_pivoting.hpp"

namespace contactref::quasi_rigid {

ElasticLcpSolution solve_elastic_lcp(const Eigen::MatrixXd& R, const Eigen::VectorXd& q,
                                     const std::vector<bool>& initial_free, const Eigen::VectorXd& initial_p,
                                     bool full) {
  try {
    BlockPivotingOptions options;
    options.initial_free = initial_free;
    options.initial_z = initial_p;
    options.full_final_solve = full;
    return {solve_lcp_block_pivoting<double>(R, q, options), false};
  } catch (const ComputationError&) {
    return {solve_lcp_lemke<double>(R, q), true};
  }
}

}  // namespace contactref::quasi_rigid
