// `contactref simulate SCENE.json [--out DIR] [--json]`: one contact, with or
// without friction (reference/dynamics/contact_simulation.hpp), from a scene file
// (validation/scenes/scene.hpp) of the smooth model, the quasi-rigid model's
// bodies (simulate_quasi_rigid.hpp), or the 6D volume-contact model's and its
// point-contact baseline's (simulate_volume_contact.hpp). Writes, for the
// smooth model, under DIR (default out/simulate/<scene name>):
//   bodies.csv      the free body's pose, velocities and energies, one row per
//                   output interval (the columns every model writes:
//                   validation/app/output_files.hpp)
//   trajectory.csv  one row per output interval (and at each mode switch):
//                   time, q, q', the centre of mass in the world, its
//                   velocity (com_vx, com_vy, com_vz, m/s) and the angular
//                   velocity (omega_x, omega_y, omega_z, rad/s), world
//                   frame, energy, the law's power (W), work and the
//                   impulses' (J), normal force, the friction mode
//                   (frictionless, sliding, no-slip, no-spin, no-roll,
//                   rest), the slip speed (m/s), the constraint residuals (gap, normal
//                   misalignment), patches, step
//   events.csv      patch transitions and chart switches, mode switches
//                   (from_mode, to_mode and the cause in message), the
//                   ill-conditioned warning, separation, leaving the
//                   surface, failure
//   contacts.csv    the contact point, normal and tangent on body 2 in the
//                   world and the normal force, a row per trajectory row
//                   (smooth_run_files.hpp)
//   summary.json    status, statistics, final state, energy drift, horizontal
//                   drift of the centre of mass, scene and build
//   timings.json    the run's wall time: the other files are the same byte
//                   for byte for the same command on the same build
// and, for every model, shapes/ and shapes.json: each body's shape in its
// own frame (body_shapes.hpp), written before the run.
// Numbers are written with 17 significant digits (exact round trip).
// Exit code: 0 when the run completed or ended by a physical event (the
// bodies separated, the contact left the surface) or at an extraordinary
// vertex (the end of the model until contact transitions), 1 when it
// failed, 2 for a bad scene.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "reference/dynamics/contact_simulation.hpp"
#include "core/errors.hpp"
#include "validation/app/body_shapes.hpp"
#include "validation/app/output_files.hpp"
#include "validation/app/progress.hpp"
#include "validation/app/simulate_quasi_rigid.hpp"
#include "validation/app/simulate_volume_contact.hpp"
#include "validation/app/smooth_run_files.hpp"
#include "validation/app/subcommands.hpp"
#include "validation/scenes/scene.hpp"

