#include "validation/app/simulate_quasi_rigid.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "validation/app/output_files.hpp"
#include "validation/app/progress.hpp"

namespace contactref::cli {
namespace {

namespace qr = contactref::quasi_rigid;
using ojson = nlohmann::ordered_json;

void write_bodies(const std::filesystem::path& path, const scenes::Scene& scene, const qr::DynamicsResult& result) {
  std::vector<BodyRow> rows;
  for (const qr::DynamicsSample& sample : result.samples) {
    for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
      const scenes::SceneBody& body = scene.bodies[k];
      if (body.fixed) continue;
      const qr::BodyState& s = sample.states[k];
      rows.push_back(body_row(sample.time, body.name, body.mass, body.I_com, scene.gravity, s.q_w_b.toRotationMatrix(),
                              s.x_w, s.v_w, s.omega_w));
    }
  }
  write_bodies_csv(path, rows);
}

void write_steps(const std::filesystem::path& path, const qr::DynamicsResult& result) {
  std::ofstream file = open_output(path);
  file << "time,dt,contact,retracted,load,active,loaded,normal_work,friction_work,friction_scale,rule_step\n";
  for (const qr::StepRecord& s : result.steps) {
    file << fmt::format("{:.17g},{:.17g},{},{},{:.17g},{},{},{:.17g},{:.17g},{:.17g},{:.17g}\n", s.time, s.dt,
                        s.contact ? 1 : 0, s.retracted ? 1 : 0, s.load, s.active, s.loaded, s.normal_work,
                        s.friction_work, s.friction_scale, s.rule_step);
  }
  close_output(file, path);
}

ojson summary_json(const scenes::Scene& scene, const std::string& scene_file, const qr::DynamicsOptions& options,
                   const qr::DynamicsResult& result, double wall) {
  const scenes::QuasiRigidModel& m = scene.quasi_rigid;
  ojson summary;
  summary["status"] = qr::to_string(result.status);
  summary["message"] = result.message;
  add_run_identity(summary, scene_file, scene.name);
  summary["model"] = {{"type", "quasi-rigid"},
                      {"kernel", m.kernel == qr::ResponseKernel::Kind::kBoussinesq ? "boussinesq" : "volume-preserving"},
                      {"sigma", m.sigma},
                      {"mu", options.mu},
                      {"damping", options.damping},
                      {"time_step", options.time_step},
                      {"step_fraction", options.step_fraction},
                      {"contact_tolerance", options.contact_tolerance},
                      {"spacing", m.spacing ? ojson(*m.spacing) : ojson(nullptr)},
                      {"active_range", options.contact.active_range},
                      {"max_retractions", options.max_retractions},
                      {"integrator", "velocity Verlet: half the contact impulses at the step's start, the exact "
                                     "ballistic flight, half at its end"}};
  summary["duration"] = options.duration;
  summary["end_time"] = result.samples.empty() ? 0.0 : result.samples.back().time;
  summary["statistics"] = {{"contact_steps", result.contact_steps},
                           {"flight_steps", result.flight_steps},
                           {"retractions", result.retractions},
                           {"first_contacts", result.first_contacts},
                           {"most_active_samples", result.max_active},
                           {"normal_work", result.normal_work},
                           {"friction_work", result.friction_work},
                           {"rows", result.samples.size()},
                           {"wall_seconds", wall}};
  ojson bodies = ojson::array();
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const scenes::SceneBody& b = scene.bodies[k];
    const qr::BodyState& s = result.final_states[k];
    bodies.push_back(final_body_json(b.name, b.fixed, b.mass, s.x_w, s.v_w, s.omega_w));
  }
  summary["bodies"] = bodies;
  summary["files"] = {{"bodies", "bodies.csv"}, {"steps", "steps.csv"}};
  return summary;
}

}  // namespace

int simulate_quasi_rigid(const scenes::Scene& scene, const std::string& scene_file, const std::filesystem::path& out,
                         bool json) {
  const std::vector<qr::DynamicBody> bodies = scenes::quasi_rigid_bodies(scene);
  const qr::DynamicsOptions options = scenes::quasi_rigid_options(scene);
  if (!json) {
    std::cout << fmt::format("scene      {}\nmodel      quasi-rigid, {} bodies, mu {}, damping {} s/m, {} s\n",
                             scene_file, bodies.size(), options.mu, options.damping, options.duration);
    std::cout.flush();
  }
  Progress progress(options.duration);
  qr::DynamicsResult result;
  try {
    result = qr::simulate_quasi_rigid(bodies, options, [&progress](double t) { progress(t); });
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", scene_file, e.what()));
  }
  const double wall = progress.seconds();
  write_bodies(out / "bodies.csv", scene, result);
  write_steps(out / "steps.csv", result);
  const ojson summary = summary_json(scene, scene_file, options, result, wall);
  write_json(out / "summary.json", summary);
  if (json) {
    std::cout << summary.dump(2) << "\n";
  } else {
    std::cout << fmt::format("status     {}{}\n", qr::to_string(result.status),
                             result.message.empty() ? "" : ": " + result.message);
    std::cout << fmt::format("steps      {} in contact, {} in flight, {} retractions; most active samples {}; {:.3g} s "
                             "wall\n",
                             result.contact_steps, result.flight_steps, result.retractions, result.max_active, wall);
    std::cout << fmt::format("work       normal {:.6g} J, friction {:.6g} J\n", result.normal_work,
                             result.friction_work);
    std::cout << fmt::format("output     {} (bodies.csv, steps.csv, summary.json)\n", out.string());
  }
  return result.status == qr::RunStatus::kFailed ? 1 : 0;
}

}  // namespace contactref::cli
