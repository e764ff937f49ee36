#include "validation/scenes/scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "reference/dynamics/contact_dynamics.hpp"
#include "reference/dynamics/step_acceptance.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "reference/spatial/pose.hpp"
#include "reference/spatial/so3.hpp"
#include "reference/spatial/spatial_inertia.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/mass_properties.hpp"
#include "reference/surfaces/triangle_mesh.hpp"
#include "validation/scenes/json_reader.hpp"

namespace contactref::scenes {
namespace {

namespace su = contactref::surfaces;
using json = nlohmann::json;

std::string describe_domain(const su::Domain<double>& domain) {
  if (domain.is_polygon()) {
    std::vector<std::string> corners;
    for (const auto& x : domain.polygon) corners.push_back(fmt::format("({}, {})", x.x(), x.y()));
    return "the polygon " + join(corners);
  }
  const auto range = [](const su::Interval<double>& r) {
    return r.periodic ? fmt::format("periodic in [{}, {})", r.lo, r.hi) : fmt::format("in [{}, {}]", r.lo, r.hi);
  };
  return fmt::format("s {}, t {}", range(domain.s), range(domain.t));
}

RigidPose<double> read_pose(const Reader& in, const json& value, const std::string& path) {
  in.fields(value, path, {"position", "offset", "rotate"});
  if (value.contains("position") && value.contains("offset"))
    in.fail(Reader::child(path, "offset"), "give position (or its former name offset), not both");
  Vec3<double> position = Vec3<double>::Zero();
  for (const char* key : {"position", "offset"})
    if (const json* p = Reader::optional(value, key)) position = in.vec3(*p, Reader::child(path, key));
  double angle = 0;
  Vec3<double> axis = Vec3<double>::UnitZ();
  if (const json* r = Reader::optional(value, "rotate")) in.rotation(*r, Reader::child(path, "rotate"), &angle, &axis);
  return RigidPose<double>::from_axis_angle(angle, axis, position, in.file() + ": " + path);
}

void read_velocity(const Reader& in, const json& value, const std::string& path, SceneBody& body) {
  in.fields(value, path, {"linear", "angular"});
  if (const json* v = Reader::optional(value, "linear")) body.v_w = in.vec3(*v, Reader::child(path, "linear"));
  if (const json* w = Reader::optional(value, "angular")) body.omega_w = in.vec3(*w, Reader::child(path, "angular"));
}

SceneBody read_body(const Reader& in, const json& value, const std::string& path, const std::filesystem::path& scene_dir,
                    ModelType model) {
  in.fields(value, path, {"name", "geometry", "surface", "fixed", "mass", "inertia", "density", "pose", "velocity",
                          "material"});
  SceneBody body;
  if (const json* m = Reader::optional(value, "material")) {
    if (model != ModelType::kQuasiRigid)
      in.fail(Reader::child(path, "material"), fmt::format("the {} model takes no material per body", to_string(model)));
    body.material = read_material(in, *m, Reader::child(path, "material"));
  }
  body.name = in.string(in.required(value, path, "name"), Reader::child(path, "name"));
  if (body.name.empty()) in.fail(Reader::child(path, "name"), "must not be empty");
  if (const json* f = Reader::optional(value, "fixed")) body.fixed = in.boolean(*f, Reader::child(path, "fixed"));
  if (value.contains("geometry") && value.contains("surface"))
    in.fail(Reader::child(path, "surface"), "give geometry (or its former name surface), not both");
  const std::string geometry_key = value.contains("surface") ? "surface" : "geometry";
  const std::string geometry_path = Reader::child(path, geometry_key);
  const GeometrySpec spec = read_geometry(in, in.required(value, path, geometry_key), geometry_path, scene_dir);
  body.spec = spec;
  body.geometry_type = spec.type;
  body.kind = spec.kind;
  body.file = spec.file;
  if (const json* pose = Reader::optional(value, "pose")) body.E_w_b = read_pose(in, *pose, Reader::child(path, "pose"));

  const json* mass = Reader::optional(value, "mass");
  const json* inertia = Reader::optional(value, "inertia");
  const json* density = Reader::optional(value, "density");
  if (body.fixed) {
    for (const char* key : {"mass", "inertia", "density"})
      if (value.contains(key)) in.fail(Reader::child(path, key), "a fixed body has no mass properties (remove the field)");
    if (value.contains("velocity")) in.fail(Reader::child(path, "velocity"), "a fixed body does not move (remove the field)");
    build_geometry(in, spec, Vec3<double>::Zero(), geometry_path, body.geometry);
    return body;
  }

  if (const json* v = Reader::optional(value, "velocity")) read_velocity(in, *v, Reader::child(path, "velocity"), body);
  if (density != nullptr && (mass != nullptr || inertia != nullptr))
    in.fail(Reader::child(path, "density"), "give either density or mass and inertia, not both");
  if (density == nullptr && mass == nullptr && inertia == nullptr)
    in.fail(Reader::child(path, "mass"), "missing: a free body needs mass and inertia, or density");
  if (density != nullptr) {
    const std::string p = Reader::child(path, "density");
    body.density = in.positive(*density, p);
    if (!spec.encloses_volume())
      in.fail(p, fmt::format("needs a geometry that encloses a volume (loop, sphere, ellipsoid, torus, mesh, box, "
                             "prism), not a {}; give mass and inertia",
                             spec.type));
    build_geometry(in, spec, Vec3<double>::Zero(), geometry_path, body.geometry);
    VolumeProperties props;
    try {
      props = volume_properties(spec, body.geometry);
    } catch (const InputError& e) {
      in.fail(p, e.what());
    } catch (const ComputationError& e) {  // an overflow: the body's mass properties cannot be represented
      in.fail(p, e.what());
    }
    body.volume = props.volume;
    body.mass = body.density * props.volume;
    body.I_com = body.density * (props.inertia_per_density + props.inertia_per_density.transpose()) / 2;
    body.com_shift = props.centroid;
    if (!std::isfinite(body.mass) || !body.I_com.allFinite())
      in.fail(p, fmt::format("the mass properties overflow (volume {} m^3)", props.volume));
    build_geometry(in, spec, body.com_shift, geometry_path, body.geometry);
  } else {
    if (mass == nullptr) in.fail(Reader::child(path, "mass"), "missing: inertia is given, so mass is needed too");
    if (inertia == nullptr) in.fail(Reader::child(path, "inertia"), "missing: mass is given, so inertia is needed too");
    body.mass = in.positive(*mass, Reader::child(path, "mass"));
    body.I_com = in.mat3(*inertia, Reader::child(path, "inertia"));
    build_geometry(in, spec, Vec3<double>::Zero(), geometry_path, body.geometry);
  }
  try {
    spatial::check_rigid_inertia(body.mass, body.I_com, fmt::format("{}: {}", in.file(), Reader::child(path, "inertia")));
  } catch (const InputError& e) {
    if (density != nullptr) in.fail(Reader::child(path, "density"), std::string("computed mass properties: ") + e.what());
    throw;
  }
  return body;
}

ModelType read_model(const Reader& in, const json& value, Scene& scene) {
  if (!value.is_object()) in.fail("model", fmt::format("expected an object, got {}", show(value)));
  const std::string type = in.string(in.required(value, "model", "type"), "model.type");
  if (type == to_string(ModelType::kQuasiRigid)) {
    scene.quasi_rigid = read_quasi_rigid_model(in, value);
    return ModelType::kQuasiRigid;
  }
  for (const ModelType m : {ModelType::kVolume6d, ModelType::kPointContact}) {
    if (type != to_string(m)) continue;
    scene.volume_contact = read_volume_contact_model(in, value, m == ModelType::kVolume6d);
    return m;
  }
  in.fields(value, "model", {"type"});
  if (type == to_string(ModelType::kSmooth)) return ModelType::kSmooth;
  in.fail("model.type", fmt::format("unknown model \"{}\" (known: smooth, quasi-rigid, volume-6d, point-contact)", type));
}

// FRICTION (scene.hpp): every coefficient finite and >= 0; mu_static defaults to mu.
void read_friction(const Reader& in, const json& value, dynamics::FrictionModel<double>& friction) {
  in.fields(value, "friction", {"mu", "mu_static", "mu_roll", "mu_spin", "slip_threshold", "spin_threshold",
                                      "roll_threshold", "damping"});
  const std::pair<const char*, double*> fields[] = {
      {"mu", &friction.law.mu},           {"mu_roll", &friction.law.mu_roll},
      {"mu_spin", &friction.law.mu_spin}, {"damping", &friction.law.damping},
      {"slip_threshold", &friction.slip_threshold}, {"spin_threshold", &friction.spin_threshold},
      {"roll_threshold", &friction.roll_threshold}};
  for (const auto& [name, field] : fields)
    if (const json* x = Reader::optional(value, name)) *field = in.non_negative(*x, std::string("friction.") + name);
  const json* mu_static = Reader::optional(value, "mu_static");
  friction.mu_static = mu_static ? in.non_negative(*mu_static, "friction.mu_static") : friction.law.mu;
  try {
    dynamics::check_friction_model(friction);
  } catch (const InputError& e) {
    in.fail(mu_static ? "friction.mu_static" : "friction", e.what());
  }
}

void read_integrator(const Reader& in, const json& value, dynamics::SimulationOptions<double>& options) {
  const std::string path = "integrator";
  in.fields(value, path, {"type", "h_max", "h_min", "tolerance", "boundary", "contact_tolerance", "proximity_bound"});
  if (const json* t = Reader::optional(value, "type")) {
    const std::string type = in.string(*t, "integrator.type");
    if (type == "rk4") {
      options.integrator = dynamics::IntegratorKind::kRk4;
    } else if (type == "dormand-prince") {
      options.integrator = dynamics::IntegratorKind::kDormandPrince54;
    } else {
      in.fail("integrator.type", fmt::format("unknown integrator \"{}\" (known: rk4, dormand-prince)", type));
    }
  }
  if (const json* h = Reader::optional(value, "h_max")) options.h_max = in.positive(*h, "integrator.h_max");
  if (const json* h = Reader::optional(value, "h_min")) options.h_min = in.positive(*h, "integrator.h_min");
  if (options.h_min > options.h_max)
    in.fail("integrator.h_min", fmt::format("h_min = {} s exceeds h_max = {} s", options.h_min, options.h_max));
  if (const json* tol = Reader::optional(value, "tolerance")) {
    if (options.integrator != dynamics::IntegratorKind::kDormandPrince54)
      in.fail("integrator.tolerance", "only the dormand-prince integrator has a tolerance");
    options.tolerance = in.positive(*tol, "integrator.tolerance");
  }
  for (const auto& [key, field] : {std::pair{"contact_tolerance", &options.contact_tolerance},
                                   std::pair{"proximity_bound", &options.proximity_bound}})
    if (const json* x = Reader::optional(value, key)) *field = in.positive(*x, std::string("integrator.") + key);
  if (const json* b = Reader::optional(value, "boundary")) {
    const std::string kind = in.string(*b, "integrator.boundary");
    if (kind == "integrated") {
      options.boundary = dynamics::BoundaryLocation::kIntegrated;
    } else if (kind == "linear") {
      options.boundary = dynamics::BoundaryLocation::kLinear;
    } else {
      in.fail("integrator.boundary", fmt::format("unknown boundary location \"{}\" (known: integrated, linear)", kind));
    }
  }
}

}  // namespace

int find_body(const Reader& in, const Scene& scene, const json& object, const std::string& path_to_object,
              const char* key) {
  const std::string path = Reader::child(path_to_object, key);
  const std::string name = in.string(in.required(object, path_to_object, key), path);
  std::vector<std::string> names;
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    if (scene.bodies[k].name == name) return int(k);
    names.push_back("\"" + scene.bodies[k].name + "\"");
  }
  in.fail(path, fmt::format("no body named \"{}\" (bodies: {})", name, join(names)));
}

