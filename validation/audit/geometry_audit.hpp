#pragma once
// Audit entries of robust_geometry: the double-precision intersection moments
// of a closed mesh cut by a half-space (halfspace_intersection_moments)
// against the exact ones (intersection_moments: CGAL corefinement, certified,
// rounded once), on seeded random bumpy cubes cut by tilted planes.
#include <vector>

#include "validation/registry.hpp"

namespace contactref::audit {

std::vector<validation::AuditEntrySpec> geometry_audit_entries();

}  // namespace contactref::audit
