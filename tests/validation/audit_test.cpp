// Every audit entry: double agrees with the 50-digit referee to its required
// digits (13 for the spatial operations, the foundation issue's requirement).
#include <gtest/gtest.h>

#include <set>
#include <string>

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

// Issue 32 item 6: every templated module of the second wave has entries
// (the friction modes with their resistances, their Jacobians and
// projections, the LCP solvers), and every module without a 50-digit
// instantiation is listed with its reason.
TEST(Audit, CoversEveryTemplatedModuleAndNamesTheDoubleOnlyOnes) {
  std::set<std::string> names;
  for (const AuditEntrySpec& entry : audit_entries()) names.insert(entry.name);
  if (CONTACTREF_HAS_REAL50) {
    for (const char* name : {"dynamics.sliding", "dynamics.no_slip", "dynamics.no_spin", "dynamics.no_roll",
                             "dynamics.sliding_no_roll_no_spin", "dynamics.mode_jacobians", "dynamics.mode_projection",
                             "dynamics.collision_impulse", "quasi_rigid.lcp_lemke", "quasi_rigid.lcp_block_pivoting"})
      EXPECT_TRUE(names.count(name)) << name;
  }
  std::set<std::string> double_only;
  for (const AuditDoubleOnly& d : audit_double_only()) {
    double_only.insert(d.module);
    EXPECT_FALSE(d.reason.empty()) << d.module;
  }
  for (const char* module : {"quasi_rigid.responses", "volume_contact", "robust_geometry"})
    EXPECT_TRUE(double_only.count(module)) << module;
}

}  // namespace
}  // namespace contactref::validation