namespace {

dynamics::Vec5<double> to_vec5(const std::vector<double>& x) {
  dynamics::Vec5<double> v;
  for (int k = 0; k < 5; ++k) v(k) = x[std::size_t(k)];
  return v;
}

}  // namespace

std::string scene_error(const Scene& scene, const std::string& field, const std::string& why) {
  return fmt::format("{}: {}: {}", scene.file.string(), field, why);
}

dynamics::ContactSystem<double> Scene::system() const {
  dynamics::ContactSystem<double> system;
  system.mass = free_body().mass;
  system.I_com = free_body().I_com;
  system.surface1 = free_body().complex();
  system.surface2 = fixed_body().complex();
  system.E_w_2 = fixed_body().E_w_b.matrix();
  system.gravity_w = gravity;
  system.friction = friction;
  system.restitution = restitution;
  system.tangential_restitution = tangential_restitution;
  return system;
}

dynamics::FlightStart<double> Scene::flight_start() const {
  const SceneBody& body = free_body();
  dynamics::FlightStart<double> start;
  start.body.x_w = body.E_w_b.translation();
  start.body.q_w_b = Eigen::Quaterniond(body.E_w_b.rotation()).normalized();
  start.body.v_w = body.v_w;
  start.body.omega_w = body.omega_w;
  return start;
}

