#pragma once
// The block principal pivoting method for LCP(q, M) with M a P-matrix (Judice
// & Pires, Comput. Oper. Res. 21, 1994; Kostreva 1978): the fast solver beside
// Lemke (lemke.hpp) for large elastic LCPs (Pauly et al. Eq. 10, whose
// Boussinesq response is close to symmetric positive definite, so a
// P-matrix). Each iteration splits the indices into F (z free, w = 0) and G
// (z = 0), solves M_FF z_F = -q_F, and moves every infeasible index (z_i < 0
// in F, w_i < 0 in G) to the other set; when the number of infeasible
// indices has not fallen for `patience` iterations, only the largest one
// moves (Murty's rule), which ends for every P-matrix. Infeasible means
// beyond 64 n eps of the vector's scale (round-off of the solves); z is
// exactly 0 on G, and w = M z + q as computed.
#include <vector>

#include "reference/quasi_rigid/lemke.hpp"
#include "reference/quasi_rigid/principal_submatrix.hpp"

namespace contactref::quasi_rigid {

struct BlockPivotingOptions {
  int patience = 3;
  int max_iterations = 0;          // 0: 10 n + 100
  std::vector<bool> initial_free;  // the first F (a warm start), or empty: F empty
  Eigen::VectorXd initial_z;       // a guess of z (the first iterative solve starts there), or empty: 0
  // In double, M_FF z_F = -q_F is solved by GMRES (block_jacobi.hpp's
  // preconditioner on the right, from the last iterate, to a relative
  // residual of 1e-13) once F has this many indices, by the LU below it or
  // when GMRES does not converge: the LU's 2 m^3 / 3 against the Krylov
  // solve's some 20 to 40 m^2 (LcpSolution::work; the elastic responses are
  // well conditioned) cross near m = 100; from 1,000 to 200, the foot at 1.5
  // mm spacing went from 261 to 33 products of its order (1,349;
  // bench_foot_contact, with BiCGSTAB then).
  int iterative_from = 200;
  // The iterative solves only screen the free sets (to this relative
  // residual, 0: no screening) until one is feasible; that F is solved again
  // to 1e-13 and checked, and the pivoting goes on from it with full solves
  // if it is not feasible at that accuracy: a screened set only chooses the
  // next F, the solution is always the full solve of a feasible F. 1e-7: on
  // the foot's last split iteration (bench_foot_contact), 1e-6 chose a set
  // with one index that only the full solve found infeasible, a pivot more
  // of full solves (56.8 products of its order against 50.7; 1e-8: 51.4,
  // 1e-9: 52.5; the same solution).
  double screening = 1e-7;
  // False: the first feasible screened F ends the solve, its z to the
  // screening tolerance (within 100 screening of z's scale of feasible), for
  // a solve that only starts another (a split iteration before the last).
  bool full_final_solve = true;
};

// Solves LCPs that share one M (the split iterations of point_contact.hpp:
// one response, nearby gaps): M's input check, and M_FF
// (principal_submatrix.hpp), kept from one solve to the next.
template <class T>
class BlockPivoting {
 public:
  // InputError as check_lcp_matrix. M must outlive this object and stay
  // unchanged while it serves it.
  explicit BlockPivoting(const MatrixX<T>& M);

  // InputError as check_lcp_vector, and an initial_free or initial_z of
  // another size than q. ComputationError: a singular principal submatrix
  // (M is not a P-matrix), or more than max_iterations iterations.
  // LcpSolution::pivots counts the iterations.
  LcpSolution<T> solve(const VectorX<T>& q, const BlockPivotingOptions& options = {});

 private:
  const MatrixX<T>& M_;
  T M_scale_;
  PrincipalSubmatrix<T> M_FF_;
};

// One LCP: BlockPivoting<T>(M).solve(q, options).
template <class T>
LcpSolution<T> solve_lcp_block_pivoting(const MatrixX<T>& M, const VectorX<T>& q,
                                        const BlockPivotingOptions& options = {});

}  // namespace contactref::quasi_rigid
