#include "validation/scenes/geometry.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "core/errors.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/ellipsoid_atlas.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/mass_properties.hpp"
#include "reference/surfaces/triangle_mesh.hpp"
#include "robust_geometry/halfspace_moments.hpp"

namespace contactref::scenes {
namespace {

namespace su = contactref::surfaces;
using json = nlohmann::json;

const char* const kGeometryTypes =
    "plane, sphere, ellipsoid, torus, cylinder, paraboloid, bezier, loop, mesh, box, prism, points";

// A prism with more sides than this is a mistake, not a cylinder.
constexpr int kMaxPrismSides = 4096;

bool is_surface_type(const std::string& type) {
  for (const char* known : {"plane", "sphere", "ellipsoid", "torus", "cylinder", "paraboloid", "bezier", "loop"})
    if (type == known) return true;
  return false;
}

// A file named at `path`, resolved against the scene's folder.
std::filesystem::path file_at(const Reader& in, const json& value, const std::string& path, const std::string& key,
                              const std::filesystem::path& scene_dir) {
  const std::string p = Reader::child(path, key);
  const std::string name = in.string(in.required(value, path, key), p);
  if (name.empty()) in.fail(p, "the file name is empty");
  return std::filesystem::path(name).is_absolute() ? std::filesystem::path(name) : scene_dir / name;
}

void read_surface(const Reader& in, const json& value, const std::string& path, const std::filesystem::path& scene_dir,
                  GeometrySpec& spec) {
  const std::string& type = spec.type;
  SurfaceSpec& surface = spec.surface;
  if (type == "sphere" || type == "cylinder") {
    surface.radius = in.positive(in.required(value, path, "radius"), Reader::child(path, "radius"));
  } else if (type == "ellipsoid") {
    const std::string p = Reader::child(path, "radii");
    const std::vector<double> r = in.numbers(in.required(value, path, "radii"), p, 3);
    for (std::size_t k = 0; k < 3; ++k)
      if (!(r[k] > 0)) in.fail(Reader::index(p, k), fmt::format("semi-axes must be positive, got {}", r[k]));
    surface.radii = {r[0], r[1], r[2]};
  } else if (type == "torus") {
    const std::string p = Reader::child(path, "radii");
    const std::vector<double> r = in.numbers(in.required(value, path, "radii"), p, 2);
    if (!(r[1] > 0) || !(r[0] > r[1]))
      in.fail(p, fmt::format("needs major radius R > minor radius r > 0, got [{}, {}]", r[0], r[1]));
    surface.radii = {r[0], r[1], 0};
  } else if (type == "paraboloid") {
    const std::vector<double> k = in.numbers(in.required(value, path, "curvatures"), Reader::child(path, "curvatures"), 2);
    surface.k1 = k[0];
    surface.k2 = k[1];
  } else if (type == "bezier") {
    const std::string p = Reader::child(path, "control_points");
    const json& points = in.array(in.required(value, path, "control_points"), p, 16, "points [x, y, z]");
    for (std::size_t k = 0; k < 16; ++k) surface.control[k] = in.vec3(points[k], Reader::index(p, k));
  } else if (type == "loop") {
    spec.file = file_at(in, value, path, "mesh", scene_dir);
    try {
      surface.triangles = su::read_triangle_mesh(spec.file);
    } catch (const InputError& e) {
      in.fail(Reader::child(path, "mesh"), e.what());
    }
  }

  if (const json* t = Reader::optional(value, "transform")) {
    const std::string p = Reader::child(path, "transform");
    in.fields(*t, p, {"scale", "rotate", "offset"});
    surface.has_transform = true;
    if (const json* s = Reader::optional(*t, "scale")) {
      const std::string ps = Reader::child(p, "scale");
      surface.transform.scale = s->is_number() ? Vec3<double>::Constant(in.number(*s, ps)) : in.vec3(*s, ps);
      for (int k = 0; k < 3; ++k)
        if (!(surface.transform.scale(k) > 0))
          in.fail(ps, "scale factors must be positive (a zero or negative scale would collapse or flip the surface)");
    }
    if (const json* r = Reader::optional(*t, "rotate"))
      in.rotation(*r, Reader::child(p, "rotate"), &surface.transform.angle, &surface.transform.axis);
    if (const json* o = Reader::optional(*t, "offset")) surface.transform.offset = in.vec3(*o, Reader::child(p, "offset"));
  }
}

// The regular n-gon prism about z: vertices at radius r and angles 2 pi k / n,
// z = -h/2 and h/2.
PolygonSoup prism_soup(int sides, double radius, double height, const std::string& name) {
  std::vector<Eigen::Vector3d> vertices;
  for (const double z : {-height / 2, height / 2})
    for (int k = 0; k < sides; ++k) {
      const double angle = 2 * std::numbers::pi * k / sides;
      vertices.emplace_back(radius * std::cos(angle), radius * std::sin(angle), z);
    }
  std::vector<std::vector<int>> faces;
  std::vector<int> bottom, top;
  for (int k = 0; k < sides; ++k) {
    bottom.push_back(sides - 1 - k);  // clockwise seen from above: counter-clockwise from below
    top.push_back(sides + k);
    const int next = (k + 1) % sides;
    faces.push_back({k, next, sides + next, sides + k});
  }
  faces.push_back(bottom);
  faces.push_back(top);
  return polygon_soup(name, std::move(vertices), std::move(faces));
}

}  // namespace

bool GeometrySpec::encloses_volume() const {
  return kind == GeometryKind::kPolyhedron || type == "loop" || type == "sphere" || type == "ellipsoid" ||
         type == "torus";
}

GeometrySpec read_geometry(const Reader& in, const json& value, const std::string& path,
                           const std::filesystem::path& scene_dir) {
  if (!value.is_object()) in.fail(path, fmt::format("expected an object, got {}", show(value)));
  GeometrySpec spec;
  spec.type = in.string(in.required(value, path, "type"), Reader::child(path, "type"));
  const std::string& type = spec.type;
  std::vector<std::string> allowed = {"type"};
  if (is_surface_type(type)) {
    allowed.push_back("transform");
    if (type == "sphere" || type == "cylinder") allowed.push_back("radius");
    if (type == "ellipsoid" || type == "torus") allowed.push_back("radii");
    if (type == "paraboloid") allowed.push_back("curvatures");
    if (type == "bezier") allowed.push_back("control_points");
    if (type == "loop") allowed.push_back("mesh");
  } else if (type == "mesh" || type == "points") {
    allowed.push_back("file");
  } else if (type == "box") {
    allowed.push_back("size");
  } else if (type == "prism") {
    allowed.insert(allowed.end(), {"sides", "radius", "height"});
  } else {
    in.fail(Reader::child(path, "type"), fmt::format("unknown geometry type \"{}\" (known: {})", type, kGeometryTypes));
  }
  in.fields(value, path, allowed);

  if (is_surface_type(type)) {
    spec.kind = GeometryKind::kSurface;
    read_surface(in, value, path, scene_dir, spec);
  } else if (type == "points") {
    spec.kind = GeometryKind::kPoints;
    spec.file = file_at(in, value, path, "file", scene_dir);
    try {
      spec.points = read_point_cloud(spec.file);
    } catch (const InputError& e) {
      in.fail(Reader::child(path, "file"), e.what());
    }
    if (spec.points.normals.empty())
      in.fail(Reader::child(path, "file"),
              fmt::format("{} has no normals: a point-sampled surface needs one per point (PLY nx, ny, nz or six "
                          "XYZ columns)",
                          spec.file.string()));
  } else {
    spec.kind = GeometryKind::kPolyhedron;
    if (type == "mesh") {
      spec.file = file_at(in, value, path, "file", scene_dir);
      try {
        spec.soup = read_polygon_soup(spec.file);
      } catch (const InputError& e) {
        in.fail(Reader::child(path, "file"), e.what());
      }
    } else if (type == "box") {
      const std::string p = Reader::child(path, "size");
      const std::vector<double> l = in.numbers(in.required(value, path, "size"), p, 3);
      for (std::size_t k = 0; k < 3; ++k)
        if (!(l[k] > 0)) in.fail(Reader::index(p, k), fmt::format("edge lengths must be positive, got {}", l[k]));
      spec.soup = box_soup({l[0], l[1], l[2]}, path);
    } else {
      const std::string ps = Reader::child(path, "sides");
      const int sides = in.integer(in.required(value, path, "sides"), ps);
      if (sides < 3 || sides > kMaxPrismSides)
        in.fail(ps, fmt::format("a prism has 3 to {} sides, got {}", kMaxPrismSides, sides));
      const double radius = in.positive(in.required(value, path, "radius"), Reader::child(path, "radius"));
      const double height = in.positive(in.required(value, path, "height"), Reader::child(path, "height"));
      spec.soup = prism_soup(sides, radius, height, path);
    }
  }
  return spec;
}

void build_geometry(const Reader& in, const GeometrySpec& spec, const Vec3<double>& shift, const std::string& path,
                    BodyGeometry& out) {
  out = BodyGeometry{};
  try {
    if (spec.kind == GeometryKind::kPoints) {
      out.points = spec.points;
      for (Eigen::Vector3d& x : out.points.points) x -= shift;
      return;
    }
    if (spec.kind == GeometryKind::kPolyhedron) {
      PolygonSoup soup = spec.soup;
      for (Eigen::Vector3d& x : soup.vertices) x -= shift;
      try {
        out.polyhedron.emplace(std::move(soup));
      } catch (const InputError& e) {
        if (shift == Vec3<double>::Zero()) throw;
        // The geometry as given was valid (read_body builds it unshifted
        // first); the move rounds every coordinate, which can break a
        // face's exact planarity (Polyhedron checks it without tolerance).
        // The enclosing catch prefixes the file and path.
        throw InputError(fmt::format("moved to its centre of mass (by -({:.17g}, {:.17g}, {:.17g}) m, the density's "
                                     "shift) the polyhedron is refused: {} (the rounding of the move can make a "
                                     "face non-planar: give the vertices in centre-of-mass coordinates with mass "
                                     "and inertia, or a triangulated mesh)",
                                     shift.x(), shift.y(), shift.z(), e.what()));
      }
      return;
    }
    const SurfaceSpec& surface = spec.surface;
    su::SceneTransform<double> transform = surface.transform;
    transform.offset -= shift;
    const Mat3<double> linear = transform.linear_part();
    if (spec.type == "loop") {
      su::TriangleMesh mesh = surface.triangles;
      for (Vec3<double>& x : mesh.vertices) x = linear * x + transform.offset;
      out.loop = std::make_unique<su::LoopSurface<double>>(mesh, spec.file.string());
      out.complex = &out.loop->complex();
      return;
    }
    if (spec.type == "sphere" || spec.type == "ellipsoid") {
      // Closed: an atlas of two charts, so that a contact reaches every point
      // (surfaces/ellipsoid_atlas.hpp); the transform maps both charts.
      const Vec3<double> axes = spec.type == "sphere" ? Vec3<double>::Constant(surface.radius) : surface.radii;
      out.own_complex = std::make_unique<su::PatchComplex<double>>(su::ellipsoid_atlas<double>(axes, linear, transform.offset));
      out.complex = out.own_complex.get();
      return;
    }
    // Loop and Bezier surfaces are affine invariant: the map goes to their
    // control points; analytic charts are wrapped in a TransformedPatch.
    std::unique_ptr<su::Patch<double>> patch;
    bool needs_wrapper = surface.has_transform || shift != Vec3<double>::Zero();
    if (spec.type == "bezier") {
      std::array<Vec3<double>, 16> control = surface.control;
      for (Vec3<double>& x : control) x = linear * x + transform.offset;
      patch = std::make_unique<su::BezierPatch<double>>(control);
      needs_wrapper = false;
    } else if (spec.type == "plane") {
      patch = std::make_unique<su::PlanePatch<double>>();
    } else if (spec.type == "torus") {
      patch = std::make_unique<su::TorusPatch<double>>(surface.radii.x(), surface.radii.y());
    } else if (spec.type == "cylinder") {
      patch = std::make_unique<su::CylinderPatch<double>>(surface.radius);
    } else {
      patch = std::make_unique<su::ParaboloidPatch<double>>(surface.k1, surface.k2);
    }
    if (needs_wrapper) patch = std::make_unique<su::TransformedPatch<double>>(std::move(patch), transform);
    const std::size_t edges = patch->domain().polygon.size();
    out.own_complex = std::make_unique<su::PatchComplex<double>>();
    out.own_complex->patches.push_back(std::move(patch));
    out.own_complex->links.emplace_back(edges);  // every edge without neighbour
    out.complex = out.own_complex.get();
  } catch (const InputError& e) {
    in.fail(path, e.what());
  }
}

VolumeProperties volume_properties(const GeometrySpec& spec, const BodyGeometry& built) {
  check_invariant(spec.encloses_volume(), "volume_properties of a geometry without a volume");
  VolumeProperties props;
  if (built.polyhedron) {
    // The solid is its intersection with a half-space that contains it: the
    // moments of the divergence theorem over its triangles
    // (robust_geometry/halfspace_moments.hpp, Bouchard et al. Eqs. 14-16).
    const robust_geometry::Polyhedron& p = *built.polyhedron;
    robust_geometry::TriangleSolid solid;
    solid.vertices = p.vertices();
    for (const robust_geometry::Triangle& t : p.triangles()) solid.triangles.push_back(t.vertices);
    double lowest = solid.vertices[0].z(), highest = lowest;
    for (const Eigen::Vector3d& x : solid.vertices) {
      lowest = std::min(lowest, x.z());
      highest = std::max(highest, x.z());
    }
    // Every vertex strictly below the plane z = highest + extent (> highest:
    // a solid has a positive extent in z).
    const robust_geometry::HalfSpace above{Eigen::Vector3d::UnitZ(), highest + (highest - lowest)};
    const robust_geometry::IntersectionMoments m = robust_geometry::halfspace_intersection_moments(solid, above);
    props.volume = m.volume;
    props.centroid = m.centroid;
    props.inertia_per_density = m.second_moment;
    return props;
  }
  const su::MassProperties<double> mass =
      built.loop ? su::mass_properties(*built.loop, 1.0) : su::mass_properties(*built.complex->patches[0], 1.0);
  props.volume = mass.volume;
  props.centroid = mass.centre_of_mass;
  props.inertia_per_density = mass.inertia_com;
  return props;
}

}  // namespace contactref::scenes
