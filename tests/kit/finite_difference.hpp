#pragma once
// Central finite differences evaluated in 50 digits: the referee for analytic
// derivatives (error bound: tolerance.hpp, finite_difference_tolerance).
#include "core/scalar.hpp"

namespace contactref::test {

inline const Real50 kFiniteDifferenceStep("1e-15");

// (f(x + h) - f(x - h)) / (2h) for f: Real50 -> Real50 or an Eigen object.
template <class F>
auto central_difference(const F& f, const Real50& x, const Real50& h = kFiniteDifferenceStep) {
  if constexpr (std::is_same_v<std::decay_t<decltype(f(x))>, Real50>) {
    return Real50((f(x + h) - f(x - h)) / (2 * h));
  } else {
    return ((f(x + h) - f(x - h)) / (2 * h)).eval();
  }
}

}  // namespace contactref::test
