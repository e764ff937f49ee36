#include "validation/oracles/mujoco_scene.hpp"

#include <mujoco/mujoco.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "core/errors.hpp"

namespace contactref::oracles {

namespace {

constexpr const char* kPrefix = "MuJoCo peer: ";

// The contact softness of the header comment: solref = (kTimeConstantSteps *
// timestep, kDampingRatio), solimp with dmin = dmax = kImpedance.
constexpr double kTimeConstantSteps = 2;
constexpr double kDampingRatio = 1;
constexpr double kImpedance = 0.99;

// The name of the model in MuJoCo's virtual file system (a name, no path).
constexpr const char* kModelName = "contactref_bodies_on_plane.xml";

// The shortest decimal text that reads back as the same double (MJCF numbers).
std::string number(double value) {
  std::array<char, 32> text{};
  const std::to_chars_result result = std::to_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc()) throw InternalError("MuJoCo peer: a double did not fit in 32 characters");
  return std::string(text.data(), result.ptr);
}

std::string numbers(std::initializer_list<double> values) {
  std::string text;
  for (double value : values) {
    if (!text.empty()) text += ' ';
    text += number(value);
  }
  return text;
}

void require(bool holds, const std::string& what) {
  if (!holds) throw InputError(kPrefix + what);
}

// The checks of one body, named "body k: " in messages.
void check_hull(const MujocoHull& body, const std::string& name) {
  const auto require_body = [&](bool holds, const std::string& what) { require(holds, name + what); };
  // qhull needs a hull with volume; fewer than 4 points never have one.
  require_body(body.points_b.size() >= 4, "points_b: the convex hull needs at least 4 points, got " +
                                              std::to_string(body.points_b.size()));
  for (std::size_t i = 0; i < body.points_b.size(); ++i)
    require_body(body.points_b[i].allFinite(), "points_b: point " + std::to_string(i) + " is not finite");
  // The hull must have volume: the points' spread across their best-fit plane
  // (normal: the scatter's least eigenvector) must be more than round-off of
  // their extent; qhull would otherwise fail (and print its report on stderr).
  Vec3<double> mean = Vec3<double>::Zero();
  for (const Vec3<double>& p : body.points_b) mean += p;
  mean /= double(body.points_b.size());
  Mat3<double> scatter = Mat3<double>::Zero();
  double extent = 0;
  for (const Vec3<double>& p : body.points_b) {
    scatter += (p - mean) * (p - mean).transpose();
    extent = std::max(extent, (p - mean).norm());
  }
  const Eigen::SelfAdjointEigenSolver<Mat3<double>> spread(scatter);
  const Vec3<double> normal = spread.eigenvectors().col(0);
  double thickness = 0;
  for (const Vec3<double>& p : body.points_b) thickness = std::max(thickness, std::abs((p - mean).dot(normal)));
  require_body(thickness > 1e-9 * extent, "points_b are coplanar (or collinear): their convex hull has no volume");
  require_body(std::isfinite(body.mass) && body.mass > 0, "mass must be positive and finite, got " + number(body.mass));
  require_body(body.inertia_b.allFinite(), "inertia_b is not finite");
  // Symmetric to round-off: the MJCF carries only the upper triangle.
  const double scale = body.inertia_b.cwiseAbs().maxCoeff();
  require_body((body.inertia_b - body.inertia_b.transpose()).cwiseAbs().maxCoeff() <=
                   16 * std::numeric_limits<double>::epsilon() * scale,
               "inertia_b is not symmetric");
  const Eigen::SelfAdjointEigenSolver<Mat3<double>> principal(body.inertia_b, Eigen::EigenvaluesOnly);
  const Vec3<double> moments = principal.eigenvalues();  // ascending
  require_body(moments(0) > 0,
               "inertia_b is not positive definite (smallest principal moment " + number(moments(0)) + ")");
  // Every rigid body's principal moments satisfy I1 + I2 >= I3 (MuJoCo's
  // compiler refuses the others); the slack is the eigen-solver's round-off.
  require_body(moments(0) + moments(1) >= moments(2) * (1 - 64 * std::numeric_limits<double>::epsilon()),
               "inertia_b: principal moments " + numbers({moments(0), moments(1), moments(2)}) +
                   " violate the triangle inequality I1 + I2 >= I3 of a rigid body");
  const MujocoStart& start = body.start;
  require_body(start.com_w.allFinite(), "start com_w is not finite");
  require_body(start.velocity_w.allFinite(), "start velocity_w is not finite");
  require_body(start.omega_w.allFinite(), "start omega_w is not finite");
  require_body(start.R_w_b.allFinite(), "start R_w_b is not finite");
  // A rotation to the round-off of a computed one (a few products of
  // rotations); MuJoCo normalises the quaternion, so this slack does not
  // propagate beyond its size.
  const double orthogonality = (start.R_w_b.transpose() * start.R_w_b - Mat3<double>::Identity()).cwiseAbs().maxCoeff();
  require_body(orthogonality <= 1e-9 && start.R_w_b.determinant() > 0,
               "start R_w_b is not a rotation (|R'R - I| = " + number(orthogonality) + ", det " +
                   number(start.R_w_b.determinant()) + ")");
}

void check_scene(const MujocoScene& scene) {
  require(!scene.bodies.empty(), "the scene has no bodies");
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) check_hull(scene.bodies[k], "body " + std::to_string(k) + ": ");
  require(scene.gravity_w.allFinite(), "gravity_w is not finite");
  require(std::isfinite(scene.mu) && scene.mu >= 0, "mu must be non-negative and finite, got " + number(scene.mu));
  require(std::isfinite(scene.mu_roll) && scene.mu_roll >= 0,
          "mu_roll must be non-negative and finite, got " + number(scene.mu_roll));
  require(std::isfinite(scene.mu_spin) && scene.mu_spin >= 0,
          "mu_spin must be non-negative and finite, got " + number(scene.mu_spin));
  require(std::isfinite(scene.timestep) && scene.timestep > 0,
          "timestep must be positive and finite, got " + number(scene.timestep));
  require(std::isfinite(scene.duration) && scene.duration >= 0,
          "duration must be non-negative and finite, got " + number(scene.duration));
  require(std::isfinite(scene.sample_interval) && scene.sample_interval > 0,
          "sample_interval must be positive and finite, got " + number(scene.sample_interval));
}

