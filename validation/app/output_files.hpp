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
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/scalar.hpp"
#include "reference/spatial/rigid_body.hpp"

namespace contactref::cli {

// A CSV field: quoted when it holds a comma, quote or line break.
std::string csv_text(const std::string& text);
// An output file opened for writing (InputError naming it if it cannot be),
// and closed with a check that every write succeeded (ComputationError).
std::ofstream open_output(const std::filesystem::path& path);
void close_output(std::ofstream& file, const std::filesystem::path& path);

// A CSV file written row by row while a run goes on (memory does not grow
// with the run): the header at once, each row as it comes. Numbers have 17
// significant digits (an exact round trip); a non-finite one is never
// written: the row is refused with a ComputationError naming the file, the
// column and the row's time, and the file ends at the row before. The
// buffer goes to disk every few seconds (and at close), so that a long run's
// rows can be read while it runs.
class CsvFile {
 public:
  CsvFile(std::filesystem::path path, const std::string& header);
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;
  // Starts a row at `time` (its first cell, column "time").
  void begin(double time);
  void number(double value, const char* column);
  void integer(long value);
  void text(const std::string& value);  // quoted by csv_text when needed
  void end();                           // writes the row
  void close();                         // ComputationError when a write failed
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::ofstream file_;
  std::string row_;
  double time_ = 0;
  std::chrono::steady_clock::time_point flushed_;
};

struct BodyRow {
  double time = 0;
  std::string body;
  spatial::RigidBodyState<double> state;  // the one rigid-body state (spatial/rigid_body.hpp)
  double kinetic_energy = 0;
  double potential_energy = 0;
};

// A row with its energies (spatial::MassProperties) under gravity g_w.
// ComputationError naming the body, the first quantity that is not finite
// (an overflow: a kinetic energy beyond 1.8e308 J from a finite state) and
// the time: the check a row passes before it is kept, so that no file
// receives inf or NaN.
BodyRow body_row(double time, const std::string& body, const spatial::MassProperties<double>& mass,
                 const Vec3<double>& gravity_w, const spatial::RigidBodyState<double>& state);

// bodies.csv, row by row (the columns in the header comment).
class BodiesCsv {
 public:
  explicit BodiesCsv(const std::filesystem::path& path);
  void write(const BodyRow& row);
  void close() { file_.close(); }

 private:
  CsvFile file_;
};

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

// Writes timings.json: the members of `timings` (wall and CPU times, which
// differ from run to run) after a note that says so. They are kept out of
// every other file a command writes, which is the same byte for byte for the
// same command on the same build (README, "Reproducible outputs").
void write_timings(const std::filesystem::path& path, const nlohmann::ordered_json& timings);

}  // namespace contactref::cli
