#pragma once
// Suite `foot-tractions` (issue 13; Pauly et al. Fig. 9): the synthetic foot
// (validation/fixtures/synthetic_foot.hpp) pressed onto a rigid sampled
// ground plane with the volume-preserving kernel, under a body-weight load.
//
// Choices the paper leaves open (shared/notes/quasi-rigid-and-brep.md A.3,
// Part C), ours:
//  - the foot: E = 1 MPa, nu = 0.45 (plantar soft tissue is 0.1-1 MPa and
//    nearly incompressible; the stiff end keeps the deformation small, as the
//    quasi-rigid model assumes); sigma = 1 cm (the heel's contact radius,
//    so the bulge of Fig. 4 sits just outside the contact);
//  - the load: 343.35 N (35 kg, half of a 70 kg body standing on both feet),
//    found by a bracketing root-find (Boost's TOMS 748) on the approach;
//  - the hierarchy: clusters of 64 and 16 and the samples, every level
//    solved coarse first, each warm-started by the one before (Section 4.3);
//    quick: the foot and the ground at 2.6 mm (about 6,400 foot samples);
//    full: at 0.88 mm (about 56,000);
//  - convergence: the load at the same approach on coarser samplings (quick:
//    6 and 4 mm; full: 2.6, 1.8 and 1.3 mm), its observed order and
//    Richardson's extrapolation;
//  - the pressure mat: 37 x 13 cells of 7.18 mm (the X2 FootSensor's 1.94
//    sensors per cm^2), along the foot and centred under it; a cell's
//    pressure is the ground's contact force inside it over its area.
// Figure `foot-tractions`: Fig. 9's panels (a)-(f), the mat beside them.
#include <filesystem>

#include "validation/registry.hpp"

namespace contactref::validation {

SuiteResult foot_tractions_suite(const SuiteOptions& options);

// Writes the full variant's data for the figure: levels.csv, foot.csv,
// ground.csv, mat.csv.
void write_foot_tractions_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
