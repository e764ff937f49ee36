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
#include "reference/surfaces/transformed_patch.hpp"
#include "reference/surfaces/triangle_mesh.hpp"
#include "validation/scenes/json_reader.hpp"

namespace contactref::scenes {
namespace {

namespace su = contactref::surfaces;
using json = nlohmann::json;

const char* const kSurfaceTypes = "plane, sphere, ellipsoid, torus, cylinder, paraboloid, bezier, loop";

// A surface as read from the scene, built (possibly twice: before and after
// the centre-of-mass shift) into a patch complex.
struct SurfaceSpec {
  std::string type;
  su::SceneTransform<double> transform;
  bool has_transform = false;
  double radius = 0;
  Vec3<double> radii = Vec3<double>::Zero();  // ellipsoid (a, b, c); torus (R, r, -)
  double k1 = 0, k2 = 0;
  std::array<Vec3<double>, 16> control{};
  std::filesystem::path mesh;
  su::TriangleMesh triangles;
};

SurfaceSpec read_surface(const Reader& in, const json& value, const std::string& path,
                         const std::filesystem::path& scene_dir) {
  if (!value.is_object()) in.fail(path, fmt::format("expected an object, got {}", show(value)));
  SurfaceSpec spec;
  spec.type = in.string(in.required(value, path, "type"), Reader::child(path, "type"));
  const std::string& type = spec.type;
  std::vector<std::string> allowed = {"type", "transform"};
  if (type == "plane") {
  } else if (type == "sphere" || type == "cylinder") {
    allowed.push_back("radius");
  } else if (type == "ellipsoid" || type == "torus") {
    allowed.push_back("radii");
  } else if (type == "paraboloid") {
    allowed.push_back("curvatures");
  } else if (type == "bezier") {
    allowed.push_back("control_points");
  } else if (type == "loop") {
    allowed.push_back("mesh");
  } else {
    in.fail(Reader::child(path, "type"), fmt::format("unknown surface type \"{}\" (known: {})", type, kSurfaceTypes));
  }
  in.fields(value, path, allowed);

  if (type == "sphere" || type == "cylinder") {
    spec.radius = in.positive(in.required(value, path, "radius"), Reader::child(path, "radius"));
  } else if (type == "ellipsoid") {
    const std::string p = Reader::child(path, "radii");
    const std::vector<double> r = in.numbers(in.required(value, path, "radii"), p, 3);
    for (std::size_t k = 0; k < 3; ++k)
      if (!(r[k] > 0)) in.fail(Reader::index(p, k), fmt::format("semi-axes must be positive, got {}", r[k]));
    spec.radii = {r[0], r[1], r[2]};
  } else if (type == "torus") {
    const std::string p = Reader::child(path, "radii");
    const std::vector<double> r = in.numbers(in.required(value, path, "radii"), p, 2);
    if (!(r[1] > 0) || !(r[0] > r[1]))
      in.fail(p, fmt::format("needs major radius R > minor radius r > 0, got [{}, {}]", r[0], r[1]));
    spec.radii = {r[0], r[1], 0};
  } else if (type == "paraboloid") {
    const std::vector<double> k = in.numbers(in.required(value, path, "curvatures"), Reader::child(path, "curvatures"), 2);
    spec.k1 = k[0];
    spec.k2 = k[1];
  } else if (type == "bezier") {
    const std::string p = Reader::child(path, "control_points");
    const json& points = in.array(in.required(value, path, "control_points"), p, 16, "points [x, y, z]");
    for (std::size_t k = 0; k < 16; ++k) spec.control[k] = in.vec3(points[k], Reader::index(p, k));
  } else if (type == "loop") {
    const std::string p = Reader::child(path, "mesh");
    const std::string name = in.string(in.required(value, path, "mesh"), p);
    if (name.empty()) in.fail(p, "the mesh path is empty");
    spec.mesh = std::filesystem::path(name).is_absolute() ? std::filesystem::path(name) : scene_dir / name;
    try {
      spec.triangles = su::read_triangle_mesh(spec.mesh);
    } catch (const InputError& e) {
      in.fail(p, e.what());
    }
  }

  if (const json* t = Reader::optional(value, "transform")) {
    const std::string p = Reader::child(path, "transform");
    in.fields(*t, p, {"scale", "rotate", "offset"});
    spec.has_transform = true;
    if (const json* s = Reader::optional(*t, "scale")) {
      const std::string ps = Reader::child(p, "scale");
      if (s->is_number()) {
        spec.transform.scale = Vec3<double>::Constant(in.number(*s, ps));
      } else {
        spec.transform.scale = in.vec3(*s, ps);
      }
      for (int k = 0; k < 3; ++k)
        if (!(spec.transform.scale(k) > 0))
          in.fail(ps, "scale factors must be positive (a zero or negative scale would collapse or flip the surface)");
    }
    if (const json* r = Reader::optional(*t, "rotate")) in.rotation(*r, Reader::child(p, "rotate"), &spec.transform.angle, &spec.transform.axis);
    if (const json* o = Reader::optional(*t, "offset")) spec.transform.offset = in.vec3(*o, Reader::child(p, "offset"));
  }
  return spec;
}

bool is_closed_type(const std::string& type) {
  return type == "loop" || type == "sphere" || type == "ellipsoid" || type == "torus";
}

// The complex of a surface, moved by -shift after its transform. Loop and
// Bezier surfaces are affine invariant: the map goes to their control points.
void build_surface(const Reader& in, const SurfaceSpec& spec, const Vec3<double>& shift, const std::string& path,
                   SceneBody& body) {
  su::SceneTransform<double> transform = spec.transform;
  transform.offset -= shift;
  body.loop.reset();
  body.own_complex.reset();
  try {
    const Mat3<double> linear = transform.linear_part();
    if (spec.type == "loop") {
      su::TriangleMesh mesh = spec.triangles;
      for (Vec3<double>& x : mesh.vertices) x = linear * x + transform.offset;
      body.loop = std::make_unique<su::LoopSurface<double>>(mesh, spec.mesh.string());
      body.complex = &body.loop->complex();
      return;
    }
    std::unique_ptr<su::Patch<double>> patch;
    bool needs_wrapper = spec.has_transform || shift != Vec3<double>::Zero();
    if (spec.type == "bezier") {
      std::array<Vec3<double>, 16> control = spec.control;
      for (Vec3<double>& x : control) x = linear * x + transform.offset;
      patch = std::make_unique<su::BezierPatch<double>>(control);
      needs_wrapper = false;
    } else if (spec.type == "plane") {
      patch = std::make_unique<su::PlanePatch<double>>();
    } else if (spec.type == "sphere") {
      patch = std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>::Constant(spec.radius));
    } else if (spec.type == "ellipsoid") {
      patch = std::make_unique<su::EllipsoidPatch<double>>(spec.radii);
    } else if (spec.type == "torus") {
      patch = std::make_unique<su::TorusPatch<double>>(spec.radii.x(), spec.radii.y());
    } else if (spec.type == "cylinder") {
      patch = std::make_unique<su::CylinderPatch<double>>(spec.radius);
    } else {
      patch = std::make_unique<su::ParaboloidPatch<double>>(spec.k1, spec.k2);
    }
    if (needs_wrapper) patch = std::make_unique<su::TransformedPatch<double>>(std::move(patch), transform);
    const std::size_t edges = patch->domain().polygon.size();
    body.own_complex = std::make_unique<su::PatchComplex<double>>();
    body.own_complex->patches.push_back(std::move(patch));
    body.own_complex->links.emplace_back(edges);  // every edge without neighbour
    body.complex = body.own_complex.get();
  } catch (const InputError& e) {
    in.fail(path, e.what());
  }
}

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

SceneBody read_body(const Reader& in, const json& value, const std::string& path, const std::filesystem::path& scene_dir) {
  in.fields(value, path, {"name", "surface", "fixed", "mass", "inertia", "density", "pose"});
  SceneBody body;
  body.name = in.string(in.required(value, path, "name"), Reader::child(path, "name"));
  if (body.name.empty()) in.fail(Reader::child(path, "name"), "must not be empty");
  if (const json* f = Reader::optional(value, "fixed")) body.fixed = in.boolean(*f, Reader::child(path, "fixed"));
  const std::string surface_path = Reader::child(path, "surface");
  const SurfaceSpec spec = read_surface(in, in.required(value, path, "surface"), surface_path, scene_dir);
  body.surface_type = spec.type;
  body.mesh = spec.mesh;

  const json* mass = Reader::optional(value, "mass");
  const json* inertia = Reader::optional(value, "inertia");
  const json* density = Reader::optional(value, "density");
  if (body.fixed) {
    for (const char* key : {"mass", "inertia", "density"})
      if (value.contains(key)) in.fail(Reader::child(path, key), "a fixed body has no mass properties (remove the field)");
    if (const json* pose = Reader::optional(value, "pose")) {
      const std::string p = Reader::child(path, "pose");
      in.fields(*pose, p, {"rotate", "offset"});
      Mat3<double> R = Mat3<double>::Identity();
      Vec3<double> offset = Vec3<double>::Zero();
      if (const json* r = Reader::optional(*pose, "rotate")) R = in.rotation(*r, Reader::child(p, "rotate"));
      if (const json* o = Reader::optional(*pose, "offset")) offset = in.vec3(*o, Reader::child(p, "offset"));
      body.pose = spatial::make_pose<double>(R, offset);
    }
    build_surface(in, spec, Vec3<double>::Zero(), surface_path, body);
    return body;
  }

  if (value.contains("pose"))
    in.fail(Reader::child(path, "pose"), "only a fixed body has a pose; the free body's pose follows from contact.q");
  if (density != nullptr && (mass != nullptr || inertia != nullptr))
    in.fail(Reader::child(path, "density"), "give either density or mass and inertia, not both");
  if (density == nullptr && mass == nullptr && inertia == nullptr)
    in.fail(Reader::child(path, "mass"), "missing: a free body needs mass and inertia, or density");
  if (density != nullptr) {
    const std::string p = Reader::child(path, "density");
    body.density = in.positive(*density, p);
    if (!is_closed_type(spec.type))
      in.fail(p, fmt::format("needs a closed surface (loop, sphere, ellipsoid, torus), not a {}; give mass and inertia",
                             spec.type));
    build_surface(in, spec, Vec3<double>::Zero(), surface_path, body);
    su::MassProperties<double> props{};
    try {
      props = body.loop ? su::mass_properties(*body.loop, body.density) : su::mass_properties(body.patch(0), body.density);
    } catch (const InputError& e) {
      in.fail(p, e.what());
    } catch (const ComputationError& e) {  // an overflow: the body's mass properties cannot be represented
      in.fail(p, e.what());
    }
    body.mass = props.mass;
    body.volume = props.volume;
    body.I_com = (props.inertia_com + props.inertia_com.transpose()) / 2;  // symmetric to round-off already
    body.com_shift = props.centre_of_mass;
    build_surface(in, spec, body.com_shift, surface_path, body);
  } else {
    if (mass == nullptr) in.fail(Reader::child(path, "mass"), "missing: inertia is given, so mass is needed too");
    if (inertia == nullptr) in.fail(Reader::child(path, "inertia"), "missing: mass is given, so inertia is needed too");
    body.mass = in.positive(*mass, Reader::child(path, "mass"));
    body.I_com = in.mat3(*inertia, Reader::child(path, "inertia"));
    build_surface(in, spec, Vec3<double>::Zero(), surface_path, body);
  }
  try {
    spatial::check_rigid_inertia(body.mass, body.I_com, fmt::format("{}: {}", in.file(), Reader::child(path, "inertia")));
  } catch (const InputError& e) {
    if (density != nullptr) in.fail(Reader::child(path, "density"), std::string("computed mass properties: ") + e.what());
    throw;
  }
  return body;
}

void read_integrator(const Reader& in, const json& value, dynamics::SimulationOptions<double>& options) {
  const std::string path = "integrator";
  in.fields(value, path, {"type", "h_max", "h_min", "tolerance", "boundary"});
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

int find_body(const Reader& in, const Scene& scene, const json& contact, const char* key) {
  const std::string path = std::string("contact.") + key;
  const std::string name = in.string(in.required(contact, "contact", key), path);
  std::vector<std::string> names;
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    if (scene.bodies[k].name == name) return int(k);
    names.push_back("\"" + scene.bodies[k].name + "\"");
  }
  in.fail(path, fmt::format("no body named \"{}\" (bodies: {})", name, join(names)));
}

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
  system.surface1 = free_body().complex;
  system.surface2 = fixed_body().complex;
  system.E_w_2 = fixed_body().pose;
  system.gravity_w = gravity;
  return system;
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

Scene parse_scene(const std::string& text, const std::filesystem::path& file, const LoadOptions& options) {
  const Reader in(file.string());
  const json document = parse_json(text, file.string());
  in.fields(document, "",
            {"name", "description", "gravity", "bodies", "contact", "friction", "integrator", "duration", "output"});
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

  const std::filesystem::path scene_dir = file.parent_path();
  const json& bodies = in.required(document, "", "bodies");
  if (!bodies.is_array()) in.fail("bodies", fmt::format("expected an array of bodies, got {}", show(bodies)));
  if (bodies.size() != 2)
    in.fail("bodies", fmt::format("exactly two bodies are simulated (one free, one fixed), got {}", bodies.size()));
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    scene.bodies.push_back(read_body(in, bodies[k], Reader::index("bodies", k), scene_dir));
    for (std::size_t j = 0; j < k; ++j)
      if (scene.bodies[j].name == scene.bodies[k].name)
        in.fail(Reader::index("bodies", k) + ".name", fmt::format("\"{}\" is the name of bodies[{}] too", scene.bodies[k].name, j));
  }

