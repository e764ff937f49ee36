#pragma once
// Runs one operation in double and in 50 digits on the same seeded inputs and
// reports the largest norm-wise relative difference, the audit's measure.
#include <algorithm>
#include <cstdint>
#include <tuple>

#include "validation/registry.hpp"
#include "validation/fixtures/random_spatial.hpp"

namespace contactref::audit {

// draw(rng) returns a std::tuple of double inputs (numbers or Eigen objects);
// op(inputs...) is a generic callable returning an Eigen matrix of the
// inputs' scalar. The difference is |x_double - x_50| / |x_50| in the
// Frobenius norm, computed in 50 digits.
template <class Draw, class Op>
validation::AuditResult compare_double_with_50_digits(int samples, std::uint64_t seed, Draw draw, Op op) {
  fixtures::Rng rng(seed);
  validation::AuditResult result;
  for (int n = 0; n < samples; ++n) {
    const auto inputs = draw(rng);
    const auto in_double = std::apply([&](const auto&... x) { return op(x...); }, inputs);
    const auto in_50 = std::apply([&](const auto&... x) { return op(fixtures::to_scalar<Real50>(x)...); }, inputs);
    const Real50 diff = (in_double.template cast<Real50>() - in_50).norm() / in_50.norm();
    result.max_rel_diff = std::max(result.max_rel_diff, static_cast<double>(diff));
    ++result.samples;
  }
  return result;
}

}  // namespace contactref::audit
