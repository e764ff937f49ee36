#include "validation/suites/octagon_convergence.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "reference/volume_contact/volume_world.hpp"
#include "validation/fixtures/bumpy_cube.hpp"
#include "validation/fixtures/volume_contact_scenes.hpp"
#include "validation/oracles/mujoco_volume_scenes.hpp"

namespace contactref::validation {
namespace {

namespace vc = contactref::volume_contact;
using fixtures::VolumeContactScene;

constexpr double kTolerance = 1e-15;  // Section 6.1.8: "the stopping criterion was set at 1e-15"
constexpr double kTargetDepth = 1e-5;  // m: the interpenetration post-stabilisation keeps, over a body's footprint

const vc::ContactModel kModels[] = {vc::ContactModel::kVolume6d, vc::ContactModel::kPointContact};
std::string tag(vc::ContactModel model) { return model == vc::ContactModel::kVolume6d ? "6d" : "point"; }

// The options both models share. The target volume keeps kTargetDepth over
// the smallest footprint in the scene (`area`, m^2).
vc::WorldOptions world_options(vc::ContactModel model, double h, const VolumeContactScene& scene, double area,
                               bool warm_start = true) {
  vc::WorldOptions o;
  o.model = model;
  o.time_step = h;
  o.gravity = scene.gravity_w;
  o.target_volume = kTargetDepth * area;
  o.touch_tolerance = 1e-3;  // m: 100 times the target depth, below half the shortest edge (5 cm)
  o.pgs.tolerance = kTolerance;
  o.pgs.max_iterations = 100000;
  o.warm_start = warm_start;
  return o;
}

const double kOctagonArea = 2 * std::sqrt(2.0) * 0.1 * 0.1;  // the regular octagon of circumradius 0.1 m
const double kCubeArea = 0.1 * 0.1, kBrickOverlap = 0.1 * 0.1;  // a cube's face; half a brick's

// The scene after `steps` steps of the 6D model (h = 10 ms): resting contact.
std::vector<vc::RigidBody> settled(const VolumeContactScene& scene, double area, int steps) {
  vc::VolumeWorld world(fixtures::volume_world_bodies(scene), world_options(vc::ContactModel::kVolume6d, 0.01, scene, area));
  for (int k = 0; k < steps; ++k) world.step();
  return world.bodies();
}

// One step of each model from the same state, from zero impulses.
struct ColdSolve {
  vc::StepReport report;
  Eigen::Vector3d impulse_w = Eigen::Vector3d::Zero();  // N s: on body 1 from the contacts
};

ColdSolve cold_solve(const std::vector<vc::RigidBody>& state, vc::ContactModel model, const VolumeContactScene& scene,
                     double area) {
  vc::VolumeWorld world(state, world_options(model, 0.01, scene, area, false));
  ColdSolve out;
  out.report = world.step();
  const vc::RigidBody &before = state[1], &after = world.bodies()[1];
  out.impulse_w = after.mass * (after.v_w - before.v_w - 0.01 * scene.gravity_w);
  return out;
}

struct Slide {
  double distance = 0, stop_time = -1, seconds = 0;
  double mean_iterations = 0;
};

Slide slide(vc::ContactModel model) {
  const VolumeContactScene scene = fixtures::sliding_octagon();
  const double h = 1e-3, v0 = scene.bodies[0].velocity_w.x(), stop = v0 / (scene.mu * -scene.gravity_w.z());
  vc::VolumeWorld world(fixtures::volume_world_bodies(scene), world_options(model, h, scene, kOctagonArea));
  Slide out;
  const auto start = std::chrono::steady_clock::now();
  int steps = 0;
  while (world.time() < stop + 0.05) {
    out.mean_iterations += world.step().pgs.iterations;
    ++steps;
    if (out.stop_time < 0 && world.bodies()[1].v_w.norm() < 1e-9) out.stop_time = world.time();
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.mean_iterations /= steps;
  out.distance = world.bodies()[1].x_w.x() - scene.bodies[0].com_w.x();
  return out;
}

void add_step_times(vc::StepTimes& sum, const vc::StepTimes& t, int steps) {
  sum.detection += t.detection / steps;
  sum.stabilisation += t.stabilisation / steps;
  sum.assembly += t.assembly / steps;
  sum.solve += t.solve / steps;
}

// The mean times per phase over `steps` steps.
vc::StepTimes mean_times(vc::VolumeWorld& world, int steps) {
  vc::StepTimes mean;
  for (int k = 0; k < steps; ++k) add_step_times(mean, world.step().times, steps);
  return mean;
}

// Table 2: `steps` steps of 10 ms with warm starting.
struct Statistics {
  double iterations_mean = 0, iterations_deviation = 0, residual_mean = 0, residual_deviation = 0;
  int unconverged = 0, contacts = 0, constraints = 0;
  double tilt = 0, sink = 0;        // rad, m: the largest over the bodies at the end
  vc::StepTimes times;              // s per step, averaged
};

Statistics statistics(const VolumeContactScene& scene, vc::ContactModel model, double area, int steps) {
  const std::vector<vc::RigidBody> start = fixtures::volume_world_bodies(scene);
  vc::VolumeWorld world(start, world_options(model, 0.01, scene, area));
  std::vector<double> iterations, residuals;
  Statistics s;
  for (int k = 0; k < steps; ++k) {
    const vc::StepReport r = world.step();
    iterations.push_back(r.pgs.iterations);
    residuals.push_back(r.pgs.residuals.back());
    s.unconverged += !r.pgs.converged;
    s.contacts = std::max(s.contacts, r.contacts);
    s.constraints = std::max(s.constraints, r.constraints);
    add_step_times(s.times, r.times, steps);
  }
  const auto mean_deviation = [](const std::vector<double>& x) {
    double mean = 0, square = 0;
    for (double v : x) mean += v / double(x.size());
    for (double v : x) square += (v - mean) * (v - mean) / double(x.size());
    return std::pair{mean, std::sqrt(square)};
  };
  std::tie(s.iterations_mean, s.iterations_deviation) = mean_deviation(iterations);
  std::tie(s.residual_mean, s.residual_deviation) = mean_deviation(residuals);
  for (std::size_t k = 1; k < start.size(); ++k) {
    const vc::RigidBody& b = world.bodies()[k];
    s.tilt = std::max(s.tilt, Eigen::AngleAxisd(b.q_w_b * start[k].q_w_b.conjugate()).angle());
    s.sink = std::max(s.sink, start[k].x_w.z() - b.x_w.z());
  }
  return s;
}

void add_times(SuiteResult& result, const std::string& at, const vc::StepTimes& t,
               const std::array<double, 4>& paper) {
  const std::string quoted = "ms per step, measured; the reference is the paper's Table 1 (i7, GTX Titan GPU)";
  result.add(timing(at + ".detection_ms", 1e3 * t.detection, paper[0], quoted));
  result.add(timing(at + ".stabilisation_ms", 1e3 * t.stabilisation, std::nullopt,
                         "ms per step: post-stabilisation (the point model's pairs' volumes are computed for it)"));
  result.add(timing(at + ".assembly_ms", 1e3 * t.assembly, paper[1], quoted));
  result.add(timing(at + ".factorisation_and_solve_ms", 1e3 * t.solve, paper[2] + paper[3],
                         "ms per step: the block PGS with its 6x6 factorisations; the reference is Table 1's "
                         "factorisation plus solve"));
}

// Table 1's bumpy cube (Fig. 13): a 197k-triangle bumpy cube landing on the
// plane with normal and tangential velocity, timed over `steps` steps in
// contact (6D: the half-space path).
vc::StepTimes bumpy_cube_times(vc::ContactModel model, int n, int steps) {
  const double half = 0.1, amplitude = 0.004;
  const robust_geometry::TriangleSolid solid = fixtures::bumpy_cube(n, half, amplitude, 15);
  std::vector<std::vector<int>> faces;
  for (const auto& t : solid.triangles) faces.push_back({t[0], t[1], t[2]});
  VolumeContactScene scene;
  scene.mu = 0.5;
  scene.gravity_w = Eigen::Vector3d(0, 0, -9.81);
  fixtures::VolumeContactBody cube;
  cube.surface_b = polygon_soup("bumpy cube", solid.vertices, faces);
  const vc::UniformSolid props = vc::uniform_solid(solid, 1.0);
  for (Eigen::Vector3d& x : cube.surface_b.vertices) x -= props.centroid;
  cube.mass = 1;
  cube.inertia_b = props.mass.I_com_b;
  cube.com_w = Eigen::Vector3d(0, 0, half + amplitude - 1e-4);  // its bumps already in the plane
  cube.velocity_w = Eigen::Vector3d(0.5, 0, -0.2);
  scene.bodies.push_back(cube);
  vc::VolumeWorld world(fixtures::volume_world_bodies(scene), world_options(model, 0.005, scene, 4 * half * half));
  return mean_times(world, steps);
}

// Table 1's sphere: the 528-triangle sphere rolling on the plane.
vc::StepTimes sphere_times(vc::ContactModel model, int steps) {
  VolumeContactScene scene;
  scene.mu = 0.5;
  scene.gravity_w = Eigen::Vector3d(0, 0, -9.81);
  fixtures::VolumeContactBody sphere;
  const double r = 0.1;
  sphere.surface_b = fixtures::triangulated_sphere(24, r);
  sphere.mass = 1;
  sphere.inertia_b = vc::uniform_solid(vc::BodyShape(sphere.surface_b).triangles, 1.0).mass.I_com_b;
  sphere.com_w = Eigen::Vector3d(0, 0, r);
  sphere.velocity_w = Eigen::Vector3d(1, 0, 0);
  sphere.omega_w = Eigen::Vector3d(0, 1 / r, 0);
  scene.bodies.push_back(sphere);
  vc::VolumeWorld world(fixtures::volume_world_bodies(scene), world_options(model, 0.005, scene, 1e-4));
  return mean_times(world, steps);
}

void add_mujoco(SuiteResult& result, const std::string& at, const VolumeContactScene& scene, double duration) {
  const oracles::MujocoSceneRun run =
      oracles::run_mujoco_scene(oracles::mujoco_scene(scene, oracles::MujocoIntegrator::kEuler, 1e-3, duration, 0.01));
  double contacts = 0, seconds = 0;
  for (const oracles::MujocoStepRecord& s : run.steps) {
    contacts += double(s.contacts) / double(run.steps.size());
    seconds += s.seconds / double(run.steps.size());
  }
  result.add(information(at + ".contacts_per_step", contacts, std::nullopt,
                         "MuJoCo " + run.version + " (condim 6, elliptic cone, Euler, 1 ms): mean contacts per step"));
  result.add(timing(at + ".microseconds_per_step", 1e6 * seconds, std::nullopt,
                         "MuJoCo: mean wall time of mj_step, microseconds"));
}

}  // namespace

SuiteResult octagon_convergence_suite(const SuiteOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  SuiteResult result;
  result.name = "octagon-convergence";

  // Fig. 16: one cold solve of each model from the same resting, sliding state.
  const VolumeContactScene octagon = fixtures::sliding_octagon();
  const std::vector<vc::RigidBody> sliding = settled(octagon, kOctagonArea, 3);
  const ColdSolve six = cold_solve(sliding, vc::ContactModel::kVolume6d, octagon, kOctagonArea);
  const ColdSolve point = cold_solve(sliding, vc::ContactModel::kPointContact, octagon, kOctagonArea);
  result.add(check("fig16.6d.iterations", six.report.pgs.iterations, 3.0,
                   "<= 3 sweeps to an update norm of 1e-15 (the paper: 3; the issue's target)",
                   six.report.pgs.converged && six.report.pgs.iterations <= 3));
  result.add(check("fig16.point.converged", point.report.pgs.converged ? 1.0 : 0.0, 1.0,
                   "== 1: the point contacts reach 1e-15 within 100,000 sweeps", point.report.pgs.converged));
  result.add(information("fig16.point.iterations", point.report.pgs.iterations, 118.0,
                         "sweeps to 1e-15; the reference is the paper's count for its 21 points"));
  result.add(check("fig16.fewer_sweeps_with_6d", point.report.pgs.iterations - six.report.pgs.iterations, std::nullopt,
                   "> 0: the 6D block needs fewer sweeps than the point contacts (the paper's claim)",
                   point.report.pgs.iterations > six.report.pgs.iterations));
  const double impulse_difference = (six.impulse_w - point.impulse_w).norm() / six.impulse_w.norm();
  result.add(check("fig16.same_impulse", impulse_difference, 0.0,
                   "<= 1e-12: both are the one Coulomb solution (normal impulse m |v_n|, friction mu of it against "
                   "the slip); a solve stopped at an update of 1e-15 N s is within about 1e-14 N s of it, against "
                   "the impulse's 0.03 N s",
                   impulse_difference <= 1e-12));
  result.add(information("fig16.point.contacts", point.report.contacts, 21.0,
                         "point contacts (region corners of find_contacts); the reference is the paper's count"));
  result.add(information("fig16.point.constraints", point.report.constraints, 63.0, "scalar constraints (3 per point)"));
  result.add(information("fig16.6d.constraints", six.report.constraints, 6.0, "scalar constraints (6 per pair)"));

  // Figs. 16-17: the slide to rest.
  const double g = -octagon.gravity_w.z(), v0 = octagon.bodies[0].velocity_w.x();
  const double distance = v0 * v0 / (2 * octagon.mu * g), time = v0 / (octagon.mu * g), h = 1e-3;
  for (const vc::ContactModel model : kModels) {
    const Slide s = slide(model);
    const std::string at = "slide." + tag(model) + ".";
    result.add(check(at + "distance", s.distance, distance,
                     "within v0 h = 2 mm of v0^2/(2 mu g): semi-implicit Euler travels v0 h/2 less, to O(h^2)",
                     std::abs(s.distance - distance) <= v0 * h));
    result.add(check(at + "stop_time", s.stop_time, time, "within 2 h of v0/(mu g)",
                     std::abs(s.stop_time - time) <= 2 * h));
    result.add(information(at + "mean_iterations", s.mean_iterations, std::nullopt, "sweeps per step (warm started)"));
    result.add(timing(at + "seconds", s.seconds, std::nullopt, "wall time of the slide (h = 1 ms)"));
  }

  // Table 2: the stack and the pyramid.
  const int steps = options.quick ? 20 : 100;
  const std::vector<std::tuple<std::string, VolumeContactScene, double, int>> table2{
      {"stack", fixtures::cube_stack(), kCubeArea, 5}, {"pyramid", fixtures::brick_pyramid(), kBrickOverlap, 4}};
  for (const auto& [name, scene, area, levels] : table2) {
    for (const vc::ContactModel model : kModels) {
      const Statistics s = statistics(scene, model, area, steps);
      const std::string at = "table2." + name + "." + tag(model) + ".";
      const bool stack = name == "stack";
      const double paper_iterations = stack ? (model == vc::ContactModel::kVolume6d ? 74 : 3087) : 0;
      const double paper_residual = stack ? (model == vc::ContactModel::kVolume6d ? 2.8e-16 : 3.5e-15) : 0;
      const auto paper = [&](double x) { return stack ? std::optional<double>(x) : std::nullopt; };
      result.add(information(at + "iterations_mean", s.iterations_mean, paper(paper_iterations),
                             fmt::format("sweeps per step over {} steps of 10 ms; the reference is Table 2's", steps)));
      result.add(information(at + "iterations_deviation", s.iterations_deviation,
                             paper(model == vc::ContactModel::kVolume6d ? 0.0 : 260.0), "their standard deviation"));
      result.add(information(at + "residual_mean", s.residual_mean, paper(paper_residual),
                             "the last sweep's update norm (N s), mean over the steps"));
      result.add(information(at + "residual_deviation", s.residual_deviation,
                             paper(model == vc::ContactModel::kVolume6d ? 0.3e-16 : 0.8e-15), "its standard deviation"));
      result.add(information(at + "unconverged_steps", s.unconverged, std::nullopt, "steps that hit 100,000 sweeps"));
      result.add(information(at + "contacts", s.contacts, std::nullopt, "the most joints in a step"));
      result.add(check(at + "tilt", s.tilt, 0.0,
                       "< 1e-3 rad: the bodies stay upright (a toppling stack has turned by 1e-2 rad within the "
                       "second; the 6D normal at a brick's end leans by the target depth over the patch's width, "
                       "1e-4 rad)",
                       s.tilt < 1e-3));
      // Each interface below a body keeps the target depth; the first step's
      // fall before contact (g h^2) is undone by the same stabilisation.
      const double allowed = levels * kTargetDepth * (1 + 1e-6);
      result.add(check(at + "sink", s.sink, allowed,
                       fmt::format("<= {} x the target depth ({} m): each interface below a body keeps it", levels,
                                   kTargetDepth),
                       s.sink <= allowed));
      if (!options.quick && stack) add_times(result, "table1.stack." + tag(model), s.times,
                                             model == vc::ContactModel::kVolume6d
                                                 ? std::array<double, 4>{228.2, 0.16, 0.29, 186.0}
                                                 : std::array<double, 4>{39.9, 2.04, 7.36, 407.1});
    }
  }

  if (!options.quick) {  // Table 1's bumpy cube and sphere
    add_times(result, "table1.bumpy_cube.6d", bumpy_cube_times(vc::ContactModel::kVolume6d, 128, 10),
              {129.4, 26.8, 0.05, 1.0});
    add_times(result, "table1.bumpy_cube_12k.point", bumpy_cube_times(vc::ContactModel::kPointContact, 32, 3),
              {86.3, 93.3, 4402.7, 1194.4});
    for (const vc::ContactModel model : kModels)
      add_times(result, "table1.sphere." + tag(model), sphere_times(model, 50),
                model == vc::ContactModel::kVolume6d ? std::array<double, 4>{180.2, 0.02, 0.04, 0.12}
                                                     : std::array<double, 4>{2.31, 0.15, 0.17, 0.31});
  }
  add_mujoco(result, "mujoco.octagon", octagon, 0.7);
  if (!options.quick) add_mujoco(result, "mujoco.stack", fixtures::cube_stack(), 1.0);

  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

void write_octagon_convergence_data(const std::filesystem::path& dir) {
  std::ofstream out(dir / "residuals.csv");
  out << "scene,model,sweep,update\n";
  const VolumeContactScene octagon = fixtures::sliding_octagon(), stack = fixtures::cube_stack();
  const std::vector<vc::RigidBody> sliding = settled(octagon, kOctagonArea, 3), resting = settled(stack, kCubeArea, 30);
  for (const vc::ContactModel model : kModels) {
    for (const auto& [name, scene, state, area] :
         {std::tuple{"octagon", octagon, sliding, kOctagonArea}, std::tuple{"stack", stack, resting, kCubeArea}}) {
      const ColdSolve s = cold_solve(state, model, scene, area);
      for (std::size_t k = 0; k < s.report.pgs.residuals.size(); ++k)
        out << fmt::format("{},{},{},{:.6e}\n", name, tag(model), k + 1, s.report.pgs.residuals[k]);
    }
  }
}

}  // namespace contactref::validation
