#pragma once
// Suite `hertz-convergence` (issue 13): the quasi-rigid model with the
// Boussinesq kernel against Hertz (Johnson ch. 4; validation/oracles/hertz.hpp)
// at four sampling densities, a / h = 3, 4, 6, 8 (quick: 3, 4, 6):
//  - a rigid sphere pressed with a load into an elastic half-space, and an
//    elastic sphere on an elastic half-space of another material (the grid in
//    the tangent plane, load control: reference/quasi_rigid/sphere_press.hpp):
//    contact radius, peak pressure, approach, their errors' observed orders,
//    equilibrium;
//  - a point-sampled sphere cap pressed by Hertz's approach onto a rigid
//    sampled plane (reference/quasi_rigid/point_contact.hpp, the split
//    scheme): both bodies' loads, Newton's third law, the residual
//    penetration of each iteration.
// Figure `hertz-convergence`: the pressure profile against Hertz's, and the
// errors against a / h.
#include <filesystem>

#include "validation/registry.hpp"

namespace contactref::validation {

SuiteResult hertz_convergence_suite(const SuiteOptions& options);

// Writes profile.csv (r / a and p / p0 at every node of the finest grid, rigid
// plane) and convergence.csv (a / h and the three relative errors per case).
void write_hertz_convergence_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
