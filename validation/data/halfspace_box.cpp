// A half-space as a box for the exact intersection paths; see halfspace_box.hpp.
#include "validation/data/halfspace_box.hpp"

#include <cmath>
#include <stdexcept>

#include "core/errors.hpp"

namespace contactref::data {

robust_geometry::TriangleSolid box_solid(const Eigen::Vector3d& lo, const Eigen::Vector3d& hi) {
  if (!lo.allFinite() || !hi.allFinite() || !(lo.array() < hi.array()).all()) {
    throw InputError("box_solid: lo and hi must be finite with lo < hi in every coordinate");
  }
  robust_geometry::TriangleSolid s;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) s.vertices.emplace_back(i ? hi.x() : lo.x(), j ? hi.y() : lo.y(), k ? hi.z() : lo.z());
  // Quads (a, b, c, d) counter-clockwise seen from outside.
  const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& q : quads) {
    s.triangles.push_back({q[0], q[1], q[2]});
    s.triangles.push_back({q[0], q[2], q[3]});
  }
  return s;
}

double bounding_box_diagonal(const robust_geometry::TriangleSolid& solid) {
  if (solid.vertices.empty()) return 0;
  Eigen::Vector3d lo = solid.vertices.front(), hi = lo;
  for (const Eigen::Vector3d& x : solid.vertices) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  return (hi - lo).norm();
}

HalfSpaceBox halfspace_box(const Eigen::Matrix3d& R, const Eigen::Vector3d& t, double L) {
  if (!(L > 0) || !std::isfinite(L)) throw InputError("halfspace_box: L must be positive and finite");
  HalfSpaceBox p;
  p.half_space.normal = R.col(2);
  p.half_space.offset = R.col(2).dot(t);
  p.box = box_solid(Eigen::Vector3d(-L, -L, -L), Eigen::Vector3d(L, L, 0));
  Eigen::Matrix4d E = Eigen::Matrix4d::Identity();
  E.topLeftCorner<3, 3>() = R;
  E.topRightCorner<3, 1>() = t;
  p.pose = RigidPose<double>::from_matrix(E, "halfspace_box: the pose (R, t)");
  return p;
}

HalfSpaceBox halfspace_box_around(const robust_geometry::TriangleSolid& a, const Eigen::Matrix3d& R,
                                  const Eigen::Vector3d& t) {
  return halfspace_box(R, t, 4 * bounding_box_diagonal(a));
}

}  // namespace contactref::data
