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

struct RattlebackStudy {
  std::vector<RattlebackRun> runs;
  RattlebackRocking rocking;
  std::vector<RattlebackPeer> peers;  // the full study only
};

// quick: the tap and spin starts (35 s) and the frictionless spin (10 s) at
// 10 ms, and the rocking modes; the full study adds the second reversal
// (120 s), the resistance and damping cases, the step sweep at 10, 50 and
// 100 ms, and MuJoCo's tap and spin starts (60 s at 1 ms).
RattlebackStudy run_rattleback_study(bool quick);

SuiteResult rattleback_reversal_suite(const SuiteOptions& options);

// Figure `rattleback-spin`: spin.csv (run, t, omega_z, energy, work,
// impulse_work, mode) for every run, and mujoco.csv (run, t, omega_z,
// energy) for the peer's.
void write_rattleback_spin_data(const std::filesystem::path& dir);
// Figure `rattleback-top-view`: outline.csv (run, t, x, y): the rattleback's
// rim (its patch boundary) in the world's xy plane every second of the tap
// and spin starts, as Figs. 6.6-6.7 and 11 ghost their poses.
void write_rattleback_top_view_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
