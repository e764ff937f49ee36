#pragma once
// The regular Loop patch: a quartic box spline over 12 control vertices
// (canonical order of loop_patch_neighbourhood, parameter (u, v) = lattice
// coordinates, face (0,0), (1,0), (0,1)). Its 12 basis polynomials are not
// typed in: they are derived once from the subdivision rules themselves (an
// impulse at each control vertex is subdivided twice on the regular lattice,
// the limit mask gives the limit surface at the 15 points (i/4, j/4) of the
// face, and the quartic through them is solved for), in 50 digits.
#include <array>

#include "reference/surfaces/patch_jet.hpp"

namespace contactref::surfaces {

// Monomials u^a v^b with a + b <= 4, by degree.
inline constexpr int kQuarticTerms = 15;
inline constexpr std::array<std::array<int, 2>, kQuarticTerms> kQuarticMonomials = {
    {{0, 0}, {1, 0}, {0, 1}, {2, 0}, {1, 1}, {0, 2}, {3, 0}, {2, 1}, {1, 2}, {0, 3}, {4, 0}, {3, 1}, {2, 2}, {1, 3}, {0, 4}}};

template <class T> using QuarticCoefficients = Eigen::Matrix<T, 3, kQuarticTerms>;
template <class T> using RegularControl = Eigen::Matrix<T, 3, 12>;

// basis(k, m): the coefficient of monomial m in the basis function of
// control vertex k. Computed on first use (thread-safe), exact to T's precision.
template <class T>
const Eigen::Matrix<T, 12, kQuarticTerms>& loop_regular_basis();

// The nonzero entries of the derivatives of the quartic monomials: derivative
// kJetOrders[jet_column] of monomial u^a v^b is factor u^u_power v^v_power.
struct QuarticDerivativeTerm {
  int jet_column, monomial, factor, u_power, v_power;
};
inline constexpr int kQuarticDerivativeTermCount = 65;
constexpr std::array<QuarticDerivativeTerm, kQuarticDerivativeTermCount> quartic_derivative_terms() {
  std::array<QuarticDerivativeTerm, kQuarticDerivativeTermCount> terms{};
  std::size_t n = 0;
  for (int k = 0; k < kJetSize; ++k) {
    const int i = kJetOrders[std::size_t(k)][0], j = kJetOrders[std::size_t(k)][1];
    for (int m = 0; m < kQuarticTerms; ++m) {
      const int a = kQuarticMonomials[std::size_t(m)][0], b = kQuarticMonomials[std::size_t(m)][1];
      if (a < i || b < j) continue;
      int factor = 1;
      for (int x = 0; x < i; ++x) factor *= a - x;
      for (int x = 0; x < j; ++x) factor *= b - x;
      terms[n++] = {k, m, factor, a - i, b - j};
    }
  }
  return terms;
}
inline constexpr std::array<QuarticDerivativeTerm, kQuarticDerivativeTermCount> kQuarticDerivativeTerms =
    quartic_derivative_terms();

// The jets at (u, v) of the quartics whose monomial coefficients are the rows
// of `coefficients` (R x 15): an R x 10 matrix, column k the derivative
// kJetOrders[k]. Only the 65 nonzero monomial derivatives are visited.
template <class Derived, class T = typename Derived::Scalar>
Eigen::Matrix<T, Derived::RowsAtCompileTime, kJetSize, 0, Derived::MaxRowsAtCompileTime, kJetSize> quartic_jets(
    const Eigen::MatrixBase<Derived>& coefficients, const T& u, const T& v) {
  std::array<T, 5> up{T(1), u, u * u, T(0), T(0)}, vp{T(1), v, v * v, T(0), T(0)};
  up[3] = up[2] * u, up[4] = up[3] * u, vp[3] = vp[2] * v, vp[4] = vp[3] * v;
  Eigen::Matrix<T, Derived::RowsAtCompileTime, kJetSize, 0, Derived::MaxRowsAtCompileTime, kJetSize> jets =
      Eigen::Matrix<T, Derived::RowsAtCompileTime, kJetSize, 0, Derived::MaxRowsAtCompileTime, kJetSize>::Zero(
          coefficients.rows(), kJetSize);
  for (const QuarticDerivativeTerm& term : kQuarticDerivativeTerms) {
    const T value = T(term.factor) * up[std::size_t(term.u_power)] * vp[std::size_t(term.v_power)];
    jets.col(term.jet_column) += value * coefficients.col(term.monomial);
  }
  return jets;
}

// The jet at (u, v) of the quartic sum_m coefficients.col(m) u^a v^b.
template <class T>
PatchJet<T> quartic_jet(const QuarticCoefficients<T>& coefficients, const T& u, const T& v) {
  PatchJet<T> jet;
  jet.d = quartic_jets(coefficients, u, v);
  return jet;
}

// The polynomial of a regular patch from its 12 control points (columns).
template <class T>
QuarticCoefficients<T> regular_patch_polynomial(const RegularControl<T>& control) {
  return control * loop_regular_basis<T>();
}

}  // namespace contactref::surfaces
