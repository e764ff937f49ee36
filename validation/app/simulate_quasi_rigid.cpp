#include "validation/app/simulate_quasi_rigid.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/errors.hpp"
#include "validation/app/output_files.hpp"
#include "validation/app/progress.hpp"
#include "validation/app/samples_file.hpp"

namespace contactref::cli {
namespace {

namespace qr = contactref::quasi_rigid;
using ojson = nlohmann::ordered_json;

// bodies.csv, a row per free body per sample, as the run makes them; the
// last row kept for summary.json.
class QuasiRigidBodyFile final : public spatial::RowSink<qr::DynamicsSample> {
 public:
  QuasiRigidBodyFile(const std::filesystem::path& path, const scenes::Scene& scene) : scene_(scene), file_(path) {}
  void write(const qr::DynamicsSample& sample) override {
    for (std::size_t k = 0; k < scene_.bodies.size(); ++k) {
      const scenes::SceneBody& body = scene_.bodies[k];
      if (body.fixed) continue;
      const qr::BodyState& s = sample.states[k];
      file_.write(body_row(sample.time, body.name, {body.mass, body.I_com}, scene_.gravity, s));
    }
    last_ = sample;
  }
  void close() { file_.close(); }
  const std::optional<qr::DynamicsSample>& last() const { return last_; }

 private:
  const scenes::Scene& scene_;
  BodiesCsv file_;
  std::optional<qr::DynamicsSample> last_;
};

// steps.csv, a row per step.
class QuasiRigidStepFile final : public spatial::RowSink<qr::StepRecord> {
 public:
  explicit QuasiRigidStepFile(const std::filesystem::path& path)
      : file_(path, "time,dt,contact,retracted,load,active,loaded,normal_work,friction_work,friction_scale,rule_step") {}
  void write(const qr::StepRecord& s) override {
    file_.begin(s.time);
    file_.number(s.dt, "dt");
    file_.integer(s.contact ? 1 : 0);
    file_.integer(s.retracted ? 1 : 0);
    file_.number(s.load, "load");
    file_.integer(s.active);
    file_.integer(s.loaded);
    file_.number(s.normal_work, "normal_work");
    file_.number(s.friction_work, "friction_work");
    file_.number(s.friction_scale, "friction_scale");
    file_.number(s.rule_step, "rule_step");
    file_.end();
  }
  void close() { file_.close(); }

 private:
  CsvFile file_;
};

// contacts.csv (for viewers, issue 33; samples.bin instead when the scene
// asks, samples_file.hpp): a row per loaded sample per step,
// at the step's end (StepRecord::samples): the body, the sample's index,
// where it pushes and its outward unit normal in the world, its traction
// (Pa), area (m^2) and the share of p a that pushes (contact_impulses.hpp).
class QuasiRigidContactFile final : public spatial::RowSink<qr::StepRecord> {
 public:
  QuasiRigidContactFile(const std::filesystem::path& path, const scenes::Scene& scene)
      : scene_(scene), file_(path, "time,kind,body,sample,x,y,z,nx,ny,nz,pressure,area,share") {}
  void write(const qr::StepRecord& s) override {
    for (const qr::StepRecord::Sample& sample : s.samples) {
      file_.begin(s.time);
      file_.text("sample");
      file_.text(scene_.bodies[sample.body].name);
      file_.integer(sample.loaded.sample);
      for (int c = 0; c < 3; ++c) file_.number(sample.loaded.x_w(c), kPointColumns[c]);
      for (int c = 0; c < 3; ++c) file_.number(sample.loaded.n_w(c), kNormalColumns[c]);
      file_.number(sample.loaded.traction, "pressure");
      file_.number(sample.loaded.area, "area");
      file_.number(sample.loaded.share, "share");
      file_.end();
    }
  }
  void close() { file_.close(); }

