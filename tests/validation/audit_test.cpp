// Every audit entry: double agrees with the 50-digit referee to its required
// digits (13 for the spatial operations, the foundation issue's requirement).
#include <gtest/gtest.h>

#include <cmath>

#include "core/scalar.hpp"
#include "validation/registry.hpp"

namespace contactref::validation {
namespace {

TEST(Audit, EveryEntryAgreesToItsRequiredDigits) {
  // A sanitized build has the spatial entries only (no 50-digit surfaces or
  // dynamics: core/scalar.hpp).
  ASSERT_GE(audit_entries().size(), CONTACTREF_HAS_REAL50 ? 15u : 10u);
  for (const AuditEntrySpec& entry : audit_entries()) {
    const AuditResult result = entry.run();
    EXPECT_GT(result.samples, 0) << entry.name;
    EXPECT_GE(entry.min_digits, 12.0) << entry.name;  // no entry may ask for less without review
    if (entry.name.rfind("spatial.", 0) == 0) {
      EXPECT_EQ(entry.min_digits, 13.0) << entry.name;
    }
    EXPECT_LT(result.max_rel_diff, std::pow(10.0, -entry.min_digits)) << entry.name;
    // A difference of exactly zero everywhere would mean the 50-digit path is
    // not computing in 50 digits.
    EXPECT_GT(result.max_rel_diff, 0.0) << entry.name;
  }
}

}  // namespace
}  // namespace contactref::validation
