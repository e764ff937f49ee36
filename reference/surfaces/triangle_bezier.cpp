#include "reference/surfaces/triangle_bezier.hpp"

namespace contactref::surfaces {
namespace {

constexpr int binomial(int n, int k) {
  int result = 1;
  for (int x = 1; x <= k; ++x) result = result * (n - k + x) / x;
  return result;
}

}  // namespace

template <class T>
QuarticBezier<T> quartic_bezier_from_monomials(const QuarticCoefficients<T>& coefficients) {
  QuarticBezier<T> bezier = QuarticBezier<T>::Zero();
  for (int m = 0; m < kQuarticTerms; ++m) {
    const int j = kQuarticMonomials[std::size_t(m)][0], k = kQuarticMonomials[std::size_t(m)][1];
    for (int c = 0; c < kQuarticTerms; ++c) {
      const int a = kQuarticMonomials[std::size_t(c)][0], b = kQuarticMonomials[std::size_t(c)][1];
      if (a > j || b > k) continue;
      // 4! / (a! b! (4-a-b)!) = C(4, a + b) C(a + b, a)
      bezier.col(m) +=
          T(binomial(j, a) * binomial(k, b)) / T(binomial(4, a + b) * binomial(a + b, a)) * coefficients.col(c);
    }
  }
  return bezier;
}

template <class T>
Vec3<T> quartic_blossom(const QuarticBezier<T>& bezier, const std::array<Vec3<T>, 4>& arguments) {
  // net[j][k] = b_ijk of the current degree; level r lowers the degree by one
  // with argument r: b_ijk <- x0 b_(i+1)jk + x1 b_i(j+1)k + x2 b_ij(k+1).
  std::array<std::array<Vec3<T>, 5>, 5> net;
  for (int m = 0; m < kQuarticTerms; ++m)
    net[std::size_t(kQuarticMonomials[std::size_t(m)][0])][std::size_t(kQuarticMonomials[std::size_t(m)][1])] =
        bezier.col(m);
  for (int degree = 3; degree >= 0; --degree) {
    const Vec3<T>& x = arguments[std::size_t(3 - degree)];
    for (std::size_t j = 0; j <= std::size_t(degree); ++j)
      for (std::size_t k = 0; j + k <= std::size_t(degree); ++k)
        net[j][k] = x(0) * net[j][k] + x(1) * net[j + 1][k] + x(2) * net[j][k + 1];
  }
  return net[0][0];
}

#define CONTACTREF_INSTANTIATE(T) \
  template QuarticBezier<T> quartic_bezier_from_monomials<T>(const QuarticCoefficients<T>&); \
  template Vec3<T> quartic_blossom<T>(const QuarticBezier<T>&, const std::array<Vec3<T>, 4>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::surfaces