// The sampling plan: a whole number of steps between samples.
struct Plan {
  long long steps_per_sample = 0;
  long long sample_count = 0;  // including the sample at t = 0
};

// The most steps in a run: their records take 16 bytes each.
constexpr double kMaxSteps = 1e7;

Plan plan(const MujocoScene& scene) {
  const double steps = scene.sample_interval / scene.timestep;
  // A relative slack of 1e-9 accepts intervals written in decimal (0.01 / 1e-3
  // is 10 to round-off) and nothing that is visibly not a multiple.
  require(steps >= 0.5 && steps <= 1e9 && std::abs(steps - std::round(steps)) <= 1e-9 * steps,
          "sample_interval " + number(scene.sample_interval) + " s is not a whole number of timesteps (" +
              number(scene.timestep) + " s)");
  const double intervals = scene.duration / scene.sample_interval;
  require(intervals * std::round(steps) <= kMaxSteps,
          "duration / timestep = " + number(intervals * std::round(steps)) + " steps is too many (at most " +
              number(kMaxSteps) + ")");
  Plan result;
  result.steps_per_sample = std::llround(steps);
  // The last sample is the last multiple of the interval not beyond the
  // duration (with the same decimal slack).
  result.sample_count = static_cast<long long>(std::floor(intervals * (1 + 1e-9))) + 1;
  return result;
}

