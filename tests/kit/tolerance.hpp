#pragma once
// Test tolerances. A bound is never a bare number: it is
//   ops * cond * epsilon<T>() * CONTACTREF_TOL_SCALE,
// with `ops` the number of rounding operations an entry passes through (an
// upper count, written next to each call) and `cond` a conditioning estimate
// (1 for a backward-stable formula on well-scaled data).
//
// Knobs (environment):
//   CONTACTREF_TOL_SCALE=s         multiplies every bound (0: fail every
//                                  comparison and print the actual residuals)
//   CONTACTREF_TEST_RESIDUALS=1    print every comparison's residual and bound,
//                                  passing or not
#include <cstdlib>
#include <limits>
#include <string>

#include "core/scalar.hpp"

namespace contactref::test {

// Double's machine epsilon, for bounds written as a count of it.
inline constexpr double kEps = std::numeric_limits<double>::epsilon();
// Float's, for MuJoCo's single-precision outputs.
inline constexpr double kFloatEps = double(std::numeric_limits<float>::epsilon());

inline double tolerance_scale() {
  static const double scale = [] {
    const char* value = std::getenv("CONTACTREF_TOL_SCALE");
    return value ? std::strtod(value, nullptr) : 1.0;
  }();
  return scale;
}

inline bool report_residuals() {
  static const bool report = [] {
    const char* value = std::getenv("CONTACTREF_TEST_RESIDUALS");
    return value != nullptr && std::string(value) != "0";
  }();
  return report;
}

template <class T>
T tolerance(double ops, double cond = 1.0) {
  return T(ops * cond * tolerance_scale()) * epsilon<T>();
}

// The bound of a 50-digit central difference (finite_difference.hpp): with
// h = 1e-15 the truncation error is h^2/6 |f'''| and the round-off
// epsilon_50 |f| / h, both below 1e-28 for |f|, |f'''| <= 1e2; the bound leaves
// two digits of margin. `scale` is max(|f'''|, |f|) / 1e2 where larger.
inline Real50 finite_difference_tolerance(double scale = 1.0) {
  return Real50(scale * tolerance_scale()) * Real50("1e-26");
}

}  // namespace contactref::test
