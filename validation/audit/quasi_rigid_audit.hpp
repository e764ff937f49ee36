#pragma once
// Audit entries of reference/quasi_rigid's templated solvers: Lemke's method
// and block principal pivoting on random LCPs with a P-matrix (the elastic
// LCP of Pauly et al. Eq. 10), double against 50 digits (none in a sanitized
// build: core/scalar.hpp). The response kernels are double only
// (double_only_modules.cpp says why).
#include <vector>

#include "validation/registry.hpp"

namespace contactref::audit {

std::vector<validation::AuditEntrySpec> quasi_rigid_audit_entries();

}  // namespace contactref::audit
