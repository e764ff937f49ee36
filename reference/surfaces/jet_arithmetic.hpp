#pragma once
// Forward-mode differentiation to third order in two parameters: a truncated
// bivariate Taylor series ("jet")
//   f(s + ds, t + dt) = sum_{i + j <= 3} c_ij ds^i dt^j + O(|(ds, dt)|^4),
// with the arithmetic of such series (Kry's thesis 5.3.1 hand-codes the same
// rules statement by statement; Fig 5.11). Coefficient c_ij sits at column
// jet_index(i, j) of PatchJet, and the derivative d^(i+j) f / ds^i dt^j is
// i! j! c_ij.
#include <array>

#include "reference/surfaces/patch_jet.hpp"

namespace contactref::surfaces {

// The products c_out += a_left * b_right of two truncated series: every pair of
// columns whose orders add up to at most 3 (35 pairs), by increasing order of
// the output; for each output the pair with left = 0 comes last.
struct JetProductTerm {
  int out, left, right;
};
inline constexpr int kJetProductTerms = 35;
constexpr std::array<JetProductTerm, kJetProductTerms> jet_product_terms() {
  std::array<JetProductTerm, kJetProductTerms> terms{};
  std::size_t n = 0;
  for (int k = 0; k < kJetSize; ++k) {
    const int i = kJetOrders[std::size_t(k)][0], j = kJetOrders[std::size_t(k)][1];
    for (int a = i; a >= 0; --a)
      for (int b = j; b >= 0; --b) terms[n++] = {k, jet_index(a, b), jet_index(i - a, j - b)};
  }
  return terms;
}
inline constexpr std::array<JetProductTerm, kJetProductTerms> kJetProducts = jet_product_terms();

// i! j! for column jet_index(i, j).
inline constexpr std::array<int, kJetSize> kJetFactorials = {1, 1, 1, 2, 1, 2, 6, 2, 2, 6};

template <class T>
struct TaylorJet {
  std::array<T, kJetSize> c{};  // zero

  static TaylorJet constant(const T& value) {
    TaylorJet jet;
    jet.c[0] = value;
    return jet;
  }
  // An affine function of (s, t) at the expansion point: value and gradient.
  static TaylorJet affine(const T& value, const T& d_ds, const T& d_dt) {
    TaylorJet jet;
    jet.c[0] = value;
    jet.c[1] = d_ds;
    jet.c[2] = d_dt;
    return jet;
  }

  const T& value() const { return c[0]; }
  T derivative(int i, int j) const {
    const auto k = std::size_t(jet_index(i, j));
    return T(kJetFactorials[k]) * c[k];
  }

  TaylorJet& operator+=(const TaylorJet& other) {
    for (std::size_t k = 0; k < kJetSize; ++k) c[k] += other.c[k];
    return *this;
  }
  TaylorJet& operator*=(const T& factor) {
    for (T& x : c) x *= factor;
    return *this;
  }
};

template <class T>
TaylorJet<T> operator*(const TaylorJet<T>& a, const TaylorJet<T>& b) {
  TaylorJet<T> product;
  for (const JetProductTerm& term : kJetProducts)
    product.c[std::size_t(term.out)] += a.c[std::size_t(term.left)] * b.c[std::size_t(term.right)];
  return product;
}

// 1 / a, from a * (1 / a) = 1 solved order by order: g_00 = 1 / a_00 and
// g_k = -(sum over the other products into k of a_l g_r) / a_00, for
// a_00 != 0.
template <class T>
TaylorJet<T> reciprocal(const TaylorJet<T>& a) {
  TaylorJet<T> g;
  const T inverse = T(1) / a.c[0];
  g.c[0] = inverse;
  for (const JetProductTerm& term : kJetProducts) {
    if (term.out == 0) continue;
    if (term.left == 0) {  // the last term into `out` (left = 0, right = out): close it
      g.c[std::size_t(term.out)] = -g.c[std::size_t(term.out)] * inverse;
    } else {
      g.c[std::size_t(term.out)] += a.c[std::size_t(term.left)] * g.c[std::size_t(term.right)];
    }
  }
  return g;
}

}  // namespace contactref::surfaces