std::string model_xml(const MujocoScene& scene) {
  const std::string friction = numbers({scene.mu, scene.mu_spin, scene.mu_roll});
  const std::string solref = numbers({kTimeConstantSteps * scene.timestep, kDampingRatio});
  const std::string solimp = numbers({kImpedance, kImpedance, 0.001, 0.5, 2});
  const char* integrator = scene.integrator == MujocoIntegrator::kRK4 ? "RK4" : "Euler";
  std::string xml;
  xml += "<mujoco model=\"contactref_bodies_on_plane\">\n";
  xml += "  <compiler inertiafromgeom=\"false\"/>\n";
  xml += "  <option timestep=\"" + number(scene.timestep) + "\" gravity=\"" +
         numbers({scene.gravity_w.x(), scene.gravity_w.y(), scene.gravity_w.z()}) + "\" integrator=\"" + integrator +
         "\" cone=\"elliptic\" solver=\"Newton\" iterations=\"100\" tolerance=\"1e-10\">\n";
  xml += "    <flag energy=\"enable\" multiccd=\"enable\"/>\n";
  xml += "  </option>\n";
  xml += "  <default>\n";
  xml += "    <geom condim=\"6\" friction=\"" + friction + "\" solref=\"" + solref + "\" solimp=\"" + solimp +
         "\" margin=\"0\" gap=\"0\"/>\n";
  xml += "  </default>\n";
  xml += "  <asset>\n";
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    std::string vertices;
    for (const Vec3<double>& p : scene.bodies[k].points_b) {
      if (!vertices.empty()) vertices += "  ";
      vertices += numbers({p.x(), p.y(), p.z()});
    }
    xml += "    <mesh name=\"hull" + std::to_string(k) + "\" vertex=\"" + vertices + "\"/>\n";
  }
  xml += "  </asset>\n";
  xml += "  <worldbody>\n";
  xml += "    <geom name=\"plane\" type=\"plane\" size=\"0 0 1\"/>\n";
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const Mat3<double>& I = scene.bodies[k].inertia_b;
    const std::string name = std::to_string(k);
    xml += "    <body name=\"body" + name + "\">\n";
    xml += "      <freejoint name=\"free" + name + "\"/>\n";
    // fullinertia is "ixx iyy izz ixy ixz iyz".
    xml += "      <inertial pos=\"0 0 0\" mass=\"" + number(scene.bodies[k].mass) + "\" fullinertia=\"" +
           numbers({I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)}) + "\"/>\n";
    xml += "      <geom name=\"hull" + name + "\" type=\"mesh\" mesh=\"hull" + name + "\"/>\n";
    xml += "    </body>\n";
  }
  xml += "  </worldbody>\n";
  xml += "</mujoco>\n";
  return xml;
}

