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

// output_interval < 0: the scene's. from: a state to start from (at its
// time, to the same end) instead of the scene's.
RattlebackRun run_case(const Rattleback& rattleback, std::string name, const std::string& start,
                       const dy::FrictionModel<double>& friction, double h_max, double duration,
                       double output_interval = -1, const dy::ContactState<double>* from = nullptr) {
  RattlebackRun run;
  run.name = std::move(name);
  run.start = start;
  run.friction = friction;
  run.h_max = h_max;
  run.duration = duration;
  const scenes::Scene& scene = start == "tap" ? rattleback.tap : rattleback.spin;
  dy::SimulationOptions<double> options = scene.options;
  options.h_max = h_max;
  options.duration = from ? duration - from->time : duration;
  if (output_interval >= 0) options.output_interval = output_interval;
  run.result = dy::simulate(rattleback.system(friction), from ? *from : scene.initial, options);
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

// The top's apex, the patch's centre (s, t) = (0.5, 0.5), where its normal is
// +z_b and z_s = z_t = 0 by the net's symmetry: z = f(x, y) near it, with
// Hess f = G^-T Z G^-1, the curvature A = -Hess f and Rc = A^-1.
struct Apex {
  Vec3<double> c_b;        // body coordinates (m)
  Eigen::Matrix2d G_inv;   // d(s, t) / d(x, y) there
  Eigen::Matrix2d Rc;      // the radius-of-curvature tensor in body x, y (m)
};

Apex apex_of(const Rattleback& rattleback) {
  const su::PatchJet<double> jet = rattleback.top().evaluate(0.5, 0.5);
  Eigen::Matrix2d G, Z;
  G << jet.c_s().x(), jet.c_t().x(), jet.c_s().y(), jet.c_t().y();
  Z << jet.c_ss().z(), jet.c_st().z(), jet.c_st().z(), jet.c_tt().z();
  Apex apex;
  apex.c_b = jet.c();
  apex.G_inv = G.inverse();
  apex.Rc = (-(apex.G_inv.transpose() * Z * apex.G_inv)).inverse();
  return apex;
}

// The linearised rocking modes (header) from the top's patch at its apex.
RattlebackRocking rocking_modes(const Rattleback& rattleback) {
  RattlebackRocking rocking;
  const Apex apex = apex_of(rattleback);
  const double m = rattleback.mass(), g = rattleback.g();
  rocking.h0 = apex.c_b.norm();
  const Eigen::Matrix2d& G_inv = apex.G_inv;
  const Eigen::Matrix2d& Rc = apex.Rc;
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

constexpr double kOracleStep = 5e-3;  // s: the oracle's step (RKF78); its error estimate halves it
constexpr double kTwinReach = 0.1;    // s: the twin's rows past our last that the oracle visits (> its step)

// The oracle's top: the elliptic paraboloid with the patch's apex and
// curvature there. The net is one exactly: its control points are
// P_ij = (x_i, y_j, a_i + a_j) with x_i, y_j equally spaced and a = (-1, 0,
// 0, -1), so x(s) and y(t) are linear and z = A(s) + A(t), A(s) = -(B_0(s) +
// B_3(s)) = -1 + 3 s (1 - s), a quadratic in x and y; the scene's scale,
// rotation and offset keep it a paraboloid with its axis along +z_b.
// shape_deviation measures it on the patch.
oracles::RollingBody oracle_body(const Rattleback& rattleback, const dy::FrictionLaw<double>& law) {
  const Apex apex = apex_of(rattleback);
  oracles::RollingBody body;
  body.mass = rattleback.mass();
  body.inertia_b = rattleback.inertia();
  body.gravity_w = rattleback.spin.gravity;
  body.shape = std::make_shared<oracles::ParaboloidShape>(apex.c_b, apex.Rc.inverse());
  body.law = {law.mu_roll, law.mu_spin, law.damping};
  return body;
}

// The largest |z - z_paraboloid(x, y)| over a 21 x 21 grid of the patch, and
// the largest coordinate there.
void measure_shape_deviation(const Rattleback& rattleback, RattlebackStudy& study) {
  const Apex apex = apex_of(rattleback);
  const Eigen::Matrix2d K = apex.Rc.inverse();
  for (int i = 0; i <= 20; ++i)
    for (int j = 0; j <= 20; ++j) {
      const Vec3<double> c = rattleback.top().evaluate(i / 20.0, j / 20.0).c();
      const Eigen::Vector2d d = (c - apex.c_b).head<2>();
      study.shape_deviation = std::max(study.shape_deviation, std::abs(c.z() - (apex.c_b.z() - 0.5 * d.dot(K * d))));
      study.shape_scale = std::max(study.shape_scale, c.cwiseAbs().maxCoeff());
    }
}

// The time of a run's first mode switch after its first row (infinite
// without one; the start's entry into its mode precedes the first row).
double first_mode_switch(const RattlebackRun& run) {
  for (const dy::SimulationEvent<double>& event : run.result.events)
    if (event.kind == dy::EventKind::kModeSwitch && event.time > run.result.samples.front().state.time) return event.time;
  return std::numeric_limits<double>::infinity();
}

const RattlebackRun* find_run(const RattlebackStudy& study, const std::string& name) {
  for (const RattlebackRun& run : study.runs)
    if (run.name == name) return &run;
  return nullptr;
}

// The row the comparison starts from: the first whose next step is h_max
// and whose resisted rolling and spin are above their thresholds. A run whose
// rolling starts at rest (the resisting run's spin start) climbs from h_min
// (the first step holds the rolling's reversal, at h_min), and a twin at half
// the step would climb the same way, its steps not halved; a run started
// below a threshold enters the rest mode first (a plastic impulse), which the
// twin started there must not.
std::size_t comparison_start(const RattlebackRun& run) {
  const std::vector<dy::SimulationSample<double>>& rows = run.result.samples;
  const dy::FrictionModel<double>& f = run.friction;
  for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
    const Vec3<double>& omega = rows[k].omega_w;
    if (rows[k + 1].step == run.h_max && !(f.law.mu_roll > 0 && omega.head<2>().norm() < f.roll_threshold) &&
        !(f.law.mu_spin > 0 && std::abs(omega.z()) < f.spin_threshold))
      return k;
  }
  return 0;
}

// Running maxima: D(t) over the rows so far.
struct RunningMax {
  double value = 0;
  double operator()(double x) { return value = std::max(value, x); }
};

// The allowed interval of our reversal about each of the oracle's (header):
// from the crossing's rows outwards while the oracle's windowed mean is within
// its tolerance, the mean's tolerance being the largest row tolerance in its
// window (the last one there: the tolerance is a running maximum).
void bound_reversals(RattlebackOracleComparison& c) {
  const std::vector<double> mean = mean_spin(c.t, c.omega_oracle);
  const std::size_t n = c.t.size();
  std::vector<double> mean_tolerance(n);
  std::size_t last = 0;
  for (std::size_t k = 0; k < n; ++k) {
    while (last + 1 < n && c.t[last + 1] <= c.t[k] + kSpinWindow / 2) ++last;
    mean_tolerance[k] = c.omega_tolerance[last];
  }
  const auto within = [&](std::size_t k) { return std::abs(mean[k]) <= mean_tolerance[k]; };
  for (double reversal : c.reversals) {
    std::size_t hi = std::size_t(std::lower_bound(c.t.begin(), c.t.end(), reversal) - c.t.begin());
    std::size_t lo = hi > 0 ? hi - 1 : 0;
    while (lo > 0 && within(lo)) --lo;
    while (hi + 1 < n && within(hi)) ++hi;
    c.reversal_bounds.emplace_back(c.t[lo], c.t[std::min(hi, n - 1)]);
  }
}

// Our run (ours, at h_max) and its twin at h_max / 2 (half, a row at every
// step) against the oracle at kOracleStep and kOracleStep / 2, on our rows
// up to the first mode switch of either (header). The oracle runs on the
// rows of both; the twin's error at our rows is interpolated linearly
// between its own.
RattlebackOracleComparison compare_with_oracle(const Rattleback& rattleback, const RattlebackRun& ours,
                                               std::size_t start_row, const RattlebackRun& half) {
  RattlebackOracleComparison c;
  c.run = ours.name;
  c.h_oracle = kOracleStep;
  const double switch_time = std::min(first_mode_switch(ours), first_mode_switch(half));
  const std::vector<dy::SimulationSample<double>> rows(ours.result.samples.begin() + std::ptrdiff_t(start_row),
                                                       ours.result.samples.end());
  const dy::SimulationSample<double>& first = rows.front();
  // The twin's rows before the switch; ours up to its last (a twin that
  // ended early, failed, shortens the comparison).
  std::vector<const dy::SimulationSample<double>*> twin;
  std::vector<double> twin_t;
  for (const dy::SimulationSample<double>& row : half.result.samples) {
    if (row.state.time >= switch_time) break;
    twin.push_back(&row);
    twin_t.push_back(row.state.time);
  }
  std::size_t n = 1;  // our rows compared
  while (n < rows.size() && rows[n].state.time < switch_time && rows[n].state.time <= twin_t.back()) ++n;
  if (twin.size() < 2 || n < 2) {
    c.failure = fmt::format("no rows to compare (the twin at h_max / 2 has {} before {} s)", twin.size(), switch_time);
    return c;
  }
  std::vector<double> times;  // after the start: ours and the twin's, merged
  for (std::size_t k = 1; k < n; ++k) times.push_back(rows[k].state.time);
  for (double t : twin_t)
    if (t > first.state.time && t <= rows[n - 1].state.time + kTwinReach) times.push_back(t);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  c.window_start = first.state.time;
  c.window_end = rows[n - 1].state.time;
  c.window = fmt::format("from {:.4g} s ", c.window_start) +
             (std::isfinite(switch_time)
                  ? fmt::format("up to the first mode switch at {:.2f} s (the oracle has no mode switching)", switch_time)
                  : fmt::format("to the end ({} s)", ours.duration));
  const oracles::RollingState start{first.R_w_1, first.com_w, first.com_velocity_w, first.omega_w};
  const oracles::RollingBody body = oracle_body(rattleback, ours.friction.law);
  oracles::RollingRun oracle, oracle_half;
  try {
    oracle = oracles::run_rolling(body, start, first.state.time, times, kOracleStep);
    oracle_half = oracles::run_rolling(body, start, first.state.time, times, kOracleStep / 2);
  } catch (const ComputationError& error) {
    c.failure = error.what();
    return c;
  }
  c.max_gap = oracle.max_gap;
  c.max_slip = oracle.max_slip;
  c.oracle_steps = oracle.steps;
  for (const oracles::RollingSample& o : oracle.samples)
    c.speed_scale = std::max(c.speed_scale, o.state.com_velocity_w.norm() +
                                                o.state.omega_w.norm() * (o.evaluation.contact_w - o.state.com_w).norm());
  // The oracle's row at time t (the start, or one of `times`).
  const auto oracle_at = [&](const oracles::RollingRun& run, double t) {
    const std::size_t i = std::size_t(std::lower_bound(times.begin(), times.end(), t) - times.begin());
    return t == first.state.time ? oracles::RollingSample{t, start, {}, 0} : run.samples[i];
  };
  // The twin's error against the oracle (omega_z, work) at our row's time t:
  // linear between its rows about t. It varies on the time scale of omega_z
  // (periods above 0.7 s, half the rocking's), so over a twin's step h <=
  // 50 ms the interpolation changes it by a relative (pi h / 0.7 s)^2 / 2 < 3%.
  const auto twin_error = [&](double t) {
    const std::size_t j =
        std::clamp(std::size_t(std::lower_bound(twin_t.begin(), twin_t.end(), t) - twin_t.begin()), std::size_t(1),
                   twin.size() - 1);
    const auto error = [&](const dy::SimulationSample<double>* row) {
      const oracles::RollingSample o = oracle_at(oracle, row->state.time);
      return Eigen::Vector2d(row->omega_w.z() - o.state.omega_w.z(), row->work - o.work);
    };
    const double t0 = twin[j - 1]->state.time, t1 = twin[j]->state.time;
    const double a = (t - t0) / (t1 - t0);
    return Eigen::Vector2d((1 - a) * error(twin[j - 1]) + a * error(twin[j]));
  };
  double omega_scale = 0;
  for (std::size_t k = 0; k < n; ++k) omega_scale = std::max(omega_scale, std::abs(rows[k].omega_w.z()));
  const double omega_floor = 64 * epsilon<double>() * omega_scale;
  const double work_floor = 64 * epsilon<double>() * std::abs(ours.energy0);
  RunningMax d_ours, d_oracle, w_ours, w_oracle;
  for (std::size_t k = 0; k < n; ++k) {
    const double t = rows[k].state.time;
    const oracles::RollingSample o = oracle_at(oracle, t), o_half = oracle_at(oracle_half, t);
    const double work = rows[k].work - first.work;  // since the window's start, as the oracle's
    const Eigen::Vector2d error(rows[k].omega_w.z() - o.state.omega_w.z(), work - o.work);
    const Eigen::Vector2d d = (error - twin_error(t)).cwiseAbs();
    d_ours(d.x());
    w_ours(d.y());
    d_oracle(std::abs(o.state.omega_w.z() - o_half.state.omega_w.z()));
    w_oracle(std::abs(o.work - o_half.work));
    c.t.push_back(t);
    c.omega_ours.push_back(rows[k].omega_w.z());
    c.omega_oracle.push_back(o.state.omega_w.z());
    c.omega_tolerance.push_back(2 * (d_ours.value + d_oracle.value) + omega_floor);
    c.work_ours.push_back(work);
    c.work_oracle.push_back(o.work);
    c.work_tolerance.push_back(2 * (w_ours.value + w_oracle.value) + work_floor);
    c.ours_error_estimate = d_ours.value;
    c.oracle_error_estimate = d_oracle.value;
  }
  find_reversals(c.t, c.omega_oracle, c.reversals, c.first_direction);
  find_reversals(c.t, c.omega_ours, c.reversals_ours, c.first_direction_ours);
  bound_reversals(c);
  return c;
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
  measure_shape_deviation(rattleback, study);
  // Every no-slip run against the oracle, each with its twin at half the
  // step; not the frictionless one.
  for (const RattlebackRun& run : study.runs) {
    if (run.friction.frictionless()) continue;
    const std::size_t start = comparison_start(run);
    const RattlebackRun twin = run_case(rattleback, run.name + "/2", run.start, run.friction, run.h_max / 2, run.duration,
                                        0, start > 0 ? &run.result.samples[start].state : nullptr);
    study.oracle.push_back(compare_with_oracle(rattleback, run, start, twin));
  }
  if (!quick)
    for (const char* name : {"tap[mu=0.3]", "spin[mu=0.3]"})
      for (const RattlebackRun& run : study.runs)
        if (run.name == name) study.peers.push_back(run_peer(rattleback, run, 60));
  return study;
}

namespace {

std::string reversal_list(const std::vector<double>& reversals) {
  std::string text;
  for (double t : reversals) text += (text.empty() ? "" : ", ") + fmt::format("{:.2f} s", t);
  return text.empty() ? "none" : text;
}

const RattlebackOracleComparison* find_comparison(const RattlebackStudy& study, const std::string& run) {
  for (const RattlebackOracleComparison& c : study.oracle)
    if (c.run == run) return &c;
  return nullptr;
}

// Whether our k-th reversal in the comparison's window falls within the
// bounds of the oracle's k-th (header).
bool reversal_within(const RattlebackOracleComparison& c, std::size_t k) {
  return c.failure.empty() && k < c.reversals_ours.size() && k < c.reversal_bounds.size() &&
         c.reversals_ours[k] >= c.reversal_bounds[k].first && c.reversals_ours[k] <= c.reversal_bounds[k].second;
}

// Ours, the oracle's and the bounds, as text.
std::string reversal_comparison(const RattlebackOracleComparison& c) {
  std::string text;
  for (std::size_t k = 0; k < std::max(c.reversals_ours.size(), c.reversals.size()); ++k) {
    const auto at = [](const std::vector<double>& list, std::size_t i) {
      return i < list.size() ? fmt::format("{:.2f} s", list[i]) : std::string("none");
    };
    text += (text.empty() ? "" : "; ") +
            fmt::format("ours {}, oracle {}", at(c.reversals_ours, k), at(c.reversals, k)) +
            (k < c.reversal_bounds.size()
                 ? fmt::format(" (allowed [{:.2f}, {:.2f}] s)", c.reversal_bounds[k].first, c.reversal_bounds[k].second)
                 : "");
  }
  return text.empty() ? "none in either" : text;
}

// The criterion of a reversal time against the oracle's.
const char* const kReversalBound =
    "within the rows about the oracle's crossing where the oracle's mean omega_z (over the window) is within the "
    "mean's tolerance of zero (the largest row tolerance of spin_history_vs_oracle in its window) and one row beyond: "
    "elsewhere our mean has the oracle's sign";

void add_run_rows(SuiteResult& result, const RattlebackRun& run, const RattlebackOracleComparison* c) {
  const std::string at = "[" + run.name + "]";
  const bool completed = run.result.status == dy::SimulationStatus::kCompleted;
  result.add(completed_check(at, run.result));
  const std::string times = fmt::format("{} s at h_max = {:g} ms; reversal times: {}", run.duration, run.h_max * 1e3,
                                        reversal_list(run.reversals));
  if (c && c->failure.empty()) {
    bool within = c->reversals_ours.size() == c->reversals.size();
    for (std::size_t k = 0; k < c->reversals_ours.size(); ++k) within = within && reversal_within(*c, k);
    result.add(check("reversals" + at, double(c->reversals_ours.size()), double(c->reversals.size()),
                     fmt::format("{}; against the oracle, {}: as many reversals as the oracle's, each {}: {}", times,
                                 c->window, kReversalBound, reversal_comparison(*c)),
                     within));
  } else {
    result.add(information("reversals" + at, double(run.reversals.size()), std::nullopt, times));
  }
  result.add(information("energy_change_J" + at, run.energy_change, std::nullopt,
                         fmt::format("E_end - E0 (E0 = {:.6g} J) = law's work {:.6g} J + plastic impulses' {:.3g} J + "
                                     "integrator {:.3g} J",
                                     run.energy0, run.work, run.impulse_work, run.integrator_loss)));
  // Resistance and damping never add energy: the work never rises by more
  // than the round-off of one interval's power (64 eps of the energy scale).
  // Without them the law does no work (no-slip: the contact force acts at a
  // point at rest), and the row would be zero by construction.
  const dy::FrictionLaw<double>& law = run.friction.law;
  if (law.mu_roll == 0 && law.mu_spin == 0 && law.damping == 0) return;
  double largest_rise = 0;
  bool rises = false;
  for (std::size_t k = 1; k < run.result.samples.size(); ++k) {
    const double rise = run.result.samples[k].work - run.result.samples[k - 1].work;
    largest_rise = std::max(largest_rise, rise);
    rises = rises || rise > 64 * epsilon<double>() * (std::abs(run.energy0) + std::abs(run.result.samples[k].work));
  }
  result.add(check("largest_work_rise_J" + at, largest_rise, 0.0,
                   "<= 64 eps (|E0| + |work|) between rows: the law (resistance, damping) never does positive work",
                   completed && !rises));
}

// The k-th reversal of a run against the oracle's: ours as the value, the
// oracle's as the reference.
void add_reversal_row(SuiteResult& result, const RattlebackStudy& study, const std::string& name, const std::string& run,
                      std::size_t k, const std::string& also, bool also_holds, const std::string& papers) {
  const RattlebackOracleComparison* c = find_comparison(study, run);
  const bool ours = c && k < c->reversals_ours.size(), oracle = c && k < c->reversals.size();
  result.add(check(name, ours ? c->reversals_ours[k] : 0, oracle ? std::optional<double>(c->reversals[k]) : std::nullopt,
                   fmt::format("reversal {} of {}, {}{} (reference: the oracle's; {}). The papers: {}", k + 1, run, also,
                               kReversalBound, c ? reversal_comparison(*c) : "no comparison", papers),
                   also_holds && ours && oracle && reversal_within(*c, k)));
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
  add_reversal_row(result, study, "spin_start_first_reversal_s", "spin[mu=0.3]", 0,
                   fmt::format("into the tap start's direction ({:+d}), ", tap->first_direction),
                   tap->first_direction != 0 && spin->first_direction == -tap->first_direction,
                   "Kry & Pai Fig. 11: 'after about eight seconds' with sliding friction and viscous damping (not "
                   "given); the thesis Fig. 6.7: 'quickly'. Here no-slip without dissipation, whose reversal is slower "
                   "(the energy only moves between rocking and spin)");
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
  add_reversal_row(result, study, "spin_start_second_reversal_s", "spin[mu=0.3]", 1, "", true,
                   "the thesis Fig. 6.8, clockwise at 23 s and counter-clockwise at 40 s, with sliding friction; here "
                   "no-slip, which conserves energy, so rocking and spin keep exchanging it more slowly");
  // The thesis's count is for its sliding friction; the no-roll and rest
  // modes that hold ours after the rocking stops are not in the oracle, so
  // the count is information (the no-slip phase is compared with the oracle).
  const RattlebackRun* resisting = find_run(study, "spin[mu=0.3,mu_r=0.003,mu_s=0.0001]");
  result.add(information("resisting_reversals", double(resisting->reversals.size()), 1.0,
                         fmt::format("reversals in {} s; the thesis Section 6.4: rolling resistance 0.003 m and "
                                     "spinning resistance 0.0001 m prevent the second reversal (1 reversal), with its "
                                     "sliding friction. Here in no-slip the rolling resistance (0.15 N m at rest) "
                                     "stops the rocking that drives the reversal before the first (no-roll holds it "
                                     "from {}), after which the top spins down slowly ({} accepted steps); its no-slip "
                                     "phase is compared with the oracle (spin_history_vs_oracle[{}])",
                                     resisting->duration, first_switch_to(*resisting, dy::ContactMode::kNoRoll),
                                     resisting->result.statistics.accepted_steps, resisting->name)));
  add_reversal_row(result, study, "damped_first_reversal_s", "spin[mu=0.3,damping=0.05]", 0, "", true,
                   "viscous damping 0.05 N m s (Kry & Pai's rattleback damps, its coefficient not given; their Fig. 11: "
                   "about 8 s)");
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

// |ours - oracle| / tolerance at row k (0 / 0 = 0).
double ratio_at(const std::vector<double>& ours, const std::vector<double>& oracle, const std::vector<double>& tolerance,
                std::size_t k) {
  const double difference = std::abs(ours[k] - oracle[k]);
  return difference == 0 ? 0 : difference / tolerance[k];
}

// The row with the largest ratio_at.
std::size_t worst_row(const std::vector<double>& ours, const std::vector<double>& oracle, const std::vector<double>& tolerance) {
  std::size_t worst = 0;
  for (std::size_t k = 0; k < ours.size(); ++k)
    if (ratio_at(ours, oracle, tolerance, k) > ratio_at(ours, oracle, tolerance, worst)) worst = k;
  return worst;
}

void add_oracle_rows(SuiteResult& result, const RattlebackStudy& study) {
  const double shape_bound = 64 * epsilon<double>() * study.shape_scale;
  result.add(check("oracle_shape_deviation_m", study.shape_deviation, 0.0,
                   fmt::format("<= 64 eps x the largest coordinate ({:.2g} m): the top's patch, at 21 x 21 (s, t), is "
                               "the oracle's elliptic paraboloid (apex and curvature from the patch's centre) to the "
                               "round-off of evaluating both",
                               shape_bound),
                   study.shape_deviation <= shape_bound));
  for (const RattlebackOracleComparison& c : study.oracle) {
    const std::string at = "[" + c.run + "]";
    if (!c.failure.empty()) {
      result.add(check("spin_history_vs_oracle" + at, 0, std::nullopt, "the oracle failed: " + c.failure, false));
      continue;
    }
    const std::size_t w = worst_row(c.omega_ours, c.omega_oracle, c.omega_tolerance);
    const double ratio = ratio_at(c.omega_ours, c.omega_oracle, c.omega_tolerance, w);
    double largest = 0;
    for (std::size_t k = 0; k < c.t.size(); ++k) largest = std::max(largest, std::abs(c.omega_ours[k] - c.omega_oracle[k]));
    result.add(check(
        "spin_history_vs_oracle" + at, largest, std::nullopt,
        fmt::format("max |omega_z - omega_z,oracle| (rad/s) over {} rows, {}; passes when every row is within tol(t) = "
                    "2 (D_ours + D_oracle) + 64 eps max|omega_z| (header: D the running max of the difference to the "
                    "same model at half its step, h_max / 2 and h_o / 2 with h_o = {:g} ms): largest ratio {:.3f} at "
                    "{:.2f} s ({:.3e} against {:.3e}); tol at the end {:.3e}",
                    c.t.size(), c.window, c.h_oracle * 1e3, ratio, c.t[w],
                    std::abs(c.omega_ours[w] - c.omega_oracle[w]), c.omega_tolerance[w], c.omega_tolerance.back()),
        ratio <= 1));
    const RattlebackRun* run = find_run(study, c.run);
    const dy::FrictionLaw<double>& law = run->friction.law;
    if (law.mu_roll > 0 || law.mu_spin > 0 || law.damping > 0) {
      const std::size_t v = worst_row(c.work_ours, c.work_oracle, c.work_tolerance);
      const double work_ratio = ratio_at(c.work_ours, c.work_oracle, c.work_tolerance, v);
      result.add(check("law_work_vs_oracle_J" + at, c.work_ours.back(), c.work_oracle.back(),
                       fmt::format("the work of the resistance and damping since the start (ours: the simulator's "
                                   "quadrature of the law's power; the oracle's: its power W' integrated with its "
                                   "state), {}; every row within tol(t) as for the spin (with 64 eps E0): largest "
                                   "ratio {:.3f} at {:.2f} s; tol at the end {:.3e} J",
                                   c.window, work_ratio, c.t[v], c.work_tolerance.back()),
                       work_ratio <= 1));
    }
    // The constraint u = 0 is held at the acceleration level only, so u
    // accumulates each step's error without growing: RKF78's truncation at
    // h_o is below round-off here (D_oracle), and each step's round-off is
    // within 64 eps of the speeds v and omega x r (13 stages of sums).
    const double drift_bound = 64 * epsilon<double>() * double(c.oracle_steps) * c.speed_scale;
    result.add(check("oracle_slip_drift_m_per_s" + at, c.max_slip, 0.0,
                     fmt::format("<= 64 eps N max(|v| + |omega| |r|) = {:.2e} m/s: the oracle's constraint drift "
                                 "(nothing pulls it back), the largest speed |u| of the body's material point at the "
                                 "contact over its N = {} steps of {:g} ms (the largest gap: {:.2e} m); its error "
                                 "estimate D_oracle for omega_z at the end {:.2e} rad/s against ours D_ours {:.2e} rad/s",
                                 drift_bound, c.oracle_steps, c.h_oracle * 1e3, c.max_gap, c.oracle_error_estimate,
                                 c.ours_error_estimate),
                     c.max_slip <= drift_bound));
  }
}

}  // namespace

SuiteResult rattleback_reversal_suite(const SuiteOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const RattlebackStudy study = run_rattleback_study(options.quick);
  SuiteResult result;
  result.name = "rattleback-reversal";
  for (const RattlebackRun& run : study.runs) add_run_rows(result, run, find_comparison(study, run.name));
  add_direction_rows(result, study);
  if (!options.quick) {
    add_second_reversal_rows(result, study);
    add_sweep_rows(result, study);
  }
  add_rocking_rows(result, study);
  add_oracle_rows(result, study);
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
  std::ofstream oracle(dir / "oracle.csv");
  oracle << "run,t,omega_z,difference,tolerance\n";
  for (const RattlebackOracleComparison& c : study.oracle)
    for (std::size_t k = 0; k < c.t.size(); ++k)
      oracle << fmt::format("\"{}\",{:.17g},{:.17g},{:.17g},{:.17g}\n", c.run, c.t[k], c.omega_oracle[k],
                            c.omega_ours[k] - c.omega_oracle[k], c.omega_tolerance[k]);
  std::ofstream mujoco(dir / "mujoco.csv");
  mujoco << "run,t,omega_z,energy\n";
  for (const RattlebackPeer& peer : study.peers)
    for (const oracles::MujocoSample& sample : peer.run.samples)
      mujoco << fmt::format("\"{}\",{:.17g},{:.17g},{:.17g}\n", peer.name, sample.time, sample.omega_w.z(), sample.energy);
  if (!spin || !oracle || !mujoco) throw std::runtime_error("cannot write the figure data in " + dir.string());
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
