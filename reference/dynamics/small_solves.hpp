#pragma once
// The small dense solves of the contact ODE (contact_dynamics.hpp), at a
// fixed size N <= 5 so that every loop unrolls: the Cholesky factor of the
// frictionless system (Eq. 20), the inverse of a triangular factor by
// substitution, the inverse of an LU factorisation up to the order of its
// columns (Eq. 28), and the exact 1-norm condition number from them. Eigen's
// LLT and triangular solves take their dynamic-size paths at these sizes,
// several times the cost of these few operations; its rcond estimate needs
// NumTraits<T>::infinity, which Real50's traits lack.
#include <Eigen/Core>
#include <Eigen/LU>
#include <cmath>

namespace contactref::dynamics::small_solves {

template <class T, int N> using Square = Eigen::Matrix<T, N, N>;

// The Cholesky factor L of a symmetric A (its lower triangle is read),
// A = L L^T, column by column: L(j, j)^2 = A(j, j) - sum_k L(j, k)^2 and
// L(i, j) = (A(i, j) - sum_k L(i, k) L(j, k)) / L(j, j), k < j. False when a
// pivot L(j, j)^2 is not above `pivot_floor` (or is NaN): A is not positive
// definite to that precision, and L is left unfinished.
template <class T, int N>
bool cholesky(const Square<T, N>& A, const T& pivot_floor, Square<T, N>& L) {
  using std::sqrt;
  L.setZero();
  for (int j = 0; j < N; ++j) {
    T pivot = A(j, j);
    for (int k = 0; k < j; ++k) pivot -= L(j, k) * L(j, k);
    if (!(pivot > pivot_floor)) return false;
    L(j, j) = sqrt(pivot);
    const T inverse_diagonal = 1 / L(j, j);
    for (int i = j + 1; i < N; ++i) {
      T entry = A(i, j);
      for (int k = 0; k < j; ++k) entry -= L(i, k) * L(j, k);
      L(i, j) = entry * inverse_diagonal;
    }
  }
  return true;
}

// L^-1 for a lower-triangular L with a nonzero diagonal, by forward
// substitution; the diagonal's reciprocals first (independent divisions),
// each row then multiplied by its own.
template <class T, int N>
Square<T, N> lower_triangular_inverse(const Square<T, N>& L) {
  Square<T, N> X = Square<T, N>::Zero();
  for (int j = 0; j < N; ++j) X(j, j) = 1 / L(j, j);
  for (int j = 0; j < N; ++j) {
    for (int i = j + 1; i < N; ++i) {
      T sum = T(0);
      for (int k = j; k < i; ++k) sum += L(i, k) * X(k, j);
      X(i, j) = -sum * X(i, i);
    }
  }
  return X;
}

// A^-1 up to the order of its columns from the LU factors with partial
// pivoting, P A = L U: A^-1 = U^-1 L^-1 P, and P only permutes the columns,
// which leaves the 1-norm unchanged.
template <class T, int N>
Square<T, N> lu_inverse_columns(const Eigen::PartialPivLU<Square<T, N>>& lu) {
  const Square<T, N> L = lu.matrixLU().template triangularView<Eigen::UnitLower>();
  const Square<T, N> U_T = lu.matrixLU().transpose().template triangularView<Eigen::Lower>();
  return Square<T, N>(lower_triangular_inverse<T, N>(U_T).transpose() * lower_triangular_inverse<T, N>(L));
}

// The 1-norm condition number |A|_1 |A^-1|_1 (NaN in the inverse propagates).
template <class T, int N>
T condition_number(const Square<T, N>& A, const Square<T, N>& inverse) {
  return A.cwiseAbs().colwise().sum().maxCoeff() * inverse.cwiseAbs().colwise().sum().template maxCoeff<Eigen::PropagateNaN>();
}

}  // namespace contactref::dynamics::small_solves