struct VfsDeleter {
  void operator()(mjVFS* vfs) const {
    mj_deleteVFS(vfs);
    delete vfs;
  }
};
struct ModelDeleter {
  void operator()(mjModel* model) const { mj_deleteModel(model); }
};
struct DataDeleter {
  void operator()(mjData* data) const { mj_deleteData(data); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// Compiles the MJCF from memory through MuJoCo's virtual file system.
ModelPtr load(const std::string& xml) {
  // mjVFS holds 2000 file names of 1000 characters: too large for the stack.
  std::unique_ptr<mjVFS, VfsDeleter> vfs(new mjVFS);
  mj_defaultVFS(vfs.get());
  if (xml.size() > std::size_t(std::numeric_limits<int>::max()))
    throw InputError(std::string(kPrefix) + "the model is too large for MuJoCo's virtual file system");
  if (mj_makeEmptyFileVFS(vfs.get(), kModelName, int(xml.size())) != 0)
    throw ComputationError(std::string(kPrefix) + "could not create the model file in MuJoCo's virtual file system");
  const int file = mj_findFileVFS(vfs.get(), kModelName);
  if (file < 0) throw ComputationError(std::string(kPrefix) + "the model file vanished from MuJoCo's virtual file system");
  std::memcpy(vfs->filedata[file], xml.data(), xml.size());
  std::array<char, 1024> error{};
  ModelPtr model(mj_loadXML(kModelName, vfs.get(), error.data(), int(error.size())));
  if (!model) throw ComputationError(std::string(kPrefix) + "MuJoCo refused the model: " + error.data());
  return model;
}

// MuJoCo's single-precision copy of each hull, mapped to its body frame
// (it re-centres the mesh and moves the geom frame to compensate), must
// reproduce the given points: each of its vertices is one of them to float
// round-off. This guards the geometry the oracle actually simulates.
void check_meshes(const mjModel& model, const MujocoScene& scene) {
  const int n = int(scene.bodies.size());
  if (model.nmesh != n || model.ngeom != n + 1 || model.nbody != n + 1 || model.nq != 7 * n || model.nv != 6 * n)
    throw InternalError("MuJoCo peer: the compiled model is not one free body with one mesh per hull and a plane");
  for (int k = 0; k < n; ++k) {
    const std::vector<Vec3<double>>& points_b = scene.bodies[std::size_t(k)].points_b;
    double extent = 0;
    for (const Vec3<double>& p : points_b) extent = std::max(extent, p.norm());
    const int geom = k + 1;  // geom 0 is the plane (the world's, declared first)
    if (model.geom_dataid[geom] != k) throw InternalError("MuJoCo peer: geom " + std::to_string(geom) + " is not mesh " + std::to_string(k));
    const Vec3<double> geom_pos(model.geom_pos[3 * geom], model.geom_pos[3 * geom + 1], model.geom_pos[3 * geom + 2]);
    const Eigen::Quaterniond geom_quat(model.geom_quat[4 * geom], model.geom_quat[4 * geom + 1],
                                       model.geom_quat[4 * geom + 2], model.geom_quat[4 * geom + 3]);
    const Mat3<double> geom_R = geom_quat.normalized().toRotationMatrix();
    // A float vertex after re-centring: the float rounding of the centred
    // coordinates (2^-24 relative, |centred| <= 2 extent) plus the double
    // transforms: 8 float ulps of the extent covers both.
    const double tolerance = 8 * double(std::numeric_limits<float>::epsilon()) * extent;
    const int first = model.mesh_vertadr[k];
    for (int v = 0; v < model.mesh_vertnum[k]; ++v) {
      const float* vertex = model.mesh_vert + 3 * (first + v);
      const Vec3<double> vertex_b =
          geom_pos + geom_R * Vec3<double>(double(vertex[0]), double(vertex[1]), double(vertex[2]));
      double nearest = std::numeric_limits<double>::infinity();
      for (const Vec3<double>& p : points_b) nearest = std::min(nearest, (p - vertex_b).norm());
      if (!(nearest <= tolerance))
        throw ComputationError(std::string(kPrefix) + "body " + std::to_string(k) + ": MuJoCo's mesh vertex " +
                               std::to_string(v) + " is " + number(nearest) + " m from every given point (tolerance " +
                               number(tolerance) + " m)");
    }
  }
}

// Warnings after which MuJoCo's state is not the simulated one: a bad number in
// qpos, qvel or qacc (MuJoCo then resets the state to the model's qpos0), a
// full contact or constraint buffer (contacts dropped), a singular inertia.
// Returns the first one MuJoCo has raised, or -1.
int raised_warning(const mjData& data) {
  for (int warning : {mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC, mjWARN_CONTACTFULL, mjWARN_CNSTRFULL,
                      mjWARN_INERTIA}) {
    if (data.warning[warning].number > 0) return warning;
  }
  return -1;
}

bool state_finite(const mjModel& model, const mjData& data) {
  for (int i = 0; i < model.nq; ++i)
    if (!std::isfinite(data.qpos[i])) return false;
  for (int i = 0; i < model.nv; ++i)
    if (!std::isfinite(data.qvel[i])) return false;
  return true;
}

// Throws ComputationError naming `when` if MuJoCo warned or the state is not
// finite.
void check_state(const mjModel& model, const mjData& data, const std::string& when) {
  const int warning = raised_warning(data);
  if (warning >= 0)
    throw ComputationError(std::string(kPrefix) + when + ": " + mju_warningText(warning, data.warning[warning].lastinfo));
  if (!state_finite(model, data)) throw ComputationError(std::string(kPrefix) + "non-finite state " + when);
}

// MuJoCo's default warning handler prints the warning and appends it to
// MUJOCO_LOG.TXT in the working directory. The oracle reads warnings from
// mjData instead (raised_warning) and reports them in its exception, so it
// routes them to a handler that does nothing while it runs, and restores the
// previous handler after (the handler is a process-wide pointer).
void ignore_warning(const char*) {}

class QuietWarnings {
 public:
  QuietWarnings() : previous_(mju_user_warning) { mju_user_warning = ignore_warning; }
  ~QuietWarnings() { mju_user_warning = previous_; }
  QuietWarnings(const QuietWarnings&) = delete;
  QuietWarnings& operator=(const QuietWarnings&) = delete;

 private:
  void (*previous_)(const char*);
};

MujocoSceneSample sample(const mjModel& model, mjData& data) {
  // Evaluate the sampled state itself (energy, positions), see the header.
  mj_forward(&model, &data);
  MujocoSceneSample s;
  s.time = data.time;
  s.bodies.resize(std::size_t(model.nbody - 1));
  for (std::size_t k = 0; k < s.bodies.size(); ++k) {
    // Body k's free joint: qpos[7k .. 7k + 7), qvel[6k .. 6k + 6).
    const mjtNum* qpos = data.qpos + 7 * k;
    const mjtNum* qvel = data.qvel + 6 * k;
    MujocoStart& body = s.bodies[k];
    body.com_w = Vec3<double>(qpos[0], qpos[1], qpos[2]);
    body.R_w_b = Eigen::Quaterniond(qpos[3], qpos[4], qpos[5], qpos[6]).normalized().toRotationMatrix();
    body.velocity_w = Vec3<double>(qvel[0], qvel[1], qvel[2]);
    // qvel[3:6] is the angular velocity in body coordinates.
    body.omega_w = body.R_w_b * Vec3<double>(qvel[3], qvel[4], qvel[5]);
  }
  s.energy = data.energy[0] + data.energy[1];
  return s;
}

}  // namespace

MujocoSceneRun run_mujoco_scene(const MujocoScene& scene) {
  check_scene(scene);
  const Plan schedule = plan(scene);

  const QuietWarnings quiet;
  MujocoSceneRun run;
  run.model_xml = model_xml(scene);
  run.version = std::to_string(mj_version());
  const ModelPtr model = load(run.model_xml);
  check_meshes(*model, scene);
  const DataPtr data(mj_makeData(model.get()));
  if (!data) throw ComputationError(std::string(kPrefix) + "MuJoCo could not allocate its data");

  // Free joint k: qpos = (position of the body frame = COM; quaternion w x y
  // z, body to world), qvel = (velocity of the body-frame origin in world
  // coordinates; angular velocity in BODY coordinates).
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const MujocoStart& start = scene.bodies[k].start;
    const Eigen::Quaterniond q_w_b(start.R_w_b);
    const Vec3<double> omega_b = start.R_w_b.transpose() * start.omega_w;
    const std::array<double, 7> qpos{start.com_w.x(), start.com_w.y(), start.com_w.z(), q_w_b.w(),
                                     q_w_b.x(),       q_w_b.y(),       q_w_b.z()};
    const std::array<double, 6> qvel{start.velocity_w.x(), start.velocity_w.y(), start.velocity_w.z(),
                                     omega_b.x(),          omega_b.y(),          omega_b.z()};
    std::copy(qpos.begin(), qpos.end(), data->qpos + 7 * k);
    std::copy(qvel.begin(), qvel.end(), data->qvel + 6 * k);
  }
  data->time = 0;

  run.samples.reserve(std::size_t(schedule.sample_count));
  run.steps.reserve(std::size_t((schedule.sample_count - 1) * schedule.steps_per_sample));
  run.samples.push_back(sample(*model, *data));
  check_state(*model, *data, "at t = 0 s");
  for (long long k = 1; k < schedule.sample_count; ++k) {
    for (long long step = 0; step < schedule.steps_per_sample; ++step) {
      const double t0 = data->time;
      const auto begin = std::chrono::steady_clock::now();
      mj_step(model.get(), data.get());
      const auto end = std::chrono::steady_clock::now();
      run.steps.push_back({data->ncon, data->nefc, std::chrono::duration<double>(end - begin).count()});
      if (raised_warning(*data) >= 0 || !state_finite(*model, *data))
        // (Named by its start: after a bad number MuJoCo has reset the clock.)
        check_state(*model, *data, "in the step from t = " + number(t0) + " s");
    }
    run.samples.push_back(sample(*model, *data));
  }
  return run;
}

}  // namespace contactref::oracles
