#pragma once
// A rigid indenter pressed with a given load into a compliant surface sampled
// at N nodes (Pauly et al. Section 4.2, Eq. 10, with one body rigid): the
// separation s = R p + g - delta 1 >= 0, the tractions p >= 0, s^T p = 0
// where g are the nodes' gaps before contact and delta
// the rigid approach, found so that the nodal tractions carry the load,
// sum_j a_j p_j = F (a_j the nodal areas). Each LCP is solved by block
// principal pivoting (block_pivoting.hpp), by Lemke where R turns out not to
// be a P-matrix. The load is a continuous
// nondecreasing function of delta, zero up to min g: delta is bracketed by
// doubling and found by Newton on its active set's linear law (safeguarded by
// bisection) to 1e-12 of the load.
#include <Eigen/Core>

namespace contactref::quasi_rigid {

struct Indentation {
  double approach = 0;        // delta (m)
  Eigen::VectorXd traction;   // p (Pa), the Shepard coefficients of the pressure
  Eigen::VectorXd separation; // s (m)
  double load = 0;            // sum_j a_j p_j (N)
  int lcp_solves = 0, pivots = 0;  // LCP solves, and their iterations (pivots) in all
};

// R (m/Pa, N x N), gaps g (m), areas a (m^2, > 0), load F (N, > 0).
// InputError: mismatched sizes, non-finite entries, F <= 0, an area <= 0.
// ComputationError: an LCP that neither solver solves, or no approach within
// 2^60 times the first bracket that carries the load.
Indentation indent_with_load(const Eigen::MatrixXd& R, const Eigen::VectorXd& gaps, const Eigen::VectorXd& areas,
                             double load);

}  // namespace contactref::quasi_rigid
