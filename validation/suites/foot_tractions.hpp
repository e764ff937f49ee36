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
//    found by a bracketing root-find (Boost's TOMS 748) on the approach at
//    the finest solved level;
//  - the hierarchy: quick, the foot at 2.6 mm (about 6,400 samples) with
//    clusters of 64 and 16 and the samples, all three levels solved; full,
//    the foot at 0.88 mm (about 55,000 samples) with clusters of 64 and 16
//    and the samples, the two coarse levels solved (the samples' active set,
//    some 6,000, is beyond the dense response) and their tractions and
//    displacements interpolated onto the samples (Section 4.3: "as soon as the
//    desired accuracy is obtained this recursive scheme is terminated");
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
