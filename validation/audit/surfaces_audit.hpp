#pragma once
// Audit entries of reference/surfaces: each patch type's ten derivative sets,
// double against 50 digits (none in a sanitized build, which has no 50-digit
// referee: core/scalar.hpp).
#include <vector>

#include "validation/registry.hpp"

namespace contactref::audit {

std::vector<validation::AuditEntrySpec> surfaces_audit_entries();

}  // namespace contactref::audit