void check_contact_point(const Scene& scene, int patch1, int patch2, const dynamics::Vec5<double>& q,
                         const std::string& where) {
  for (int b = 1; b <= 2; ++b) {
    const SceneBody& body = b == 1 ? scene.free_body() : scene.fixed_body();
    const int index = b == 1 ? patch1 : patch2;
    const su::Patch<double>& patch = body.patch(index);
    const double s = q(b == 1 ? 0 : 2), t = q(b == 1 ? 1 : 3);
    const char* names = b == 1 ? "(s, t)" : "(u, v)";
    if (!std::isfinite(s) || !std::isfinite(t) || !patch.domain().contains(s, t)) {
      throw InputError(fmt::format("{}: {} = ({}, {}) is outside the domain of patch {} of body \"{}\" ({}: {})", where,
                                   names, s, t, index, body.name, patch.describe(), describe_domain(patch.domain())));
    }
    try {
      su::check_regular(patch.evaluate(s, t), patch, s, t);
    } catch (const ComputationError& e) {
      throw InputError(fmt::format("{}: the contact point on body \"{}\" is not a regular point, so there is no contact "
                                   "frame there: {}",
                                   where, body.name, e.what()));
    }
  }
}

const char* to_string(ModelType type) {
  switch (type) {
    case ModelType::kSmooth: return "smooth";
    case ModelType::kQuasiRigid: return "quasi-rigid";
    case ModelType::kVolume6d: return "volume-6d";
    case ModelType::kPointContact: return "point-contact";
  }
  return "?";
}

