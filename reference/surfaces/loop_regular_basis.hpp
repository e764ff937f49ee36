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

// monomial_jets(u, v)(m, k): derivative kJetOrders[k] of monomial m at (u, v).
template <class T>
Eigen::Matrix<T, kQuarticTerms, kJetSize> monomial_jets(const T& u, const T& v);

// The jet at (u, v) of the quartic sum_m coefficients.col(m) u^a v^b.
template <class T>
PatchJet<T> quartic_jet(const QuarticCoefficients<T>& coefficients, const T& u, const T& v) {
  PatchJet<T> jet;
  jet.d = coefficients * monomial_jets(u, v);
  return jet;
}

// The polynomial of a regular patch from its 12 control points (columns).
template <class T>
QuarticCoefficients<T> regular_patch_polynomial(const RegularControl<T>& control) {
  return control * loop_regular_basis<T>();
}

}  // namespace contactref::surfaces
