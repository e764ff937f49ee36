#include "validation/scenes/quasi_rigid_scene.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "core/errors.hpp"
#include "reference/quasi_rigid/point_samples.hpp"
#include "reference/quasi_rigid/response_matrix.hpp"
#include "validation/scenes/scene.hpp"

namespace contactref::scenes {
namespace {

using json = nlohmann::json;
namespace qr = contactref::quasi_rigid;

constexpr double kMaxSamples = 2e6;

qr::SurfaceSamples lattice_disk(double spacing, double radius, const std::string& name) {
  qr::SurfaceSamples plane;
  plane.name = name;
  for (const Eigen::Vector2d& xy : qr::square_grid_nodes(spacing, radius / spacing)) {
    plane.points.emplace_back(xy.x(), xy.y(), 0);
    plane.normals.emplace_back(0, 0, 1);
  }
  return plane;
}

// The body's samples in body coordinates (the geometry as given, moved by
// -com_shift).
qr::SurfaceSamples samples_of(const Scene& scene, const SceneBody& body, const std::string& path) {
  const GeometrySpec& spec = body.spec;
  const QuasiRigidModel& model = scene.quasi_rigid;
  const std::string where = path + ".geometry";
  if (spec.type == "points") return qr::surface_samples(spec.points);
  if (spec.type != "sphere" && spec.type != "plane" && spec.type != "box")
    throw InputError(scene_error(scene, where + ".type",
                                 fmt::format("the quasi-rigid model takes points, sphere, plane and box geometries, "
                                             "not a {}",
                                             spec.type)));
  if (spec.surface.has_transform)
    throw InputError(scene_error(scene, where + ".transform", "the quasi-rigid model places bodies by their pose only"));
  if (!model.spacing)
    throw InputError(scene_error(scene, "model.spacing",
                                 fmt::format("missing: {} ({}) is sampled into points this far apart (m)", path,
                                             spec.type)));
  // A sampling finer than the geometry can afford (a fuzzed scene): about
  // area / spacing^2 samples, at most kMaxSamples.
  const double h = *model.spacing;
  Eigen::Vector3d lo = Eigen::Vector3d::Zero(), hi = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& v : spec.soup.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const Eigen::Vector3d box = hi - lo;  // the box's edge lengths (it is centred at its origin)
  const double area = spec.type == "sphere" ? 4 * std::numbers::pi * spec.surface.radius * spec.surface.radius
                      : spec.type == "plane"
                          ? std::numbers::pi * model.plane_radius * model.plane_radius
                          : 2 * (box.x() * box.y() + box.y() * box.z() + box.z() * box.x());
  if (!(area / (h * h) <= kMaxSamples))
    throw InputError(scene_error(scene, "model.spacing",
                                 fmt::format("{} m would sample {} ({}) into about {:.3g} points, more than {:.0g}", h,
                                             path, spec.type, area / (h * h), kMaxSamples)));
  qr::SurfaceSamples samples;
  if (spec.type == "sphere") {
    samples = qr::sample_sphere(-body.com_shift, spec.surface.radius, *model.spacing);
  } else if (spec.type == "plane") {
    samples = lattice_disk(*model.spacing, model.plane_radius, body.name);
  } else {
    samples = qr::sample_mesh(spec.soup, *model.spacing);
    for (Eigen::Vector3d& p : samples.points) p -= body.com_shift;
  }
  samples.name = body.name;
  return samples;
}

}  // namespace

QuasiRigidModel read_quasi_rigid_model(const Reader& in, const json& model) {
  in.fields(model, "model",
            {"type", "E", "nu", "kernel", "sigma", "mu", "damping", "time_step", "step_fraction", "min_step",
             "contact_tolerance", "spacing", "plane_radius", "active_range", "max_retractions"});
  QuasiRigidModel m;
  if (const json* x = Reader::optional(model, "E")) m.E = in.non_negative(*x, "model.E");
  if (const json* x = Reader::optional(model, "nu")) m.nu = in.non_negative(*x, "model.nu");
  if (m.nu && !(*m.nu < 0.5)) in.fail("model.nu", fmt::format("Poisson's ratio must be in [0, 0.5), got {}", *m.nu));
  if (const json* x = Reader::optional(model, "kernel")) {
    const std::string kernel = in.string(*x, "model.kernel");
    if (kernel == "volume-preserving") {
      m.kernel = qr::ResponseKernel::Kind::kVolumePreserving;
    } else if (kernel != "boussinesq") {
      in.fail("model.kernel", fmt::format("unknown kernel \"{}\" (known: boussinesq, volume-preserving)", kernel));
    }
  }
  if (const json* x = Reader::optional(model, "sigma")) m.sigma = in.positive(*x, "model.sigma");
  if (m.kernel == qr::ResponseKernel::Kind::kVolumePreserving && !model.contains("sigma"))
    in.fail("model.sigma", "missing: the volume-preserving kernel needs its width (m)");
  if (const json* x = Reader::optional(model, "mu")) m.mu = in.non_negative(*x, "model.mu");
  if (const json* x = Reader::optional(model, "damping")) m.damping = in.non_negative(*x, "model.damping");
  if (const json* x = Reader::optional(model, "time_step")) m.time_step = in.positive(*x, "model.time_step");
  if (const json* x = Reader::optional(model, "step_fraction")) {
    m.step_fraction = in.positive(*x, "model.step_fraction");
    if (m.step_fraction > 1) in.fail("model.step_fraction", fmt::format("must be in (0, 1], got {}", m.step_fraction));
  }
  if (const json* x = Reader::optional(model, "min_step")) m.min_step = in.non_negative(*x, "model.min_step");
  if (const json* x = Reader::optional(model, "contact_tolerance"))
    m.contact_tolerance = in.positive(*x, "model.contact_tolerance");
  if (const json* x = Reader::optional(model, "spacing")) m.spacing = in.positive(*x, "model.spacing");
  if (const json* x = Reader::optional(model, "plane_radius")) m.plane_radius = in.positive(*x, "model.plane_radius");
  if (const json* x = Reader::optional(model, "active_range")) m.active_range = in.positive(*x, "model.active_range");
  if (const json* x = Reader::optional(model, "max_retractions"))
    m.max_retractions = in.integer(*x, "model.max_retractions");
  return m;
}

qr::Material read_material(const Reader& in, const json& value, const std::string& path) {
  in.fields(value, path, {"E", "nu"});
  qr::Material material;
  material.E = in.non_negative(in.required(value, path, "E"), Reader::child(path, "E"));
  material.nu = in.non_negative(in.required(value, path, "nu"), Reader::child(path, "nu"));
  if (!(material.nu < 0.5))
    in.fail(Reader::child(path, "nu"), fmt::format("Poisson's ratio must be in [0, 0.5), got {}", material.nu));
  return material;
}

std::vector<qr::DynamicBody> quasi_rigid_bodies(const Scene& scene) {
  const QuasiRigidModel& model = scene.quasi_rigid;
  std::vector<qr::DynamicBody> bodies;
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const SceneBody& body = scene.bodies[k];
    const std::string path = Reader::index("bodies", k);
    qr::Material material;
    if (body.material) {
      material = *body.material;
    } else if (model.E && model.nu) {
      material = {*model.E, *model.nu};
    } else {
      throw InputError(scene_error(scene, model.E ? "model.nu" : "model.E",
                                   fmt::format("missing: {} has no material of its own, so the model's E (Pa) and "
                                               "nu are needed",
                                               path)));
    }
    qr::SurfaceSamples samples = samples_of(scene, body, path);
    try {
      qr::DynamicBody dynamic{qr::QuasiRigidBody(std::move(samples), material), body.fixed, {}, {}};
      dynamic.mass = {body.mass, body.I_com};
      dynamic.state.x_w = body.E_w_b.translation();
      dynamic.state.q_w_b = Eigen::Quaterniond(body.E_w_b.rotation());
      dynamic.state.v_w = body.v_w;
      dynamic.state.omega_w = body.omega_w;
      bodies.push_back(std::move(dynamic));
    } catch (const InputError& e) {
      throw InputError(scene_error(scene, path + ".geometry", e.what()));
    }
  }
  return bodies;
}

qr::DynamicsOptions quasi_rigid_options(const Scene& scene) {
  const QuasiRigidModel& model = scene.quasi_rigid;
  qr::DynamicsOptions options;
  options.gravity_w = scene.gravity;
  options.duration = scene.options.duration;
  options.output_interval = scene.options.output_interval;
  options.time_step = model.time_step;
  options.step_fraction = model.step_fraction;
  options.min_step = model.min_step;
  options.mu = model.mu;
  options.damping = model.damping;
  options.contact_tolerance = model.contact_tolerance;
  options.max_retractions = model.max_retractions;
  options.max_steps = scene.options.max_steps;
  options.contact.kernel = model.kernel;
  options.contact.sigma = model.sigma;
  options.contact.active_range = model.active_range;
  return options;
}

}  // namespace contactref::scenes
