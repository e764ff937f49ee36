#pragma once
// Audit entries of reference/kinematics and reference/dynamics: H, Hdot, q''
// and one simulator step of the App. B.2 bowl on an ellipsoid, the friction
// modes' r'' with rolling and spinning resistance, their Jacobians and
// projections on the same contact, and the collision impulse of a random box (collision_law.hpp), double against
// 50 digits (none in a sanitized build, which has no 50-digit referee:
// core/scalar.hpp).
#include <vector>

#include "validation/registry.hpp"

namespace contactref::audit {

std::vector<validation::AuditEntrySpec> dynamics_audit_entries();

}  // namespace contactref::audit
