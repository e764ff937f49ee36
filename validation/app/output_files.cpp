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

BodyRow body_row(double time, const std::string& body, double mass, const Mat3<double>& I_com,
                 const Vec3<double>& gravity_w, const Mat3<double>& R_w_b, const Vec3<double>& com_w,
                 const Vec3<double>& v_w, const Vec3<double>& omega_w) {
  BodyRow row;
  row.time = time;
  row.body = body;
  row.com_w = com_w;
  row.R_w_b = R_w_b;
  row.v_w = v_w;
  row.omega_w = omega_w;
  const Vec3<double> omega_b = R_w_b.transpose() * omega_w;
  row.kinetic_energy = 0.5 * mass * v_w.squaredNorm() + 0.5 * omega_b.dot(I_com * omega_b);
  row.potential_energy = -mass * gravity_w.dot(com_w);
  return row;
}

void require_finite(const BodyRow& row) {
  const std::pair<bool, const char*> quantities[] = {{std::isfinite(row.time), "time"},
                                                      {row.com_w.allFinite(), "position"},
                                                      {row.R_w_b.allFinite(), "orientation"},
                                                      {row.v_w.allFinite(), "velocity"},
                                                      {row.omega_w.allFinite(), "angular velocity"},
                                                      {std::isfinite(row.kinetic_energy), "kinetic energy"},
                                                      {std::isfinite(row.potential_energy), "potential energy"}};
  for (const auto& [finite, quantity] : quantities)
    if (!finite)
      throw ComputationError(
          fmt::format("body \"{}\": its {} is not finite at t = {:.6g} s (it overflows)", row.body, quantity, row.time));
}

void write_bodies_csv(const std::filesystem::path& path, const std::vector<BodyRow>& rows) {
  std::ofstream file = open_output(path);
  file << "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,kinetic_energy,potential_energy\n";
  for (const BodyRow& row : rows) {
    Eigen::Quaterniond q(row.R_w_b);
    q.normalize();
    if (q.w() < 0) q.coeffs() *= -1;  // q and -q are one rotation: the one with qw >= 0
    std::string line = fmt::format("{:.17g},{}", row.time, csv_text(row.body));
    for (const double x : {row.com_w.x(), row.com_w.y(), row.com_w.z(), q.w(), q.x(), q.y(), q.z(), row.v_w.x(),
                           row.v_w.y(), row.v_w.z(), row.omega_w.x(), row.omega_w.y(), row.omega_w.z(),
                           row.kinetic_energy, row.potential_energy})
      line += fmt::format(",{:.17g}", x);
    line += '\n';
    file << line;
  }
  close_output(file, path);
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

}  // namespace contactref::cli
