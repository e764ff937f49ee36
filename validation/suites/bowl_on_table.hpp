#pragma once
// Suite `bowl-on-table` (Kry & Pai Section 4.2, Figs. 6-9, Table II;
// shared/notes/smooth-contact.md 7.4): the App. B.2 bowl thrown onto a Loop
// table, validation/fixtures/scenes/bowl_thrown_on_table.json (the throw,
// e, e_t, mu, the resistances and thresholds are chosen and documented
// there: the paper gives none), RK4 with a 1 ms minimum step and the Table II
// series of maximum steps 1 to 128 ms, 3 s each; slip threshold 5 mm/s, 2.5
// at 1 ms (Section 4.2). A second throw, bowl_skimmed_on_table.json, lands
// sliding (its impacts, flight, energy and rest are checked the same way at
// 16 ms): the thrown bowl's impacts all stick.
//
// Checks, each from the rows and events alone (every accepted step is a row):
//  - every impact obeys Chatterjee & Ruina's law, recomputed from the
//    body's state without the simulator's collision code: the pre-impact
//    velocity from the flight row before it (ballistic centre of mass, the
//    world angular momentum kept), the contact point and normal from an
//    independent oracle at the impact's pose, K from unit impulses; then
//    n . u+ = -e n . u-, J_n >= 0, |J_t| <= mu J_n, J on the law's segment
//    (1 + e) P_I + kappa (P_II - P_I) with kappa = 1 + e_t or on the cone,
//    the reported velocities, and the energy change equal to the change of
//    the kinetic energy;
//  - no penetration in flight: the oracle's signed distance of the smooth
//    surfaces (validation/oracles/surface_separation.hpp: Newton from dense
//    seed grids on both surfaces, not the simulator's proximity) at every
//    flight row, down to the flight's contact tolerance;
//  - the energy, recomputed from each row's pose and velocity, and its
//    balance E - E0 - law's work - impulses' against the integrator's own
//    bound, over the run and for each step (events included);
//  - for 1, 16 and 64 ms (Fig. 7): the bowl at rest at 3 s, standing on its
//    base on the table's top, the gravity torque about the contact within
//    the rolling resistance's static limit.
// Information: collisions, contacts, patch transitions, mode switches and
// flight time per run; CPU time per run beside Table II's; what 128 ms does;
// the kinetic energy left at 3 s without the scene's rolling and spinning
// resistance.
#include <filesystem>
#include <string>
#include <vector>

#include "reference/dynamics/contact_simulation.hpp"
#include "validation/registry.hpp"

namespace contactref::validation {

// One impact recomputed from the rows (bowl_on_table.cpp, check_impact).
struct BowlImpact {
  double time = 0;                // s
  double approach_speed = 0;      // -n . u- (m/s)
  bool sliding = false;           // |J_t| = mu J_n (the cone clipped the impulse)
  bool followed_by_contact = false;  // continuous contact re-established at once
  // Each measured error over its bound (<= 1 passes).
  double restitution = 0;         // |n . u+ + e n . u-|
  double cone = 0;                // max(0, |J_t| - mu J_n, -J_n)
  double segment = 0;             // |J - (1 + e) P_I - kappa d|, and kappa's branch
  double reported_velocities = 0; // the event's n . u-, n . u+ against ours
  double energy = 0;              // |event's Delta E - Delta KE|
  double momentum = 0;            // the post-impact flight row's v against v- + J / m
  double energy_change = 0;       // J (<= 0)
};

struct BowlOnTableRun {
  std::string name;  // "" for the thrown bowl, "skimmed" for the second throw
  double h_max = 0, slip_threshold = 0;  // s, m/s
  dynamics::SimulationResult<double> result;
  double cpu_seconds = 0;    // the whole simulate call (std::clock)
  double setup_seconds = 0;  // of which before the step loop's first pass (the collision hierarchies)
  std::vector<BowlImpact> impacts;
  // Flight rows: the oracle's smallest signed distance (m), its round-off.
  long flight_rows = 0;
  double min_flight_distance = 0, flight_distance_roundoff = 0;
  // The energy from the rows (J): the largest difference from the rows' own
  // value over its round-off; the balance E - E0 - W - W_imp at the end and
  // its bound (the sum of the steps' bounds); the largest step's balance
  // change over its step's bound.
  double energy_recomputed = 0;
  double balance = 0, balance_bound = 0, step_balance = 0;
  // The end: rest, how and where.
  bool at_rest = false;
  double rest_from = 0;           // s: the last switch into rest
  double final_speed = 0;         // m/s: |v| + |omega| r of the last row
  double tilt = 0;                // rad: the bowl's axis from the vertical
  double rest_torque_ratio = 0;   // |gravity torque about the contact, tangential| / (mu_roll f_n)
  int final_patch1 = -1, final_patch2 = -1;
  double largest_contact_step = 0;  // s: the largest accepted step in contact
  double largest_sliding_step = 0;  // s: ... while the slip is free (a sliding mode)
  double sliding_time = 0;          // s: the time spent in sliding modes
  long h_max_steps = 0;             // contact steps of h_max
};

struct BowlOnTableStudy {
  double mass = 0;        // kg
  double duration = 0;    // s
  double base_radius = 0;  // m: the radius of curvature of the bowl's base at its lowest point
  double base_height = 0;  // m: the centre of mass above that point
  double mu_roll = 0;      // m: the scene's rolling resistance
  std::vector<BowlOnTableRun> runs;  // finest first
  BowlOnTableRun without_resistance;  // full variant: 16 ms, mu_roll = mu_spin = 0
  BowlOnTableRun skimmed;             // the skimmed throw at 16 ms: its first impact slides
};

// quick: 1 s at 16 ms; full: 3 s at 1, 2, 4, ..., 128 ms.
BowlOnTableStudy run_bowl_on_table_study(bool quick);

SuiteResult bowl_on_table_suite(const SuiteOptions& options);

// Figures (the runs at 1, 16 and 64 ms, Fig. 7's):
// `bowl-on-table-fig-6`: bowl.csv and table.csv (x, y, z, patch of the
// triangles of each limit surface, body and world frame, three rows per
// triangle), cavity.csv (the bowl's patches inside its cavity) and frames.csv
// (h, t, com_x, com_y, com_z, r00, ..., r22) every 0.5 s.
void write_bowl_on_table_fig_6_data(const std::filesystem::path& dir);
// `bowl-on-table-fig-7`: paths.csv (h, t, com_x, com_y, flight) and
// events.csv (h, t, kind, com_x, com_y, detail) and top.csv (the triangles of
// the table's top, as bowl.csv).
void write_bowl_on_table_fig_7_data(const std::filesystem::path& dir);
// `bowl-on-table-fig-8`: steps.csv (h, step) of the accepted steps in contact (16 and 64 ms).
void write_bowl_on_table_fig_8_data(const std::filesystem::path& dir);
// `bowl-on-table-fig-9`: com.csv (t, com_x, flight) and events.csv (t, kind)
// over the first second at 64 ms.
void write_bowl_on_table_fig_9_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
