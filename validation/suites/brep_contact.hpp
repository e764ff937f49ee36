#pragma once
// Suite `brep-contact` (Bouma & Vanecek, "Modeling Contacts in a Physically
// Based Simulation"; shared/notes/quasi-rigid-and-brep.md Part B): the paper's
// structural numbers (the tetrahedron's Brep-index size, the 128-face sphere's
// depths without and with balancing cuts, the culling speed-up) and the
// contact regions of its figures as we reconstruct them
// (validation/fixtures/contact_scenes.hpp): Fig. 4 at rest and at the collision,
// Fig. 5 with alpha below, at and above beta, Fig. 8 with and without temporal
// coherence; and Fig. 3's claim that the needed regions hold all the others in
// their borders, checked on every scene. The paper has no timings and no
// accuracy tables; its numbers are quoted beside ours.
#include <filesystem>

#include "robust_geometry/contact_analysis.hpp"
#include "validation/registry.hpp"

namespace contactref::validation {

SuiteResult brep_contact_suite(const SuiteOptions& options);

// Fig. 3's claim on one analysis, both ways ("three contain in their borders
// the other 13"): the regions of I that are not needed and lie in the border
// (closure) of no needed region, and the needed regions that lie in the
// border of another needed region. Keeping too few regions raises the first;
// keeping every region raises the second above the paper's count.
struct BorderCounts {
  int unneeded_outside = 0;
  int needed_inside = 0;
};
BorderCounts needed_border_counts(const robust_geometry::ContactAnalysis& analysis);

// Figures `brep-fig-3`, `brep-fig-5`, `brep-fig-8`: solids.csv (solid, face,
// corner, x, y, z), regions.csv (region, needed, dimension, corner, x, y, z)
// and normals.csv (region, variant, x, y, z, nx, ny, nz: the region's
// centroid and one unit normal) for paper_figures/brep_contact.py.
void write_brep_fig_3_data(const std::filesystem::path& dir);
void write_brep_fig_5_data(const std::filesystem::path& dir);
void write_brep_fig_8_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
