#include "validation/suites/rattleback_reversal.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <chrono>
#include <cmath>
#include <fstream>
#include <numbers>

#include "core/errors.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "validation/build_info.hpp"
#include "validation/suites/simulation_rows.hpp"
#include "validation/scenes/scene.hpp"

namespace contactref::validation {
namespace {

namespace dy = contactref::dynamics;
namespace su = contactref::surfaces;

constexpr double kFloorScale = 20;  // the fixtures' 3 m floor, enlarged about its centre

// The two fixture scenes (they differ only in the contact's start) and the
// enlarged floor.
struct Rattleback {
  scenes::Scene tap, spin;
  su::PatchComplex<double> floor;

  Rattleback()
      : tap(load("rattleback_tap.json")), spin(load("rattleback_spin.json")) {
    std::array<Vec3<double>, 16> control;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        control[std::size_t(4 * i + j)] = kFloorScale * Vec3<double>(-1.5 + i, -1.5 + j, 0);
    floor.patches.push_back(std::make_unique<su::BezierPatch<double>>(control));
  }
  static scenes::Scene load(const std::string& name) {
    return scenes::load_scene(std::filesystem::path(build_info::source_dir) / "validation/fixtures/scenes" / name);
  }
  dy::ContactSystem<double> system(const dy::FrictionModel<double>& friction) const {
    dy::ContactSystem<double> system = spin.system();
    system.surface2 = &floor;
    system.friction = friction;
    return system;
  }
  const su::Patch<double>& top() const { return spin.free_body().patch(0); }
  double mass() const { return spin.free_body().mass; }
  const Mat3<double>& inertia() const { return spin.free_body().I_com; }
  double g() const { return -spin.gravity.z(); }
};

// With resistance, the rolling and the spin that it stops are held below 0.01
// rad/s (no-roll and rest), instead of reversing at every step.
dy::FrictionModel<double> coulomb(double mu, double mu_roll = 0, double mu_spin = 0, double damping = 0) {
  dy::FrictionModel<double> friction;
  friction.law.mu = mu;
  friction.law.mu_roll = mu_roll;
  friction.law.mu_spin = mu_spin;
  friction.law.damping = damping;
  friction.mu_static = mu;
  friction.roll_threshold = mu_roll > 0 ? 0.01 : 0;
  friction.spin_threshold = mu_spin > 0 ? 0.01 : 0;
  return friction;
}

// The centred running mean of omega_z(t) over kSpinWindow, at every sample.
std::vector<double> mean_spin(const std::vector<double>& t, const std::vector<double>& spin) {
  std::vector<double> mean(t.size());
  std::size_t lo = 0, hi = 0;
  double sum = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    while (hi < t.size() && t[hi] <= t[k] + kSpinWindow / 2) sum += spin[hi++];
    while (t[lo] < t[k] - kSpinWindow / 2) sum -= spin[lo++];
    mean[k] = sum / double(hi - lo);
  }
  return mean;
}

// Reversals and the first direction of the spin omega_z(t) (header).
void find_reversals(const std::vector<double>& t, const std::vector<double>& spin, std::vector<double>& reversals,
                    int& first_direction) {
  const std::vector<double> mean = mean_spin(t, spin);
  int direction = 0;
  double last_crossing = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (k > 0 && (mean[k] > 0) != (mean[k - 1] > 0))  // a zero crossing, interpolated
      last_crossing = t[k - 1] + (t[k] - t[k - 1]) * mean[k - 1] / (mean[k - 1] - mean[k]);
    const int now = mean[k] > kSpinLevel ? 1 : mean[k] < -kSpinLevel ? -1 : 0;
    if (now == 0) continue;
    if (direction == 0) {
      first_direction = direction = now;
    } else if (now != direction) {
      reversals.push_back(last_crossing);
      direction = now;
    }
  }
}

