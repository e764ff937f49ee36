// Every audit entry: double agrees with the 50-digit referee to at least 13
// digits (the foundation issue's requirement).
#include <gtest/gtest.h>

#include <cmath>

#include "validation/registry.hpp"

namespace contactref::validation {
namespace {

TEST(Audit, EveryEntryAgreesTo13Digits) {
  ASSERT_GE(audit_entries().size(), 10u);
  for (const AuditEntrySpec& entry : audit_entries()) {
    const AuditResult result = entry.run();
    EXPECT_GT(result.samples, 0) << entry.name;
    EXPECT_LT(result.max_rel_diff, 1e-13) << entry.name;
    // A difference of exactly zero everywhere would mean the 50-digit path is
    // not computing in 50 digits.
    EXPECT_GT(result.max_rel_diff, 0.0) << entry.name;
  }
}

}  // namespace
}  // namespace contactref::validation