 private:
  static constexpr const char* kPointColumns[3] = {"x", "y", "z"};
  static constexpr const char* kNormalColumns[3] = {"nx", "ny", "nz"};
  const scenes::Scene& scene_;
  CsvFile file_;
};

// Both files of a step.
class StepSinks final : public spatial::RowSink<qr::StepRecord> {
 public:
  StepSinks(spatial::RowSink<qr::StepRecord>& steps, spatial::RowSink<qr::StepRecord>& contacts)
      : steps_(steps), contacts_(contacts) {}
  void write(const qr::StepRecord& s) override {
    steps_.write(s);
    contacts_.write(s);
  }

 private:
  spatial::RowSink<qr::StepRecord>& steps_;
  spatial::RowSink<qr::StepRecord>& contacts_;
};

// last: the last row written (the end's state when the run completed).
ojson summary_json(const scenes::Scene& scene, const std::string& scene_file, const qr::DynamicsOptions& options,
                   const qr::DynamicsResult& result, const std::optional<qr::DynamicsSample>& last) {
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
                      {"min_step", options.min_step},
                      {"contact_tolerance", options.contact_tolerance},
                      {"spacing", m.spacing ? ojson(*m.spacing) : ojson(nullptr)},
                      {"active_range", options.contact.active_range},
                      {"max_retractions", options.max_retractions},
                      {"integrator", "velocity Verlet: half the contact impulses at the step's start, the exact "
                                     "ballistic flight, half at its end"}};
  summary["duration"] = options.duration;
  summary["end_time"] = last ? last->time : 0.0;
  summary["statistics"] = {{"contact_steps", result.contact_steps},
                           {"flight_steps", result.flight_steps},
                           {"retractions", result.retractions},
                           {"first_contacts", result.first_contacts},
                           {"most_active_samples", result.max_active},
                           {"normal_work", result.normal_work},
                           {"friction_work", result.friction_work},
                           {"rows", result.rows},
                           {"steps", result.step_count}};
  ojson bodies = ojson::array();
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const scenes::SceneBody& b = scene.bodies[k];
    const qr::BodyState& s = last ? last->states[k] : result.final_states[k];
    bodies.push_back(final_body_json(b.name, b.fixed, b.mass, s.x_w, s.v_w, s.omega_w));
  }
  summary["bodies"] = bodies;
  summary["files"] = {{"bodies", "bodies.csv"}, {"steps", "steps.csv"}};
  summary["files"][scene.binary_samples ? "samples" : "contacts"] = scene.binary_samples ? "samples.bin" : "contacts.csv";
  summary["files"]["shapes"] = "shapes.json";
  summary["files"]["timings"] = "timings.json";
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
  QuasiRigidBodyFile body_file(out / "bodies.csv", scene);
  QuasiRigidStepFile step_file(out / "steps.csv");
  std::optional<QuasiRigidContactFile> contact_file;
  std::optional<SamplesFile> samples_file;
  if (scene.binary_samples) samples_file.emplace(out / "samples.bin");
  else contact_file.emplace(out / "contacts.csv", scene);
  StepSinks step_sinks(step_file, samples_file ? static_cast<spatial::RowSink<qr::StepRecord>&>(*samples_file)
                                               : *contact_file);
  try {
    result = qr::simulate_quasi_rigid(bodies, options, [&progress](double t) { progress(t); }, {&body_file, &step_sinks});
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", scene_file, e.what()));
  }
  const double wall = progress.seconds();
  body_file.close();
  step_file.close();
  if (contact_file) contact_file->close();
  if (samples_file) samples_file->close();
  const ojson summary = summary_json(scene, scene_file, options, result, body_file.last());
  write_json(out / "summary.json", summary);
  write_timings(out / "timings.json", {{"wall_seconds", wall}});
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
    std::cout << fmt::format("output     {} (bodies.csv, steps.csv, {}, summary.json, timings.json)\n", out.string(),
                             scene.binary_samples ? "samples.bin" : "contacts.csv");
  }
  return result.status == qr::RunStatus::kFailed ? 1 : 0;
}

}  // namespace contactref::cli
