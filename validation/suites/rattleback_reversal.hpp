#pragma once
// Suite `rattleback-reversal` (Kry's thesis Section 6.4 and App. B.1, Figs.
// 6.6-6.8; Kry & Pai Section 4.2.1, Figs. 10-11; shared/notes/smooth-contact.md
// 7.3): Kry's rattleback, the scenes validation/fixtures/scenes/rattleback_tap.json
// and rattleback_spin.json (a bicubic Bezier dome, 5 kg, inertia diag(1, 10, 10)
// 10 degrees off its curvature axes), on a floor 60 m across (the fixtures'
// 3 m floor enlarged about its centre, so that the frictionless case, whose
// centre of mass drifts, stays on it).
//
// The friction modes (reference/dynamics/mode_switching.hpp) with mu_static =
// mu: the tap start and the spin start rest on the floor with no slip, so
// the contact stays in no-slip (Kry & Pai's model; the thesis used sliding
// friction made frictionless below a slip threshold instead, notes 3.1).
//
// Every run but the frictionless one stays in no-slip (the resisting run
// until its rolling stops); each is compared, over its whole spin history
// omega_z(t), its reversals and the law's work, with an independent model
// in maximal coordinates (RattlebackOracleComparison), to a tolerance
// derived from both models' step-halving error estimates.
//
// Spin direction: the world omega_z averaged over a centred window of
// kSpinWindow seconds (longer than the rocking periods, so that the rocking's
// own oscillation of omega_z averages out). A reversal is a change of that
// mean from beyond +kSpinLevel to beyond -kSpinLevel (or back); its time is
// the mean's last zero crossing between the two.
#include <filesystem>
#include <string>
#include <vector>

#include "reference/dynamics/contact_simulation.hpp"
#include "validation/oracles/mujoco_contact.hpp"
#include "validation/oracles/rolling_body.hpp"
#include "validation/registry.hpp"

