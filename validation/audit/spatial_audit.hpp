#pragma once
// Audit entries of reference/spatial: each spatial operation and one
// Newton-Euler derivative evaluation, double against 50 digits.
#include <vector>

#include "validation/registry.hpp"

namespace contactref::audit {

std::vector<validation::AuditEntrySpec> spatial_audit_entries();

}  // namespace contactref::audit
