#include "validation/app/simulate_volume_contact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "core/errors.hpp"
#include "reference/volume_contact/volume_world.hpp"
#include "validation/app/json_rows.hpp"
#include "validation/app/output_files.hpp"
#include "validation/app/progress.hpp"
#include "validation/scenes/volume_contact_scene.hpp"

namespace contactref::cli {
namespace {

namespace vc = contactref::volume_contact;
using ojson = nlohmann::ordered_json;

constexpr std::array kStates = {vc::JointState::kSeparating, vc::JointState::kStuck, vc::JointState::kSliding,
                                vc::JointState::kRolling, vc::JointState::kRollingSliding};

// What steps.csv and the statistics keep of a step (the joints and patches
// of StepReport are not kept: a long run would hold them all).
struct StepRow {
  double time = 0;
  int contacts = 0, constraints = 0, iterations = 0;
  double residual = 0;  // the last sweep's update norm; 0 without a sweep
  bool converged = true;
  double projection_residual = 0;  // N s: the largest joint's distance from its own projection (block_pgs.hpp)
  double max_volume = 0;
  vc::StepTimes times;
  std::array<int, kStates.size()> states{};  // joints per JointState, in kStates' order
};

// ComputationError naming the quantity of a step's row that is not finite
// (a PGS update norm that overflowed), so that steps.csv never receives one.
StepRow step_row(const vc::StepReport& report) {
  StepRow row;
  row.time = report.time;
  row.contacts = report.contacts;
  row.constraints = report.constraints;
  row.iterations = report.pgs.iterations;
  row.residual = report.pgs.residuals.empty() ? 0.0 : report.pgs.residuals.back();
  row.converged = report.pgs.converged;
  row.projection_residual = report.pgs.projection_residual;
  row.max_volume = report.max_volume;
  row.times = report.times;
  for (const vc::PgsJoint& j : report.joints)
    for (std::size_t s = 0; s < kStates.size(); ++s) row.states[s] += j.state == kStates[s];
  for (const auto& [x, quantity] : {std::pair{row.residual, "PGS's last update norm"},
                                    std::pair{row.max_volume, "largest intersection volume"}})
    if (!std::isfinite(x))
      throw ComputationError(fmt::format("the step's {} is not finite at t = {:.6g} s (it overflows)", quantity, row.time));
  return row;
}

const char* joint_kind_name(vc::JointKind kind) {
  switch (kind) {
    case vc::JointKind::kVolume6d: return "volume-6d";
    case vc::JointKind::kPoint: return "point";
    case vc::JointKind::kSpherical: return "spherical";
    case vc::JointKind::kHinge: return "hinge";
  }
  return "?";
}

// contacts.csv (for viewers, issue 33 item 1): a row per joint per step, as
// solved: the time at the step's end, the kind (volume-6d, point,
// spherical, hinge), bodies a and b by name, the joint frame's origin (x,
// y, z: a 6D patch's centre, a contact point, a joint's anchor) and its axes
// u, w and n in the world (n from a towards b), the 6D ellipse's semi-axes
// (m; 0 for the others), the step's impulse that a gives b in that frame
// (torque about u, w, n in N m s, force along them in N s; a receives its
// opposite) and the joint's state.
class ContactFile {
 public:
  ContactFile(const std::filesystem::path& path, const scenes::Scene& scene)
      : scene_(scene),
        file_(path,
              "time,kind,a,b,x,y,z,ux,uy,uz,wx,wy,wz,nx,ny,nz,semi_a,semi_b,torque_u,torque_w,torque_n,force_u,force_w,"
              "force_n,state") {}
  void write(const vc::StepReport& report) {
    static const char* const names[4][3] = {{"x", "y", "z"}, {"ux", "uy", "uz"}, {"wx", "wy", "wz"}, {"nx", "ny", "nz"}};
    static const char* const impulse_names[6] = {"torque_u", "torque_w", "torque_n", "force_u", "force_w", "force_n"};
    for (const vc::PgsJoint& j : report.joints) {
      file_.begin(report.time);
      file_.text(joint_kind_name(j.kind));
      for (const int body : {j.a, j.b}) file_.text(scene_.bodies[std::size_t(body)].name);
      const Eigen::Vector3d columns[4] = {j.x_w_c, j.R_w_c.col(0), j.R_w_c.col(1), j.R_w_c.col(2)};
      for (int v = 0; v < 4; ++v)
        for (int k = 0; k < 3; ++k) file_.number(columns[v](k), names[v][k]);
      file_.number(j.semi_axes(0), "semi_a");
      file_.number(j.semi_axes(1), "semi_b");
      for (int k = 0; k < 6; ++k) file_.number(j.impulse(k), impulse_names[k]);
      file_.text(vc::to_string(j.state));
      file_.end();
    }
  }
  void close() { file_.close(); }

