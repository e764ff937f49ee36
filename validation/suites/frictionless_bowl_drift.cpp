#include "validation/suites/frictionless_bowl_drift.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <fstream>

#include "reference/dynamics/maximal_plane_contact.hpp"
#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/mass_properties.hpp"
#include "validation/build_info.hpp"

namespace contactref::validation {
namespace {

namespace dy = contactref::dynamics;
namespace su = contactref::surfaces;

constexpr double kScale = 0.0872;     // m per mesh unit ([P] Section 4.2: 13 cm across)
constexpr double kDensity = 1000.0;   // kg/m^3
constexpr double kGravity = 9.81;     // m/s^2

// The scene: the bowl with its body frame at its centre of mass, and the App.
// B.1 floor, a flat bicubic net on [-1.5, 1.5]^2 at z = 0 ((x, y) = (-1.5 + 3 s,
// -1.5 + 3 t), normal +z).
struct BowlScene {
  std::unique_ptr<su::LoopSurface<double>> bowl;
  su::PatchComplex<double> floor;
  double mass = 0;
  Mat3<double> inertia;
  double size = 0;
  dy::ContactState<double> initial;

  dy::ContactSystem<double> system() const {
    return {mass, inertia, &bowl->complex(), &floor, Mat4<double>::Identity(), Vec3<double>(0, 0, -kGravity)};
  }
};

BowlScene make_scene() {
  BowlScene scene;
  su::TriangleMesh mesh =
      su::read_triangle_mesh(std::filesystem::path(build_info::source_dir) / "validation/data/meshes/bowl_b2.obj");
  for (auto& x : mesh.vertices) x *= kScale;
  const su::MassProperties<double> properties = su::mass_properties(su::LoopSurface<double>(mesh, "bowl"), kDensity);
  Vec3<double> lo = Vec3<double>::Constant(1e300), hi = -lo;
  for (auto& x : mesh.vertices) {
    x -= properties.centre_of_mass;
    lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
  }
  scene.bowl = std::make_unique<su::LoopSurface<double>>(mesh, "bowl");
  scene.mass = properties.mass;
  scene.inertia = properties.inertia_com;
  scene.size = (hi - lo).maxCoeff();
  std::array<Vec3<double>, 16> control;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) control[std::size_t(4 * i + j)] = Vec3<double>(-1.5 + i, -1.5 + j, 0);
  scene.floor.patches.push_back(std::make_unique<su::BezierPatch<double>>(control));

  // Tilted (the contact point is off the centre of the base face 0, a face
  // with three extraordinary vertices), rolling (s') and spinning (psi'), with
  // the floor velocity (u', v') chosen so that the centre of mass starts with
  // no horizontal velocity: it must then stay on its vertical line.
  scene.initial.q << 0.12, 0.2, 0.5, 0.5, 0;
  const double s_dot = 2.0, psi_dot = 3.0;  // 1/s, rad/s
  const kinematics::ContactKinematics<double> k = kinematics::contact_kinematics<double>(
      scene.bowl->patch(0), *scene.floor.patches[0], scene.initial.q, dy::Vec5<double>::Zero());
  // v_com_w = R_w_1 (H_1 q')_linear (world = frame 2 here).
  const Eigen::Matrix<double, 3, 5> V = k.E_2_1.block<3, 3>(0, 0) * k.H_1.bottomRows<3>();
  Eigen::Matrix2d A;
  A << V(0, 2), V(0, 3), V(1, 2), V(1, 3);
  const Eigen::Vector2d rhs = -(V.block<2, 1>(0, 0) * s_dot + V.block<2, 1>(0, 4) * psi_dot);
  const Eigen::Vector2d uv_dot = A.partialPivLu().solve(rhs);
  scene.initial.qdot << s_dot, 0, uv_dot(0), uv_dot(1), psi_dot;
  return scene;
}

// The baseline from the same initial state, at fixed step h (shortened at
// smooth-piece boundaries), sampled every 10 ms.
void run_baseline(const BowlScene& scene, const dy::SimulationSample<double>& first, double duration, double h,
                  BowlDriftRun& run) {
  const dy::ContactSystem<double> system = scene.system();
  const Mat4<double> E_w_1 = kinematics::contact_kinematics<double>(scene.bowl->patch(first.state.patch1),
                                                                    *scene.floor.patches[0], first.state.q,
                                                                    first.state.qdot).E_2_1;
  const dy::SupportPoint<double> support{first.state.patch1, first.state.q.head<2>(),
                                         scene.bowl->patch(first.state.patch1).evaluate(first.state.q(0), first.state.q(1)).c()};
  const dy::MaximalPlaneContact<double> baseline(scene.mass, scene.inertia, scene.bowl->complex(), system.gravity_w,
                                                 support);
  dy::MaximalPlaneContact<double>::State y = dy::maximal_state_from_pose<double>(E_w_1, first.phi);
  const double e0 = baseline.energy(y);
  double t = 0, next_sample = 0;
  try {
    while (t < duration) {
      if (t >= next_sample - 1e-12) {
        const double gap = baseline.gap(y), rate = baseline.gap_rate(y);
        const double energy = std::abs(baseline.energy(y) - e0) / std::abs(e0);
        run.baseline.push_back({t, gap, rate, energy});
        run.baseline_max_gap = std::max(run.baseline_max_gap, std::abs(gap));
        run.baseline_max_relative_energy_error = std::max(run.baseline_max_relative_energy_error, energy);
        next_sample += 0.01;
      }
      const dy::MaximalStep<double> step = baseline.advance(y, std::min(h, duration - t));
      y = step.y;
      t += step.h;
    }
  } catch (const ComputationError& error) {
    run.baseline_failure = fmt::format("at t = {:.4f} s: {}", t, error.what());
  }
}

BowlDriftRun run_once(const BowlScene& scene, double duration, double h_max) {
  BowlDriftRun run;
  run.h_max = h_max;
  run.h_min = h_max / 64;  // 1 ms at the paper's largest step
  dy::SimulationOptions<double> options;
  options.h_max = run.h_max;
  options.h_min = run.h_min;
  options.duration = duration;
  options.output_interval = 0.01;
  run.result = dy::simulate(scene.system(), scene.initial, options);
  const dy::SimulationSample<double>& first = run.result.samples.front();
  // The potential's zero at the floor: E0 is then the energy above the
  // resting state's order of magnitude, not an arbitrary offset.
  for (const dy::SimulationSample<double>& sample : run.result.samples) {
    run.max_horizontal_drift = std::max(run.max_horizontal_drift, (sample.com_w - first.com_w).head<2>().norm());
    run.max_relative_energy_error =
        std::max(run.max_relative_energy_error, std::abs(sample.energy - first.energy) / std::abs(first.energy));
  }
  run.max_gap = run.result.statistics.max_gap;
  run.max_normal_misalignment = run.result.statistics.max_normal_misalignment;
  for (const auto& event : run.result.events) {
    if (event.kind != dy::EventKind::kTransition) continue;
    (scene.bowl->kind(event.to_patch) == su::LoopPatchKind::kSplit ? run.transitions_to_split
                                                                   : run.transitions_to_extraordinary)++;
  }
  run_baseline(scene, first, duration, h_max, run);
  return run;
}

}  // namespace

