#pragma once
// The smooth model's output files, written while the run goes on
// (dynamics::SimulationSinks): bodies.csv and trajectory.csv from the
// samples, events.csv from the events (their columns: simulate_command.cpp),
// with the energy balance and the centre-of-mass drift accumulated row by
// row for summary.json.
#include <filesystem>
#include <optional>

#include "reference/dynamics/contact_simulation.hpp"
#include "validation/app/output_files.hpp"
#include "validation/scenes/scene.hpp"

namespace contactref::cli {

// The energy balance and the centre-of-mass drift against the initial state
// as given (its energy before the start's plastic impulse). The balance
// E - E0 - work - impulse_work is what the integrator lost: the energy's
// change itself includes what friction and the impulses took out.
struct Drift {
  double energy0 = 0, energy_final = 0, max_energy_change = 0;
  double work = 0, impulse_work = 0;  // J: the law's and the impulses' at the last row
  double max_balance = 0;             // J: max |E - E0 - work - impulse_work| over the rows
  std::optional<double> relative_max, relative_final, relative_balance;  // relative to |E(0)|; none when E(0) = 0
  Vec3<double> com0 = Vec3<double>::Zero(), com_final = Vec3<double>::Zero();
  double max_horizontal = 0, final_horizontal = 0;  // perpendicular to gravity (all of it when g = 0)
};

// bodies.csv, trajectory.csv and contacts.csv, a row each per sample.
// contacts.csv (for viewers, issue 33 item 1): time, the contact point on
// body 2 (px, py, pz), body 2's outward unit normal there, towards body 1
// (nx, ny, nz), the contact frame's first tangent, body 2's c_u made unit
// (tx, ty, tz; the second is n x t), all in the world, and the normal force
// (N); in flight the point, normal and tangent are empty and the force 0.
class SmoothSampleFiles final : public spatial::RowSink<dynamics::SimulationSample<double>> {
 public:
  SmoothSampleFiles(const std::filesystem::path& out, const scenes::Scene& scene);
  void write(const dynamics::SimulationSample<double>& row) override;
  // Closes the files (ComputationError when a write failed) and returns the
  // drift against energy0, the initial state's energy as given
  // (SimulationResult::initial_energy), and the first row's centre of mass.
  Drift close(double energy0);

 private:
  void write_contact(const dynamics::SimulationSample<double>& row);
  const scenes::Scene& scene_;
  BodiesCsv bodies_;
  CsvFile trajectory_, contacts_;
  Mat4<double> E_w_2_;
  Drift drift_;
  Vec3<double> down_;
  bool first_ = true;
  // The extremes over the rows of E and of E - work - impulse_work (J).
  double energy_min_ = 0, energy_max_ = 0, kept_min_ = 0, kept_max_ = 0;
};

// events.csv.
class SmoothEventFile final : public spatial::RowSink<dynamics::SimulationEvent<double>> {
 public:
  explicit SmoothEventFile(const std::filesystem::path& out);
  void write(const dynamics::SimulationEvent<double>& event) override;
  void close() { file_.close(); }

 private:
  CsvFile file_;
};

}  // namespace contactref::cli