 private:
  const scenes::Scene& scene_;
  CsvFile file_;
};

// The world's state: at the end of its last completed step (a step that
// fails leaves the world as it was: VolumeWorld::step), one row per free
// body, each checked finite (body_row) before any is kept.
std::vector<BodyRow> state_rows(const scenes::Scene& scene, const vc::VolumeWorld& world) {
  std::vector<BodyRow> rows;
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const scenes::SceneBody& body = scene.bodies[k];
    if (body.fixed) continue;
    const vc::RigidBody& b = world.bodies()[k];
    rows.push_back(body_row(world.time(), body.name, b, scene.gravity, b));
  }
  return rows;
}

// steps.csv and step_times.csv, a row per step as the run makes them, with
// the statistics of summary.json and timings.json accumulated.
struct Statistics {
  long steps = 0, total_iterations = 0;
  int max_iterations = 0, unconverged = 0, max_contacts = 0;
  double max_volume = 0, max_projection_residual = 0;
  vc::StepTimes seconds;
};

class StepFile final : public spatial::RowSink<StepRow> {
 public:
  StepFile(const std::filesystem::path& steps, const std::filesystem::path& times)
      : file_(steps,
              "time,contacts,constraints,iterations,residual,converged,projection_residual,max_volume,separating,"
              "stuck,sliding,rolling,rolling_sliding"),
        times_(times, "time,detection_s,stabilisation_s,assembly_s,solve_s") {}
  void write(const StepRow& s) override {
    file_.begin(s.time);
    for (const long n : {long(s.contacts), long(s.constraints), long(s.iterations)}) file_.integer(n);
    file_.number(s.residual, "residual");
    file_.integer(s.converged ? 1 : 0);
    file_.number(s.projection_residual, "projection_residual");
    file_.number(s.max_volume, "max_volume");
    for (const int n : s.states) file_.integer(n);
    file_.end();
    times_.begin(s.time);
    times_.number(s.times.detection, "detection_s");
    times_.number(s.times.stabilisation, "stabilisation_s");
    times_.number(s.times.assembly, "assembly_s");
    times_.number(s.times.solve, "solve_s");
    times_.end();
    Statistics& st = statistics_;
    ++st.steps;
    st.total_iterations += s.iterations;
    st.max_iterations = std::max(st.max_iterations, s.iterations);
    st.unconverged += s.converged ? 0 : 1;
    st.max_contacts = std::max(st.max_contacts, s.contacts);
    st.max_volume = std::max(st.max_volume, s.max_volume);
    st.max_projection_residual = std::max(st.max_projection_residual, s.projection_residual);
    st.seconds.detection += s.times.detection;
    st.seconds.stabilisation += s.times.stabilisation;
    st.seconds.assembly += s.times.assembly;
    st.seconds.solve += s.times.solve;
  }
  void close() {
    file_.close();
    times_.close();
  }
  const Statistics& statistics() const { return statistics_; }

