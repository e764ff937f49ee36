#include "reference/quasi_rigid/lemke.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <sstream>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"

namespace contactref::quasi_rigid {
namespace {

// The tableau of w - M z - d z0 = q: columns w (0..n-1), z (n..2n-1), z0
// (2n), right-hand side (2n + 1). Columns 0..n-1 hold the basis inverse.
template <class T>
class Tableau {
 public:
  Tableau(const MatrixX<T>& M, const VectorX<T>& q) : n_(int(q.size())), t_(MatrixX<T>::Zero(n_, 2 * n_ + 2)) {
    t_.leftCols(n_).setIdentity();
    t_.middleCols(n_, n_) = -M;
    t_.col(2 * n_).setConstant(T(-1));
    t_.col(2 * n_ + 1) = q;
    for (int i = 0; i < n_; ++i) basis_.push_back(i);
  }
  int z0() const { return 2 * n_; }
  int complement(int variable) const { return variable < n_ ? variable + n_ : variable - n_; }
  const T& rhs(int row) const { return t_(row, 2 * n_ + 1); }
  const T& entry(int row, int column) const { return t_(row, column); }
  int basic(int row) const { return basis_[std::size_t(row)]; }

  // Makes `column` basic in `row`; returns the variable that leaves.
  int pivot(int row, int column) {
    t_.row(row) /= T(t_(row, column));
    for (int i = 0; i < n_; ++i)
      if (i != row && t_(i, column) != T(0)) t_.row(i) -= T(t_(i, column)) * t_.row(row);
    const int leaving = basis_[std::size_t(row)];
    basis_[std::size_t(row)] = column;
    return leaving;
  }
  // Whether row a's (rhs, basis inverse) / pivot entry is lexicographically
  // below row b's.
  bool lexicographically_below(int a, int b, int column) const {
    const T pa = t_(a, column), pb = t_(b, column);
    if (rhs(a) / pa != rhs(b) / pb) return rhs(a) / pa < rhs(b) / pb;
    for (int k = 0; k < n_; ++k) {
      const T ra = t_(a, k) / pa, rb = t_(b, k) / pb;
      if (ra != rb) return ra < rb;
    }
    return a < b;
  }

