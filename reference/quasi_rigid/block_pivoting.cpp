#include "reference/quasi_rigid/block_pivoting.hpp"

#include <Eigen/LU>
#include <unsupported/Eigen/IterativeSolvers>
#include <algorithm>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <optional>
#include <string>
#include <type_traits>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "reference/quasi_rigid/parallel_dense_operator.hpp"

namespace contactref::quasi_rigid {
namespace {

// The full solves' relative residual: the LU's round-off for the orders
// the iterative solve replaces (some thousands).
constexpr double kFullTolerance = 1e-13;

// GMRES's restart: each cycle keeps this many directions (m of them: a
// few hundred kilobytes); the full solves from screened iterates (a relative
// residual of 1e-6 to 1e-13) take 25 to 40 iterations on the foot.
constexpr int kRestart = 50;

// The multiply-adds (LcpSolution::work) of Eigen's GMRES on an operator of
// order m with the block preconditioner on the right: per iteration, at
// position k of its cycle, one product and one block solve, and 2 k + 1
// Householder reflections of 2 m each; at each cycle's end its solution's k
// reflections, and at a restart the true residual.
double gmres_work(double m, Eigen::Index iterations) {
  const double block = double(BlockJacobi::kBlock), step = m * m + 2 * m * block;
  double work = 0;
  for (Eigen::Index done = 0; done < iterations;) {
    const Eigen::Index cycle = std::min<Eigen::Index>(kRestart, iterations - done);
    for (Eigen::Index k = 1; k <= cycle; ++k) work += step + double(2 * k + 1) * 2 * m;
    work += double(cycle) * 2 * m;
    done += cycle;
    if (done < iterations) work += step;
  }
  return work;
}

// M_FF z = b from `guess`, whose residual b - M_FF guess is r, to the
// relative residual `tolerance` by restarted GMRES (Eigen's) on
// M_FF P^-1 y = r, z = guess + P^-1 y, P the block-Jacobi preconditioner:
// on the right, GMRES's residual is M_FF's own (a Krylov method that
// minimises it, with one product per iteration where BiCGSTAB takes two:
// 23% fewer products on the foot). Nothing when it does not converge (the
// LU takes over; the caller checks the residual from w = M z + q, whose rows
// on F are M_FF z - b). Adds its work (LcpSolution::work) to `work`: the
// preconditioner's grouping (a pass over M_FF) and block LUs, GMRES's and
// P^-1 y.
std::optional<Eigen::VectorXd> iterative_solve(const Eigen::Ref<const Eigen::MatrixXd>& M_FF, const Eigen::VectorXd& b,
                                               const Eigen::VectorXd& guess, const Eigen::VectorXd& r,
                                               double tolerance, double& work) {
  const double m = double(M_FF.rows()), block = double(BlockJacobi::kBlock);
  BlockJacobi P;
  P.compute(M_FF);
  work += m * m + 2.0 / 3.0 * m * block * block;
  const double wanted = tolerance * b.norm(), r_norm = r.norm();
  if (r_norm <= wanted) return guess;  // a NaN goes on, to fail below
  Eigen::GMRES<ParallelDenseOperator, Eigen::IdentityPreconditioner> solver;
  solver.set_restart(kRestart);
  solver.setTolerance(wanted / r_norm);
  solver.setMaxIterations(std::max<Eigen::Index>(400, M_FF.rows() / 2));
  const ParallelDenseOperator A(M_FF, &P);
  solver.compute(A);
  const Eigen::VectorXd y = solver.solve(r);
  work += gmres_work(m, solver.iterations()) + 2 * m * block;
  if (solver.info() != Eigen::Success || !y.allFinite()) return std::nullopt;
  return Eigen::VectorXd(guess + P.solve(y));
}

}  // namespace

template <class T>
BlockPivoting<T>::BlockPivoting(const MatrixX<T>& M) : M_(M), M_scale_(check_lcp_matrix(M)), M_FF_(M) {}

template <class T>
LcpSolution<T> BlockPivoting<T>::solve(const VectorX<T>& q, const BlockPivotingOptions& options) {
  const MatrixX<T>& M = M_;
  const T q_scale = check_lcp_vector(M.rows(), q), M_scale = M_scale_;
  const int n = int(q.size());
  const int max_iterations = options.max_iterations > 0 ? options.max_iterations : 10 * n + 100;
  // F: z free, w = 0; start with G = all (z = 0), or with the caller's guess.
  if (!options.initial_free.empty() && options.initial_free.size() != std::size_t(n)) {
    throw InputError("LCP (n = " + std::to_string(n) + "): an initial free set of " +
                     std::to_string(options.initial_free.size()) + " entries");
  }
  if (options.initial_z.size() != 0 && options.initial_z.size() != n) {
    throw InputError("LCP (n = " + std::to_string(n) + "): an initial z of " +
                     std::to_string(options.initial_z.size()) + " entries");
  }
  std::vector<bool> free = options.initial_free.empty() ? std::vector<bool>(std::size_t(n), false) : options.initial_free;
  LcpSolution<T> solution;
  solution.z = options.initial_z.size() == n ? VectorX<T>(options.initial_z.cast<T>()) : VectorX<T>::Zero(n);
  int best = n + 1, stalled = 0;
  bool screening = options.screening > 0;
  for (;; ++solution.pivots) {
    if (solution.pivots > max_iterations) {
      std::ostringstream os;
      os << "LCP (n = " << n << "): block principal pivoting took more than " << max_iterations << " iterations";
      throw ComputationError(os.str());
    }
    std::vector<int> F;
    for (int i = 0; i < n; ++i)
      if (free[std::size_t(i)]) F.push_back(i);
    const int m = int(F.size());
    solution.work += M_FF_.assign(F);
    const std::vector<int>& slots = M_FF_.indices();  // F in M_FF's order
    const auto M_FF = M_FF_.matrix();
    VectorX<T> q_F(m);
    for (int a = 0; a < m; ++a) q_F(a) = q(slots[std::size_t(a)]);
    bool screened = false;  // z solved only to the screening tolerance
    VectorX<T> previous = VectorX<T>::Zero(n), previous_w;
    previous.swap(solution.z);  // the last iterate (zero at the start); solution.z is zero again
    previous_w.swap(solution.w);  // its w = M z + q (empty at the start)
    // z_F, and w = M z + q from F's columns alone (z is 0 on G): n m, not n^2.
    const auto solve_F = [&](const VectorX<T>& z_F) {
      for (int a = 0; a < m; ++a) solution.z(slots[std::size_t(a)]) = z_F(a);
      solution.w = q + product_of_columns<T>(M, slots, solution.z);
      solution.work += double(n) * double(m);
    };
    bool solved = m == 0;
    if (solved) solution.w = q;
    if constexpr (std::is_same_v<T, double>) {
      if (m > 0 && m >= options.iterative_from) {
        // The last iterate's values on F start the iterative solve. Its
        // residual -q_F - M_FF guess is -w_F, but for the columns of the
        // indices that left F: m each, not M_FF's m^2 (at the start, the
        // product).
        VectorX<T> guess(m), r(m);
        for (int a = 0; a < m; ++a) guess(a) = previous(slots[std::size_t(a)]);
        if (previous_w.size() == n) {
          for (int a = 0; a < m; ++a) r(a) = -previous_w(slots[std::size_t(a)]);
          for (int j = 0; j < n; ++j) {
            if (free[std::size_t(j)] || previous(j) == 0) continue;
            for (int a = 0; a < m; ++a) r(a) += previous(j) * M(slots[std::size_t(a)], j);
            solution.work += double(m);
          }
        } else {
          r = -q_F;
          ParallelDenseOperator(M_FF).multiply_add(guess, -1.0, r);
          solution.work += double(m) * double(m);
        }
        const double tolerance = screening ? options.screening : kFullTolerance;
        if (const std::optional<VectorX<T>> z_F =
                iterative_solve(M_FF, VectorX<T>(-q_F), guess, r, tolerance, solution.work)) {
          solve_F(*z_F);
          // w on F is the residual M_FF z_F + q_F: within ten times the
          // tolerance, or the LU solves F.
          T residual = 0;
          for (int a = 0; a < m; ++a) residual += solution.w(slots[std::size_t(a)]) * solution.w(slots[std::size_t(a)]);
          solved = std::sqrt(residual) <= 10 * tolerance * q_F.norm();
          screened = screening && solved;
          if (!solved) solution.z.setZero();
        }
      }
    }
    if (!solved) {
      // Partial pivoting; singular when a pivot is within 64 m eps of the largest.
      const Eigen::PartialPivLU<MatrixX<T>> lu(M_FF);
      const auto pivots = lu.matrixLU().diagonal().cwiseAbs();
      if (!(pivots.minCoeff() > T(64 * m) * epsilon<T>() * pivots.maxCoeff())) {
        std::ostringstream os;
        os << "LCP (n = " << n << "): a principal submatrix of order " << m
           << " is singular: M is not a P-matrix (use Lemke)";
        throw ComputationError(os.str());
      }
      solve_F(lu.solve(VectorX<T>(-q_F)));
      solution.work += 2.0 / 3.0 * double(m) * double(m) * double(m) + double(m) * double(m);
      ++solution.lu_solves;
    }
    // Infeasible beyond the solves' round-off (64 n eps of each vector's
    // scale); a screened z errs by up to cond(M_FF) times its residual, so
    // there only beyond 100 times the screening tolerance (the full solve
    // settles the indices in between).
    const T z_scale = solution.z.cwiseAbs().maxCoeff();
    const T w_scale = q_scale + M_scale * z_scale;
    const T floor = screened ? T(100 * options.screening) : T(64 * n) * epsilon<T>();
    const T z_floor = floor * z_scale, w_floor = floor * w_scale;
    std::vector<int> infeasible;
    for (int i = 0; i < n; ++i) {
      const bool bad = free[std::size_t(i)] ? solution.z(i) < -z_floor : solution.w(i) < -w_floor;
      if (bad) infeasible.push_back(i);
    }
    if (infeasible.empty()) {
      if (!screened || !options.full_final_solve) break;
      screening = false;  // the same F again, solved in full
      continue;
    }
    const int count = int(infeasible.size());
    if (count < best) {
      best = count, stalled = 0;
    } else if (screened) {  // screening ends where it stalls: Murty's rule below needs exact solves
      screening = false, best = n + 1, stalled = 0;
    } else {
      ++stalled;
    }
    if (stalled < options.patience) {
      for (int i : infeasible) free[std::size_t(i)] = !free[std::size_t(i)];
    } else {  // Murty's rule: the largest infeasible index alone
      free[std::size_t(infeasible.back())] = !free[std::size_t(infeasible.back())];
    }
  }
  return solution;
}

template <class T>
LcpSolution<T> solve_lcp_block_pivoting(const MatrixX<T>& M, const VectorX<T>& q, const BlockPivotingOptions& options) {
  return BlockPivoting<T>(M).solve(q, options);
}

#define CONTACTREF_INSTANTIATE(T)                                                                           \
  template class BlockPivoting<T>;                                                                           \
  template LcpSolution<T> solve_lcp_block_pivoting<T>(const MatrixX<T>&, const VectorX<T>&, \
                                                      const BlockPivotingOptions&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::quasi_rigid