// The period of x(t) from its zero crossings about its mean over [from, to]:
// twice the mean spacing of the crossings (0 with fewer than three).
double period_from_crossings(const std::vector<double>& t, const std::vector<double>& x) {
  double mean = 0;
  for (double value : x) mean += value / double(x.size());
  std::vector<double> crossings;
  for (std::size_t k = 1; k < x.size(); ++k) {
    const double a = x[k - 1] - mean, b = x[k] - mean;
    if ((a > 0) != (b > 0)) crossings.push_back(t[k - 1] + (t[k] - t[k - 1]) * a / (a - b));
  }
  if (crossings.size() < 3) return 0;
  return 2 * (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

// Pitch and roll periods over the 5 s before the first reversal: the world z
// components of the body's x (long) and y axes.
void measure_rocking_before_reversal(RattlebackRun& run) {
  if (run.reversals.empty()) return;
  std::vector<double> t, pitch, roll;
  for (const dy::SimulationSample<double>& sample : run.result.samples) {
    if (sample.state.time < run.reversals[0] - 5 || sample.state.time > run.reversals[0]) continue;
    t.push_back(sample.state.time);
    pitch.push_back(sample.R_w_1(2, 0));
    roll.push_back(sample.R_w_1(2, 1));
  }
  run.pitch_period = period_from_crossings(t, pitch);
  run.roll_period = period_from_crossings(t, roll);
}

RattlebackRun run_case(const Rattleback& rattleback, std::string name, const std::string& start,
                       const dy::FrictionModel<double>& friction, double h_max, double duration) {
  RattlebackRun run;
  run.name = std::move(name);
  run.start = start;
  run.friction = friction;
  run.h_max = h_max;
  run.duration = duration;
  const scenes::Scene& scene = start == "tap" ? rattleback.tap : rattleback.spin;
  dy::SimulationOptions<double> options = scene.options;
  options.h_max = h_max;
  options.duration = duration;
  run.result = dy::simulate(rattleback.system(friction), scene.initial, options);
  std::vector<double> t, spin;
  for (const dy::SimulationSample<double>& sample : run.result.samples)
    t.push_back(sample.state.time), spin.push_back(sample.omega_w.z());
  find_reversals(t, spin, run.reversals, run.first_direction);
  measure_rocking_before_reversal(run);
  const dy::SimulationSample<double>& last = run.result.samples.back();
  run.energy0 = run.result.initial_energy;  // as given, before the start's plastic impulse (in impulse_work)
  run.energy_change = last.energy - run.energy0;
  run.work = last.work;
  run.impulse_work = last.impulse_work;
  run.integrator_loss = run.energy_change - run.work - run.impulse_work;
  return run;
}

// The linearised rocking modes (header) from the top's patch at its apex.
RattlebackRocking rocking_modes(const Rattleback& rattleback) {
  RattlebackRocking rocking;
  const su::PatchJet<double> apex = rattleback.top().evaluate(0.5, 0.5);
  const double m = rattleback.mass(), g = rattleback.g();
  rocking.h0 = apex.c().norm();
  // z = f(x, y) near the apex (z_s = z_t = 0 there by the net's symmetry):
  // Hess f = G^-T Z G^-1, the curvature A = -Hess f, Rc = A^-1.
  Eigen::Matrix2d G, Z;
  G << apex.c_s().x(), apex.c_t().x(), apex.c_s().y(), apex.c_t().y();
  Z << apex.c_ss().z(), apex.c_st().z(), apex.c_st().z(), apex.c_tt().z();
  const Eigen::Matrix2d G_inv = G.inverse();
  const Eigen::Matrix2d Rc = (-(G_inv.transpose() * Z * G_inv)).inverse();
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> radii(Rc);
  rocking.radius_short = radii.eigenvalues()(0), rocking.radius_long = radii.eigenvalues()(1);
  const Eigen::Matrix2d I_c = rattleback.inertia().topLeftCorner<2, 2>() + m * rocking.h0 * rocking.h0 * Eigen::Matrix2d::Identity();
  Eigen::Matrix2d J;
  J << 0, 1, -1, 0;
  const Eigen::Matrix2d K = m * g * (Rc - rocking.h0 * Eigen::Matrix2d::Identity());
  const Eigen::Matrix2d M = J.transpose() * I_c * J;
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::Matrix2d> modes(K, M);
  const double two_pi = 2 * std::numbers::pi;
  for (int k = 0; k < 2; ++k) rocking.coupled_periods[k] = two_pi / std::sqrt(modes.eigenvalues()(1 - k));
  // Decoupled (the notes): the long radius with I_yy (pitch), the short with I_xx (roll).
  rocking.decoupled_periods[0] = two_pi * std::sqrt(I_c(1, 1) / (m * g * (rocking.radius_long - rocking.h0)));
  rocking.decoupled_periods[1] = two_pi * std::sqrt(I_c(0, 0) / (m * g * (rocking.radius_short - rocking.h0)));

  // Each mode alone: the tilt dn = theta0 v at rest, i.e. the contact moved
  // on the top by dx = Rc dn, (ds, dt) = G^-1 dx; no-slip throughout (mu = 1).
  constexpr double theta0 = 1e-3;
  for (int k = 0; k < 2; ++k) {
    const Eigen::Vector2d v = modes.eigenvectors().col(1 - k).normalized();
    const Eigen::Vector2d dst = G_inv * (Rc * (theta0 * v));
    dy::ContactState<double> start = rattleback.spin.initial;
    start.q << 0.5 + dst(0), 0.5 + dst(1), 0.5, 0.5, 0;
    start.qdot.setZero();
    dy::SimulationOptions<double> options = rattleback.spin.options;
    options.duration = 12 * rocking.coupled_periods[k];
    const dy::SimulationResult<double> result = dy::simulate(rattleback.system(coulomb(1.0)), start, options);
    if (result.status != dy::SimulationStatus::kCompleted) continue;  // measured period 0: the check fails
    std::vector<double> t, tilt;
    for (const dy::SimulationSample<double>& sample : result.samples) {
      const Vec3<double> down_b = sample.R_w_1.transpose() * Vec3<double>(0, 0, -1);
      t.push_back(sample.state.time);
      tilt.push_back(down_b.head<2>().dot(v));
    }
    rocking.measured_periods[k] = period_from_crossings(t, tilt);
    rocking.measured_cycles[k] = rocking.measured_periods[k] > 0 ? (t.back() - t.front()) / rocking.measured_periods[k] : 0;
  }
  return rocking;
}

// MuJoCo from our run's first row (after the start's entry into its mode):
// the top as the hull of its patch sampled 24 x 24, 1 ms steps.
RattlebackPeer run_peer(const Rattleback& rattleback, const RattlebackRun& ours, double duration) {
  RattlebackPeer peer;
  peer.name = "mujoco " + ours.name;
  oracles::MujocoBodyOnPlane body;
  for (int i = 0; i <= 24; ++i)
    for (int j = 0; j <= 24; ++j) body.points_b.push_back(rattleback.top().evaluate(i / 24.0, j / 24.0).c());
  body.mass = rattleback.mass();
  body.inertia_b = rattleback.inertia();
  body.gravity_w = rattleback.spin.gravity;
  body.mu = ours.friction.law.mu;
  body.mu_roll = ours.friction.law.mu_roll;
  body.mu_spin = ours.friction.law.mu_spin;
  body.timestep = 1e-3;
  body.duration = duration;
  body.sample_interval = 0.01;
  const dy::SimulationSample<double>& first = ours.result.samples.front();
  const oracles::MujocoStart start{first.com_w, first.R_w_1, first.com_velocity_w, first.omega_w};
  try {
    peer.run = oracles::run_mujoco_on_plane(body, start);
  } catch (const ComputationError& error) {
    peer.failure = error.what();
  }
  std::vector<double> t, spin;
  for (const oracles::MujocoSample& sample : peer.run.samples) t.push_back(sample.time), spin.push_back(sample.omega_w.z());
  find_reversals(t, spin, peer.reversals, peer.first_direction);
  return peer;
}

}  // namespace

RattlebackStudy run_rattleback_study(bool quick) {
  const Rattleback rattleback;
  RattlebackStudy study;
  const double long_run = quick ? 35 : 120;
  study.runs.push_back(run_case(rattleback, "tap[mu=0.3]", "tap", coulomb(0.3), 0.01, quick ? 35 : 40));
  study.runs.push_back(run_case(rattleback, "spin[mu=0.3]", "spin", coulomb(0.3), 0.01, long_run));
  study.runs.push_back(run_case(rattleback, "spin[frictionless]", "spin", dy::FrictionModel<double>(), 0.01,
                                quick ? 10 : 40));
  if (!quick) {
    study.runs.push_back(run_case(rattleback, "spin[mu=0.3,mu_r=0.003,mu_s=0.0001]", "spin", coulomb(0.3, 0.003, 0.0001),
                                  0.01, long_run));
    study.runs.push_back(run_case(rattleback, "spin[mu=0.3,damping=0.05]", "spin", coulomb(0.3, 0, 0, 0.05), 0.01, 40));
    for (double h : {0.05, 0.1}) {
      const std::string at = fmt::format(",h_max={:g}ms]", h * 1e3);
      study.runs.push_back(run_case(rattleback, "spin[mu=0.3" + at, "spin", coulomb(0.3), h, long_run));
    }
  }
  study.rocking = rocking_modes(rattleback);
  if (!quick)
    for (const char* name : {"tap[mu=0.3]", "spin[mu=0.3]"})
      for (const RattlebackRun& run : study.runs)
        if (run.name == name) study.peers.push_back(run_peer(rattleback, run, 60));
  return study;
}

namespace {

const RattlebackRun* find_run(const RattlebackStudy& study, const std::string& name) {
  for (const RattlebackRun& run : study.runs)
    if (run.name == name) return &run;
  return nullptr;
}

std::string reversal_list(const std::vector<double>& reversals) {
  std::string text;
  for (double t : reversals) text += (text.empty() ? "" : ", ") + fmt::format("{:.2f} s", t);
  return text.empty() ? "none" : text;
}

void add_run_rows(SuiteResult& result, const RattlebackRun& run) {
  const std::string at = "[" + run.name + "]";
  const bool completed = run.result.status == dy::SimulationStatus::kCompleted;
  result.add(completed_check(at, run.result));
  result.add(information("reversals" + at, double(run.reversals.size()), std::nullopt,
                         fmt::format("{} s at h_max = {:g} ms; reversal times: {}", run.duration, run.h_max * 1e3,
                                     reversal_list(run.reversals))));
  result.add(information("energy_change_J" + at, run.energy_change, std::nullopt,
                         fmt::format("E_end - E0 (E0 = {:.6g} J) = law's work {:.6g} J + plastic impulses' {:.3g} J + "
                                     "integrator {:.3g} J",
                                     run.energy0, run.work, run.impulse_work, run.integrator_loss)));
  // Friction, resistance and damping never add energy: the work never rises
  // by more than the round-off of one interval's power (64 eps of the energy scale).
  double largest_rise = 0;
  bool rises = false;
  for (std::size_t k = 1; k < run.result.samples.size(); ++k) {
    const double rise = run.result.samples[k].work - run.result.samples[k - 1].work;
    largest_rise = std::max(largest_rise, rise);
    rises = rises || rise > 64 * epsilon<double>() * (std::abs(run.energy0) + std::abs(run.result.samples[k].work));
  }
  result.add(check("largest_work_rise_J" + at, largest_rise, 0.0,
                   "<= 64 eps (|E0| + |work|) between rows: the law (friction, resistance, damping) never does "
                   "positive work",
                   completed && !rises));
}

void add_direction_rows(SuiteResult& result, const RattlebackStudy& study) {
  const RattlebackRun* tap = find_run(study, "tap[mu=0.3]");
  const RattlebackRun* spin = find_run(study, "spin[mu=0.3]");
  const bool preferred = tap->first_direction != 0 && spin->first_direction == -tap->first_direction;
  result.add(check("tap_start_direction", tap->first_direction, std::nullopt,
                   fmt::format("the tap start's first spin (the mean omega_z over {} s beyond {} rad/s; -1 clockwise "
                               "seen from above) is the preferred direction, opposite to the spin start's {:+d} "
                               "(thesis Fig. 6.6: clockwise; the notes 7.3: check self-consistency, not the sign)",
                               kSpinWindow, kSpinLevel, spin->first_direction),
                   preferred));
  const double first = spin->reversals.empty() ? 0 : spin->reversals[0];
  result.add(check("spin_start_first_reversal_s", first, 8.0,
                   "a reversal (>= 1) into the tap start's direction; reference: Kry & Pai Fig. 11 'after about eight "
                   "seconds' with sliding friction and viscous damping (not given); the thesis Fig. 6.7: 'quickly'. "
                   "Here no-slip without dissipation, whose reversal is slower (the energy only moves between "
                   "rocking and spin)",
                   !spin->reversals.empty() && tap->first_direction != 0 &&
                       spin->first_direction == -tap->first_direction));
  const RattlebackRun* frictionless = find_run(study, "spin[frictionless]");
  result.add(check("frictionless_reversals", double(frictionless->reversals.size()), 0.0,
                   "== 0: without friction the contact force is vertical, so the vertical angular momentum about the "
                   "centre of mass is conserved (thesis Section 6.4: 'no reversal at all')",
                   frictionless->reversals.empty() && frictionless->first_direction == 1));
}

// When the run first entered `mode`, as text.
std::string first_switch_to(const RattlebackRun& run, dy::ContactMode mode) {
  for (const dy::SimulationEvent<double>& event : run.result.events)
    if (event.kind == dy::EventKind::kModeSwitch && event.to_mode == mode) return fmt::format("{:.2f} s", event.time);
  return "never";
}

void add_second_reversal_rows(SuiteResult& result, const RattlebackStudy& study) {
  const RattlebackRun* spin = find_run(study, "spin[mu=0.3]");
  const double second = spin->reversals.size() >= 2 ? spin->reversals[1] : 0;
  result.add(check("spin_start_second_reversal_s", second, 40.0,
                   "a second reversal follows (>= 2 reversals in 120 s); reference: the thesis Fig. 6.8, clockwise at "
                   "23 s and counter-clockwise at 40 s, with sliding friction; here no-slip, which conserves energy, "
                   "so rocking and spin keep exchanging it more slowly",
                   spin->reversals.size() >= 2));
  const RattlebackRun* resisting = find_run(study, "spin[mu=0.3,mu_r=0.003,mu_s=0.0001]");
  result.add(check("resisting_reversals", double(resisting->reversals.size()), 1.0,
                   fmt::format("< 2: rolling resistance 0.003 m and spinning resistance 0.0001 m suppress the second "
                               "reversal (thesis Section 6.4, reference 1 reversal); here they suppress the first as "
                               "well: the rolling resistance (0.15 N m at rest) stops the rocking that drives the "
                               "reversal within about 10 s (no-roll holds it from {}), after which the top spins "
                               "down slowly ({} accepted steps for {} s)",
                               first_switch_to(*resisting, dy::ContactMode::kNoRoll),
                               resisting->result.statistics.accepted_steps, resisting->duration),
                   resisting->reversals.size() < 2 && resisting->result.status == dy::SimulationStatus::kCompleted));
  const RattlebackRun* damped = find_run(study, "spin[mu=0.3,damping=0.05]");
  result.add(information("damped_first_reversal_s", damped->reversals.empty() ? 0 : damped->reversals[0], 8.0,
                         "viscous damping 0.05 N m s (Kry & Pai's rattleback damps, its coefficient not given; "
                         "reference their Fig. 11, about 8 s)"));
}

void add_rocking_rows(SuiteResult& result, const RattlebackStudy& study) {
  const RattlebackRocking& r = study.rocking;
  result.add(information("apex_radius_long_m", r.radius_long, 2.7, "principal radius of curvature at the apex; notes 7.3: 2.7"));
  result.add(information("apex_radius_short_m", r.radius_short, 0.3, "notes 7.3: 0.3"));
  result.add(information("decoupled_pitch_period_s", r.decoupled_periods[0], 1.76,
                         "2 pi sqrt((I_yy + m h0^2) / (m g (R_long - h0))), the misalignment's coupling dropped; notes "
                         "7.3: 1.76 s"));
  result.add(information("decoupled_roll_period_s", r.decoupled_periods[1], 2.06,
                         "2 pi sqrt((I_xx + m h0^2) / (m g (R_short - h0))); notes 7.3: 2.06 s"));
  constexpr double theta0 = 1e-3;
  for (int k = 0; k < 2; ++k) {
    const std::string mode = k == 0 ? "short" : "long";
    const double relative = std::abs(r.measured_periods[k] - r.coupled_periods[k]) / r.coupled_periods[k];
    result.add(check("rocking_period_" + mode + "_mode_s", r.measured_periods[k], r.coupled_periods[k],
                     fmt::format("|measured - linearised| / linearised = {:.2e} <= theta0 = {:g}: the mode started "
                                 "alone at amplitude theta0 in no-slip, its period from the tilt's zero crossings over "
                                 "{:.1f} cycles; the other mode's O(theta0) share shifts each crossing by < theta0 T / "
                                 "pi, so the period by < 2 theta0 / (pi N), and the amplitude's own shift is "
                                 "O(theta0^2). The reference is the coupled linearisation (header); the decoupled "
                                 "periods differ from it by more than 10%",
                                 relative, theta0, r.measured_cycles[k]),
                     relative <= theta0));
  }
  const RattlebackRun* spin = find_run(study, "spin[mu=0.3]");
  const std::string before = spin->reversals.empty()
                                 ? "no reversal"
                                 : fmt::format("the 5 s before the first reversal ({:.2f} s)", spin->reversals[0]);
  result.add(information("pitch_period_before_reversal_s", spin->pitch_period, 0.5,
                         "the spin start at 10 ms, " + before +
                             ", from the zero crossings of the body x axis's tilt; Kry & Pai Fig. 11 'about 0.5 s' for "
                             "their rattleback (whose parameters evidently differ from App. B.1: this top's "
                             "linearised modes are longer than 1.4 s)"));
  result.add(information("roll_period_before_reversal_s", spin->roll_period, 0.5, "the body y axis's tilt, as above"));
  // A dimensionless comparison: Kry & Pai's top reverses after about 8 s
  // rocking with a period of about 0.5 s, this one after its own number of
  // periods.
  result.add(information("first_reversal_in_rocking_periods",
                         spin->pitch_period > 0 && !spin->reversals.empty() ? spin->reversals[0] / spin->pitch_period : 0,
                         8.0 / 0.5,
                         "the spin start's first reversal time over its rocking period before it; Kry & Pai Fig. 11: "
                         "about 8 s over about 0.5 s = 16 (their parameters are not App. B.1's; in rocking periods "
                         "the two tops reverse alike)"));
}

// Kry & Pai's step-size statements (Section 4.2.1), and the integrator's
// energy loss across the sweep. Not swept: the resisting law, whose
// switches between no-slip and no-roll while the rocking dies are decided
// at step ends (first order in h, like every stick that breaks from rest).
void add_sweep_rows(SuiteResult& result, const RattlebackStudy& study) {
  for (const std::string law : {"mu=0.3"}) {
    std::vector<double> h, loss;
    bool completed = true;
    for (double step : {0.01, 0.05, 0.1}) {
      const std::string name = step == 0.01 ? "spin[" + law + "]" : fmt::format("spin[{},h_max={:g}ms]", law, step * 1e3);
      const RattlebackRun* run = find_run(study, name);
      completed = completed && run->result.status == dy::SimulationStatus::kCompleted;
      h.push_back(step);
      loss.push_back(std::abs(run->integrator_loss));
      result.add(information("relative_energy_lost[" + name + "]", -run->energy_change / run->energy0, std::nullopt,
                             fmt::format("(E0 - E_end) / E0, of which the integrator {:.3g} J; first reversal {}; Kry "
                                         "& Pai: reversal below 50 ms, most energy lost at 50 ms, stable spin without "
                                         "reversal at 100 ms (their sliding friction and integrator)",
                                         -run->integrator_loss, run->reversals.empty()
                                                                    ? std::string("none")
                                                                    : fmt::format("{:.2f} s", run->reversals[0]))));
    }
    const double order = observed_order(h, loss);
    result.add(check("integrator_loss_order[" + law + "]", order, 4.0,
                     "order >= 3.5 (RK4's 4 less half an order for pre-asymptotic effects; least squares over 10, 50 "
                     "and 100 ms) of |E_end - E0 - law's work - impulses'|: the energy the integrator loses shrinks "
                     "as RK4's error, what remains is the law's",
                     completed && order >= 3.5));
  }
}

void add_peer_rows(SuiteResult& result, const RattlebackStudy& study) {
  for (const RattlebackPeer& peer : study.peers) {
    const std::string at = "[" + peer.name + "]";
    const double energy_lost = peer.run.samples.empty()
                                   ? 0
                                   : (peer.run.samples.front().energy - peer.run.samples.back().energy) /
                                         peer.run.samples.front().energy;
    result.add(information("peer_first_direction" + at, peer.first_direction, std::nullopt,
                           fmt::format("MuJoCo {} (soft contact, condim 6, the top's convex hull, 1 ms RK4), 60 s: "
                                       "first spin direction; reversals: {}; {}",
                                       peer.run.version, reversal_list(peer.reversals),
                                       peer.failure.empty() ? "completed" : "stopped: " + peer.failure)));
    result.add(information("peer_relative_energy_lost" + at, energy_lost, std::nullopt,
                           "(E0 - E_end) / E0 in MuJoCo: its soft contact and friction cone dissipate where our "
                           "no-slip does not"));
  }
}

}  // namespace

SuiteResult rattleback_reversal_suite(const SuiteOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const RattlebackStudy study = run_rattleback_study(options.quick);
  SuiteResult result;
  result.name = "rattleback-reversal";
  for (const RattlebackRun& run : study.runs) add_run_rows(result, run);
  add_direction_rows(result, study);
  if (!options.quick) {
    add_second_reversal_rows(result, study);
    add_sweep_rows(result, study);
  }
  add_rocking_rows(result, study);
  add_peer_rows(result, study);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.figures = figure_files_of(result.name);
  return result;
}

void write_rattleback_spin_data(const std::filesystem::path& dir) {
  const RattlebackStudy study = run_rattleback_study(false);
  std::ofstream spin(dir / "spin.csv");
  spin << "run,t,omega_z,energy,work,impulse_work,mode\n";
  for (const RattlebackRun& run : study.runs)
    for (const dy::SimulationSample<double>& sample : run.result.samples)
      spin << fmt::format("\"{}\",{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{}\n", run.name, sample.state.time,
                          sample.omega_w.z(), sample.energy, sample.work, sample.impulse_work,
                          dy::to_string(sample.state.mode));
  std::ofstream mujoco(dir / "mujoco.csv");
  mujoco << "run,t,omega_z,energy\n";
  for (const RattlebackPeer& peer : study.peers)
    for (const oracles::MujocoSample& sample : peer.run.samples)
      mujoco << fmt::format("\"{}\",{:.17g},{:.17g},{:.17g}\n", peer.name, sample.time, sample.omega_w.z(), sample.energy);
  if (!spin || !mujoco) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

void write_rattleback_top_view_data(const std::filesystem::path& dir) {
  const Rattleback rattleback;
  std::ofstream outline(dir / "outline.csv");
  outline << "run,t,x,y\n";
  for (const std::string start : {"tap", "spin"}) {
    const RattlebackRun run = run_case(rattleback, start + "[mu=0.3]", start, coulomb(0.3), 0.01, 40);
    double next = 0;
    for (const dy::SimulationSample<double>& sample : run.result.samples) {
      if (sample.state.time < next) continue;
      next += 1;
      // The rim: the patch's boundary, s then t then back, in the world.
      for (int k = 0; k <= 160; ++k) {
        const double a = (k % 40) / 40.0;
        const int side = k / 40;
        const double s = side == 0 ? a : side == 1 ? 1 : side == 2 ? 1 - a : 0;
        const double t = side == 0 ? 0 : side == 1 ? a : side == 2 ? 1 : side == 3 ? 1 - a : 0;
        const Vec3<double> x = sample.R_w_1 * rattleback.top().evaluate(s, t).c() + sample.com_w;
        outline << fmt::format("{},{:.17g},{:.9g},{:.9g}\n", run.name, sample.state.time, x.x(), x.y());
      }
    }
  }
  if (!outline) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

}  // namespace contactref::validation
