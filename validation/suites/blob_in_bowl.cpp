#include "validation/suites/blob_in_bowl.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <numbers>

#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/mass_properties.hpp"
#include "validation/build_info.hpp"
#include "validation/suites/simulation_rows.hpp"
#include "validation/fixtures/blob_in_bowl.hpp"

namespace contactref::validation {
namespace {

namespace dy = contactref::dynamics;
namespace su = contactref::surfaces;

constexpr double kMarbleRadius = 0.02;  // m
constexpr double kLumpiness = 0.02;
constexpr double kGlassDensity = 2500;  // kg/m^3
constexpr double kBlobGravity = 9.81;       // m/s^2

struct BlobScene {
  fixtures::DishShape shape;
  std::unique_ptr<su::LoopSurface<double>> marble, dish;
  double mass = 0;
  Mat3<double> inertia;
  dy::ContactState<double> initial;

  dy::ContactSystem<double> system() const {
    dy::FrictionModel<double> friction;
    friction.law.mu = 0.07;
    friction.mu_static = 0.07;
    friction.slip_threshold = 0.005;  // Kry & Pai Section 3.4.2: 2.5 to 5 mm/s
    return {mass, inertia, &marble->complex(), &dish->complex(), Mat4<double>::Identity(),
            Vec3<double>(0, 0, -kBlobGravity), friction};
  }
};

BlobScene make_blob_scene() {
  BlobScene scene;
  const su::TriangleMesh icosphere =
      su::read_triangle_mesh(std::filesystem::path(build_info::source_dir) / "validation/fixtures/meshes/icosphere1.obj");
  su::TriangleMesh marble = fixtures::lumpy_marble_mesh(icosphere, kMarbleRadius, kLumpiness);
  const su::MassProperties<double> properties =
      su::mass_properties(su::LoopSurface<double>(marble, "lumpy marble"), kGlassDensity);
  for (auto& x : marble.vertices) x -= properties.centre_of_mass;  // body frame at the centre of mass
  scene.marble = std::make_unique<su::LoopSurface<double>>(marble, "lumpy marble");
  scene.mass = properties.mass;
  scene.inertia = properties.inertia_com;
  scene.dish = std::make_unique<su::LoopSurface<double>>(fixtures::dish_mesh(scene.shape), "dish");

  // Released at rest on the dish's top cell (13, 8), about 0.106 m out on
  // the x axis, where the slope (0.32) is more than mu = 0.05 can hold
  // rolling: it slides down. The marble touches at the point of its equator
  // about the axis a through its extraordinary vertex 0, and is turned about
  // the normal (psi) so that a lies along the world's y: it then rolls in the
  // x-z plane about a, and its contact runs along that equator, 26.6 degrees
  // (9 mm) from the nearest extraordinary vertices.
  const int dish_face = fixtures::dish_top_face(scene.shape, 13, 8);
  const Vec3<double> axis = scene.marble->limit_position(0).normalized();
  const Vec3<double> down = axis.cross(Vec3<double>(0, 0, 1)).normalized();
  double best = -1;
  for (int face = 0; face < scene.marble->face_count(); ++face)
    for (int i = 1; i < 16; ++i)
      for (int j = 1; i + j < 16; ++j) {  // inside the face (its corners may be extraordinary)
        const Vec3<double> c = scene.marble->patch(face).evaluate(i / 16.0, j / 16.0).c();
        if (c.normalized().dot(down) > best)
          best = c.normalized().dot(down), scene.initial.patch1 = face, scene.initial.q.head<2>() << i / 16.0, j / 16.0;
      }
  scene.initial.patch2 = dish_face;
  scene.initial.q.segment<3>(2) << 0.5, 1e-3, 0;
  scene.initial.qdot.setZero();
  // psi: the root of the axis's world x component (the axis then lies
  // across the path), by bisection from a scan.
  const auto axis_x = [&](double psi) {
    kinematics::Vec5<double> q = scene.initial.q;
    q(4) = psi;
    const Mat4<double> E_w_1 = kinematics::contact_configuration<double>(scene.marble->patch(scene.initial.patch1),
                                                                         scene.dish->patch(dish_face), q).E_2_1;
    return (E_w_1.block<3, 3>(0, 0) * axis).x();
  };
  double lo = 0, hi = 0;
  for (int k = 0; k < 64 && hi == 0; ++k) {
    const double a = -std::numbers::pi + k * std::numbers::pi / 32, b = a + std::numbers::pi / 32;
    if ((axis_x(a) < 0) != (axis_x(b) < 0)) lo = a, hi = b;
  }
  for (int k = 0; k < 60; ++k) {
    const double mid = (lo + hi) / 2;
    ((axis_x(lo) < 0) == (axis_x(mid) < 0) ? lo : hi) = mid;
  }
  scene.initial.q(4) = (lo + hi) / 2;
  return scene;
}

// The limit positions of a Loop surface's extraordinary vertices.
std::vector<Vec3<double>> extraordinary_points(const su::LoopSurface<double>& surface) {
  std::vector<int> seen;
  std::vector<Vec3<double>> points;
  for (int face = 0; face < surface.face_count(); ++face)
    for (const auto& [u, v] : {std::pair{0.0, 0.0}, std::pair{1.0, 0.0}, std::pair{0.0, 1.0}}) {
      const int vertex = surface.extraordinary_vertex_at(face, u, v);
      if (vertex < 0 || std::find(seen.begin(), seen.end(), vertex) != seen.end()) continue;
      seen.push_back(vertex);
      points.push_back(surface.limit_position(vertex));
    }
  return points;
}

double closest(const std::vector<Vec3<double>>& points, const Vec3<double>& x) {
  double best = std::numeric_limits<double>::infinity();
  for (const Vec3<double>& p : points) best = std::min(best, (p - x).norm());
  return best;
}

BlobRun run_once(const BlobScene& scene, double duration, double h_max) {
  BlobRun run;
  run.h_max = h_max;
  dy::SimulationOptions<double> options;
  options.h_max = h_max;
  options.h_min = 1e-5;
  options.duration = duration;
  options.output_interval = 0.01;
  run.result = dy::simulate(scene.system(), scene.initial, options);
  const std::vector<dy::SimulationSample<double>>& samples = run.result.samples;
  for (const dy::SimulationEvent<double>& event : run.result.events) {
    if (event.kind != dy::EventKind::kModeSwitch || event.time == 0) continue;
    if (run.rolling_from == 0 && event.to_mode == dy::ContactMode::kNoSlip) {
      run.rolling_from = event.time;
    } else if (run.rolling_from > 0 && run.rolling_until == 0) {
      run.rolling_until = event.time;
    }
    if (event.from_mode == dy::ContactMode::kNoSlip && event.to_mode == dy::ContactMode::kSliding && run.first_stick_break == 0)
      run.first_stick_break = event.time;
  }
  if (run.rolling_from > 0 && run.rolling_until == 0) run.rolling_until = samples.back().state.time;
  const std::vector<Vec3<double>> marble_evs = extraordinary_points(*scene.marble);
  const std::vector<Vec3<double>> dish_evs = extraordinary_points(*scene.dish);
  run.marble_ev_distance = run.dish_ev_distance = std::numeric_limits<double>::infinity();
  double rolling_energy = 0;
  bool rolling_started = false;
  for (std::size_t k = 0; k < samples.size(); ++k) {
    const dy::SimulationSample<double>& row = samples[k];
    const dy::ContactState<double>& x = row.state;
    run.marble_ev_distance =
        std::min(run.marble_ev_distance, closest(marble_evs, scene.marble->patch(x.patch1).evaluate(x.q(0), x.q(1)).c()));
    run.dish_ev_distance =
        std::min(run.dish_ev_distance, closest(dish_evs, scene.dish->patch(x.patch2).evaluate(x.q(2), x.q(3)).c()));
    if (k > 0 && x.mode == dy::ContactMode::kSliding && samples[k - 1].state.mode == dy::ContactMode::kSliding) {
      ++run.sliding_rows;
      if (!(row.energy < samples[k - 1].energy)) ++run.sliding_rises;
    }
    const bool rolling = x.mode == dy::ContactMode::kNoSlip && x.time >= run.rolling_from &&
                         x.time <= run.rolling_until && run.rolling_from > 0;
    if (rolling && !rolling_started) {
      rolling_started = true;
      rolling_energy = row.energy;
      run.centre_distance_at_roll = row.com_w.head<2>().norm();
    }
    if (rolling) run.rolling_energy_drift = std::max(run.rolling_energy_drift, std::abs(row.energy - rolling_energy));
    if (run.first_stick_break == 0 || x.time < run.first_stick_break)
      run.smooth_integrator_loss = row.energy - run.result.initial_energy - row.work - row.impulse_work;
  }
  const dy::SimulationSample<double>& last = samples.back();
  run.integrator_loss = last.energy - run.result.initial_energy - last.work - last.impulse_work;
  return run;
}

}  // namespace

BlobStudy run_blob_study(bool quick) {
  const BlobScene scene = make_blob_scene();
  BlobStudy study;
  study.marble_mass = scene.mass;
  study.duration = quick ? 1.5 : 5.0;
  const std::vector<double> steps = quick ? std::vector<double>{0.002, 0.004} : std::vector<double>{0.001, 0.002, 0.004};
  for (double h : steps) study.runs.push_back(run_once(scene, study.duration, h));
  return study;
}

namespace {

void add_run_rows(SuiteResult& result, const BlobRun& run) {
  const std::string at = fmt::format("[h_max={:g}ms]", run.h_max * 1e3);
  const bool completed = run.result.status == dy::SimulationStatus::kCompleted;
  result.add(completed_check(at, run.result));
  result.add(check("rolling_from_s" + at, run.rolling_from, std::nullopt,
                   "> 0: the marble released on a slope too steep to roll on starts sliding, then rolls (sliding "
                   "-> no-slip below 5 mm/s; thesis Fig. 6.3: 'slides almost to the center of the plate before it "
                   "starts to roll')",
                   completed && run.rolling_from > 0 && run.result.samples.front().state.mode == dy::ContactMode::kSliding));
  result.add(check("sliding_rows_without_energy_fall" + at, double(run.sliding_rises), 0.0,
                   fmt::format("== 0 of {} pairs of consecutive sliding rows: friction takes energy out at a rate mu "
                               "f_n |v| >= 0.07 m g 5 mm/s (2e-6 J per 10 ms row), orders of magnitude above RK4's "
                               "error per row",
                               run.sliding_rows),
                   completed && run.sliding_rows > 0 && run.sliding_rises == 0));
  result.add(information("centre_distance_at_roll_m" + at, run.centre_distance_at_roll, std::nullopt,
                         "the centre of mass's horizontal distance from the dish's axis when rolling starts (it started "
                         "about 0.1 m out)"));
  result.add(information("rolling_energy_drift_J" + at, run.rolling_energy_drift, std::nullopt,
                         fmt::format("max |E - E(start of rolling)| over the no-slip rows from {:.3f} to {:.3f} s",
                                     run.rolling_from, run.rolling_until)));
  result.add(information("integrator_loss_J" + at, run.integrator_loss, std::nullopt,
                         fmt::format("E_end - E0 - law's work ({:.6g} J) - impulses' ({:.3g} J); {:.3g} J before the "
                                     "first stick broke at {:.3f} s",
                                     run.result.samples.back().work, run.result.samples.back().impulse_work,
                                     run.smooth_integrator_loss, run.first_stick_break)));
  result.add(information("transitions" + at, double(run.result.statistics.transitions), std::nullopt,
                         "patch transitions on the marble and the dish"));
  result.add(information("closest_extraordinary_vertex_m" + at, std::min(run.marble_ev_distance, run.dish_ev_distance),
                         std::nullopt,
                         fmt::format("at the output rows: marble {:.4f} m, dish {:.4f} m (the dish's path stays in its "
                                     "regular region; the marble's crosses Stam and split patches)",
                                     run.marble_ev_distance, run.dish_ev_distance)));
}

// Rolling conserves energy and the balance closes: both errors shrink at
// RK4's order over the sweep.
void add_order_rows(SuiteResult& result, const BlobStudy& study) {
  std::vector<double> h, drift, loss;
  bool completed = true;
  for (const BlobRun& run : study.runs) {
    completed = completed && run.result.status == dy::SimulationStatus::kCompleted && run.rolling_from > 0;
    h.push_back(run.h_max), drift.push_back(run.rolling_energy_drift), loss.push_back(std::abs(run.smooth_integrator_loss));
  }
  const std::string rule =
      fmt::format("order >= 3.5 (RK4's 4 less half an order for pre-asymptotic effects; least squares over {} steps)",
                  h.size());
  const double drift_order = observed_order(h, drift);
  result.add(check("rolling_energy_drift_order", drift_order, 4.0,
                   rule + ": rolling without slip conserves energy, so what drifts is the integrator's", 
                   completed && drift_order >= 3.5));
  const double loss_order = observed_order(h, loss);
  result.add(check("integrator_loss_order", loss_order, 4.0,
                   rule + " of |E - E0 - law's work - impulses'| at the last row before the first stick breaks (the "
                          "first slide and roll): the energy balance closes, what friction dissipates is the law's. "
                          "Not beyond: where a stick breaks the slip starts from zero and its direction, v / |v|, "
                          "swings while |v| is tiny, so the right-hand side is not smooth there and RK4 loses order "
                          "(the total loss is information)",
                   completed && loss_order >= 3.5));
}

}  // namespace

SuiteResult blob_in_bowl_suite(const SuiteOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const BlobStudy study = run_blob_study(options.quick);
  SuiteResult result;
  result.name = "blob-in-bowl";
  result.add(information("marble_mass_kg", study.marble_mass, std::nullopt,
                         fmt::format("glass, {} kg/m^3, radius {} m before the lumps (the thesis gives none)",
                                     kGlassDensity, kMarbleRadius)));
  for (const BlobRun& run : study.runs) add_run_rows(result, run);
  add_order_rows(result, study);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.figures = figure_files_of(result.name);
  return result;
}

void write_blob_in_bowl_data(const std::filesystem::path& dir) {
  const BlobStudy study = run_blob_study(false);
  const BlobRun& finest = study.runs.front();
  std::ofstream path(dir / "path.csv");
  path << "t,com_x,com_y,com_z,mode,energy,work,slip_speed\n";
  for (const dy::SimulationSample<double>& row : finest.result.samples)
    path << fmt::format("{:.17g},{:.17g},{:.17g},{:.17g},{},{:.17g},{:.17g},{:.17g}\n", row.state.time, row.com_w.x(),
                        row.com_w.y(), row.com_w.z(), dy::to_string(row.state.mode), row.energy, row.work,
                        row.slip_speed);
  const fixtures::DishShape shape;
  std::ofstream rim(dir / "rim.csv");
  rim << "x,y\n";
  for (const auto& [x, y] : {std::pair{-1, -1}, std::pair{1, -1}, std::pair{1, 1}, std::pair{-1, 1}, std::pair{-1, -1}})
    rim << fmt::format("{},{}\n", x * shape.half_width, y * shape.half_width);
  if (!path || !rim) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

}  // namespace contactref::validation
