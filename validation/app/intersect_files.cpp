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

struct Inputs {
  rg::TriangleSolid a, b;
  RigidPose<double> pose_b;
};

Inputs read_inputs(const std::string& a, const std::string& b, const std::string& pose_b) {
  return {triangle_solid(rg::read_polyhedron(a)), triangle_solid(rg::read_polyhedron(b)),
          pose_b.empty() ? RigidPose<double>() : parse_pose(pose_b, "--pose-b")};
}

}  // namespace

rg::IntersectionMoments intersect_files(const std::string& a, const std::string& b, const std::string& pose_b) {
  const Inputs in = read_inputs(a, b, pose_b);
  rg::IntersectionOptions options;
  options.assume_valid_solids = true;  // read_polyhedron has validated both exactly
  return rg::intersection_moments(in.a, in.b, in.pose_b, options);
}

rg::RaycastMoments intersect_files_fast(const std::string& a, const std::string& b, const std::string& pose_b,
                                        int cells) {
  const Inputs in = read_inputs(a, b, pose_b);
  rg::RaycastOptions options;
  options.cells = cells;
  options.assume_valid_solids = true;  // read_polyhedron has validated both exactly
  return rg::raycast_intersection_moments(in.a, in.b, in.pose_b, options);
}

}  // namespace contactref::cli