  if (const json* f = Reader::optional(document, "friction")) {
    in.fields(*f, "friction", {"mu"});
    if (const json* mu = Reader::optional(*f, "mu")) {
      scene.mu = in.non_negative(*mu, "friction.mu");
      if (scene.mu != 0)
        in.fail("friction.mu", fmt::format("friction is not simulated yet (it comes in a later issue): mu must be 0, got {}",
                                           scene.mu));
    }
  }
  if (const json* i = Reader::optional(document, "integrator")) read_integrator(in, *i, scene.options);
  scene.options.duration = 1;
  if (const json* d = Reader::optional(document, "duration")) scene.options.duration = in.non_negative(*d, "duration");
  if (const double floor = dynamics::min_resolvable_step(0.0, scene.options.duration); scene.options.h_min < floor)
    in.fail("integrator.h_min", fmt::format("h_min = {} s cannot finish a run of duration {} s: steps below {} s "
                                            "(2^10 eps of the duration) do not move the clock reliably",
                                            scene.options.h_min, scene.options.duration, floor));
  if (const json* o = Reader::optional(document, "output")) {
    in.fields(*o, "output", {"interval"});
    if (const json* interval = Reader::optional(*o, "interval"))
      scene.options.output_interval = in.non_negative(*interval, "output.interval");
  }