namespace contactref::validation {

inline constexpr double kSpinWindow = 3.0;  // s
inline constexpr double kSpinLevel = 0.05;  // rad/s: 5% of the spin start's 1 rad/s

struct RattlebackRun {
  std::string name;   // e.g. "spin[mu=0.3]" or "spin[h_max=50ms]"
  std::string start;  // "tap" or "spin"
  dynamics::FrictionModel<double> friction;
  double h_max = 0;     // s
  double duration = 0;  // s
  dynamics::SimulationResult<double> result;
  std::vector<double> reversals;  // s
  int first_direction = 0;        // the sign of the first spin beyond kSpinLevel (0: none)
  // The rocking before the first reversal (5 s window): pitch (the body's long
  // x axis tilting) and roll periods from the zero crossings of the tilt (s, 0
  // without a reversal).
  double pitch_period = 0, roll_period = 0;
  // The energy balance at the end (J): E - E0 = work + impulse_work + what
  // the integrator lost.
  double energy0 = 0, energy_change = 0, work = 0, impulse_work = 0, integrator_loss = 0;
};

// The linearised rocking about the rest point (at the apex, where the body's
// z axis is vertical): with the tilt dn (the world's down direction in body
// axes, its body-x and body-y parts), V = m g / 2 dn^T (Rc - h0) dn and
// T = 1/2 dn'^T J^T I_c J dn', J the quarter turn, Rc the radius-of-curvature
// tensor of the surface at the apex, h0 the centre of mass's distance to it,
// I_c = I_com + m h0^2 (horizontal block). The notes' 1.76 s and 2.06 s
// ignore the off-diagonal terms that the 10-degree misalignment gives.
struct RattlebackRocking {
  double h0 = 0;                      // m
  double radius_long = 0, radius_short = 0;  // m: principal radii of curvature at the apex
  double decoupled_periods[2] = {0, 0};      // s: pitch, roll, off-diagonal terms dropped
  double coupled_periods[2] = {0, 0};        // s: the two modes, short first
  double measured_periods[2] = {0, 0};       // s: each mode started alone at 1 mrad, no-slip
  double measured_cycles[2] = {0, 0};        // full periods the measurement spans
};

// The same start in MuJoCo (validation/oracles/mujoco_contact.hpp: the top's
// convex hull, condim 6, the same mu, mu_roll, mu_spin), information beside
// ours: a soft-contact peer, not the same model.
struct RattlebackPeer {
  std::string name;  // e.g. "mujoco spin[mu=0.3]"
  oracles::MujocoRun run;
  std::vector<double> reversals;  // s, as for our runs
  int first_direction = 0;
  std::string failure;  // empty unless MuJoCo stopped (why)
};

// A no-slip run against the rolling-body oracle (validation/oracles/
// rolling_body.hpp: maximal coordinates, the rolling constraint as a
// nonholonomic constraint, RKF 7(8) at fixed steps), started from the run's
// first row, with the top as the elliptic paraboloid that its Bezier net is
// (rattleback_reversal.cpp derives it; RattlebackStudy::shape_deviation checks
// it) and the run's rolling and spinning resistance and damping. The oracle
// has no mode switching: the comparison ends at the run's first mode switch
// (or that of its half-step twin), or at its end.
//
// Tolerance (per row): tol(t) = 2 (D_ours(t) + D_oracle(t)) + 64 eps max|x|,
// D the running maximum over the rows up to t of the difference between a
// model at its step and at half its step (ours: the same run at h_max / 2;
// the oracle: at h_o / 2). For a method whose error at half the step is at
// most half its error (order >= 1 in the asymptotic range; RK4 gives 1/16,
// RKF78 1/256), the error E(h) <= D + E(h / 2) <= D + E(h) / 2, so E(h) <=
// 2 D; the two models solve the same equations (the paraboloid is the
// patch to round-off), so their difference is bounded by the sum of their
// errors. The last term is the round-off of x itself.
struct RattlebackOracleComparison {
  std::string run;       // the compared run's name
  double h_oracle = 0;   // s: the oracle's step (its error estimate halves it)
  double window_start = 0, window_end = 0;  // s: the first and last rows compared
  std::string window;    // why the comparison ends there
  std::vector<double> t, omega_ours, omega_oracle, omega_tolerance;  // omega_z (rad/s) per row
  std::vector<double> work_ours, work_oracle, work_tolerance;        // the law's work (J) per row
  // D_ours and D_oracle for omega_z (rad/s) at the end: the two models' error estimates.
  double ours_error_estimate = 0, oracle_error_estimate = 0;
  std::vector<double> reversals;  // the oracle's, by the suite's rule on the same rows
  int first_direction = 0;
  std::vector<double> reversals_ours;  // ours on the same rows (the window)
  int first_direction_ours = 0;
  // Where each of the oracle's reversals lets ours fall: the rows about its
  // crossing where the oracle's windowed mean is within the tolerance of zero
  // (widened by a row on each side).
  std::vector<std::pair<double, double>> reversal_bounds;
  double max_gap = 0, max_slip = 0;  // the oracle's constraint drift: |g| (m) and |u| (m/s)
  long oracle_steps = 0;
  double speed_scale = 0;  // m/s: the oracle's largest |v| + |omega| |r| (r: centre of mass to contact)
  std::string failure;  // the oracle's ComputationError, if any
};

struct RattlebackStudy {
  std::vector<RattlebackRun> runs;
  RattlebackRocking rocking;
  std::vector<RattlebackPeer> peers;  // the full study only
  // The top's patch against the oracle's paraboloid: the largest |z - z_paraboloid(x, y)| (m)
  // over a 21 x 21 grid of (s, t), and the largest coordinate there (m).
  double shape_deviation = 0, shape_scale = 0;
  std::vector<RattlebackOracleComparison> oracle;
};

// quick: the tap and spin starts (35 s) and the frictionless spin (10 s) at
// 10 ms, and the rocking modes; the full study adds the second reversal
// (120 s), the resistance and damping cases, the step sweep at 10, 50 and
// 100 ms, and MuJoCo's tap and spin starts (60 s at 1 ms). Both compare
// every no-slip run with the oracle (each with its twin at half the step).
RattlebackStudy run_rattleback_study(bool quick);

SuiteResult rattleback_reversal_suite(const SuiteOptions& options);

// Figure `rattleback-spin`: spin.csv (run, t, omega_z, energy, work,
// impulse_work, mode) for every run, mujoco.csv (run, t, omega_z, energy)
// for the peer's, and oracle.csv (run, t, omega_z, difference, tolerance):
// the oracle's omega_z at each compared row, ours less it, and tol(t).
void write_rattleback_spin_data(const std::filesystem::path& dir);
// Figure `rattleback-top-view`: outline.csv (run, t, x, y): the rattleback's
// rim (its patch boundary) in the world's xy plane every second of the tap
// and spin starts, as Figs. 6.6-6.7 and 11 ghost their poses.
void write_rattleback_top_view_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
