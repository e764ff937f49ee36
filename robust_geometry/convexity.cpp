#include "robust_geometry/convexity.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <cstddef>
#include <vector>

namespace contactref::robust_geometry {
namespace {

using Point = CGAL::Epick::Point_3;

// Every corner of face f turns the same way in the face's plane (or goes
// straight): a simple polygon (Polyhedron checks that) without a reflex
// corner is convex. coplanar_orientation's sign is coherent within a plane.
bool convex_face(const std::vector<Point>& points, const std::vector<int>& face) {
  const std::size_t k = face.size();
  CGAL::Orientation turn = CGAL::COLLINEAR;
  for (std::size_t i = 0; i < k; ++i) {
    const CGAL::Orientation o = CGAL::coplanar_orientation(points[std::size_t(face[i])],
                                                           points[std::size_t(face[(i + 1) % k])],
                                                           points[std::size_t(face[(i + 2) % k])]);
    if (o == CGAL::COLLINEAR) continue;
    if (turn == CGAL::COLLINEAR) turn = o;
    if (o != turn) return false;
  }
  return true;
}

}  // namespace

bool is_convex(const Polyhedron& polyhedron) {
  std::vector<Point> points;
  points.reserve(std::size_t(polyhedron.vertex_count()));
  for (const Eigen::Vector3d& x : polyhedron.vertices()) points.emplace_back(x.x(), x.y(), x.z());
  for (int f = 0; f < polyhedron.face_count(); ++f)
    if (!convex_face(points, polyhedron.face(f))) return false;
  // Each edge from face f0's side: the first vertex of the other face f1
  // that is off f0's plane lies below it. (f1 is convex with the edge on its
  // boundary, so it lies in a half-plane of its plane bounded by the edge's
  // line, on one side of f0's plane: any vertex off that plane tells.)
  for (const Edge& e : polyhedron.edges()) {
    const int f0 = e.faces[0], f1 = e.faces[1];
    const std::array<int, 3>& plane = polyhedron.plane_vertices(f0);
    const Point &p = points[std::size_t(plane[0])], &q = points[std::size_t(plane[1])],
                &r = points[std::size_t(plane[2])];
    const std::vector<int>& other = polyhedron.face(f1);
    for (std::size_t i = 0; i < other.size(); ++i) {
      const CGAL::Orientation side = CGAL::orientation(p, q, r, points[std::size_t(other[i])]);
      if (side == CGAL::POSITIVE) return false;  // above f0's plane (outside): a reflex edge
      if (side == CGAL::NEGATIVE) break;
    }
  }
  return true;
}

}  // namespace contactref::robust_geometry
