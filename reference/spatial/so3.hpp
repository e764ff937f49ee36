#pragma once
// Rotations: the skew matrix [w] (Kry & Pai Eq. 2), its inverse, and the
// exponential map of so(3) (Rodrigues).
#include "core/scalar.hpp"

namespace contactref::spatial {

// [w], the matrix of the cross product w x . (Eq. 2)
template <class T>
Mat3<T> skew(const Vec3<T>& w) {
  Mat3<T> S;
  S << T(0), -w.z(), w.y(),
       w.z(), T(0), -w.x(),
       -w.y(), w.x(), T(0);
  return S;
}

// The w with [w] closest to A in the Frobenius norm: the vector of the
// skew-symmetric part (A - A^T)/2. For a skew A it inverts skew() exactly.
template <class T>
Vec3<T> unskew(const Mat3<T>& A) {
  return Vec3<T>((A(2, 1) - A(1, 2)) / 2, (A(0, 2) - A(2, 0)) / 2, (A(1, 0) - A(0, 1)) / 2);
}

// sin(x)/x, exact at 0 and accurate to round-off everywhere (sin is computed
// to relative precision, so no cancellation occurs).
template <class T>
T sinc(const T& x) {
  using std::sin;
  return x == T(0) ? T(1) : sin(x) / x;
}

// (1 - cos x)/x^2 = (sinc(x/2))^2 / 2, written without the cancellation of 1 - cos x.
template <class T>
T one_minus_cos_over_x2(const T& x) {
  const T s = sinc(x / 2);
  return s * s / 2;
}

// (x - sin x)/x^3. Direct formula for |x| >= 1 (relative cancellation at most
// sin(1)/1 ~ 0.84, i.e. < 1 digit); below, its Taylor series
// sum_k (-1)^k x^(2k) / (2k+3)!, summed until the term is below epsilon<T>().
template <class T>
T x_minus_sin_over_x3(const T& x) {
  using std::abs;
  using std::sin;
  if (abs(x) >= T(1)) return (x - sin(x)) / (x * x * x);
  const T x2 = x * x;
  T term = T(1) / 6;  // 1/3!
  T sum = term;
  for (int k = 1; abs(term) > epsilon<T>() * abs(sum); ++k) {
    term *= -x2 / T((2 * k + 2) * (2 * k + 3));
    sum += term;
  }
  return sum;
}

// exp([w]) by Rodrigues' formula: I + sinc(theta) [w] + (1 - cos theta)/theta^2 [w]^2.
template <class T>
Mat3<T> so3_exp(const Vec3<T>& w) {
  const T theta = w.norm();
  const Mat3<T> W = skew(w);
  return Mat3<T>::Identity() + sinc(theta) * W + one_minus_cos_over_x2(theta) * (W * W);
}

}  // namespace contactref::spatial
