#pragma once
// The radial rule of the polar quadratures about a node (response_matrix.cpp,
// sampled_response.cpp): composite 8-point Gauss-Legendre on [0, r_max] in
// `segments` equal segments; visit(r, weight) at each point.
#include <boost/math/quadrature/gauss.hpp>

namespace contactref::quasi_rigid {

template <class Visit>
void for_each_radial_point(double r_max, int segments, const Visit& visit) {
  using Rule = boost::math::quadrature::gauss<double, 8>;  // abscissae t >= 0 on [-1, 1]
  const double length = r_max / segments;
  for (int m = 0; m < segments; ++m) {
    for (int side = -1; side <= 1; side += 2) {
      for (std::size_t p = 0; p < Rule::abscissa().size(); ++p) {
        const double t = Rule::abscissa()[p];
        if (side == -1 && t == 0) continue;  // the middle point once
        visit(length * (m + 0.5 + side * t / 2), Rule::weights()[p] * length / 2);
      }
    }
  }
}

}  // namespace contactref::quasi_rigid