 private:
  CsvFile file_;
  CsvFile times_;  // the wall times, apart: steps.csv is the same byte for byte run to run
  Statistics statistics_;
};

ojson model_json(const scenes::Scene& scene) {
  const scenes::VolumeContactModel& m = scene.volume_contact;
  ojson model = {{"type", scenes::to_string(scene.model)},
                 {"time_step", m.time_step},
                 {"mu", m.mu},
                 {"stabilisation", vc::to_string(m.stabilisation)},
                 {"tolerance", m.tolerance},
                 {"max_iterations", m.max_iterations},
                 {"warm_start", m.warm_start},
                 {"thin", m.thin},
                 {"ground_size", m.ground_size},
                 {"joint_elimination", m.joint_elimination},
                 {"exact_moments", m.exact_moments}};
  if (m.target_volume)
    model["target_volume"] = *m.target_volume;
  else
    model["target_depth_ratio"] = vc::kTargetDepthRatio;  // each pair's own target (volume_world.hpp)
  if (scene.model == scenes::ModelType::kVolume6d) {
    model["linear_compliance"] = m.linear_compliance;
    model["angular_compliance"] = m.angular_compliance;
    model["patch"] = vc::to_string(m.patch);
    model["spin_resolve"] = m.spin_resolve;
    model["normal_differences"] = m.normal_differences;
  } else {
    model["touch_tolerance"] = m.touch_tolerance;
  }
  model["integrator"] = "semi-implicit Euler: velocities from gravity and the contact impulses, then positions";
  return model;
}

struct Run {
  double end_time = 0;                  // s: the end of the last completed step
  std::vector<vc::RigidBody> final_bodies;  // the state then
  std::vector<double> final_angles;         // per joint: a hinge's turn then (rad), 0 for a spherical joint
  bool failed = false;
  std::string message;
  Statistics statistics;  // of the steps
  long rows = 0;          // of bodies.csv
  double wall = 0;
};

ojson summary_json(const scenes::Scene& scene, const std::string& scene_file, const Run& run) {
  ojson summary;
  summary["status"] = run.failed ? "failed" : "completed";
  summary["message"] = run.message;
  add_run_identity(summary, scene_file, scene.name);
  summary["model"] = model_json(scene);
  summary["duration"] = scene.options.duration;
  summary["end_time"] = run.end_time;
  const Statistics& st = run.statistics;
  summary["statistics"] = {{"steps", st.steps},
                           {"total_iterations", st.total_iterations},
                           {"mean_iterations", st.steps == 0 ? 0.0 : double(st.total_iterations) / double(st.steps)},
                           {"max_iterations", st.max_iterations},
                           {"unconverged_steps", st.unconverged},
                           {"max_projection_residual", st.max_projection_residual},
                           {"max_contacts", st.max_contacts},
                           {"max_volume", st.max_volume},
                           {"rows", run.rows}};
  ojson bodies = ojson::array();
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const scenes::SceneBody& b = scene.bodies[k];
    const vc::RigidBody& s = run.final_bodies[k];
    ojson body = final_body_json(b.name, b.fixed, b.mass, s.x_w, s.v_w, s.omega_w);
    if (!b.fixed) {
      body["final_quaternion"] = {s.q_w_b.w(), s.q_w_b.x(), s.q_w_b.y(), s.q_w_b.z()};
      body["com_shift"] = rows(b.com_shift);
    }
    bodies.push_back(body);
  }
  summary["bodies"] = bodies;
  ojson joints = ojson::array();
  for (std::size_t k = 0; k < scene.joints.size(); ++k) {
    const vc::BilateralJoint& j = scene.joints[k];
    const bool hinge = j.kind == vc::JointKind::kHinge;
    ojson joint = {{"type", joint_kind_name(j.kind)},
                   {"body1", scene.bodies[std::size_t(j.a)].name},
                   {"body2", scene.bodies[std::size_t(j.b)].name}};
    if (hinge) {
      joint["drive"] = {{"stiffness", j.drive.stiffness}, {"damping", j.drive.damping}, {"angle", j.drive.angle}};
      joint["final_angle"] = run.final_angles[k];
    }
    joints.push_back(joint);
  }
  summary["joints"] = joints;
  summary["files"] = {{"bodies", "bodies.csv"},
                      {"steps", "steps.csv"},
                      {"step_times", "step_times.csv"},
                      {"contacts", "contacts.csv"},
                      {"shapes", "shapes.json"},
                      {"timings", "timings.json"}};
  return summary;
}

ojson timings_json(const Run& run) {
  const vc::StepTimes& seconds = run.statistics.seconds;
  return {{"wall_seconds", run.wall},
          {"phase_seconds",
           {{"detection", seconds.detection},
            {"stabilisation", seconds.stabilisation},
            {"assembly", seconds.assembly},
            {"solve", seconds.solve}}}};
}

}  // namespace

