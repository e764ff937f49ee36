#include "reference/quasi_rigid/elastic_lcp.hpp"

#include "core/errors.hpp"

namespace contactref::quasi_rigid {

ElasticLcpSolution ElasticLcp::solve(const Eigen::VectorXd& q, const std::vector<bool>& initial_free,
                                     const Eigen::VectorXd& initial_p, bool full) {
  try {
    BlockPivotingOptions options;
    options.initial_free = initial_free;
    options.initial_z = initial_p;
    options.full_final_solve = full;
    // A solve that only starts another (point_contact.cpp's split
    // iterations before the last) ends at its screened tractions: to 1e-6,
    // more than the next iteration's measurements resolve.
    if (!full) options.screening = 1e-6;
    return {fast_.solve(q, options), false};
  } catch (const ComputationError&) {
    return {solve_lcp_lemke<double>(R_, q), true};
  }
}

ElasticLcpSolution solve_elastic_lcp(const Eigen::MatrixXd& R, const Eigen::VectorXd& q,
                                     const std::vector<bool>& initial_free, const Eigen::VectorXd& initial_p,
                                     bool full) {
  return ElasticLcp(R).solve(q, initial_free, initial_p, full);
}

}  // namespace contactref::quasi_rigid