BowlDriftStudy run_bowl_drift_study(bool quick) {
  const BowlScene scene = make_scene();
  BowlDriftStudy study;
  study.mass = scene.mass;
  study.bowl_size = scene.size;
  study.duration = quick ? 2.0 : 12.0;
  const std::vector<double> steps = quick ? std::vector<double>{0.001, 0.004} : std::vector<double>{0.001, 0.004, 0.016, 0.064};
  for (double h : steps) study.runs.push_back(run_once(scene, study.duration, h));
  return study;
}

SuiteResult frictionless_bowl_drift_suite(const SuiteOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const BowlDriftStudy study = run_bowl_drift_study(options.quick);
  SuiteResult result;
  result.name = "frictionless-bowl-drift";
  result.add({"bowl_mass_kg", study.mass, 0.81, "information: [P] 'a little less than 1 kg'; notes 7.1: 0.81 kg", true});
  result.add({"duration_s", study.duration, 12.0, "information: thesis Fig. 6.2 runs to 12 (s)", true});
  std::vector<double> h, drift, energy;
  bool all_completed = true;
  double worst_gap = 0, worst_misalignment = 0;
  for (const BowlDriftRun& run : study.runs) {
    const std::string at = fmt::format("[h_max={:g}ms]", run.h_max * 1e3);
    const bool completed = run.result.status == dy::SimulationStatus::kCompleted;
    all_completed = all_completed && completed;
    result.add({"completed" + at, completed ? 1.0 : 0.0, std::nullopt,
                completed ? "the run reached the end" : "the run reached the end: " + run.result.message, completed});
    result.add({"horizontal_drift_m" + at, run.max_horizontal_drift, std::nullopt,
                "information: max_t |com_xy(t) - com_xy(0)|; thesis Fig. 6.2: visible drift after the first S-patch "
                "transition, not quantified",
                true});
    result.add({"relative_energy_error" + at, run.max_relative_energy_error, std::nullopt,
                "information: max_t |E - E0| / |E0|", true});
    result.add({"transitions" + at, double(run.result.statistics.transitions), std::nullopt,
                fmt::format("information: {} into faces with one extraordinary vertex, {} into split faces (2-3)",
                            run.transitions_to_extraordinary, run.transitions_to_split),
                true});
    result.add({"smooth_piece_crossings" + at, double(run.result.statistics.smooth_piece_crossings), std::nullopt,
                "information: located crossings between the polynomial pieces of split faces and Stam's rings", true});
    result.add({"baseline_max_gap_m" + at, run.baseline_max_gap, std::nullopt,
                run.baseline_failure.empty() ? "information: maximal coordinates, acceleration-level constraint, no "
                                               "stabilisation (Kry & Pai Section 1)"
                                             : "information: the baseline stopped " + run.baseline_failure,
                true});
    h.push_back(run.h_max);
    drift.push_back(run.max_horizontal_drift);
    energy.push_back(run.max_relative_energy_error);
    worst_gap = std::max(worst_gap, run.max_gap);
    worst_misalignment = std::max(worst_misalignment, run.max_normal_misalignment);
  }
  for (std::size_t k = 1; k < h.size(); ++k) {
    const std::vector<double> pair_h = {h[k - 1], h[k]};
    result.add({fmt::format("horizontal_drift_order[{:g}-{:g}ms]", h[k - 1] * 1e3, h[k] * 1e3),
                observed_order(pair_h, {drift[k - 1], drift[k]}), 4.0, "information: between neighbouring steps", true});
    result.add({fmt::format("energy_error_order[{:g}-{:g}ms]", h[k - 1] * 1e3, h[k] * 1e3),
                observed_order(pair_h, {energy[k - 1], energy[k]}), 4.0, "information: between neighbouring steps", true});
  }
  const double drift_order = observed_order(h, drift), energy_order = observed_order(h, energy);
  result.add({"horizontal_drift_order", drift_order, 4.0, "order >= 3.5 (RK4; least squares over all steps)",
              all_completed && drift_order >= 3.5});
  result.add({"energy_error_order", energy_order, 4.0, "order >= 3.5 (RK4; least squares over all steps)",
              all_completed && energy_order >= 3.5});
  result.add({"max_gap_m", worst_gap, 0.0, "< 1e-12 m: the coordinates parameterise the constraint", worst_gap < 1e-12});
  result.add({"max_normal_misalignment_rad", worst_misalignment, 0.0, "< 1e-12 rad", worst_misalignment < 1e-12});
  // At the finest step: invisible at the bowl's scale (1e-6 of its size) and
  // far below its potential energy scale.
  const BowlDriftRun& finest = study.runs.front();
  const double drift_bound = 1e-6 * study.bowl_size;
  result.add({fmt::format("finest_horizontal_drift_m[h_max={:g}ms]", finest.h_max * 1e3), finest.max_horizontal_drift,
              std::nullopt, fmt::format("< 1e-6 x bowl size = {:.3g} m", drift_bound),
              finest.max_horizontal_drift < drift_bound});
  result.add({fmt::format("finest_relative_energy_error[h_max={:g}ms]", finest.h_max * 1e3),
              finest.max_relative_energy_error, std::nullopt, "< 1e-8", finest.max_relative_energy_error < 1e-8});
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.figures = figure_files_of(result.name);
  return result;
}

