#include "validation/data/contact_scenes.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <stdexcept>

#include "core/errors.hpp"

namespace contactref::data {

using Eigen::Vector2d;
using Eigen::Vector3d;
using robust_geometry::EntityKind;

namespace {

// The face's vertices reversed if their Newell normal (right for non-convex
// polygons too) points against `outward`.
std::vector<int> facing(std::vector<int> face, const std::vector<Vector3d>& v, const Vector3d& outward) {
  Vector3d newell = Vector3d::Zero();
  for (std::size_t i = 0; i < face.size(); ++i)
    newell += v[std::size_t(face[i])].cross(v[std::size_t(face[(i + 1) % face.size()])]);
  if (newell.dot(outward) < 0) std::reverse(face.begin(), face.end());
  return face;
}

}  // namespace

Polyhedron convex_polyhedron(const std::vector<Vector3d>& vertices, std::vector<std::vector<int>> faces,
                             const std::string& name) {
  Vector3d centre = Vector3d::Zero();
  for (const Vector3d& v : vertices) centre += v / double(vertices.size());
  for (auto& f : faces) f = facing(f, vertices, vertices[std::size_t(f[0])] - centre);
  return Polyhedron(polygon_soup(name, vertices, faces));
}

Polyhedron box(const Vector3d& lo, const Vector3d& hi) {
  std::vector<Vector3d> v;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) v.emplace_back(i ? hi.x() : lo.x(), j ? hi.y() : lo.y(), k ? hi.z() : lo.z());
  return convex_polyhedron(v, {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}},
                           "box");
}

Polyhedron tetrahedron(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d) {
  return convex_polyhedron({a, b, c, d}, {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}, "tetrahedron");
}

Polyhedron octahedron(const Vector3d& bottom, double r) {
  const Vector3d c = bottom + Vector3d(0, 0, r);
  return convex_polyhedron({c + Vector3d(r, 0, 0), c - Vector3d(r, 0, 0), c + Vector3d(0, r, 0), c - Vector3d(0, r, 0),
                            c + Vector3d(0, 0, r), c - Vector3d(0, 0, r)},
                           {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}},
                           "octahedron");
}

Polyhedron prism_xz(const std::vector<Vector2d>& profile, double y0, double y1, const std::string& name) {
  std::vector<Vector3d> v;
  const int n = int(profile.size());
  for (const Vector2d& p : profile) v.emplace_back(p.x(), y0, p.y());
  for (const Vector2d& p : profile) v.emplace_back(p.x(), y1, p.y());
  std::vector<std::vector<int>> faces(2);
  for (int i = 0; i < n; ++i) {
    faces[0].push_back(i);              // y = y0, seen from -y
    faces[1].push_back(2 * n - 1 - i);  // y = y1, seen from +y
  }
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    faces.push_back({j, i, n + i, n + j});
  }
  return Polyhedron(polygon_soup(name, v, faces));
}

RigidPose<double> translation(const Vector3d& t) { return RigidPose<double>::from_translation(t); }

Entity vertex_at(const Polyhedron& p, const Vector3d& x) {
  for (int v = 0; v < p.vertex_count(); ++v)
    if (p.vertex(v) == x) return {EntityKind::vertex, v};
  throw InputError(p.name() + ": no vertex at the given point");
}

Entity edge_at(const Polyhedron& p, const Vector3d& x, const Vector3d& y) {
  const int e = p.find_edge(vertex_at(p, x).index, vertex_at(p, y).index);
  if (e < 0) throw InputError(p.name() + ": no edge between the given points");
  return {EntityKind::edge, e};
}

Entity face_facing(const Polyhedron& p, const Vector3d& normal) {
  for (int f = 0; f < p.face_count(); ++f)
    if (p.plane(f).normal.dot(normal.normalized()) > 1 - 1e-12) return {EntityKind::face, f};
  throw InputError(p.name() + ": no face with the given normal");
}

ContactScene floor_with_ramp_and_block() {
  return {"floor with a ramp and a block",
          prism_xz({{0, -1}, {3, -1}, {3, 0.5}, {2.5, 0.5}, {2, 0}, {0, 0}}, 0, 1, "floor with a ramp"),
          box({1, 0.25, 0}, {2, 0.75, 1}), RigidPose<double>()};
}

Polyhedron two_fingers() {
  return prism_xz({{0, 0}, {4, 0}, {4, 0.2}, {3.5, 0.2}, {3, 1}, {2.5, 0.2}, {1.5, 0.2}, {1, 1}, {0.5, 0.2}, {0, 0.2}},
                  0, 1, "two fingers");
}

Polyhedron fig8_block() { return box({0, 0.25, 0}, {2.5, 0.75, 0.5}); }

ContactScene corner_and_tetrahedron(double cot_alpha) {
  const double top = kCornerCotBeta;  // y of f_3 at z = 1
  const std::vector<Vector3d> v{
      {-2, -1, -1}, {2, -1, -1}, {2, 2, -1}, {-2, 2, -1},  // 0-3: bottom
      {-2, 2, 0},   {2, 2, 0},                              // 4-5: front edge of the floor
      {-2, 0, 0},   {0, 0, 0},   {2, 0, 0},                 // 6-8: the corner line (7: p)
      {-2, 0, 1},   {0, 0, 1},                              // 9-10: top of f_2
      {0, top, 1},  {2, top, 1},                            // 11-12: top of f_3
      {-2, -1, 1},  {2, -1, 1}};                            // 13-14: back top
  const Vector3d f3_normal(0, 1, -kCornerCotBeta);
  const std::vector<std::vector<int>> faces{
      facing({0, 1, 2, 3}, v, {0, 0, -1}),          facing({3, 2, 5, 4}, v, {0, 1, 0}),
      facing({4, 5, 8, 7, 6}, v, {0, 0, 1}),         // f_1, the floor
      facing({6, 7, 10, 9}, v, {0, 1, 0}),           // f_2, the wall for x < 0
      facing({7, 8, 12, 11}, v, f3_normal),          // f_3, leaning over the floor
      facing({7, 10, 11}, v, {-1, 0, 0}),            // f_4, the end face at x = 0
      facing({13, 14, 12, 11, 10, 9}, v, {0, 0, 1}), facing({0, 1, 14, 13}, v, {0, -1, 0}),
      facing({0, 13, 9, 6, 4, 3}, v, {-1, 0, 0}),    facing({1, 2, 5, 8, 12, 14}, v, {1, 0, 0})};
  Polyhedron corner(polygon_soup("corner with a leaning wall", v, faces));
  Polyhedron tetra = tetrahedron({0, 0, 0}, {-1, 0, 0}, {-0.5, 1, 0}, {-0.5, 0.5 * cot_alpha, 0.5});
  return {"corner and tetrahedron", std::move(corner), std::move(tetra), RigidPose<double>()};
}

}  // namespace contactref::data
