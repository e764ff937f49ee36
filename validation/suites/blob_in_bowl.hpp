#pragma once
// Suite `blob-in-bowl` (Kry's thesis Section 6.3, Fig. 6.3; shared/notes/
// smooth-contact.md 7.2): a lumpy glass marble (a Loop surface, radius about
// 2 cm, validation/fixtures/blob_in_bowl.hpp) released at rest 0.1 m out in a
// shallow Loop dish (radius of curvature about 0.33 m at its centre), mu =
// mu_static = 0.07, slip threshold 5 mm/s. The slope there (0.32) needs more
// friction than 0.07 to roll (2/7 tan), so it slides down, then rolls; where
// the far side gets steep again the stick breaks, and so on: the mode
// alternates, curved on curved, both surfaces exact Loop limit surfaces. The
// dish's path stays inside its regular region, and the marble's (which rolls
// about the axis through an extraordinary vertex, so that its contact runs
// near the equator about it) stays millimetres away from its extraordinary
// vertices, where the surface's third derivatives, which Hdot holds, blow up.
//
// Checks: the run slides, then rolls; the energy decreases between every two
// rows while sliding and is conserved while rolling (its drift shrinks at
// RK4's order over the step sweep); the energy balance (law's work,
// impulses', integrator's) closes at RK4's order up to the first stick break.
#include <filesystem>
#include <vector>

#include "reference/dynamics/contact_simulation.hpp"
#include "validation/registry.hpp"

namespace contactref::validation {

struct BlobRun {
  double h_max = 0;  // s
  dynamics::SimulationResult<double> result;
  double rolling_from = 0;         // s: the first switch to no-slip (0: none)
  double rolling_until = 0;        // s: the next switch, or the end
  double centre_distance_at_roll = 0;  // m: the centre of mass's horizontal distance from the dish's axis then
  long sliding_rows = 0, sliding_rises = 0;  // consecutive sliding rows, and those whose energy did not fall
  double rolling_energy_drift = 0;   // J: max |E - E(rolling_from)| over the rolling rows
  double integrator_loss = 0;        // J: E_end - E0 - work - impulse_work
  double first_stick_break = 0;      // s: the first switch from no-slip to sliding (0: none)
  double smooth_integrator_loss = 0; // J: the same at the last row before it
  double marble_ev_distance = 0, dish_ev_distance = 0;  // m: the contact's closest approach to an extraordinary vertex
};

struct BlobStudy {
  double marble_mass = 0;  // kg
  double duration = 0;     // s
  std::vector<BlobRun> runs;  // finest first
};

// quick: 1.5 s at 4 and 2 ms; full: 5 s at 4, 2 and 1 ms.
BlobStudy run_blob_study(bool quick);

SuiteResult blob_in_bowl_suite(const SuiteOptions& options);

// Figure `blob-in-bowl`: path.csv (t, com_x, com_y, com_z, mode, energy, work,
// slip_speed) at the finest step and rim.csv (x, y), the dish top's boundary.
void write_blob_in_bowl_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
