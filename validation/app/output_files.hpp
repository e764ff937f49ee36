#pragma once
// The files a simulation writes (simulate_command.cpp), and bodies.csv, the
// one file every model writes: one row per free body per output time.
//
// bodies.csv columns (17 significant digits, exact round trip):
//   time                  s
//   body                  the body's name (quoted when it holds a comma or quote)
//   x, y, z               the centre of mass in the world (m)
//   qw, qx, qy, qz        the unit quaternion of the body axes in the world
//                         (R_w_b), with qw >= 0
//   vx, vy, vz            the velocity of the centre of mass, world axes (m/s)
//   wx, wy, wz            the angular velocity, world axes (rad/s)
//   kinetic_energy        1/2 m |v|^2 + 1/2 w_b . I_com w_b (J)
//   potential_energy      -m g . x (J), the gravitational energy, zero at the world origin
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/scalar.hpp"

namespace contactref::cli {

// A CSV field: quoted when it holds a comma, quote or line break.
std::string csv_text(const std::string& text);
// An output file opened for writing (InputError naming it if it cannot be),
// and closed with a check that every write succeeded (ComputationError).
std::ofstream open_output(const std::filesystem::path& path);
void close_output(std::ofstream& file, const std::filesystem::path& path);

struct BodyRow {
  double time = 0;
  std::string body;
  Vec3<double> com_w = Vec3<double>::Zero();
  Mat3<double> R_w_b = Mat3<double>::Identity();
  Vec3<double> v_w = Vec3<double>::Zero();
  Vec3<double> omega_w = Vec3<double>::Zero();
  double kinetic_energy = 0;
  double potential_energy = 0;
};

// A row with its energies, for a body of mass m and inertia I_com (body axes)
// under gravity g_w.
BodyRow body_row(double time, const std::string& body, double mass, const Mat3<double>& I_com,
                 const Vec3<double>& gravity_w, const Mat3<double>& R_w_b, const Vec3<double>& com_w,
                 const Vec3<double>& v_w, const Vec3<double>& omega_w);

// ComputationError naming the body, the first quantity that is not finite
// (an overflow: a kinetic energy beyond 1.8e308 J from a finite state) and
// the time: the check a row passes before it is kept, so that no file
// receives inf or NaN.
void require_finite(const BodyRow& row);

void write_bodies_csv(const std::filesystem::path& path, const std::vector<BodyRow>& rows);

// summary.json's identification of a run, added to `summary`: "scene" (the
// file as given, its absolute path, the scene's name) and "contactref"
// (version, git revision, build type).
void add_run_identity(nlohmann::ordered_json& summary, const std::string& scene_file, const std::string& scene_name);

// summary.json's entry of a body at the end of a run: its name, whether it
// is fixed, and for a free body its mass (kg) and final position (m),
// velocity (m/s) and angular velocity (rad/s), world axes.
nlohmann::ordered_json final_body_json(const std::string& name, bool fixed, double mass, const Vec3<double>& x_w,
                                       const Vec3<double>& v_w, const Vec3<double>& omega_w);

// Writes a JSON document (summary.json), indented by 2, with a final newline.
void write_json(const std::filesystem::path& path, const nlohmann::ordered_json& document);

}  // namespace contactref::cli
