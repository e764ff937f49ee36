#pragma once
// Checks every partial derivative of a patch (orders 1 to 3) against 50-digit
// central differences of the derivative one order lower.
#include <gtest/gtest.h>

#include "reference/surfaces/patch.hpp"
#include "tests/kit/finite_difference.hpp"
#include "tests/kit/matrix_compare.hpp"

namespace contactref::test {

// Each derivative d(i, j) is compared with d/ds of d(i - 1, j) (or d/dt of
// d(i, j - 1) when i = 0), relative to max(1, the largest entry of the jet)
// times the finite-difference bound, scaled by `scale` for patches whose
// higher derivatives are large.
inline ::testing::AssertionResult derivatives_match_finite_differences(const surfaces::Patch<Real50>& patch,
                                                                       const Real50& s, const Real50& t,
                                                                       double scale = 1.0) {
  const surfaces::PatchJet<Real50> jet = patch.evaluate(s, t);
  // A patch that returned zeros would match its own differences: require a
  // regular point (every patch is regular where the tests evaluate it).
  if (!(jet.c_s().cross(jet.c_t()).norm() > Real50("1e-20") * jet.c_s().norm() * jet.c_t().norm())) {
    return ::testing::AssertionFailure() << patch.describe() << " is not regular at (" << s << ", " << t << ")";
  }
  const auto along_s = central_difference([&](const Real50& x) { return patch.evaluate(x, t).d; }, s);
  const auto along_t = central_difference([&](const Real50& y) { return patch.evaluate(s, y).d; }, t);
  const Real50 size = std::max(Real50(1), jet.d.cwiseAbs().maxCoeff());
  for (int k = 1; k < surfaces::kJetSize; ++k) {
    const int i = surfaces::kJetOrders[std::size_t(k)][0], j = surfaces::kJetOrders[std::size_t(k)][1];
    const Vec3<Real50> reference = i > 0 ? Vec3<Real50>(along_s.col(surfaces::jet_index(i - 1, j)))
                                         : Vec3<Real50>(along_t.col(surfaces::jet_index(i, j - 1)));
    auto result = matrices_near(Vec3<Real50>(jet.d.col(k)), reference, finite_difference_tolerance(scale) * size, kAbsolute);
    if (!result) {
      return ::testing::AssertionFailure() << patch.describe() << " at (" << s << ", " << t << "), derivative (" << i << ", "
                                           << j << "): " << result.message();
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace contactref::test