namespace contactref::cli {
namespace {

namespace dy = contactref::dynamics;
using ojson = nlohmann::ordered_json;

struct SimulateOptions {
  std::string scene;
  std::string out;
  bool json = false;
};

ojson vec_json(const Eigen::Ref<const Eigen::VectorXd>& x) {
  ojson out = ojson::array();
  for (Eigen::Index k = 0; k < x.size(); ++k) out.push_back(x(k));
  return out;
}

ojson mat3_json(const Mat3<double>& m) {
  ojson out = ojson::array();
  for (int i = 0; i < 3; ++i) out.push_back(vec_json(m.row(i).transpose()));
  return out;
}

ojson optional_json(const std::optional<double>& x) { return x ? ojson(*x) : ojson(nullptr); }

const char* integrator_name(dy::IntegratorKind kind) { return kind == dy::IntegratorKind::kRk4 ? "rk4" : "dormand-prince"; }

int run_simulate(const SimulateOptions& options) {
  const scenes::Scene scene = scenes::load_scene(options.scene);
  const std::filesystem::path out =
      options.out.empty() ? std::filesystem::path("out/simulate") / scene.name : std::filesystem::path(options.out);
  std::error_code error;
  std::filesystem::create_directories(out, error);
  if (error || !std::filesystem::is_directory(out))
    throw InputError(fmt::format("--out {}: cannot create the output folder ({})", out.string(), error.message()));
  write_body_shapes(out, scene);  // every model: shapes/ and shapes.json, before the run
  if (scene.model == scenes::ModelType::kQuasiRigid) return simulate_quasi_rigid(scene, options.scene, out, options.json);
  if (scene.model == scenes::ModelType::kVolume6d || scene.model == scenes::ModelType::kPointContact)
    return simulate_volume_contact(scene, options.scene, out, options.json);

  const scenes::SceneBody& body = scene.free_body();
  const dy::ContactSystem<double> system = scene.system();
  const dy::SimulationOptions<double>& so = scene.options;
  if (!options.json) {
    std::cout << fmt::format("scene      {}\nbodies     \"{}\" ({}, {} patches, {:.6g} kg) on \"{}\" ({}, fixed)\n",
                             options.scene, body.name, body.geometry_type, body.patch_count(), body.mass,
                             scene.fixed_body().name, scene.fixed_body().geometry_type);
    std::cout << fmt::format("integrator {}, h in [{}, {}] s, {} s\n", integrator_name(so.integrator), so.h_min,
                             so.h_max, so.duration);
    std::cout.flush();
  }

  Progress progress(so.duration);
  dy::SimulationResult<double> result;
  // The rows go to their files as the run makes them (memory bounded).
  SmoothSampleFiles samples(out, scene);
  SmoothEventFile events(out);
  try {
    const auto report = [&progress](const double& t) { progress(t); };
    result = scene.starts_in_flight ? dy::simulate<double>(system, scene.flight_start(), so, report, {&samples, &events})
                                    : dy::simulate<double>(system, scene.initial, so, report, {&samples, &events});
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", options.scene, e.what()));
  }
  const double wall = progress.seconds();
  const Drift drift = samples.close(result.initial_energy);
  events.close();
  const dy::SimulationStatistics<double>& st = result.statistics;
  const dy::ContactState<double>& last = result.final_state;

  ojson summary;
  summary["status"] = dy::to_string(result.status);
  summary["message"] = result.message;
  add_run_identity(summary, options.scene, scene.name);
  summary["duration"] = so.duration;
  summary["end_time"] = last.time;
  summary["integrator"] = {{"type", integrator_name(so.integrator)},
                           {"h_max", so.h_max},
                           {"h_min", so.h_min},
                           {"tolerance", so.integrator == dy::IntegratorKind::kRk4 ? ojson(nullptr) : ojson(so.tolerance)},
                           {"boundary", so.boundary == dy::BoundaryLocation::kLinear ? "linear" : "integrated"},
                           {"output_interval", so.output_interval}};
  summary["body"] = {{"name", body.name},
                     {"mass", body.mass},
                     {"inertia", mat3_json(body.I_com)},
                     {"density", body.density > 0 ? ojson(body.density) : ojson(nullptr)},
                     {"com_shift", vec_json(body.com_shift)}};
  summary["statistics"] = {{"accepted_steps", st.accepted_steps},
                           {"rejected_steps", st.rejected_steps},
                           {"energy_rejected_steps", st.energy_rejected_steps},
                           {"derivative_evaluations", st.derivative_evaluations},
                           {"loop_passes", st.passes},
                           {"transitions", st.transitions},
                           {"smooth_piece_crossings", st.smooth_piece_crossings},
                           {"mode_switches", st.mode_switches},
                           {"separations", st.separations},
                           {"collisions", st.collisions},
                           {"contacts", st.contacts},
                           {"forced_separations", st.forced_separations},
                           {"flight_steps", st.flight_steps},
                           {"flight_time", st.flight_time},
                           {"max_condition", st.max_condition},
                           {"smallest_step", st.smallest_step},
                           {"largest_step", st.largest_step},
                           {"max_gap", st.max_gap},
                           {"max_normal_misalignment", st.max_normal_misalignment},
                           {"rows", result.rows},
                           {"events", result.event_count}};
  const dy::FrictionModel<double>& friction = scene.friction;
  summary["friction"] = {{"mu", friction.law.mu},
                         {"mu_static", friction.mu_static},
                         {"mu_roll", friction.law.mu_roll},
                         {"mu_spin", friction.law.mu_spin},
                         {"slip_threshold", friction.slip_threshold},
                         {"spin_threshold", friction.spin_threshold},
                         {"roll_threshold", friction.roll_threshold},
                         {"damping", friction.law.damping}};
  summary["collision"] = {{"restitution", scene.restitution}, {"tangential_restitution", scene.tangential_restitution}};
  summary["final_state"] = {{"time", last.time},
                            {"mode", result.ended_in_flight ? "flight" : dy::to_string(last.mode)},
                            {"patch1", last.patch1},
                            {"patch2", last.patch2},
                            {"q", vec_json(last.q)},
                            {"qdot", vec_json(last.qdot)}};
  summary["energy"] = {{"initial", drift.energy0},
                       {"final", drift.energy_final},
                       {"max_abs_change", drift.max_energy_change},
                       {"relative_drift_max", optional_json(drift.relative_max)},
                       {"relative_drift_final", optional_json(drift.relative_final)},
                       {"law_work", drift.work},
                       {"impulse_work", drift.impulse_work},
                       {"max_abs_balance", drift.max_balance},
                       {"relative_balance_max", optional_json(drift.relative_balance)},
                       {"note", "E = kinetic + m g height; initial: the state as given, before the start's plastic "
                                "impulse; balance: E - E(0) - law_work - impulse_work, what the integrator lost; "
                                "relative to |E(0)|, null when E(0) = 0"}};
  summary["com_drift"] = {{"initial_com", vec_json(drift.com0)},
                          {"final_com", vec_json(drift.com_final)},
                          {"max_horizontal", drift.max_horizontal},
                          {"final_horizontal", drift.final_horizontal},
                          {"note", "m, perpendicular to gravity, from the initial centre of mass"}};
  summary["files"] = {{"bodies", "bodies.csv"},
                      {"trajectory", "trajectory.csv"},
                      {"events", "events.csv"},
                      {"contacts", "contacts.csv"},
                      {"shapes", "shapes.json"},
                      {"timings", "timings.json"}};
  write_json(out / "summary.json", summary);
  write_timings(out / "timings.json", {{"wall_seconds", wall}});

  if (options.json) {
    std::cout << summary.dump(2) << "\n";
  } else {
    std::cout << fmt::format("status     {}{}\n", dy::to_string(result.status),
                             result.message.empty() ? "" : ": " + result.message);
    const std::string steps = st.accepted_steps > 0
                                  ? fmt::format("step in [{:.3g}, {:.3g}] s", st.smallest_step, st.largest_step)
                                  : std::string("no step");
    std::cout << fmt::format("end time   {:.6g} s; {} steps accepted, {} rejected ({} by the RK4 energy test); {}; "
                             "{:.3g} s wall\n",
                             last.time, st.accepted_steps, st.rejected_steps, st.energy_rejected_steps, steps, wall);
    std::cout << fmt::format("events     {} patch transitions, {} smooth-piece crossings, {} mode switches (final "
                             "mode {})\n",
                             st.transitions, st.smooth_piece_crossings, st.mode_switches,
                             result.ended_in_flight ? "flight" : dy::to_string(last.mode));
    if (st.separations + st.collisions + st.contacts + st.flight_steps > 0)
      std::cout << fmt::format("flight     {} separations ({} forced), {} collisions, {} contacts re-established; {} "
                               "steps, {:.6g} s in flight\n",
                               st.separations, st.forced_separations, st.collisions, st.contacts, st.flight_steps,
                               st.flight_time);
    std::cout << fmt::format("energy     {:.10g} J -> {:.10g} J: the law's work {:.3g} J, the impulses' {:.3g} J; "
                             "integrator's balance max {:.3g} J (relative {})\n",
                             drift.energy0, drift.energy_final, drift.work, drift.impulse_work, drift.max_balance,
                             drift.relative_balance ? fmt::format("{:.3g}", *drift.relative_balance) : std::string("n/a"));
    std::cout << fmt::format("com drift  {:.3g} m horizontal (max), {:.3g} m at the end\n", drift.max_horizontal,
                             drift.final_horizontal);
    std::cout << fmt::format("constraint max gap {:.3g} m, max normal misalignment {:.3g}\n", st.max_gap,
                             st.max_normal_misalignment);
    // Section 3.4.1: high friction degrades F M H; reported so that a user
    // sees how far from singular the solves came.
    std::cout << fmt::format("solve      largest condition number {:.3g} (H^T M H or F M H, scaled)\n",
                             st.max_condition);
    std::cout << fmt::format("output     {} (bodies.csv, trajectory.csv, contacts.csv, events.csv, shapes.json, "
                             "summary.json, timings.json)\n",
                             out.string());
  }
  return result.status == dy::SimulationStatus::kFailed ? 1 : 0;
}

}  // namespace

Action configure_simulate(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  app.add_option("SCENE", options->scene, "scene file (JSON, validation/scenes/scene.hpp)")->required();
  app.add_option("--out", options->out, "output folder (default out/simulate/<scene name>)");
  app.add_flag("--json", options->json, "print summary.json on stdout instead of the table");
  return [options] { return run_simulate(*options); };
}

}  // namespace contactref::cli
