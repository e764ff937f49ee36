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

// The column of monomial u^a v^b in kQuarticMonomials' order (by degree).
constexpr int quartic_monomial(int a, int b) { return (a + b) * (a + b + 1) / 2 + b; }
static_assert([] {
  for (int m = 0; m < kQuarticTerms; ++m)
    if (quartic_monomial(kQuarticMonomials[std::size_t(m)][0], kQuarticMonomials[std::size_t(m)][1]) != m) return false;
  return true;
}());

// The jets at (u, v) of the quartics whose monomial coefficients are the rows
// of `coefficients` (R x 15): an R x 10 matrix, column k the derivative
// kJetOrders[k]. By a Taylor shift: the coefficient of x^i y^j in
// p(u + x, v + y) is (d^(i+j) p / du^i dv^j) / (i! j!), and the shift is
// Ruffini-Horner's, in u for each power of v, then in v for each power of x:
// 40 multiply-adds per row, where summing the 65 nonzero monomial
// derivatives costs 65 multiply-adds and their weights.
template <class Derived, class T = typename Derived::Scalar>
Eigen::Matrix<T, Derived::RowsAtCompileTime, kJetSize, 0, Derived::MaxRowsAtCompileTime, kJetSize> quartic_jets(
    const Eigen::MatrixBase<Derived>& coefficients, const T& u, const T& v) {
  using Column = Eigen::Matrix<T, Derived::RowsAtCompileTime, 1, 0, Derived::MaxRowsAtCompileTime, 1>;
  std::array<Column, kQuarticTerms> shifted;  // by monomial column
  for (int m = 0; m < kQuarticTerms; ++m) shifted[std::size_t(m)] = coefficients.col(m);
  const auto at = [&](int a, int b) -> Column& { return shifted[std::size_t(quartic_monomial(a, b))]; };
  for (int b = 0; b < 4; ++b)  // p(u + x, v): degree 4 - b in u
    for (int i = 0; i < 4 - b; ++i)
      for (int a = 3 - b; a >= i; --a) at(a, b) += u * at(a + 1, b);
  for (int a = 0; a < 4; ++a)  // then p(u + x, v + y): degree 4 - a in v
    for (int i = 0; i < 4 - a; ++i)
      for (int b = 3 - a; b >= i; --b) at(a, b) += v * at(a, b + 1);
  constexpr std::array<int, 4> factorial{1, 1, 2, 6};
  Eigen::Matrix<T, Derived::RowsAtCompileTime, kJetSize, 0, Derived::MaxRowsAtCompileTime, kJetSize> jets(
      coefficients.rows(), kJetSize);
  for (int k = 0; k < kJetSize; ++k) {
    const int i = kJetOrders[std::size_t(k)][0], j = kJetOrders[std::size_t(k)][1];
    jets.col(k) = T(factorial[std::size_t(i)] * factorial[std::size_t(j)]) * at(i, j);
  }
  return jets;
}

// The coefficients of q(x, y) = p(M (x, y)), p the quartic whose monomial
// coefficients are the columns of `coefficients`: q's jet at (x, y) is p's
// jet at M (x, y) carried by the chain rule (AffineJetMap(M)), with no map
// left to apply at evaluation. Each monomial s^a t^b of p becomes
// (M00 x + M01 y)^a (M10 x + M11 y)^b, homogeneous of degree a + b.
template <class T>
QuarticCoefficients<T> substitute_linear(const QuarticCoefficients<T>& coefficients, const Mat2<T>& M) {
  // A homogeneous form of degree d: entry j is the coefficient of x^(d-j) y^j.
  using Form = std::array<T, 5>;
  const auto times = [](const Form& f, int degree, const T& along_x, const T& along_y) {
    Form out;
    out.fill(T(0));
    for (int j = 0; j <= degree; ++j) {
      out[std::size_t(j)] += f[std::size_t(j)] * along_x;
      out[std::size_t(j + 1)] += f[std::size_t(j)] * along_y;
    }
    return out;
  };
  QuarticCoefficients<T> out = QuarticCoefficients<T>::Zero();
  for (int a = 0; a <= 4; ++a)
    for (int b = 0; a + b <= 4; ++b) {
      Form form;
      form.fill(T(0));
      form[0] = T(1);
      for (int k = 0; k < a; ++k) form = times(form, k, M(0, 0), M(0, 1));
      for (int k = 0; k < b; ++k) form = times(form, a + k, M(1, 0), M(1, 1));
      for (int j = 0; j <= a + b; ++j)
        out.col(quartic_monomial(a + b - j, j)) += form[std::size_t(j)] * coefficients.col(quartic_monomial(a, b));
    }
  return out;
}

// The jet at (u, v) of the quartic sum_m coefficients.col(m) u^a v^b.
template <class T>
PatchJet<T> quartic_jet(const QuarticCoefficients<T>& coefficients, const T& u, const T& v) {
  return PatchJet<T>{quartic_jets(coefficients, u, v)};
}

// The polynomial of a regular patch from its 12 control points (columns).
template <class T>
QuarticCoefficients<T> regular_patch_polynomial(const RegularControl<T>& control) {
  return control * loop_regular_basis<T>();
}

}  // namespace contactref::surfaces
