#pragma once
// Lemke's complementary pivoting method for the linear complementarity
// problem LCP(q, M) (Murty, Linear Complementarity, Linear and Nonlinear
// Programming, 1988, Ch. 2; Cottle, Pang & Stone 1992, Sec. 4.4): find z with
//   w = M z + q >= 0,  z >= 0,  w^T z = 0.
// Pauly et al.'s elastic LCP (Eq. 10: s = R p + q) is solved by it, "always
// solvable" because R is copositive (Section 2.1): the reference solver of
// reference/quasi_rigid, in double and in 50 digits.
//
// The method: the tableau of w - M z - d z0 = q with the covering vector
// d = (1, ..., 1); z0 enters at the most negative q_i, then the complement of
// each leaving variable enters, until z0 leaves (a solution) or the entering
// column has no positive entry (ray termination: no solution is found, which
// for a copositive-plus M means the LCP is infeasible). The ratio test breaks
// ties lexicographically on the rows of the basis inverse, so degenerate
// problems cannot cycle, and prefers z0's row, so that it leaves as soon as it
// can. The tableau holds the problem scaled to M / |M|max and q / |q|max, so
// that its tolerances (64 n eps of each entering column) do not depend on
// units.
#include <Eigen/Core>

#include "core/scalar.hpp"

namespace contactref::quasi_rigid {

template <class T> using MatrixX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T> using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <class T>
struct LcpSolution {
  VectorX<T> z, w;  // w = M z + q
  int pivots = 0;   // complementary pivots after z0 entered (0 when q >= 0)
  // The solve's work in entries of M's order touched, a machine-independent
  // cost: m^2 for a product with (or a copy of) an m x m block, 2 m^3 / 3
  // for its LU, n (2 n + 2) for a pivot of Lemke's tableau.
  double work = 0;
  // Block pivoting's free sets solved by the LU: below iterative_from, or
  // where the iterative solve did not reach its tolerance.
  int lu_solves = 0;
};

struct LemkeOptions {
  int max_pivots = 0;  // 0: 50 n + 100
};

// The largest magnitudes of q's and M's entries (0 when n = 0).
template <class T>
struct LcpScales {
  T q = T(0), M = T(0);
};

// InputError: M not square, q of another size, a non-finite entry (every
// LCP solver's check). Otherwise the scales, from the same pass over M.
template <class T>
LcpScales<T> check_lcp_input(const MatrixX<T>& M, const VectorX<T>& q);
// Its two halves: M's (square, finite; its largest magnitude) and q's for
// an M of order n (n entries, finite; its largest magnitude).
template <class T>
T check_lcp_matrix(const MatrixX<T>& M);
template <class T>
T check_lcp_vector(Eigen::Index n, const VectorX<T>& q);

// InputError as check_lcp_input.
// ComputationError: ray termination, or more than max_pivots pivots (both
// name n and the pivot count).
template <class T>
LcpSolution<T> solve_lcp_lemke(const MatrixX<T>& M, const VectorX<T>& q, const LemkeOptions& options = {});

}  // namespace contactref::quasi_rigid
