#include "validation/suites/bowl_on_table.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <functional>
#include <numbers>
#include <optional>

#include "reference/dynamics/step_acceptance.hpp"
#include "reference/spatial/pose.hpp"
#include "validation/build_info.hpp"
#include "validation/fixtures/table_mesh.hpp"
#include "validation/oracles/surface_roundoff.hpp"
#include "validation/oracles/surface_separation.hpp"
#include "validation/scenes/scene.hpp"
#include "validation/suites/simulation_rows.hpp"

namespace contactref::validation {
namespace {

namespace dy = contactref::dynamics;
namespace su = contactref::surfaces;

using Row = dy::SimulationSample<double>;
using Event = dy::SimulationEvent<double>;

// Kry & Pai Table II: CPU seconds for the 3 s simulation per maximum step (1.8 GHz Xeon).
constexpr std::array<std::pair<double, double>, 7> kTableII = {
    {{0.001, 6.542}, {0.002, 3.328}, {0.004, 1.766}, {0.008, 0.974}, {0.016, 0.521}, {0.032, 0.370}, {0.064, 0.286}}};
// Fig. 7's runs: the bowl comes to rest on the table in each.
constexpr std::array<double, 3> kFigureSteps = {0.001, 0.016, 0.064};

std::optional<double> table_ii_seconds(double h_max) {
  for (const auto& [h, seconds] : kTableII)
    if (std::abs(h - h_max) < 1e-12) return seconds;
  return std::nullopt;
}

// The scene of the fixture, the oracle on its two surfaces, and the bounds
// that the convex-hull property of subdivision surfaces gives: every limit
// point is a convex combination of control points, so the table lies in
// z <= top_z (its top's control points are its highest) and the bowl within
// bowl_radius of its centre of mass (its farthest control point).
struct BowlOnTable {
  scenes::Scene scene;
  oracles::SurfaceSeparationOracle oracle;
  double top_z = 0, bowl_radius = 0;

