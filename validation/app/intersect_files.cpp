#include "validation/app/intersect_files.hpp"

#include "robust_geometry/polyhedron.hpp"
#include "robust_geometry/triangle_solid.hpp"
#include "validation/app/number_list.hpp"

namespace contactref::cli {
namespace {

namespace rg = contactref::robust_geometry;

struct Inputs {
  rg::TriangleSolid a, b;
  RigidPose<double> pose_b;
};

Inputs read_inputs(const std::string& a, const std::string& b, const std::string& pose_b) {
  return {rg::triangle_solid(rg::read_polyhedron(a)), rg::triangle_solid(rg::read_polyhedron(b)),
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