void write_fig_6_2_data(const std::filesystem::path& dir) {
  const BowlDriftStudy study = run_bowl_drift_study(false);
  const BowlDriftRun& finest = study.runs.front();
  std::ofstream com(dir / "com.csv");
  com << "t,com_x,com_y,com_z,patch1\n";
  for (const auto& sample : finest.result.samples)
    com << fmt::format("{:.17g},{:.17g},{:.17g},{:.17g},{}\n", sample.state.time, sample.com_w.x(), sample.com_w.y(),
                       sample.com_w.z(), sample.state.patch1);
  std::ofstream transitions(dir / "transitions.csv");
  transitions << "t,from_patch,to_patch\n";
  for (const auto& event : finest.result.events)
    if (event.kind == dy::EventKind::kTransition)
      transitions << fmt::format("{:.17g},{},{}\n", event.time, event.from_patch, event.to_patch);
  if (!com || !transitions) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

void write_bowl_drift_data(const std::filesystem::path& dir) {
  const BowlDriftStudy study = run_bowl_drift_study(false);
  std::ofstream errors(dir / "errors.csv"), convergence(dir / "convergence.csv"), baseline(dir / "baseline.csv");
  errors << "h,t,energy_error,horizontal_drift,gap\n";
  convergence << "h,horizontal_drift,energy_error,gap,baseline_gap\n";
  baseline << "h,t,baseline_gap,baseline_gap_rate,baseline_energy_error\n";
  for (const BowlDriftRun& run : study.runs) {
    const dy::SimulationSample<double>& first = run.result.samples.front();
    for (const auto& sample : run.result.samples)
      errors << fmt::format("{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", run.h_max, sample.state.time,
                            std::abs(sample.energy - first.energy) / std::abs(first.energy),
                            (sample.com_w - first.com_w).head<2>().norm(), sample.gap);
    convergence << fmt::format("{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", run.h_max, run.max_horizontal_drift,
                               run.max_relative_energy_error, run.max_gap, run.baseline_max_gap);
    for (const auto& row : run.baseline)
      baseline << fmt::format("{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", run.h_max, row[0], row[1], row[2], row[3]);
  }
  if (!errors || !convergence || !baseline) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

}  // namespace contactref::validation
