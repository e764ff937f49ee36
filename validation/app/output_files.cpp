#include "validation/app/output_files.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <cmath>
#include <utility>

#include "core/errors.hpp"
#include "validation/build_info.hpp"

namespace contactref::cli {

std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

std::ofstream open_output(const std::filesystem::path& path) {
  std::ofstream file(path);
  if (!file) throw InputError(fmt::format("{}: cannot write the file (check --out)", path.string()));
  return file;
}

void close_output(std::ofstream& file, const std::filesystem::path& path) {
  file.close();
  if (!file) throw ComputationError(fmt::format("{}: writing failed", path.string()));
}

CsvFile::CsvFile(std::filesystem::path path, const std::string& header)
    : path_(std::move(path)), file_(open_output(path_)), flushed_(std::chrono::steady_clock::now()) {
  file_ << header << '\n';
}

void CsvFile::begin(double time) {
  time_ = time;
  row_.clear();
  number(time, "time");
}

void CsvFile::number(double value, const char* column) {
  if (!std::isfinite(value)) {
    throw ComputationError(fmt::format("{}: {} is {} in the row at t = {:.9g} s (it overflowed or is undefined; the "
                                       "file ends at the row before)",
                                       path_.string(), column, value, time_));
  }
  if (!row_.empty()) row_ += ',';
  row_ += fmt::format("{:.17g}", value);
}

void CsvFile::integer(long value) { row_ += fmt::format(",{}", value); }

void CsvFile::text(const std::string& value) {
  row_ += ',';
  row_ += csv_text(value);
}

void CsvFile::end() {
  row_ += '\n';
  file_ << row_;
  const auto now = std::chrono::steady_clock::now();
  if (now - flushed_ > std::chrono::seconds(2)) file_.flush(), flushed_ = now;
}

void CsvFile::close() {
  if (file_.is_open()) close_output(file_, path_);
}

BodyRow body_row(double time, const std::string& body, const spatial::MassProperties<double>& mass,
                 const Vec3<double>& gravity_w, const spatial::RigidBodyState<double>& state) {
  BodyRow row;
  row.time = time;
  row.body = body;
  row.state = state;
  row.kinetic_energy = mass.kinetic_energy(state);
  row.potential_energy = mass.potential_energy(state, gravity_w);
  const std::pair<bool, const char*> quantities[] = {{std::isfinite(time), "time"},
                                                      {state.x_w.allFinite(), "position"},
                                                      {state.q_w_b.coeffs().allFinite(), "orientation"},
                                                      {state.v_w.allFinite(), "velocity"},
                                                      {state.omega_w.allFinite(), "angular velocity"},
                                                      {std::isfinite(row.kinetic_energy), "kinetic energy"},
                                                      {std::isfinite(row.potential_energy), "potential energy"}};
  for (const auto& [finite, quantity] : quantities)
    if (!finite)
      throw ComputationError(
          fmt::format("body \"{}\": its {} is not finite at t = {:.6g} s (it overflows)", body, quantity, time));
  return row;
}

BodiesCsv::BodiesCsv(const std::filesystem::path& path)
    : file_(path, "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,kinetic_energy,potential_energy") {}

void BodiesCsv::write(const BodyRow& row) {
  Eigen::Quaterniond q = row.state.q_w_b.normalized();
  if (q.w() < 0) q.coeffs() *= -1;  // q and -q are one rotation: the one with qw >= 0
  const spatial::RigidBodyState<double>& s = row.state;
  file_.begin(row.time);
  file_.text(row.body);
  const std::pair<double, const char*> cells[] = {
      {s.x_w.x(), "x"},           {s.x_w.y(), "y"},           {s.x_w.z(), "z"},             {q.w(), "qw"},
      {q.x(), "qx"},              {q.y(), "qy"},              {q.z(), "qz"},                {s.v_w.x(), "vx"},
      {s.v_w.y(), "vy"},          {s.v_w.z(), "vz"},          {s.omega_w.x(), "wx"},        {s.omega_w.y(), "wy"},
      {s.omega_w.z(), "wz"},      {row.kinetic_energy, "kinetic_energy"}, {row.potential_energy, "potential_energy"}};
  for (const auto& [value, column] : cells) file_.number(value, column);
  file_.end();
}

void write_bodies_csv(const std::filesystem::path& path, const std::vector<BodyRow>& rows) {
  BodiesCsv file(path);
  for (const BodyRow& row : rows) file.write(row);
  file.close();
}

void add_run_identity(nlohmann::ordered_json& summary, const std::string& scene_file, const std::string& scene_name) {
  std::error_code error;
  summary["scene"] = {{"file", scene_file},
                      {"absolute_path", std::filesystem::absolute(scene_file, error).string()},
                      {"name", scene_name}};
  summary["contactref"] = {{"version", build_info::version},
                           {"git_revision", build_info::git_revision},
                           {"build_type", build_info::build_type}};
}

nlohmann::ordered_json final_body_json(const std::string& name, bool fixed, double mass, const Vec3<double>& x_w,
                                       const Vec3<double>& v_w, const Vec3<double>& omega_w) {
  nlohmann::ordered_json body = {{"name", name}, {"fixed", fixed}};
  if (fixed) return body;
  const auto vec = [](const Vec3<double>& x) { return nlohmann::ordered_json::array({x.x(), x.y(), x.z()}); };
  body["mass"] = mass;
  body["final_position"] = vec(x_w);
  body["final_velocity"] = vec(v_w);
  body["final_angular_velocity"] = vec(omega_w);
  return body;
}

void write_json(const std::filesystem::path& path, const nlohmann::ordered_json& document) {
  std::ofstream file = open_output(path);
  file << document.dump(2) << "\n";
  close_output(file, path);
}

void write_timings(const std::filesystem::path& path, const nlohmann::ordered_json& timings) {
  nlohmann::ordered_json document = {
      {"note", "wall and CPU times (s unless the name says otherwise): they differ from run to run and machine to "
               "machine, so no other output file holds them"}};
  for (const auto& [key, value] : timings.items()) document[key] = value;
  write_json(path, document);
}

}  // namespace contactref::cli
