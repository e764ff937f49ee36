#pragma once
// Quartic triangular Bezier patches and their blossoms (polar forms), for
// matching an S-patch to its neighbours (Kry's thesis 5.2.2, Eqs 5.18-5.19).
// A quartic in monomial form sum c_ab s^a t^b (loop_regular_basis.hpp) over the
// parameter triangle (0, 0), (1, 0), (0, 1) with barycentric coordinates
// (lambda_0, lambda_1, lambda_2) = (1 - s - t, s, t) has the Bezier form
// sum_{i+j+k=4} b_ijk 4!/(i! j! k!) lambda_0^i lambda_1^j lambda_2^k.
//
// The blossom is evaluated by the triangular de Casteljau algorithm with a
// different argument at each of the four levels: it is symmetric, affine in
// each argument and equal to the polynomial on the diagonal, hence the
// blossom. The thesis (5.3) instead replaces each power factor u^i and v^j by
// its own elementary symmetric mean; for a mixed monomial u^i v^j (i, j >= 1)
// that product is not affine in each argument (it has terms u_a v_a), so it is
// not the blossom (shared/notes/smooth-contact.md 6.3).
#include <array>

#include "reference/surfaces/loop_regular_basis.hpp"

namespace contactref::surfaces {

// Ordinate m is b_ijk with (j, k) = kQuarticMonomials[m] and i = 4 - j - k.
template <class T>
using QuarticBezier = Eigen::Matrix<T, 3, kQuarticTerms>;

// b_ijk = sum_{a <= j, b <= k} C(j, a) C(k, b) / (4! / (a! b! (4-a-b)!)) c_ab:
// the blossom of s^a t^b (notes 6.3) at i copies of (0, 0), j of (1, 0) and k of (0, 1).
template <class T>
QuarticBezier<T> quartic_bezier_from_monomials(const QuarticCoefficients<T>& coefficients);

// The blossom f*(x_1, x_2, x_3, x_4) of the quartic with Bezier ordinates
// `bezier`; each argument is a point given by its barycentric coordinates
// (lambda_0, lambda_1, lambda_2) (summing to 1, anywhere in the plane).
template <class T>
Vec3<T> quartic_blossom(const QuarticBezier<T>& bezier, const std::array<Vec3<T>, 4>& arguments);

}  // namespace contactref::surfaces