 private:
  int n_;
  MatrixX<T> t_;
  std::vector<int> basis_;
};

}  // namespace

template <class T>
T check_lcp_matrix(const MatrixX<T>& M) {
  if (M.rows() != M.cols()) {
    std::ostringstream os;
    os << "LCP: M must be square, got " << M.rows() << " x " << M.cols();
    throw InputError(os.str());
  }
  if (M.size() == 0) return T(0);
  // One pass over M (the elastic LCP's is some 60 MB): its largest
  // magnitude, NaN or infinite where an entry is; in double, its columns on
  // oneTBB's threads (a maximum: the same on any thread count).
  T scale;
  if constexpr (std::is_same_v<T, double>) {
    const auto larger = [](double a, double b) {  // NaN wins
      return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::max(a, b);
    };
    scale = tbb::parallel_reduce(
        tbb::blocked_range<Eigen::Index>(0, M.cols()), 0.0,
        [&](const tbb::blocked_range<Eigen::Index>& columns, double largest) {
          return larger(largest, M.middleCols(columns.begin(), columns.size())
                                     .cwiseAbs()
                                     .template maxCoeff<Eigen::PropagateNaN>());
        },
        larger);
  } else {
    scale = M.allFinite() ? T(M.cwiseAbs().maxCoeff()) : std::numeric_limits<T>::quiet_NaN();
  }
  using std::isfinite;
  if (!isfinite(scale)) throw InputError("LCP: M and q must be finite");
  return scale;
}

template <class T>
T check_lcp_vector(Eigen::Index n, const VectorX<T>& q) {
  if (q.size() != n) {
    std::ostringstream os;
    os << "LCP: q has " << q.size() << " entries, M is " << n << " x " << n;
    throw InputError(os.str());
  }
  if (!q.allFinite()) throw InputError("LCP: M and q must be finite");
  return n == 0 ? T(0) : T(q.cwiseAbs().maxCoeff());
}

template <class T>
LcpScales<T> check_lcp_input(const MatrixX<T>& M, const VectorX<T>& q) {
  const T M_scale = check_lcp_matrix(M);
  return {check_lcp_vector(M.rows(), q), M_scale};
}

template <class T>
LcpSolution<T> solve_lcp_lemke(const MatrixX<T>& M, const VectorX<T>& q, const LemkeOptions& options) {
  const LcpScales<T> scales = check_lcp_input(M, q);
  const int n = int(q.size());
  LcpSolution<T> solution;
  solution.z = VectorX<T>::Zero(n);
  if (n == 0 || q.minCoeff() >= T(0)) {
    solution.w = q;
    return solution;
  }
  using std::abs;
  const int max_pivots = options.max_pivots > 0 ? options.max_pivots : 50 * n + 100;
  // Solved in units where M and q are O(1): w' = w / |q|, z' = z |M| / |q|
  // (max norms), so that the tolerances below do not depend on the units of
  // the problem (the elastic LCP's R is some 1e-13 m/Pa against gaps of 1e-5 m).
  const T q_scale = scales.q, m_scale = scales.M;
  if (!(m_scale > T(0))) {
    std::ostringstream os;
    os << "LCP (n = " << n << "): M = 0 and q has a negative entry: no solution";
    throw ComputationError(os.str());
  }
  Tableau<T> tableau(MatrixX<T>(M / m_scale), VectorX<T>(q / q_scale));
  // z0 enters where q is most negative (the first such row).
  int row = 0;
  for (int i = 1; i < n; ++i)
    if (q(i) < q(row)) row = i;
  int entering = tableau.complement(tableau.pivot(row, tableau.z0()));
  for (;;) {
    if (solution.pivots >= max_pivots) {
      std::ostringstream os;
      os << "LCP (n = " << n << "): Lemke's method took more than " << max_pivots << " pivots";
      throw ComputationError(os.str());
    }
    // Entries of the entering column below 64 n eps of its largest are zero
    // for the ratio test (relative, so that the units of M do not matter).
    T largest = T(0);
    for (int i = 0; i < n; ++i) largest = std::max(largest, T(abs(tableau.entry(i, entering))));
    const T tolerance = T(64 * n) * epsilon<T>() * largest;
    int leave_row = -1;
    for (int i = 0; i < n; ++i) {
      if (!(tableau.entry(i, entering) > tolerance)) continue;
      if (leave_row < 0 || tableau.lexicographically_below(i, leave_row, entering)) leave_row = i;
    }
    if (leave_row < 0) {
      std::ostringstream os;
      os << "LCP (n = " << n << "): Lemke's method ended on a ray after " << solution.pivots
         << " pivots (no solution found: for a copositive-plus M the LCP is infeasible)";
      throw ComputationError(os.str());
    }
    // z0 leaves as soon as its row ties for the minimum ratio.
    for (int i = 0; i < n; ++i) {
      if (tableau.basic(i) != tableau.z0() || !(tableau.entry(i, entering) > tolerance)) continue;
      const T ratio = tableau.rhs(i) / tableau.entry(i, entering);
      const T best = tableau.rhs(leave_row) / tableau.entry(leave_row, entering);
      if (abs(ratio - best) <= T(64 * n) * epsilon<T>() * abs(best)) leave_row = i;
    }
    const int leaving = tableau.pivot(leave_row, entering);
    ++solution.pivots;
    solution.work += double(n) * double(2 * n + 2);
    if (leaving == tableau.z0()) break;
    entering = tableau.complement(leaving);
  }
  for (int i = 0; i < n; ++i) {
    const int variable = tableau.basic(i);
    if (variable >= n && variable < 2 * n) solution.z(variable - n) = std::max(T(0), T(tableau.rhs(i) * q_scale / m_scale));
  }
  solution.w = M * solution.z + q;
  solution.work += 3.0 * double(n) * double(n);  // the tableau's set-up and w
  return solution;
}

#define CONTACTREF_INSTANTIATE(T)                                                                       \
  template T check_lcp_matrix<T>(const MatrixX<T>&);                                                    \
  template T check_lcp_vector<T>(Eigen::Index, const VectorX<T>&);                                       \
  template LcpScales<T> check_lcp_input<T>(const MatrixX<T>&, const VectorX<T>&);                               \
  template LcpSolution<T> solve_lcp_lemke<T>(const MatrixX<T>&, const VectorX<T>&, const LemkeOptions&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::quasi_rigid
