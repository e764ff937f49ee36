#pragma once
// Eigen matrix comparison for GoogleTest: on failure it prints both matrices,
// the worst entry and the bound.
//   EXPECT_TRUE(matrices_near(actual, expected, bound));            // |a - e|_max <= bound * max(1, |e|_max)
//   EXPECT_TRUE(matrices_near(actual, expected, bound, kAbsolute)); // |a - e|_max <= bound
#include <gtest/gtest.h>

#include <iostream>
#include <limits>
#include <sstream>

#include "core/scalar.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::test {

enum class Scale { kRelativeToLargest, kAbsolute };
inline constexpr Scale kAbsolute = Scale::kAbsolute;

template <class DA, class DB, class B>
::testing::AssertionResult matrices_near(const Eigen::MatrixBase<DA>& actual, const Eigen::MatrixBase<DB>& expected,
                                         const B& bound, Scale scale = Scale::kRelativeToLargest) {
  using T = typename DB::Scalar;
  using std::abs;
  using std::max;
  if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) {
    return ::testing::AssertionFailure() << "shape " << actual.rows() << "x" << actual.cols() << " differs from "
                                         << expected.rows() << "x" << expected.cols();
  }
  Eigen::Index worst_i = 0, worst_j = 0;
  T worst = T(0);
  bool all_finite = true;
  for (Eigen::Index i = 0; i < expected.rows(); ++i) {
    for (Eigen::Index j = 0; j < expected.cols(); ++j) {
      const T diff = abs(T(actual(i, j)) - expected(i, j));
      if (!(diff == diff)) all_finite = false;  // NaN
      if (diff > worst || !(diff == diff)) {
        worst = diff;
        worst_i = i;
        worst_j = j;
      }
    }
  }
  const T largest = expected.size() > 0 ? T(expected.cwiseAbs().maxCoeff()) : T(0);  // empty: nothing to compare
  const T limit = scale == Scale::kAbsolute ? T(bound) : T(bound) * max(T(1), largest);
  std::ostringstream report;
  report.precision(std::numeric_limits<T>::max_digits10 > 0 ? std::min(std::numeric_limits<T>::max_digits10, 25) : 17);
  report << "worst entry (" << worst_i << ", " << worst_j << "): |actual - expected| = " << worst
         << ", bound = " << limit << (scale == Scale::kAbsolute ? " (absolute)" : " (relative to max(1, |expected|_max))");
  if (report_residuals()) std::cerr << "[residual] " << report.str() << "\n";
  if (all_finite && worst <= limit) return ::testing::AssertionSuccess();
  report << "\nactual =\n" << actual << "\nexpected =\n" << expected;
  return ::testing::AssertionFailure() << report.str();
}

// A scalar version with the same report.
template <class T, class B>
::testing::AssertionResult scalars_near(const T& actual, const T& expected, const B& bound,
                                        Scale scale = Scale::kRelativeToLargest) {
  return matrices_near(Eigen::Matrix<T, 1, 1>(actual), Eigen::Matrix<T, 1, 1>(expected), bound, scale);
}

}  // namespace contactref::test