  const json& contact = in.required(document, "", "contact");
  in.fields(contact, "contact", {"body1", "body2", "patch1", "patch2", "q", "qdot"});
  scene.body1 = find_body(in, scene, contact, "body1");
  scene.body2 = find_body(in, scene, contact, "body2");
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
  scene.initial.q = to_vec5(in.numbers(in.required(contact, "contact", "q"), "contact.q", 5));
  if (const json* qd = Reader::optional(contact, "qdot")) scene.initial.qdot = to_vec5(in.numbers(*qd, "contact.qdot", 5));
  check_contact_point(scene, scene.initial.patch1, scene.initial.patch2, scene.initial.q,
                      fmt::format("{}: contact.q", file.string()));

  if (options.check_initial_dynamics) {
    const dynamics::ContactDynamics<double> dynamics(scene.free_body().mass, scene.free_body().I_com,
                                                     scene.free_body().patch(scene.initial.patch1),
                                                     scene.fixed_body().patch(scene.initial.patch2),
                                                     scene.fixed_body().pose, scene.gravity);
    dynamics::ContactDynamicsState<double> state;
    try {
      state = dynamics.evaluate(dynamics::make_state(scene.initial.q, scene.initial.qdot));
    } catch (const ComputationError& e) {  // its message says why (a conforming contact, an overflow, ...)
      in.fail("contact.q", fmt::format("the initial state cannot be evaluated: {}", e.what()));
    }
    if (state.f_n < 0) {
      in.fail("contact", fmt::format("the initial normal force is {:.6g} N < 0: the bodies would separate immediately "
                                     "(flight is not simulated); change contact.q, contact.qdot or gravity",
                                     state.f_n));
    }
  }
  return scene;
}

Scene load_scene(const std::filesystem::path& file, const LoadOptions& options) {
  return parse_scene(read_input_file(file, "the scene file"), file, options);
}

}  // namespace contactref::scenes