void require_model(const Scene& scene, ModelType wanted, const std::string& command) {
  if (scene.model == wanted) return;
  throw InputError(scene_error(scene, "model.type",
                               fmt::format("`{}` runs the {} model only, not the {} model", command,
                                           to_string(wanted), to_string(scene.model))));
}

namespace {

// "collision": {"restitution": e, "tangential_restitution": e_t}, both in [0, 1].
void read_collision(const Reader& in, const json& value, Scene& scene) {
  in.fields(value, "collision", {"restitution", "tangential_restitution"});
  for (const auto& [key, field] : {std::pair{"restitution", &scene.restitution},
                                   std::pair{"tangential_restitution", &scene.tangential_restitution}}) {
    const json* x = Reader::optional(value, key);
    if (!x) continue;
    *field = in.non_negative(*x, std::string("collision.") + key);
    if (*field > 1) in.fail(std::string("collision.") + key, fmt::format("must be in [0, 1], got {}", *field));
  }
}

// The smooth model: two bodies (a free and a fixed one with parametric
// surfaces) in one contact.
void read_smooth_model(const Reader& in, const json& document, const std::filesystem::path& file,
                       const LoadOptions& options, Scene& scene) {
  if (scene.bodies.size() != 2)
    in.fail("bodies", fmt::format("the smooth model takes exactly two bodies (one free, one fixed), got {}",
                                  scene.bodies.size()));
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const SceneBody& body = scene.bodies[k];
    const std::string path = Reader::index("bodies", k);
    const std::string key = document["bodies"][k].contains("surface") ? "surface" : "geometry";
    if (body.kind != GeometryKind::kSurface)
      in.fail(Reader::child(path, key) + ".type",
              fmt::format("the smooth model takes parametric surfaces (plane, sphere, ellipsoid, torus, cylinder, "
                          "paraboloid, bezier, loop), not a {}",
                          body.geometry_type));
  }

  if (const json* f = Reader::optional(document, "friction")) read_friction(in, *f, scene.friction);
  if (const json* i = Reader::optional(document, "integrator")) read_integrator(in, *i, scene.options);
  if (const double floor = dynamics::min_resolvable_step(0.0, scene.options.duration); scene.options.h_min < floor)
    in.fail("integrator.h_min", fmt::format("h_min = {} s cannot finish a run of duration {} s: steps below {} s "
                                            "(2^10 eps of the duration) do not move the clock reliably",
                                            scene.options.h_min, scene.options.duration, floor));

