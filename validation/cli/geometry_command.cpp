// `contactref geometry intersect A B [--pose-b tx,ty,tz,rx,ry,rz] [--json]`:
// the exact intersection of two polyhedra (OFF or OBJ, validated by
// robust_geometry/polyhedron.hpp) with B placed by a translation and a
// rotation vector (rad) in A's frame, and its moments
// (robust_geometry/intersection_volume.hpp; Bouchard et al. Eqs. 14-20): the
// volume (m^3), centroid (m), second moment M about the centroid (m^5, the
// inertia-like form of Eq. 16), the equivalent cuboid and ellipsoid, and the
// gradient of the volume for a rigid motion of B (angular about A's origin;
// linear), by the exact surface integral.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "reference/spatial/pose.hpp"
#include "reference/spatial/so3.hpp"
#include "robust_geometry/intersection_volume.hpp"
#include "robust_geometry/polyhedron.hpp"
#include "validation/cli/number_list.hpp"
#include "validation/cli/subcommands.hpp"

namespace contactref::cli {
namespace {

namespace rg = contactref::robust_geometry;

struct IntersectOptions {
  std::string a, b, pose_b;
  bool json = false;
};

rg::TriangleSolid triangle_solid(const rg::Polyhedron& polyhedron) {
  rg::TriangleSolid solid;
  solid.vertices = polyhedron.vertices();
  for (const rg::Triangle& triangle : polyhedron.triangles()) solid.triangles.push_back(triangle.vertices);
  return solid;
}

template <class Matrix>
nlohmann::ordered_json rows(const Matrix& m) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    out.push_back(m.cols() == 1 ? row[0] : row);
  }
  return out;
}

int run_intersect(const IntersectOptions& options) {
  const rg::Polyhedron a = rg::read_polyhedron(options.a), b = rg::read_polyhedron(options.b);
  Mat4<double> pose_b = Mat4<double>::Identity();
  if (!options.pose_b.empty()) {
    const std::vector<double> p = parse_number_list(options.pose_b, "--pose-b", "tx,ty,tz,rx,ry,rz", 6);
    pose_b = spatial::make_pose<double>(spatial::so3_exp<double>(Vec3<double>(p[3], p[4], p[5])),
                                        Vec3<double>(p[0], p[1], p[2]));
  }
  rg::IntersectionOptions intersection_options;
  intersection_options.assume_valid_solids = true;  // read_polyhedron has validated both exactly
  const rg::IntersectionMoments m =
      rg::intersection_moments(triangle_solid(a), triangle_solid(b), pose_b, intersection_options);
  nlohmann::ordered_json out;
  out["kind"] = rg::to_string(m.kind);
  out["volume"] = m.volume;
  // Without volume the centroid and the moments are undefined: null, not NaN.
  out["centroid"] = m.has_volume() ? rows(m.centroid) : nlohmann::ordered_json();
  out["second_moment"] = m.has_volume() ? rows(m.second_moment) : nlohmann::ordered_json();
  out["cuboid_dimensions"] = m.has_volume() ? rows(m.cuboid_dimensions) : nlohmann::ordered_json();
  out["ellipsoid_semi_axes"] = m.has_volume() ? rows(m.ellipsoid_semi_axes) : nlohmann::ordered_json();
  out["gradient"] = rows(m.gradient);
  if (options.json) {
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << fmt::format("intersection  {}\nvolume        {:.17g} m^3\n", out["kind"].get<std::string>(), m.volume);
    if (m.has_volume()) {
      std::cout << fmt::format("centroid      {:.17g} {:.17g} {:.17g} m\n", m.centroid.x(), m.centroid.y(), m.centroid.z());
      std::cout << fmt::format("cuboid        {:.17g} {:.17g} {:.17g} m\n", m.cuboid_dimensions.x(),
                               m.cuboid_dimensions.y(), m.cuboid_dimensions.z());
    }
    std::cout << fmt::format("gradient      {:.17g} {:.17g} {:.17g} | {:.17g} {:.17g} {:.17g}  (angular m^3/rad; linear m^2)\n",
                             m.gradient(0), m.gradient(1), m.gradient(2), m.gradient(3), m.gradient(4), m.gradient(5));
  }
  return 0;
}

}  // namespace

Action configure_geometry(CLI::App& app) {
  app.require_subcommand(1, 1);
  auto options = std::make_shared<IntersectOptions>();
  CLI::App* intersect = app.add_subcommand("intersect", "exact intersection volume, centroid, second moment and gradient");
  intersect->add_option("A", options->a, "first polyhedron (OFF or OBJ)")->required();
  intersect->add_option("B", options->b, "second polyhedron (OFF or OBJ)")->required();
  intersect->add_option("--pose-b", options->pose_b, "pose of B in A's frame: translation (m), rotation vector (rad)");
  intersect->add_flag("--json", options->json, "print one JSON document");
  return [options, intersect]() -> int {
    if (intersect->parsed()) return run_intersect(*options);
    return 2;
  };
}

}  // namespace contactref::cli
