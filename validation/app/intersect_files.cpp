#include "validation/app/intersect_files.hpp"

#include "robust_geometry/polyhedron.hpp"
#include "validation/app/number_list.hpp"

namespace contactref::cli {
namespace {

namespace rg = contactref::robust_geometry;

rg::TriangleSolid triangle_solid(const rg::Polyhedron& polyhedron) {
  rg::TriangleSolid solid;
  solid.vertices = polyhedron.vertices();
  for (const rg::Triangle& triangle : polyhedron.triangles()) solid.triangles.push_back(triangle.vertices);
  return solid;
}

}  // namespace

rg::IntersectionMoments intersect_files(const std::string& a, const std::string& b, const std::string& pose_b) {
  const rg::Polyhedron solid_a = rg::read_polyhedron(a), solid_b = rg::read_polyhedron(b);
  const RigidPose<double> pose = pose_b.empty() ? RigidPose<double>() : parse_pose(pose_b, "--pose-b");
  rg::IntersectionOptions options;
  options.assume_valid_solids = true;  // read_polyhedron has validated both exactly
  return rg::intersection_moments(triangle_solid(solid_a), triangle_solid(solid_b), pose, options);
}

}  // namespace contactref::cli