  if (const json* c = Reader::optional(document, "collision")) read_collision(in, *c, scene);
  const json& contact = in.required(document, "", "contact");
  in.fields(contact, "contact", {"body1", "body2", "patch1", "patch2", "q", "qdot"});
  scene.body1 = find_body(in, scene, contact, "contact", "body1");
  scene.body2 = find_body(in, scene, contact, "contact", "body2");
  if (scene.body1 == scene.body2) in.fail("contact.body2", "body1 and body2 must be different bodies");
  if (scene.free_body().fixed)
    in.fail("contact.body1", fmt::format("body \"{}\" is fixed; body1 must be the free body", scene.free_body().name));
  if (!scene.fixed_body().fixed)
    in.fail("contact.body2", fmt::format("body \"{}\" is not fixed; body2 must be fixed (\"fixed\": true) in this version",
                                         scene.fixed_body().name));
  for (int b = 1; b <= 2; ++b) {
    const std::string key = b == 1 ? "patch1" : "patch2";
    const SceneBody& body = b == 1 ? scene.free_body() : scene.fixed_body();
    int patch = 0;
    if (const json* p = Reader::optional(contact, key)) patch = in.integer(*p, "contact." + key);
    if (patch >= body.patch_count())
      in.fail("contact." + key, fmt::format("patch {} does not exist: body \"{}\" has patches 0..{}", patch, body.name,
                                            body.patch_count() - 1));
    (b == 1 ? scene.initial.patch1 : scene.initial.patch2) = patch;
  }
  // Without contact.q the free body starts in flight from its pose and
  // velocity; with it, they come from q and q'.
  const json& free_body = document["bodies"][std::size_t(scene.body1)];
  scene.starts_in_flight = !contact.contains("q");
  if (scene.starts_in_flight) {
    if (contact.contains("qdot")) in.fail("contact.qdot", "a start in flight (no contact.q) takes no contact.qdot");
    return;
  }
  for (const char* field : {"pose", "velocity"})
    if (free_body.contains(field))
      in.fail(Reader::child(Reader::index("bodies", std::size_t(scene.body1)), field),
              "a start in contact (contact.q) places and moves the free body by contact.q and contact.qdot (remove "
              "the field, or contact.q to start in flight)");
  scene.initial.q = to_vec5(in.numbers(contact["q"], "contact.q", 5));
  if (const json* qd = Reader::optional(contact, "qdot")) scene.initial.qdot = to_vec5(in.numbers(*qd, "contact.qdot", 5));
  check_contact_point(scene, scene.initial.patch1, scene.initial.patch2, scene.initial.q,
                      fmt::format("{}: contact.q", file.string()));

  if (options.check_initial_dynamics) {
    const dynamics::ContactDynamics<double> dynamics(scene.free_body().mass, scene.free_body().I_com,
                                                     scene.free_body().patch(scene.initial.patch1),
                                                     scene.fixed_body().patch(scene.initial.patch2),
                                                     scene.fixed_body().E_w_b.matrix(), scene.gravity);
    dynamics::ContactDynamicsState<double> state;
    try {
      state = dynamics.evaluate(dynamics::make_state(scene.initial.q, scene.initial.qdot));
    } catch (const ComputationError& e) {  // its message says why (a conforming contact, an overflow, ...)
      in.fail("contact.q", fmt::format("the initial state cannot be evaluated: {}", e.what()));
    }
  }
}

// "limits": {"max_steps": N, "max_rows": N}, integers >= 1 (up to 1e15).
void read_limits(const Reader& in, const json& value, dynamics::SimulationOptions<double>& options) {
  in.fields(value, "limits", {"max_steps", "max_rows"});
  const auto count = [&](const char* key, long& target) {
    const json* x = Reader::optional(value, key);
    if (!x) return;
    const std::string path = std::string("limits.") + key;
    const double n = in.positive(*x, path);
    if (n != std::floor(n) || n > 1e15) in.fail(path, fmt::format("expected a whole number in [1, 1e15], got {}", n));
    target = long(n);
  };
  count("max_steps", options.max_steps);
  count("max_rows", options.max_rows);
}

// The fewest steps a run can take (duration over its largest step) and the
// most rows it can write, against the limits (scene.hpp "limits").
void check_run_limits(const Reader& in, const Scene& scene) {
  const dynamics::SimulationOptions<double>& o = scene.options;
  const bool smooth = scene.model == ModelType::kSmooth;
  const double step = smooth ? o.h_max
                      : scene.model == ModelType::kQuasiRigid ? scene.quasi_rigid.time_step
                                                              : scene.volume_contact.time_step;
  const char* step_field = smooth ? "integrator.h_max" : "model.time_step";
  const double steps = o.duration / step;
  if (!(steps <= double(o.max_steps)))
    in.fail(step_field, fmt::format("a run of {:.6g} s in steps of at most {:.6g} s takes at least {:.3g} steps, above "
                                    "limits.max_steps = {} (a step in ms given in s? raise the limit to run this)",
                                    o.duration, step, steps, o.max_steps));
  const double rows = o.output_interval > 0 ? o.duration / o.output_interval : steps;
  if (!(rows <= double(o.max_rows)))
    in.fail("output.interval", fmt::format("a run of {:.6g} s writes up to {:.3g} rows (one per {:.6g} s, or per step "
                                           "when 0), above limits.max_rows = {} (raise the interval or the limit)",
                                           o.duration, rows, o.output_interval, o.max_rows));
}

}  // namespace