int simulate_volume_contact(const scenes::Scene& scene, const std::string& scene_file,
                            const std::filesystem::path& out, bool json) {
  const vc::WorldOptions options = scenes::volume_contact_options(scene);
  std::vector<vc::RigidBody> bodies = scenes::volume_contact_bodies(scene);
  const std::size_t count = bodies.size();
  std::optional<vc::VolumeWorld> world;
  try {
    world.emplace(std::move(bodies), options, scene.joints);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", scene_file, e.what()));
  }
  const double duration = scene.options.duration, h = options.time_step, interval = scene.options.output_interval;
  if (!json) {
    std::cout << fmt::format("scene      {}\nmodel      {}, {} bodies, mu {}, h {} s, {} s\n", scene_file,
                             scenes::to_string(scene.model), count, scene.volume_contact.mu, h, duration);
    std::cout.flush();
  }

  // Every step advances the clock by h (volume_world.hpp), so the loop ends
  // after about duration / h steps (at most limits.max_steps: the scene's
  // check) and needs no watchdog. The last step ends within h/2 of the
  // duration. The rows go to their files as the run makes them.
  Run run;
  Progress progress(duration);
  BodiesCsv body_file(out / "bodies.csv");
  StepFile step_file(out / "steps.csv", out / "step_times.csv");
  ContactFile contact_file(out / "contacts.csv", scene);
  const auto write_rows = [&](const std::vector<BodyRow>& rows) {
    for (const BodyRow& row : rows) body_file.write(row);
    run.rows += long(rows.size());
  };
  try {  // the start: a state whose energy overflows is not a scene to run
    write_rows(state_rows(scene, *world));
  } catch (const ComputationError& e) {
    throw InputError(fmt::format("{}: {}", scene_file, e.what()));
  }
  double next_output = interval, from = 0;
  const auto fail = [&](const std::exception& e) {
    run.failed = true;
    run.message = fmt::format("in the step from t = {:.6g} s: {}", from, e.what());
  };
  // Every step's rows are checked (state_rows), those at output times
  // written, the others held until the next step: a run ends at the first
  // state that overflows, with its rows all finite; the last finite state
  // ends the file.
  std::vector<BodyRow> unkept;
  try {
    while (world->time() < duration - h / 2) {
      from = world->time();
      const vc::StepReport report = world->step();
      step_file.write(step_row(report));
      contact_file.write(report);
      const std::vector<BodyRow> rows = state_rows(scene, *world);
      const double t = world->time();
      progress(t);
      unkept = rows;
      if (interval == 0 || t >= next_output - h / 2) {  // the step ending nearest at or after it
        write_rows(rows);
        unkept.clear();
        while (interval > 0 && next_output <= t + h / 2) next_output += interval;
      }
    }
  } catch (const ComputationError& e) {
    fail(e);
  } catch (const InputError& e) {
    // The scene passed its checks and the world's: an input refused while
    // stepping (a degenerate intersection, a non-finite impulse) comes from
    // the state the run reached, so the run fails rather than the scene.
    fail(e);
  }
  run.wall = progress.seconds();
  run.end_time = world->time();
  run.final_bodies = world->bodies();
  for (std::size_t k = 0; k < scene.joints.size(); ++k)
    run.final_angles.push_back(scene.joints[k].kind == vc::JointKind::kHinge ? world->hinge_angle(int(k)) : 0.0);
  if (!unkept.empty() && unkept.front().time == run.end_time) write_rows(unkept);
  body_file.close();
  step_file.close();
  contact_file.close();
  run.statistics = step_file.statistics();
  const ojson summary = summary_json(scene, scene_file, run);
  write_json(out / "summary.json", summary);
  const ojson timings = timings_json(run);
  write_timings(out / "timings.json", timings);
  if (json) {
    std::cout << summary.dump(2) << "\n";
  } else {
    const ojson& st = summary["statistics"];
    std::cout << fmt::format("status     {}{}\n", run.failed ? "failed" : "completed",
                             run.message.empty() ? "" : ": " + run.message);
    std::cout << fmt::format("steps      {} to t = {:.6g} s; PGS {:.3g} iterations a step (max {}), {} unconverged, "
                             "projection residual at most {:.3g}; at most {} contacts; {:.3g} s wall\n",
                             run.statistics.steps, run.end_time, st["mean_iterations"].get<double>(),
                             st["max_iterations"].get<int>(), st["unconverged_steps"].get<int>(),
                             st["max_projection_residual"].get<double>(), st["max_contacts"].get<int>(), run.wall);
    const ojson& phase = timings["phase_seconds"];
    std::cout << fmt::format("phases     detection {:.3g} s, stabilisation {:.3g} s, assembly {:.3g} s, solve {:.3g} s\n",
                             phase["detection"].get<double>(), phase["stabilisation"].get<double>(),
                             phase["assembly"].get<double>(), phase["solve"].get<double>());
    std::cout << fmt::format("output     {} (bodies.csv, steps.csv, step_times.csv, contacts.csv, shapes.json, "
                             "summary.json, timings.json)\n",
                             out.string());
  }
  return run.failed ? 1 : 0;
}

}  // namespace contactref::cli