  // `scene_file` in validation/fixtures/scenes: the thrown bowl, or the
  // skimmed one (the same bowl, table and parameters, another throw).
  explicit BowlOnTable(const std::string& scene_file = "bowl_thrown_on_table.json")
      : scene(scenes::load_scene(std::filesystem::path(build_info::source_dir) / "validation/fixtures/scenes" /
                                 scene_file)),
        oracle(*scene.free_body().complex(), *scene.fixed_body().complex()) {
    top_z = -std::numeric_limits<double>::infinity();
    for (const Vec3<double>& x : scene.fixed_body().geometry.loop->control_points())
      top_z = std::max(top_z, (scene.fixed_body().E_w_b.matrix() * x.homogeneous()).z());
    for (const Vec3<double>& x : bowl().geometry.loop->control_points()) bowl_radius = std::max(bowl_radius, x.norm());
  }
  const scenes::SceneBody& bowl() const { return scene.free_body(); }
  double g() const { return scene.gravity.norm(); }
  Mat4<double> E_w_2() const { return scene.fixed_body().E_w_b.matrix(); }
};

Mat4<double> pose_of(const Row& row) {
  Mat4<double> E = Mat4<double>::Identity();
  E.topLeftCorner<3, 3>() = row.R_w_1;
  E.topRightCorner<3, 1>() = row.com_w;
  return E;
}

Mat3<double> inertia_w(const BowlOnTable& setup, const Row& row) {
  return row.R_w_1 * setup.bowl().I_com * row.R_w_1.transpose();
}

// Kinetic and gravitational energy of a row, from its pose and velocity
// (the potential zero at the world origin, as the simulator's).
struct RowEnergy {
  double kinetic, total, magnitude;
};
RowEnergy row_energy(const BowlOnTable& setup, const Row& row) {
  const double m = setup.bowl().mass;
  const double kinetic = m * row.com_velocity_w.squaredNorm() / 2 + row.omega_w.dot(inertia_w(setup, row) * row.omega_w) / 2;
  const double potential = -m * setup.scene.gravity.dot(row.com_w);
  return {kinetic, kinetic + potential, kinetic + std::abs(potential)};
}

// The contact of an impact or a rest from the oracle at a row's pose: the
// point midway between the pair, and the table's outward unit normal there.
struct OracleContact {
  Vec3<double> point, normal;
  double distance;
  int patch2;
};
OracleContact oracle_contact(const BowlOnTable& setup, const Row& row) {
  const Mat4<double> E_w_2 = setup.E_w_2();
  const oracles::SurfaceSeparation pair = setup.oracle(pose_of(row), E_w_2);
  const su::PatchJet<double> jet = setup.scene.fixed_body().patch(pair.patch2).evaluate(pair.x2.x(), pair.x2.y());
  const Vec3<double> normal = spatial::rotation_of<double>(E_w_2) * jet.c_s().cross(jet.c_t()).normalized();
  return {(pair.p1_w + pair.p2_w) / 2, normal, pair.signed_distance, pair.patch2};
}

// One impact (the header's checks). `before`: the last flight row before
// it, from which the simulator's partial flight step led to the impact;
// `at`: the first row at its time (the flight row after the impulse, or the
// contact row when continuous contact was re-established at once).
BowlImpact check_impact(const BowlOnTable& setup, const Event& event, const Row& before, const Row& at) {
  const double m = setup.bowl().mass;
  const dy::ContactSystem<double> system = setup.scene.system();
  const double e = system.restitution, e_t = system.tangential_restitution, mu = system.friction.law.mu;
  BowlImpact impact;
  impact.time = event.time;
  impact.followed_by_contact = !at.flight;
  // Before the impact: the centre of mass on its parabola (RK4 integrates
  // x'' = g exactly) and the world angular momentum kept (gravity has no
  // moment about the centre of mass), at the impact's attitude.
  // The pose: the centre of mass on that parabola too, the attitude the
  // row's (a contact row's is turned onto the constraint by the angle
  // between the closest pair's normals, round-off; its position, moved by
  // up to the touch's gap, is not used).
  const double tau = event.time - before.state.time;
  const Vec3<double> v_minus = before.com_velocity_w + tau * setup.scene.gravity;
  Row impact_pose = at;
  impact_pose.com_w = before.com_w + tau * before.com_velocity_w + (tau * tau / 2) * setup.scene.gravity;
  const Mat3<double> I_before = inertia_w(setup, before), I_at = inertia_w(setup, at);
  const Eigen::LDLT<Mat3<double>> I_at_solve(I_at);
  const Vec3<double> L = I_before * before.omega_w;
  const Vec3<double> omega_minus = I_at_solve.solve(L);
  // The contact from the oracle; K from unit impulses at r: the velocity
  // change of the material point at r when e_i is applied there.
  const OracleContact contact = oracle_contact(setup, impact_pose);
  const Vec3<double>& n = contact.normal;
  const Vec3<double> r = contact.point - impact_pose.com_w;
  Mat3<double> K;
  for (int i = 0; i < 3; ++i) {
    const Vec3<double> unit = Vec3<double>::Unit(i);
    K.col(i) = unit / m + I_at_solve.solve(r.cross(unit)).cross(r);
  }
  const Vec3<double> u_minus = v_minus + omega_minus.cross(r);
  const Vec3<double>& J = event.impulse_w;
  const Vec3<double> u_plus = u_minus + K * J;
  impact.approach_speed = -n.dot(u_minus);

  // Error model: omega_minus inherits RK4's error in the world angular
  // momentum over the partial step tau, at most |L| (|omega| tau)^5 / 120
  // (the first term that RK4 leaves of the exponential of a motion turning
  // at |omega|), and every velocity the round-off of its terms.
  const double eps = epsilon<double>();
  const double omega_error = (L.norm() * std::pow(omega_minus.norm() * tau, 5) / 120) / I_at.eigenvalues().real().minCoeff();
  const double speed = v_minus.norm() + omega_minus.norm() * r.norm() + (K * J).norm();
  const double velocity_tolerance = omega_error * r.norm() + 256 * eps * speed;
  const double Kn = n.dot(K * n);
  const Eigen::LDLT<Mat3<double>> K_solve(K);
  const double impulse_tolerance = velocity_tolerance / K.eigenvalues().real().minCoeff() + 256 * eps * J.norm();

  impact.restitution = std::abs(n.dot(u_plus) + e * n.dot(u_minus)) / ((1 + e) * velocity_tolerance);
  const double J_n = n.dot(J);
  const double J_t = (J - J_n * n).norm();
  impact.cone = std::max({0.0, J_t - mu * J_n, -J_n}) / ((1 + mu) * impulse_tolerance);
  // Chatterjee & Ruina: P_I = a n (frictionless plastic), P_II = -K^-1 u-
  // (sticking plastic), d = P_II - P_I; J = (1 + e) P_I + kappa d with
  // kappa = 1 + e_t (sticking) or kappa in [0, 1 + e_t) on the cone.
  const double a = -n.dot(u_minus) / Kn;
  const Vec3<double> P_I = a * n, d = -K_solve.solve(u_minus) - P_I;
  const Vec3<double> from_P_I = J - (1 + e) * P_I;
  const double kappa = from_P_I.dot(d) / d.squaredNorm();
  const double off_segment = (from_P_I - kappa * d).norm();
  const double kappa_tolerance = 2 * impulse_tolerance / d.norm();
  impact.sliding = std::abs(kappa - (1 + e_t)) > kappa_tolerance;
  const double branch = impact.sliding
                            ? std::max({std::abs(J_t - mu * J_n) / ((1 + mu) * impulse_tolerance),
                                        -kappa / kappa_tolerance, (kappa - (1 + e_t)) / kappa_tolerance})
                            : 0.0;
  impact.segment = std::max(off_segment / (2 * impulse_tolerance), branch);
  impact.reported_velocities = std::max(std::abs(event.normal_velocity_before - n.dot(u_minus)),
                                        std::abs(event.normal_velocity_after - n.dot(u_plus))) /
                               velocity_tolerance;
  // The energy change from the body's state on both sides.
  const Vec3<double> v_plus = v_minus + J / m, omega_plus = omega_minus + I_at_solve.solve(r.cross(J));
  const double kinetic_minus = m * v_minus.squaredNorm() / 2 + omega_minus.dot(I_at * omega_minus) / 2;
  const double kinetic_plus = m * v_plus.squaredNorm() / 2 + omega_plus.dot(I_at * omega_plus) / 2;
  const double energy_tolerance = (m * v_minus.norm() + L.norm()) * velocity_tolerance +
                                  256 * eps * (kinetic_minus + kinetic_plus);
  impact.energy_change = event.energy_change;
  impact.energy = std::max(std::abs(event.energy_change - (kinetic_plus - kinetic_minus)) / energy_tolerance,
                           event.energy_change > energy_tolerance ? event.energy_change / energy_tolerance : 0.0);
  // The flight row after the impulse: the impulse that was applied is J.
  // The flight row after the impulse: the impulse that was applied is J,
  // and the impact left the position where the parabola put it.
  if (at.flight)
    impact.momentum = std::max((at.com_velocity_w - v_plus).norm() / (256 * eps * (v_plus.norm() + J.norm() / m)),
                               (at.com_w - impact_pose.com_w).norm() / (256 * eps * at.com_w.norm()));
  return impact;
}

// The radius of curvature of the bowl's base at its lowest point (the
// centre of face 0, the base, on the bowl's axis of 3-fold symmetry, an
// umbilic) and the height of the centre of mass above it.
std::pair<double, double> base_geometry(const BowlOnTable& setup) {
  const su::PatchJet<double> jet = setup.bowl().patch(0).evaluate(1.0 / 3, 1.0 / 3);
  const Vec3<double> n = jet.c_s().cross(jet.c_t()).normalized();
  // Normal curvature along c_s: II(c_s, c_s) / I(c_s, c_s), II = c_ss . n
  // (the outward normal points down there: the base is convex, II < 0).
  const double curvature = -jet.c_ss().dot(n) / jet.c_s().squaredNorm();
  return {1 / curvature, -jet.c().z()};
}

void measure_flight(const BowlOnTable& setup, BowlOnTableRun& run) {
  run.min_flight_distance = std::numeric_limits<double>::infinity();
  for (const Row& row : run.result.samples) {
    if (!row.flight) continue;
    ++run.flight_rows;
    // Above the table's highest control point, the bowl's sphere cannot touch it.
    if (row.com_w.z() - setup.bowl_radius > setup.top_z) continue;
    const oracles::SurfaceSeparation pair = setup.oracle(pose_of(row), setup.E_w_2());
    run.min_flight_distance = std::min(run.min_flight_distance, pair.signed_distance);
    run.flight_distance_roundoff = std::max(run.flight_distance_roundoff, pair.distance_roundoff);
  }
}

void measure_energy(const BowlOnTable& setup, BowlOnTableRun& run) {
  const std::vector<Row>& rows = run.result.samples;
  const double E0 = run.result.initial_energy;
  double kinetic_max = 0, previous_residual = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const RowEnergy energy = row_energy(setup, rows[k]);
    run.energy_recomputed =
        std::max(run.energy_recomputed, std::abs(energy.total - rows[k].energy) / (64 * epsilon<double>() * energy.magnitude));
    const double residual = energy.total - E0 - rows[k].work - rows[k].impulse_work;
    if (k > 0) {
      // The simulator's acceptance bound of the step that led here
      // (step_acceptance.hpp energy_step_bound), with the kinetic scale of
      // the rows so far.
      const double kinetic_before = row_energy(setup, rows[k - 1]).kinetic;
      kinetic_max = std::max({kinetic_max, kinetic_before, energy.kinetic});
      const double magnitude = energy.magnitude + row_energy(setup, rows[k - 1]).magnitude +
                               std::abs(rows[k].work) + std::abs(rows[k].impulse_work);
      const double bound = dy::energy_step_bound(kinetic_max, magnitude);
      run.balance_bound += bound;
      run.step_balance = std::max(run.step_balance, std::abs(residual - previous_residual) / bound);
    }
    previous_residual = residual;
  }
  run.balance = previous_residual;
}

void measure_rest(const BowlOnTable& setup, BowlOnTableRun& run) {
  const Row& last = run.result.samples.back();
  for (const Event& event : run.result.events)
    if (event.kind == dy::EventKind::kModeSwitch && event.to_mode == dy::ContactMode::kRest) run.rest_from = event.time;
  run.at_rest = !last.flight && last.state.mode == dy::ContactMode::kRest;
  run.final_speed = last.com_velocity_w.norm() + last.omega_w.norm() * setup.bowl_radius;
  const Vec3<double> axis = last.R_w_1.col(2), up = -setup.scene.gravity.normalized();
  run.tilt = std::atan2(axis.cross(up).norm(), axis.dot(up));
  run.final_patch1 = last.flight ? -1 : last.state.patch1;
  run.final_patch2 = last.flight ? -1 : last.state.patch2;
  if (last.flight) return;
  // At rest the contact force balances gravity, -m g, so its normal part is
  // f_n = m g . (-n) and the torque the rolling resistance must hold is
  // gravity's about the contact point, in the tangent plane.
  const OracleContact contact = oracle_contact(setup, last);
  const Vec3<double> weight = setup.bowl().mass * setup.scene.gravity;
  const Vec3<double> torque = (last.com_w - contact.point).cross(weight);
  const double f_n = -weight.dot(contact.normal);
  run.rest_torque_ratio =
      (torque - torque.dot(contact.normal) * contact.normal).norm() / (setup.scene.friction.law.mu_roll * f_n);
}

// without_resistance: the scene with Kry & Pai's friction alone (Coulomb
// and no-slip: no rolling or spinning resistance, which the scene adds).
BowlOnTableRun run_once(const BowlOnTable& setup, double duration, double h_max, bool without_resistance = false,
                        const std::string& name = "") {
  BowlOnTableRun run;
  run.name = name;
  run.h_max = h_max;
  dy::ContactSystem<double> system = setup.scene.system();
  if (without_resistance) {
    system.friction.law.mu_roll = system.friction.law.mu_spin = 0;
    system.friction.roll_threshold = system.friction.spin_threshold = 0;
  }
  // Section 4.2: "5 mm/s for all but the 1 ms maximum step size simulation
  // where a threshold of 2.5 mm/s was used".
  run.slip_threshold = h_max <= 0.001 ? 0.0025 : 0.005;
  system.friction.slip_threshold = run.slip_threshold;
  dy::SimulationOptions<double> options = setup.scene.options;
  options.h_max = h_max;
  options.h_min = 0.001;
  options.duration = duration;
  options.output_interval = 0;  // every accepted step
  const std::clock_t start = std::clock();
  std::optional<std::clock_t> first_pass;
  const std::function<void(const double&)> progress = [&](const double&) {
    if (!first_pass) first_pass = std::clock();
  };
  run.result = dy::simulate(system, setup.scene.flight_start(), options, progress);
  const std::clock_t end = std::clock();
  run.cpu_seconds = double(end - start) / CLOCKS_PER_SEC;
  run.setup_seconds = double(first_pass.value_or(end) - start) / CLOCKS_PER_SEC;

  const std::vector<Row>& rows = run.result.samples;
  std::size_t k = 0;
  for (const Event& event : run.result.events) {
    if (event.kind != dy::EventKind::kCollision) continue;
    while (k < rows.size() && rows[k].state.time < event.time) ++k;
    if (k == 0 || k == rows.size() || !rows[k - 1].flight) {
      throw ComputationError(fmt::format("bowl-on-table: the collision at {} s has no flight row before it", event.time));
    }
    run.impacts.push_back(check_impact(setup, event, rows[k - 1], rows[k]));
  }
  for (std::size_t r = 1; r < rows.size(); ++r) {
    // The step that led to row r was taken in the mode of row r - 1.
    if (rows[r].flight || rows[r - 1].flight || rows[r].step <= 0) continue;
    run.largest_contact_step = std::max(run.largest_contact_step, rows[r].step);
    run.h_max_steps += rows[r].step == h_max;
    const dy::ContactMode mode = rows[r - 1].state.mode;
    if (mode != dy::ContactMode::kFrictionless && !dy::holds_slip(mode)) {
      run.largest_sliding_step = std::max(run.largest_sliding_step, rows[r].step);
      run.sliding_time += rows[r].step;
    }
  }
  measure_flight(setup, run);
  measure_energy(setup, run);
  measure_rest(setup, run);
  return run;
}

}  // namespace

