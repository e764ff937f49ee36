#include "validation/app/body_shapes.hpp"

#include <fmt/format.h>

#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "reference/dynamics/surface_proximity.hpp"
#include "robust_geometry/polyhedron.hpp"
#include "validation/app/json_rows.hpp"
#include "validation/app/output_files.hpp"

namespace contactref::cli {

namespace {

// A shape as written: vertices (with normals for a point cloud, with the
// patch each lies on for a tessellated surface) and faces.
struct Shape {
  std::vector<Vec3<double>> vertices, normals;
  std::vector<std::vector<int>> faces;
  std::vector<int> patches;
  nlohmann::ordered_json note;  // what the manifest says about how it was made
};

void add_quad(Shape& shape, const Vec3<double>& a, const Vec3<double>& b, const Vec3<double>& c, const Vec3<double>& d) {
  const int first = int(shape.vertices.size());
  for (const Vec3<double>& x : {a, b, c, d}) shape.vertices.push_back(x);
  shape.faces.push_back({first, first + 1, first + 2});
  shape.faces.push_back({first, first + 2, first + 3});
}

// The radius about their mean of a few points of every bounded patch (its
// domain's centre and points near its corners, or a 3 x 3 grid of a bounded
// chart): the surface's size, before it is tessellated. 0 when no patch is
// bounded (a plane, a cylinder, a paraboloid).
double sampled_radius(const surfaces::PatchComplex<double>& complex) {
  std::vector<Vec3<double>> points;
  for (const auto& patch : complex.patches) {
    const surfaces::Domain<double>& domain = patch->domain();
    std::vector<surfaces::Vec2<double>> at;
    if (domain.is_polygon()) {
      surfaces::Vec2<double> centre = surfaces::Vec2<double>::Zero();
      for (const auto& corner : domain.polygon) centre += corner;
      centre /= double(domain.polygon.size());
      at.push_back(centre);
      for (const auto& corner : domain.polygon) at.push_back(0.9 * corner + 0.1 * centre);  // off extraordinary vertices
    } else if (std::isfinite(domain.s.lo) && std::isfinite(domain.s.hi) && std::isfinite(domain.t.lo) &&
               std::isfinite(domain.t.hi)) {
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          at.emplace_back(domain.s.lo + (domain.s.hi - domain.s.lo) * (0.1 + 0.4 * i),
                          domain.t.lo + (domain.t.hi - domain.t.lo) * (0.1 + 0.4 * j));
    }
    for (const auto& x : at) points.push_back(patch->evaluate(x.x(), x.y()).c());
  }
  if (points.empty()) return 0;
  Vec3<double> mean = Vec3<double>::Zero();
  for (const Vec3<double>& x : points) mean += x;
  mean /= double(points.size());
  double radius = 0;
  for (const Vec3<double>& x : points) radius = std::max(radius, (x - mean).norm());
  return radius;
}

// A tessellated surface within 3e-3 of its sampled radius, at most
// kShapeTriangles triangles; a plane or a cylinder drawn in part. Nullopt
// and why when it cannot be drawn: the run goes on without the shape.
std::optional<Shape> surface_shape(const surfaces::PatchComplex<double>& complex, std::string& why_not) {
  using Hierarchy = dynamics::SurfaceHierarchy<double>;
  std::optional<Hierarchy> tessellated;
  const double radius = sampled_radius(complex);
  try {
    // Any bound for a plane or a cylinder (not tessellated); a paraboloid is refused either way.
    tessellated.emplace(complex, radius > 0 ? 3e-3 * radius : 1.0, kShapeTriangles);
  } catch (const InputError& error) {  // an unbounded surface other than a plane or a cylinder, a degenerate size
    why_not = error.what();
    return std::nullopt;
  } catch (const ComputationError& error) {  // a curvature the bound cannot follow within the cap
    why_not = error.what();
    return std::nullopt;
  }
  Shape shape;
  if (tessellated->is_half_space()) {
    const Vec3<double> n = tessellated->plane_normal(), o = tessellated->plane_origin();
    const Vec3<double> e1 = n.unitOrthogonal(), e2 = n.cross(e1);  // e1 x e2 = n: counter-clockwise seen from outside
    const double L = kUnboundedHalfSide;
    add_quad(shape, o - L * e1 - L * e2, o + L * e1 - L * e2, o + L * e1 + L * e2, o - L * e1 + L * e2);
    shape.note = {{"drawn", fmt::format("a square of half-side {} m of the unbounded plane about its origin", L)}};
    return shape;
  }
  if (const auto& rod = tessellated->rod()) {
    const Vec3<double> axis = rod->axis.normalized();
    constexpr int kFacets = 64;
    const double L = kUnboundedHalfSide, two_pi = 2 * boost::math::constants::pi<double>();
    for (int k = 0; k < kFacets; ++k) {
      const auto radial = [&](int i) {
        const double angle = two_pi * double(i % kFacets) / kFacets;
        return Vec3<double>(rod->radius * (std::cos(angle) * rod->e1 + std::sin(angle) * rod->e2));
      };
      // s from e1 towards e2 and t along the axis: c_s x c_t points outwards.
      add_quad(shape, rod->origin + radial(k) - L * axis, rod->origin + radial(k + 1) - L * axis,
               rod->origin + radial(k + 1) + L * axis, rod->origin + radial(k) + L * axis);
    }
    shape.note = {{"drawn", fmt::format("{} m of the infinite cylinder about its origin, in {} facets", 2 * L, kFacets)}};
    return shape;
  }
  shape.vertices = tessellated->vertices();
  shape.patches = tessellated->vertex_patches();  // each triangle's three vertices lie on its patch
  for (const Hierarchy::Triangle& t : tessellated->triangles()) shape.faces.push_back({t.vertices[0], t.vertices[1], t.vertices[2]});
  shape.note = {{"bound_m", tessellated->bound()}, {"patches", complex.patches.size()}};
  return shape;
}

void write_ply(const std::filesystem::path& path, const Shape& shape, std::string body) {
  for (char& c : body)  // the name on one header line
    if (c == '\n' || c == '\r') c = ' ';
  std::ofstream file = open_output(path);
  const bool normals = !shape.normals.empty();
  file << "ply\nformat ascii 1.0\ncomment contactref body shape: " << body << " (body frame, m)\n"
       << "element vertex " << shape.vertices.size() << "\nproperty double x\nproperty double y\nproperty double z\n";
  if (normals) file << "property double nx\nproperty double ny\nproperty double nz\n";
  if (!shape.patches.empty()) file << "property int patch\n";
  file << "element face " << shape.faces.size() << "\nproperty list uchar int vertex_indices\nend_header\n";
  for (std::size_t i = 0; i < shape.vertices.size(); ++i) {
    const Vec3<double>& x = shape.vertices[i];
    file << fmt::format("{:.17g} {:.17g} {:.17g}", x.x(), x.y(), x.z());
    if (normals) file << fmt::format(" {:.17g} {:.17g} {:.17g}", shape.normals[i].x(), shape.normals[i].y(), shape.normals[i].z());
    if (!shape.patches.empty()) file << ' ' << shape.patches[i];
    file << '\n';
  }
  for (const std::vector<int>& face : shape.faces) {
    file << face.size();
    for (int v : face) file << ' ' << v;
    file << '\n';
  }
  close_output(file, path);
}

}  // namespace

nlohmann::ordered_json write_body_shapes(const std::filesystem::path& out, const scenes::Scene& scene) {
  std::filesystem::create_directories(out / "shapes");
  nlohmann::ordered_json manifest;
  manifest["note"] =
      "each body's shape in its own frame (m): a free body's pose is in bodies.csv (its origin the centre of mass), "
      "a fixed body's is pose_w_b below (row-major 4x4, world from body); PLY 1.0 ascii, faces counter-clockwise "
      "seen from outside";
  manifest["bodies"] = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const scenes::SceneBody& body = scene.bodies[k];
    nlohmann::ordered_json entry = {{"name", body.name}, {"geometry", body.geometry_type}, {"fixed", body.fixed}};
    if (body.fixed) entry["pose_w_b"] = rows(body.E_w_b.matrix());
    std::optional<Shape> shape;
    std::string why_not;
    switch (body.kind) {
      case scenes::GeometryKind::kSurface:
        shape = surface_shape(*body.complex(), why_not);
        break;
      case scenes::GeometryKind::kPolyhedron: {
        // Its triangulation (exact, in each face's plane), not its polygons:
        // three.js's PLY loader drops faces of more than four corners (a
        // prism's caps) and splits a quad by one diagonal, convex or not.
        std::vector<std::vector<int>> triangles;
        for (const robust_geometry::Triangle& t : body.geometry.polyhedron->triangles())
          triangles.push_back({t.vertices[0], t.vertices[1], t.vertices[2]});
        shape = Shape{body.geometry.polyhedron->vertices(), {}, std::move(triangles), {}, {}};
        break;
      }
      case scenes::GeometryKind::kPoints:
        shape = Shape{body.geometry.points.points, body.geometry.points.normals, {}, {}, {}};
        break;
    }
    if (!shape) {
      entry["file"] = nullptr;
      entry["why"] = why_not;
    } else {
      const std::string file = fmt::format("shapes/body{}.ply", k);
      write_ply(out / file, *shape, body.name);
      entry["file"] = file;
      entry["vertices"] = shape->vertices.size();
      entry["faces"] = shape->faces.size();
      for (const auto& [key, value] : shape->note.items()) entry[key] = value;
    }
    manifest["bodies"].push_back(entry);
  }
  write_json(out / "shapes.json", manifest);
  return manifest;
}

}  // namespace contactref::cli
