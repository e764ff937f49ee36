#pragma once
// Suite `frictionless-bowl-drift` (Kry's thesis Section 6.2, Figs. 6.1-6.2;
// shared/notes/smooth-contact.md 7.1): the App. B.2 bowl (a Loop surface,
// 0.0872 m per mesh unit, 1000 kg/m^3, about 0.81 kg) rocking and spinning on a
// flat frictionless bicubic Bezier plane under gravity, simulated in reduced
// coordinates (reference/dynamics/contact_simulation.hpp) at maximum steps of
// 1, 4, 16 and 64 ms, and by the maximal-coordinate baseline
// (reference/dynamics/maximal_plane_contact.hpp) at the same steps.
//
// Invariants of the continuous problem (the frictionless contact force is
// vertical): the horizontal momentum, so the centre of mass, started at rest
// horizontally, stays on its vertical line; and the total energy. Their
// errors measure the integration. The constraint (the bowl touches the floor,
// outward normals opposed) is measured at every output row from the bowl's
// world pose alone: the closest points of the two surfaces found without the
// contact coordinates (validation/oracles/surface_separation.hpp).
#include <filesystem>
#include <vector>

#include "reference/dynamics/contact_simulation.hpp"
#include "validation/registry.hpp"

namespace contactref::validation {

struct BowlDriftRun {
  double h_max = 0, h_min = 0;  // s
  dynamics::SimulationResult<double> result;
  double max_horizontal_drift = 0;   // m: max_t |com_xy(t) - com_xy(0)|
  double max_relative_energy_error = 0;  // max_t |E - E0| / |E0|, E0 with the potential from the floor
  // The oracle at every output row: the signed distance of the surfaces (m),
  // and the largest |distance| and angle between the bowl's normal and the
  // floor's reversed (rad) over the rows.
  std::vector<double> surface_distance;
  double max_gap = 0, max_normal_misalignment = 0;
  double max_gap_roundoff = 0, max_angle_roundoff = 0;  // the largest round-off bounds of the rows
  bool gap_within_roundoff = true, angle_within_roundoff = true;  // every row within its own bound
  long transitions_to_extraordinary = 0;  // into faces with one extraordinary vertex (Stam patches)
  long transitions_to_split = 0;          // into faces with two or three (split patches)
  // The baseline at fixed step h_max (shortened at piece boundaries): every
  // 10 ms, t, gap (m), gap rate (m/s), relative energy error.
  std::vector<std::array<double, 4>> baseline;
  double baseline_max_gap = 0;  // m
  double baseline_max_relative_energy_error = 0;
  std::string baseline_failure;  // empty unless the baseline stopped early (why)
};

struct BowlDriftStudy {
  double mass = 0;        // kg
  double duration = 0;    // s
  std::vector<BowlDriftRun> runs;  // finest first
  // The mean time the contact spends on one smooth piece at the finest step
  // (duration over patch transitions and piece crossings): RK4's error
  // expansion needs steps shorter than that.
  double mean_piece_time = 0;  // s
};

// quick: 2 s at 1, 4 and 16 ms instead of 12 s at 1, 4, 16 and 64 ms.
BowlDriftStudy run_bowl_drift_study(bool quick);

SuiteResult frictionless_bowl_drift_suite(const SuiteOptions& options);

// Figure `fig-6-2`: com.csv (t, com_x, com_y, com_z, patch1 at the finest
// step) and transitions.csv (t, from_patch, to_patch).
void write_fig_6_2_data(const std::filesystem::path& dir);
// Figure `bowl-drift`: errors.csv (h, t, energy error, horizontal drift, gap
// (the oracle's signed distance) for every run), convergence.csv (h, drift,
// energy error, max |gap|, baseline gap)
// and baseline.csv (h, t, baseline gap, baseline gap rate).
void write_bowl_drift_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
