#pragma once
// The scalar types of the typed test suites: double and Real50 (50 digits).
// In the sanitized build (CONTACTREF_SANITIZED_BUILD) double only: the Real50
// instantiations are the same templates, take about 60% of a typed suite's
// compile time (inertia_newton_euler_test: 76 s with both, 29 s with double)
// and run some 35 times slower under ASan; they run in the release suite
// (issue 11: the 50-digit tests may run in release only).
#include <gtest/gtest.h>

#include "core/scalar.hpp"

namespace contactref::test {

#ifdef CONTACTREF_SANITIZED_BUILD
using Scalars = ::testing::Types<double>;
#else
using Scalars = ::testing::Types<double, Real50>;
#endif

}  // namespace contactref::test