Scene parse_scene(const std::string& text, const std::filesystem::path& file, const LoadOptions& options) {
  const Reader in(file.string());
  const json document = parse_json(text, file.string());
  in.fields(document, "",
            {"name", "description", "gravity", "model", "bodies", "contact", "friction", "integrator", "collision",
             "duration", "output", "joints", "limits"});
  Scene scene;
  scene.file = file;
  scene.name = file.stem().string();
  if (const json* n = Reader::optional(document, "name")) {
    scene.name = in.string(*n, "name");
    if (scene.name.empty() || scene.name.find_first_of("/\\") != std::string::npos || scene.name == "." ||
        scene.name == "..")
      in.fail("name", "must be a non-empty name without path separators (it names the output folder)");
  }
  if (const json* d = Reader::optional(document, "description")) scene.description = in.string(*d, "description");
  if (const json* g = Reader::optional(document, "gravity")) scene.gravity = in.vec3(*g, "gravity");
  if (const json* m = Reader::optional(document, "model")) scene.model = read_model(in, *m, scene);
  if (scene.model != ModelType::kSmooth) {
    for (const char* key : {"contact", "friction", "integrator", "collision"})
      if (document.contains(key))
        in.fail(key, fmt::format("a field of the smooth model; the {} model does not take it", to_string(scene.model)));
  }

  const std::filesystem::path scene_dir = file.parent_path();
  const json& bodies = in.required(document, "", "bodies");
  if (!bodies.is_array()) in.fail("bodies", fmt::format("expected an array of bodies, got {}", show(bodies)));
  if (bodies.empty()) in.fail("bodies", "a scene needs at least one body");
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    scene.bodies.push_back(read_body(in, bodies[k], Reader::index("bodies", k), scene_dir, scene.model));
    for (std::size_t j = 0; j < k; ++j)
      if (scene.bodies[j].name == scene.bodies[k].name)
        in.fail(Reader::index("bodies", k) + ".name", fmt::format("\"{}\" is the name of bodies[{}] too", scene.bodies[k].name, j));
  }

  scene.options.duration = 1;
  if (const json* d = Reader::optional(document, "duration")) scene.options.duration = in.non_negative(*d, "duration");
  if (const json* o = Reader::optional(document, "output")) {
    in.fields(*o, "output", {"interval", "samples"});
    if (const json* interval = Reader::optional(*o, "interval"))
      scene.options.output_interval = in.non_negative(*interval, "output.interval");
    if (const json* samples = Reader::optional(*o, "samples")) {
      if (scene.model != ModelType::kQuasiRigid)
        in.fail("output.samples", fmt::format("the {} model writes no samples (the quasi-rigid model does)",
                                              to_string(scene.model)));
      if (*samples != "csv" && *samples != "binary")
        in.fail("output.samples", fmt::format("\"csv\" or \"binary\", got {}", show(*samples)));
      scene.binary_samples = *samples == "binary";
    }
  }
  if (const json* l = Reader::optional(document, "limits")) read_limits(in, *l, scene.options);
  if (scene.model == ModelType::kSmooth) read_smooth_model(in, document, file, options, scene);
  const bool volume_contact = scene.model == ModelType::kVolume6d || scene.model == ModelType::kPointContact;
  check_run_limits(in, scene);
  if (const json* j = Reader::optional(document, "joints")) {
    if (!volume_contact)
      in.fail("joints", fmt::format("the {} model takes no joints (the volume-6d and point-contact models do)",
                                    to_string(scene.model)));
    scene.joints = read_volume_contact_joints(in, *j, scene);
  }
  return scene;
}

Scene load_scene(const std::filesystem::path& file, const LoadOptions& options) {
  return parse_scene(read_input_file(file, "the scene file"), file, options);
}

}  // namespace contactref::scenes
