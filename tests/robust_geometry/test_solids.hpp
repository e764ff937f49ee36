#pragma once
// Small solids and entity look-ups for the contact tests of robust_geometry:
// polyhedra built in code (convex ones from their faces, boxes, tetrahedra,
// octahedra, prisms over a profile), rigid poses, and the entities of a
// polyhedron named by their coordinates.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "robust_geometry/contact_regions.hpp"

namespace contactref::robust_geometry::test_solids {

using Eigen::Vector3d;

inline const std::filesystem::path kPolyhedra =
    std::filesystem::path(CONTACTREF_SOURCE_DIR) / "validation/data/polyhedra";

// A convex polyhedron from its vertices and faces, each face's vertices
// reordered if needed to run counter-clockwise seen from outside (tested
// against the centroid of the vertices).
inline Polyhedron convex(const std::vector<Vector3d>& vertices, std::vector<std::vector<int>> faces, const std::string& name) {
  Vector3d centre = Vector3d::Zero();
  for (const Vector3d& v : vertices) centre += v / double(vertices.size());
  for (auto& f : faces) {
    const Vector3d& a = vertices[std::size_t(f[0])];
    const Vector3d n = (vertices[std::size_t(f[1])] - a).cross(vertices[std::size_t(f[2])] - a);
    if (n.dot(a - centre) < 0) std::reverse(f.begin(), f.end());
  }
  return Polyhedron(PolygonSoup{vertices, faces, name, {}, {}});
}

inline Polyhedron box(const Vector3d& lo, const Vector3d& hi) {
  std::vector<Vector3d> v;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) v.emplace_back(i ? hi.x() : lo.x(), j ? hi.y() : lo.y(), k ? hi.z() : lo.z());
  return convex(v, {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}, "box");
}

inline Polyhedron tetrahedron(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d) {
  return convex({a, b, c, d}, {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}, "tetrahedron");
}

// The octahedron with vertices at distance r on the axes, its lowest vertex at
// `bottom`.
inline Polyhedron octahedron(const Vector3d& bottom, double r) {
  const Vector3d c = bottom + Vector3d(0, 0, r);
  return convex({c + Vector3d(r, 0, 0), c - Vector3d(r, 0, 0), c + Vector3d(0, r, 0), c - Vector3d(0, r, 0),
                 c + Vector3d(0, 0, r), c - Vector3d(0, 0, r)},
                {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}}, "octahedron");
}

inline Eigen::Matrix4d translation(const Vector3d& t) {
  Eigen::Matrix4d pose = Eigen::Matrix4d::Identity();
  pose.topRightCorner<3, 1>() = t;
  return pose;
}

// Entities named by geometry (in the polyhedron's own frame).
inline Entity vertex_at(const Polyhedron& p, const Vector3d& x) {
  for (int v = 0; v < p.vertex_count(); ++v)
    if (p.vertex(v) == x) return {EntityKind::vertex, v};
  ADD_FAILURE() << "no vertex at " << x.transpose();
  return {};
}
inline Entity edge_at(const Polyhedron& p, const Vector3d& x, const Vector3d& y) {
  const int e = p.find_edge(vertex_at(p, x).index, vertex_at(p, y).index);
  if (e < 0) ADD_FAILURE() << "no edge " << x.transpose() << " - " << y.transpose();
  return {EntityKind::edge, e};
}
inline Entity face_facing(const Polyhedron& p, const Vector3d& normal) {
  for (int f = 0; f < p.face_count(); ++f)
    if (p.plane(f).normal.dot(normal.normalized()) > 1 - 1e-12) return {EntityKind::face, f};
  ADD_FAILURE() << "no face with normal " << normal.transpose();
  return {};
}

// The prism over a simple polygon `profile` in the (x, z) plane (counter-
// clockwise seen from -y, i.e. with x to the right and z up), extruded over
// y in [y0, y1]: non-convex profiles give non-convex prisms.
inline Polyhedron prism_xz(const std::vector<Eigen::Vector2d>& profile, double y0, double y1, const std::string& name) {
  std::vector<Vector3d> v;
  const int n = int(profile.size());
  for (const auto& p : profile) v.emplace_back(p.x(), y0, p.y());
  for (const auto& p : profile) v.emplace_back(p.x(), y1, p.y());
  std::vector<std::vector<int>> faces;
  std::vector<int> front, back;
  for (int i = 0; i < n; ++i) {
    front.push_back(i);          // y = y0, seen from -y: counter-clockwise
    back.push_back(2 * n - 1 - i);  // y = y1, reversed
  }
  faces.push_back(front);
  faces.push_back(back);
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    faces.push_back({j, i, n + i, n + j});
  }
  return Polyhedron(PolygonSoup{v, faces, name, {}, {}});
}

}  // namespace contactref::robust_geometry::test_solids