BowlOnTableStudy run_bowl_on_table_study(bool quick) {
  const BowlOnTable setup;
  BowlOnTableStudy study;
  study.mass = setup.bowl().mass;
  study.duration = quick ? 1.0 : 3.0;
  std::tie(study.base_radius, study.base_height) = base_geometry(setup);
  study.mu_roll = setup.scene.friction.law.mu_roll;
  const std::vector<double> steps = quick ? std::vector<double>{0.016}
                                          : std::vector<double>{0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128};
  for (double h : steps) study.runs.push_back(run_once(setup, study.duration, h));
  if (!quick) study.without_resistance = run_once(setup, study.duration, 0.016, true);
  study.skimmed = run_once(BowlOnTable("bowl_skimmed_on_table.json"), study.duration, 0.016, false, "skimmed");
  return study;
}

namespace {

std::string at_of(const BowlOnTableRun& run) {
  return fmt::format("[{}h_max={:g}ms]", run.name.empty() ? "" : run.name + ",", run.h_max * 1e3);
}

// The thrown runs and the skimmed one: every run whose impacts, flight and
// energy are checked.
std::vector<const BowlOnTableRun*> checked_runs(const BowlOnTableStudy& study) {
  std::vector<const BowlOnTableRun*> runs;
  for (const BowlOnTableRun& run : study.runs) runs.push_back(&run);
  runs.push_back(&study.skimmed);
  return runs;
}

void add_run_information(SuiteResult& result, const BowlOnTableRun& run, double duration) {
  const std::string at = at_of(run);
  const dy::SimulationStatistics<double>& st = run.result.statistics;
  result.add(completed_check(at, run.result));
  result.add(information("collisions" + at, double(st.collisions), std::nullopt,
                         fmt::format("impacts in flight (Chatterjee & Ruina); {} contacts re-established, {} "
                                     "separations, {} forced", st.contacts, st.separations, st.forced_separations)));
  result.add(information("patch_transitions" + at, double(st.transitions), std::nullopt,
                         fmt::format("on the bowl and the table; {} smooth-piece crossings", st.smooth_piece_crossings)));
  result.add(information("mode_switches" + at, double(st.mode_switches), std::nullopt,
                         fmt::format("friction mode switches (sliding, no-slip, no-spin, rest, ...), slip threshold "
                                     "{:g} mm/s", run.slip_threshold * 1e3)));
  result.add(information("flight_time_s" + at, st.flight_time, std::nullopt,
                         fmt::format("{} flight steps; {} contact steps accepted, {} rejected", st.flight_steps,
                                     st.accepted_steps, st.rejected_steps)));
  const std::optional<double> paper = run.name.empty() ? table_ii_seconds(run.h_max) : std::nullopt;  // Table II's throw
  result.add(timing("cpu_s" + at, run.cpu_seconds, paper,
                         fmt::format("CPU time of the {:g} s run (std::clock), of which {:.3f} s building the collision "
                                     "hierarchies before the first step; reference: Kry & Pai Table II (1.8 GHz Xeon, "
                                     "Java){}",
                                     duration, run.setup_seconds,
                                     !paper             ? ", which has no run at this step"
                                     : duration != 3.0 ? ", for 3 s simulated" : "")));
  if (paper && duration == 3.0)
    result.add(timing("cpu_ratio_to_table_ii" + at, run.cpu_seconds / *paper, std::nullopt,
                           fmt::format("our CPU time over Table II's {:g} s; {:.0f}x faster than real time", *paper,
                                       duration / run.cpu_seconds)));
  result.add(information("largest_contact_step_s" + at, run.largest_contact_step, run.h_max,
                         fmt::format("the largest step accepted in contact; reference: h_max; while sliding ({:.3f} s in "
                                     "all) at most {:.4g} s",
                                     run.sliding_time, run.largest_sliding_step)));
}

// Kry & Pai at 128 ms: "the slip velocity of the bowl on the table ... does
// not fall below the 5 mm/s threshold necessary to enter no-slip friction,
// which results in the bowl wobbling and sliding until it falls off the
// table". Here the step that matters is not h_max.
// Why the scene adds rolling and spinning resistance: without it no-slip
// rolling does no work, so the rocking and spinning that the slides leave
// keep their energy.
void add_without_resistance_row(SuiteResult& result, const BowlOnTableRun& run, const BowlOnTable& setup) {
  const Row& last = run.result.samples.back();
  result.add(information(
      "kinetic_energy_without_resistance_J" + at_of(run), row_energy(setup, last).kinetic, std::nullopt,
      fmt::format("the scene with mu_roll = mu_spin = 0 (Kry & Pai's Coulomb and no-slip friction alone): at {:g} s "
                  "the bowl is {} (mode {}, |omega| {:.3g} rad/s, centre of mass at ({:.3f}, {:.3f}, {:.3f}) m); no-slip "
                  "rolling does no work, so the rocking and spin that the slides leave never stop (the scene's resistance "
                  "brings it to rest by 2.8 s at every step)",
                  last.state.time, last.flight ? "in flight" : "in contact", last.flight ? "flight" : dy::to_string(last.state.mode),
                  last.omega_w.norm(), last.com_w.x(), last.com_w.y(), last.com_w.z())));
}

void add_coarsest_row(SuiteResult& result, const BowlOnTableRun& run) {
  result.add(information(
      "rest_from_s" + at_of(run), run.at_rest ? run.rest_from : -1, std::nullopt,
      fmt::format("when the bowl came to rest (-1: not at rest at the end); last contact on bowl patch {} (0: its base) "
                  "and table patch {}, tilt {:.2f} deg. Kry & Pai: at 128 ms the slip never fell below 5 mm/s and the "
                  "bowl slid off the table. Here it comes to rest like the others: the slip's fall to the threshold is "
                  "an event located within the step (its root by regula falsi, mode_switching.hpp), not a state "
                  "sampled at a step's end, and the one slide ({:.3f} s, from the located stick break to that root) "
                  "took steps of at most {:.4g} s; the flight, whose steps conservative advancement bounds near the "
                  "table, is the same at every h_max. Steps of h_max = {:g} s: {} of {} in contact (rocking in "
                  "no-slip and no-spin, and at rest)",
                  run.final_patch1, run.final_patch2, run.tilt * 180 / std::numbers::pi, run.sliding_time,
                  run.largest_sliding_step, run.h_max, run.h_max_steps, run.result.statistics.accepted_steps)));
}

// The impacts of every run against the law, and the flight's clearance.
void add_impact_rows(SuiteResult& result, const BowlOnTableStudy& study, const dy::ContactSystem<double>& system) {
  long impacts = 0, sliding = 0, checked_momentum = 0;
  double restitution = 0, cone = 0, segment = 0, reported = 0, energy = 0, momentum = 0, gained = -1;
  const std::vector<const BowlOnTableRun*> runs = checked_runs(study);
  for (const BowlOnTableRun* run : runs) {
    for (const BowlImpact& impact : run->impacts) {
      ++impacts, sliding += impact.sliding, checked_momentum += !impact.followed_by_contact;
      restitution = std::max(restitution, impact.restitution), cone = std::max(cone, impact.cone);
      segment = std::max(segment, impact.segment), reported = std::max(reported, impact.reported_velocities);
      energy = std::max(energy, impact.energy), momentum = std::max(momentum, impact.momentum);
      gained = std::max(gained, impact.energy_change);
    }
  }
  const std::string recomputed = fmt::format(
      "{} impacts of {} runs ({} sliding), each recomputed from the rows: u- from the flight row before it (the centre "
      "of mass on its parabola, the world angular momentum kept), the contact point and the table's normal from the "
      "surface-separation oracle at the impact's pose, K from unit impulses at the point; bound: the error of u-, "
      "|r| |L| (|omega| tau)^5 / 120 / I_min (RK4's first neglected term over the partial step tau) plus 256 eps of "
      "the speeds",
      impacts, runs.size(), sliding);
  const double e = system.restitution, e_t = system.tangential_restitution, mu = system.friction.law.mu;
  result.add(check("impact_restitution", restitution, 0.0,
                   fmt::format("max |n.u+ + e n.u-| / ((1 + e) bound) <= 1, e = {}: Newton's restitution on the normal "
                               "velocity (Chatterjee & Ruina, every branch); {}",
                               e, recomputed),
                   impacts > 0 && restitution <= 1));
  result.add(check("impact_friction_cone", cone, 0.0,
                   fmt::format("max(0, |J_t| - mu J_n, -J_n) / ((1 + mu) K_min^-1 bound) <= 1, mu = {}: the impulse "
                               "pushes and lies in the Coulomb cone", mu),
                   impacts > 0 && cone <= 1));
  result.add(check("impact_law_segment", segment, 0.0,
                   fmt::format("|J - (1 + e) P_I - kappa (P_II - P_I)| / (2 K_min^-1 bound) <= 1 with kappa = 1 + e_t "
                               "= {} (sticking) or, on the cone (|J_t| = mu J_n), kappa in [0, 1 + e_t): Chatterjee & "
                               "Ruina's J, P_I = -n.u- / (n K n) n, P_II = -K^-1 u-",
                               1 + e_t),
                   impacts > 0 && segment <= 1));
  result.add(check("impact_reported_velocities", reported, 0.0,
                   "max |event's n.u- or n.u+ - ours| / bound <= 1: events.csv's velocities are the impact's",
                   impacts > 0 && reported <= 1));
  result.add(check("impact_energy_change", energy, 0.0,
                   fmt::format("max |event's Delta E - (KE+ - KE-)| / bound <= 1, KE from the body's velocities on both "
                               "sides (J = {:.3g} J at most: never a gain); bound: (m |v-| + |L|) times the velocity "
                               "bound, plus 256 eps of the energies",
                               gained),
                   impacts > 0 && energy <= 1));
  result.add(check("impact_applied_impulse", momentum, 0.0,
                   fmt::format("max |v of the flight row after the impulse - (v- + J / m)| / (256 eps (|v+| + |J| / m)) "
                               "<= 1 over the {} impacts followed by flight: the impulse reported is the one applied",
                               checked_momentum),
                   checked_momentum > 0 && momentum <= 1));
  long skimmed_sliding = 0;
  for (const BowlImpact& impact : study.skimmed.impacts) skimmed_sliding += impact.sliding;
  result.add(check("sliding_impacts" + at_of(study.skimmed), double(skimmed_sliding), std::nullopt,
                   fmt::format(">= 1: the skimmed throw (validation/fixtures/scenes/bowl_skimmed_on_table.json) lands "
                               "sliding, so the law's cone branch (kappa < 1 + e_t, |J_t| = mu J_n) is among the impacts "
                               "checked above; {} of its {} impacts slid",
                               skimmed_sliding, study.skimmed.impacts.size()),
                   skimmed_sliding >= 1));
}

void add_flight_rows(SuiteResult& result, const BowlOnTableStudy& study, double contact_tolerance) {
  double distance = std::numeric_limits<double>::infinity(), roundoff = 0;
  long rows = 0;
  for (const BowlOnTableRun* run : checked_runs(study)) {
    distance = std::min(distance, run->min_flight_distance);
    roundoff = std::max(roundoff, run->flight_distance_roundoff);
    rows += run->flight_rows;
  }
  const double bound = contact_tolerance + roundoff;
  result.add(check("min_flight_distance_m", distance, 0.0,
                   fmt::format(">= -({:g} m contact tolerance + {:.2g} m round-off): the smooth surfaces' signed distance "
                               "at each of the {} flight rows (every flight step) by the surface-separation oracle "
                               "(Newton from dense seed grids on both surfaces, not the simulator's FCL and Newton; rows "
                               "whose bowl's bounding sphere is above the table's top are skipped: the convex-hull "
                               "property puts both surfaces inside their control points' hulls); the contact tolerance "
                               "is the deepest a flight step may end (contact_simulation.hpp)",
                               contact_tolerance, roundoff, rows),
                   rows > 0 && distance >= -bound));
}

void add_energy_rows(SuiteResult& result, const BowlOnTableRun& run) {
  const std::string at = at_of(run);
  result.add(check("energy_recomputed" + at, run.energy_recomputed, 0.0,
                   "max |E from the row's pose and velocity (1/2 m v^2 + 1/2 w.I_w w - m g.x) - the row's energy| / "
                   "(64 eps of its terms) <= 1",
                   run.energy_recomputed <= 1));
  result.add(check("energy_balance_J" + at, run.balance, 0.0,
                   fmt::format("|E_end - E0 - law's work ({:.4g} J) - impulses' ({:.4g} J)| <= {:.3g} J, the sum over "
                               "the steps of the integrator's bound (step_acceptance.hpp energy_step_bound: RK4 keeps a "
                               "resolved step's energy to 1/72 of the kinetic scale; loose over a run: one step's is "
                               "the sharp test, below)",
                               run.result.samples.back().work, run.result.samples.back().impulse_work, run.balance_bound),
                   std::abs(run.balance) <= run.balance_bound));
  result.add(check("step_energy_balance" + at, run.step_balance, 0.0,
                   "max over consecutive rows of |change of E - E0 - W - W_imp| / that step's bound <= 1: no step, "
                   "and no impact, contact, mode switch or transition between two rows, changes the energy by more "
                   "than its accounts and one step's bound",
                   run.step_balance <= 1));
}

void add_rest_rows(SuiteResult& result, const BowlOnTableStudy& study, const BowlOnTableRun& run) {
  const std::string at = at_of(run);
  const bool completed = run.result.status == dy::SimulationStatus::kCompleted;
  result.add(check("at_rest" + at, run.at_rest ? 1.0 : 0.0, 1.0,
                   fmt::format("== 1: at {:g} s the bowl is in the rest mode (every velocity held at zero by static "
                               "friction and resistance; entered at {:.3f} s), its points' speed {:.3g} m/s (Kry & Pai: "
                               "'the bowl gradually comes to rest on the table')",
                               study.duration, run.rest_from, run.final_speed),
                   completed && run.at_rest && run.final_speed == 0));
  result.add(check("on_its_base_on_the_table_top" + at,
                   run.final_patch1 == 0 && run.final_patch2 >= 0 &&
                           run.final_patch2 < fixtures::table_top_face_count()
                       ? 1.0
                       : 0.0,
                   1.0,
                   fmt::format("== 1: the last contact is on the bowl's base (patch 0, the face between its three foot "
                               "vertices; on its side it would be a wall patch) and on one of the table's {} top "
                               "patches (patches {} and {})",
                               fixtures::table_top_face_count(), run.final_patch1, run.final_patch2),
                   completed && run.final_patch1 == 0 && run.final_patch2 >= 0 &&
                       run.final_patch2 < fixtures::table_top_face_count()));
  result.add(check("rest_rolling_torque_ratio" + at, run.rest_torque_ratio, std::nullopt,
                   fmt::format("<= 1: gravity's torque about the contact point (the oracle's, at the last pose), its "
                               "tangential part, over the rolling resistance's static limit mu_roll f_n (mu_roll = {:g} "
                               "m): the rest is an equilibrium the law allows. Tilt {:.3f} deg; on a level table the "
                               "small-tilt limit of that equilibrium is asin(mu_roll / (rho - h)) = {:.3f} deg, rho = "
                               "{:.4f} m the radius of curvature of the base at its lowest point (an umbilic), h = "
                               "{:.4f} m the centre of mass's height above it",
                               study.mu_roll, run.tilt * 180 / std::numbers::pi,
                               std::asin(study.mu_roll / (study.base_radius - study.base_height)) * 180 / std::numbers::pi,
                               study.base_radius, study.base_height),
                   completed && run.at_rest && run.rest_torque_ratio <= 1));
}

}  // namespace

