#include "reference/quasi_rigid/indentation.hpp"

#include <cmath>
#include <sstream>
#include <vector>

#include <Eigen/LU>

#include "core/errors.hpp"
#include "reference/quasi_rigid/elastic_lcp.hpp"

namespace contactref::quasi_rigid {

Indentation indent_with_load(const Eigen::MatrixXd& R, const Eigen::VectorXd& gaps, const Eigen::VectorXd& areas,
                             double load) {
  const Eigen::Index n = gaps.size();
  if (R.rows() != n || R.cols() != n || areas.size() != n || n == 0 || !R.allFinite() || !gaps.allFinite() ||
      !areas.allFinite() || !(areas.minCoeff() > 0) || !(load > 0) || !std::isfinite(load)) {
    std::ostringstream os;
    os << "indentation: need an N x N response, N gaps and N positive areas (N = " << n << ", R " << R.rows() << " x "
       << R.cols() << ", " << areas.size() << " areas), all finite, and a load > 0 (got " << load << " N)";
    throw InputError(os.str());
  }
  Indentation result;
  const auto solve = [&](double approach) {
    const LcpSolution<double> s = solve_elastic_lcp(R, gaps - Eigen::VectorXd::Constant(n, approach)).lcp;
    ++result.lcp_solves;
    result.pivots += s.pivots;
    result.approach = approach;
    result.traction = s.z;
    result.separation = s.w;
    result.load = areas.dot(s.z);
    return result.load;
  };
  // The bracket: below, the first contact; above, the approach at which one
  // node alone would carry the load (F R_ii / a_i; more nodes carry more),
  // doubled while it does not.
  double low = gaps.minCoeff();
  double step = load * (R.diagonal().cwiseAbs().array() / areas.array()).maxCoeff();
  double high = low + step, high_excess = solve(high) - load;
  for (int doubling = 0; high_excess < 0; ++doubling) {
    if (doubling == 60) throw ComputationError("indentation: no approach carries the load (the response too stiff?)");
    low = high, step *= 2, high = low + step;
    high_excess = solve(high) - load;
  }
  // Newton on the piecewise-linear load(delta) - F: within the active set A
  // of the last solve (p > 0), p_A = R_AA^-1 (delta - g_A), so the slope is
  // a_A . R_AA^-1 1; a step that leaves the bracket is a bisection instead.
  double delta = high, excess = high_excess;
  for (int iteration = 0; iteration < 100 && std::abs(excess) > 1e-12 * load; ++iteration) {
    std::vector<Eigen::Index> active;
    for (Eigen::Index i = 0; i < n; ++i)
      if (result.traction(i) > 0) active.push_back(i);
    double next = (low + high) / 2;
    if (!active.empty()) {
      const Eigen::Index m = Eigen::Index(active.size());
      Eigen::MatrixXd R_A(m, m);
      Eigen::VectorXd a_A(m);
      for (Eigen::Index r = 0; r < m; ++r) {
        a_A(r) = areas(active[std::size_t(r)]);
        for (Eigen::Index c = 0; c < m; ++c) R_A(r, c) = R(active[std::size_t(r)], active[std::size_t(c)]);
      }
      const double slope = a_A.dot(R_A.partialPivLu().solve(Eigen::VectorXd::Ones(m)));
      const double newton = delta - excess / slope;
      if (slope > 0 && newton > low && newton < high) next = newton;
    }
    delta = next;
    excess = solve(delta) - load;
    (excess < 0 ? low : high) = delta;
  }
  return result;
}

}  // namespace contactref::quasi_rigid