SuiteResult bowl_on_table_suite(const SuiteOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const BowlOnTableStudy study = run_bowl_on_table_study(options.quick);
  const BowlOnTable setup;
  SuiteResult result;
  result.name = "bowl-on-table";
  result.add(information("bowl_mass_kg", study.mass, std::nullopt,
                         "the App. B.2 bowl at 1000 kg/m^3 ([P] 'a little less than 1 kg')"));
  for (const BowlOnTableRun& run : study.runs) add_run_information(result, run, study.duration);
  add_run_information(result, study.skimmed, study.duration);
  add_impact_rows(result, study, setup.scene.system());
  add_flight_rows(result, study, setup.scene.options.contact_tolerance);
  for (const BowlOnTableRun* run : checked_runs(study)) add_energy_rows(result, *run);
  if (!options.quick) {
    for (const BowlOnTableRun& run : study.runs)
      if (std::find(kFigureSteps.begin(), kFigureSteps.end(), run.h_max) != kFigureSteps.end())
        add_rest_rows(result, study, run);
    add_rest_rows(result, study, study.skimmed);
    add_coarsest_row(result, study.runs.back());
    add_without_resistance_row(result, study.without_resistance, setup);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.figures = figure_files_of(result.name);
  return result;
}

namespace {

// Fig. 7's three runs (3 s each).
std::vector<BowlOnTableRun> figure_runs(const BowlOnTable& setup) {
  std::vector<BowlOnTableRun> runs;
  for (double h : kFigureSteps) runs.push_back(run_once(setup, 3.0, h));
  return runs;
}

// The first row at or after t (the rows are integrator states, never interpolated).
const Row& row_at(const std::vector<Row>& rows, double t) {
  for (const Row& row : rows)
    if (row.state.time >= t) return row;
  return rows.back();
}

// A complex's limit surface as triangles: each patch's unit triangle in n^2
// pieces, pulled 1e-6 towards its centre so that no point is an
// extraordinary vertex. Three rows x, y, z, patch per triangle, transformed by E.
void write_triangles(std::ofstream& out, const su::PatchComplex<double>& complex, int patches, int n, const Mat4<double>& E) {
  const auto point = [&](const su::Patch<double>& patch, int i, int j) {
    const double shrink = 1 - 3e-6;
    const double u = shrink * double(i) / n + 1e-6, v = shrink * double(j) / n + 1e-6;
    return Vec3<double>((E * patch.evaluate(u, v).c().homogeneous()).head<3>());
  };
  for (int p = 0; p < patches; ++p) {
    const su::Patch<double>& patch = *complex.patches[std::size_t(p)];
    for (int i = 0; i < n; ++i)
      for (int j = 0; i + j < n; ++j) {
        std::vector<std::array<int, 6>> pieces = {{i, j, i + 1, j, i, j + 1}};
        if (i + j + 1 < n) pieces.push_back({i + 1, j, i + 1, j + 1, i, j + 1});
        for (const auto& t : pieces)
          for (int k = 0; k < 3; ++k) {
            const Vec3<double> x = point(patch, t[std::size_t(2 * k)], t[std::size_t(2 * k + 1)]);
            out << fmt::format("{:.9g},{:.9g},{:.9g},{}\n", x.x(), x.y(), x.z(), p);
          }
      }
  }
}

}  // namespace

void write_bowl_on_table_fig_6_data(const std::filesystem::path& dir) {
  const BowlOnTable setup;
  const std::vector<BowlOnTableRun> runs = figure_runs(setup);
  std::ofstream bowl(dir / "bowl.csv"), table(dir / "table.csv"), frames(dir / "frames.csv");
  bowl << "x,y,z,patch\n";
  write_triangles(bowl, *setup.bowl().complex(), setup.bowl().patch_count(), 8, Mat4<double>::Identity());
  table << "x,y,z,patch\n";
  write_triangles(table, *setup.scene.fixed_body().complex(), setup.scene.fixed_body().patch_count(), 4, setup.E_w_2());
  // The bowl's cavity: the faces without a vertex of its foot (the control
  // mesh's lowest ring, App. B.2's outer base ring).
  const su::LoopSurface<double>& loop = *setup.bowl().geometry.loop;
  double foot_z = std::numeric_limits<double>::infinity();
  for (const Vec3<double>& x : loop.control_points()) foot_z = std::min(foot_z, x.z());
  std::ofstream cavity(dir / "cavity.csv");
  cavity << "patch\n";
  for (int f = 0; f < loop.face_count(); ++f) {
    bool foot = false;
    for (int v : loop.topology().face(f)) foot = foot || loop.control_points()[std::size_t(v)].z() == foot_z;
    if (!foot) cavity << f << "\n";
  }
  frames << "h,t,com_x,com_y,com_z,r00,r01,r02,r10,r11,r12,r20,r21,r22\n";
  for (const BowlOnTableRun& run : runs)
    for (int k = 0; k < 6; ++k) {
      const Row& row = row_at(run.result.samples, 0.5 * k);
      frames << fmt::format("{:g},{:.9g},{:.9g},{:.9g},{:.9g}", run.h_max, row.state.time, row.com_w.x(), row.com_w.y(),
                            row.com_w.z());
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) frames << fmt::format(",{:.12g}", row.R_w_1(i, j));
      frames << "\n";
    }
  if (!bowl || !table || !frames || !cavity) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

void write_bowl_on_table_fig_7_data(const std::filesystem::path& dir) {
  const BowlOnTable setup;
  const std::vector<BowlOnTableRun> runs = figure_runs(setup);
  std::ofstream paths(dir / "paths.csv"), events(dir / "events.csv"), top(dir / "top.csv");
  paths << "h,t,com_x,com_y,flight\n";
  events << "h,t,kind,com_x,com_y,detail\n";
  for (const BowlOnTableRun& run : runs) {
    const std::vector<Row>& rows = run.result.samples;
    for (const Row& row : rows)
      paths << fmt::format("{:g},{:.9g},{:.9g},{:.9g},{}\n", run.h_max, row.state.time, row.com_w.x(), row.com_w.y(),
                           int(row.flight));
    for (const Event& event : run.result.events) {
      const Row& row = row_at(rows, event.time);
      const std::string detail = event.kind == dy::EventKind::kModeSwitch
                                     ? fmt::format("{}->{}", dy::to_string(event.from_mode), dy::to_string(event.to_mode))
                                     : "";
      events << fmt::format("{:g},{:.9g},{},{:.9g},{:.9g},{}\n", run.h_max, event.time, dy::to_string(event.kind),
                            row.com_w.x(), row.com_w.y(), detail);
    }
  }
  top << "x,y,z,patch\n";
  write_triangles(top, *setup.scene.fixed_body().complex(), fixtures::table_top_face_count(), 4, setup.E_w_2());
  if (!paths || !events || !top) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

void write_bowl_on_table_fig_8_data(const std::filesystem::path& dir) {
  const BowlOnTable setup;
  std::ofstream steps(dir / "steps.csv");
  steps << "h,step\n";
  for (double h : {0.016, 0.064}) {
    const BowlOnTableRun run = run_once(setup, 3.0, h);
    const std::vector<Row>& rows = run.result.samples;
    for (std::size_t r = 1; r < rows.size(); ++r)
      if (!rows[r].flight && !rows[r - 1].flight && rows[r].step > 0)
        steps << fmt::format("{:g},{:.9g}\n", h, rows[r].step);
  }
  if (!steps) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

void write_bowl_on_table_fig_9_data(const std::filesystem::path& dir) {
  const BowlOnTable setup;
  const BowlOnTableRun run = run_once(setup, 1.0, 0.064);
  std::ofstream com(dir / "com.csv"), events(dir / "events.csv");
  com << "t,com_x,flight\n";
  for (const Row& row : run.result.samples)
    com << fmt::format("{:.9g},{:.12g},{}\n", row.state.time, row.com_w.x(), int(row.flight));
  events << "t,kind\n";
  for (const Event& event : run.result.events) events << fmt::format("{:.9g},{}\n", event.time, dy::to_string(event.kind));
  if (!com || !events) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

}  // namespace contactref::validation
