#include "robust_geometry/polyhedron.hpp"

#include "core/reader_text.hpp"
#include "core/surface_topology.hpp"
#include "robust_geometry/coordinate_range.hpp"

#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Exact_rational.h>
#include <CGAL/Polygon_2_algorithms.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <fstream>
#include <queue>
#include <sstream>
#include <unordered_map>
#include <utility>

namespace contactref::robust_geometry {

// Epick for predicates on the input points (exact: CGAL's filtered predicates
// fall back to exact arithmetic, and no point is constructed); Epeck where a
// construction (a support plane) feeds later predicates.
using Epick = CGAL::Exact_predicates_inexact_constructions_kernel;
using Epeck = CGAL::Exact_predicates_exact_constructions_kernel;

struct Polyhedron::Exact {
  std::vector<Epeck::Point_3> points;
  std::vector<Epeck::Plane_3> planes;
};

namespace {

using detail::describe_face;
using detail::fail;

// Where the elements of a soup came from, for the constructor's messages.
class Source {
 public:
  explicit Source(const PolygonSoup& soup) : soup_(soup) {}
  [[noreturn]] void vertex_error(int v, const std::string& what) const { fail(soup_.name, soup_.vertex_line(v), what); }
  [[noreturn]] void face_error(int f, const std::string& what) const { fail(soup_.name, soup_.face_line(f), what); }
  [[noreturn]] void error(const std::string& what) const { fail(soup_.name, 0, what); }
  [[noreturn]] void computation_error(const std::string& what) const {
    throw ComputationError(soup_.name + ": " + what);
  }

 private:
  const PolygonSoup& soup_;
};

}  // namespace

Polyhedron read_polyhedron(const std::filesystem::path& path) { return Polyhedron(read_polygon_soup(path)); }

// ---------------------------------------------------------------------------
// Validation and construction.

namespace {

// Coordinates: coordinate_range.hpp.
void check_coordinates(const std::vector<Eigen::Vector3d>& vertices, const Source& source) {
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    for (int k = 0; k < 3; ++k) {
      const double x = vertices[v](k);
      if (!std::isfinite(x))
        source.vertex_error(int(v),
                            "vertex " + std::to_string(v) + " has a non-finite coordinate (" + std::to_string(x) + ")");
      if (!supported_coordinate(x)) {
        std::ostringstream out;
        out << "vertex " << v << ": coordinate " << x << " is outside the supported magnitudes "
            << kSupportedMagnitudes << "; rescale the model";
        source.vertex_error(int(v), out.str());
      }
    }
  }
}

// What analyse_face finds out about a face: the corner that carries its
// support plane and its triangulation. The face is studied in a projection
// onto a coordinate plane (exact: dropping a coordinate constructs nothing).
struct FacePlane {
  std::array<int, 3> plane_vertices;
  std::vector<std::array<int, 3>> triangles;  // corner indices of the face
};

Epick::Point_2 project(const Epick::Point_3& p, int dropped) {
  // Cyclic order, so that the projected orientation has the sign of the
  // normal's dropped component.
  if (dropped == 0) return {p.y(), p.z()};
  if (dropped == 1) return {p.z(), p.x()};
  return {p.x(), p.y()};
}

// The first pair of non-adjacent edges of a polygon that intersect, or two
// adjacent edges that overlap; for the message about a non-simple face.
std::pair<std::size_t, std::size_t> crossing_edges(const std::vector<Epick::Point_2>& points) {
  const std::size_t n = points.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Epick::Segment_2 a(points[i], points[(i + 1) % n]);
    for (std::size_t j = i + 1; j < n; ++j) {
      const Epick::Segment_2 b(points[j], points[(j + 1) % n]);
      const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      if (!adjacent) {
        if (CGAL::do_intersect(a, b)) return {i, j};
      } else {
        // Adjacent edges share one end point; they overlap iff the far end of
        // one lies on the other (a spike folding back on itself).
        const auto& shared = j == i + 1 ? points[j] : points[i];
        const auto& p = j == i + 1 ? points[i] : points[(i + 1) % n];
        const auto& q = j == i + 1 ? points[(j + 1) % n] : points[j];
        if (CGAL::collinear(p, shared, q) && !CGAL::collinear_are_strictly_ordered_along_line(p, shared, q))
          return {i, j};
      }
    }
  }
  return {n, n};
}

using CdtVertexBase = CGAL::Triangulation_vertex_base_with_info_2<int, Epick>;
using CdtFaceBase =
    CGAL::Triangulation_face_base_with_info_2<bool, Epick, CGAL::Constrained_triangulation_face_base_2<Epick>>;
using Cdt =
    CGAL::Constrained_Delaunay_triangulation_2<Epick, CGAL::Triangulation_data_structure_2<CdtVertexBase, CdtFaceBase>,
                                               CGAL::No_constraint_intersection_tag>;

// Planarity, simplicity, a strictly convex corner for the support plane, and
// the triangulation of face f; all decisions by exact predicates.
FacePlane analyse_face(int f, const std::vector<int>& face, const std::vector<Epick::Point_3>& points,
                       const std::vector<Eigen::Vector3d>& coordinates, const Source& source) {
  const std::size_t n = face.size();
  const auto P = [&](std::size_t i) -> const Epick::Point_3& { return points[std::size_t(face[i])]; };
  // The first three non-collinear vertices a, b, c.
  std::size_t b = 1;
  while (b < n && P(b) == P(0)) ++b;
  std::size_t c = b + 1;
  while (c < n && CGAL::collinear(P(0), P(b), P(c))) ++c;
  if (b >= n || c >= n) source.face_error(f, describe_face(f, face) + " is degenerate: all its vertices are collinear");
  for (std::size_t i = 1; i < n; ++i) {
    if (i != b && i != c && CGAL::orientation(P(0), P(b), P(c), P(i)) != CGAL::COPLANAR)
      source.face_error(f, describe_face(f, face) + " is not planar: vertex " + std::to_string(face[i]) +
                               " is off the plane through vertices " + std::to_string(face[0]) + ", " +
                               std::to_string(face[b]) + ", " + std::to_string(face[c]) + " (exact orientation test)");
  }
  // Drop the axis along which the normal is largest (in double), provided the
  // exact projection of a, b, c is not collinear (then the projection of the
  // plane is one-to-one).
  const Eigen::Vector3d& x0 = coordinates[std::size_t(face[0])];
  const Eigen::Vector3d normal_estimate =
      (coordinates[std::size_t(face[b])] - x0).cross(coordinates[std::size_t(face[c])] - x0);
  std::array<int, 3> axes{0, 1, 2};
  std::stable_sort(axes.begin(), axes.end(),
                   [&](int i, int j) { return std::abs(normal_estimate(i)) > std::abs(normal_estimate(j)); });
  int dropped = -1;
  for (const int axis : axes) {
    if (CGAL::orientation(project(P(0), axis), project(P(b), axis), project(P(c), axis)) != CGAL::COLLINEAR) {
      dropped = axis;
      break;
    }
  }
  if (dropped < 0) source.computation_error(describe_face(f, face) + ": no axis projects the face one-to-one");
  std::vector<Epick::Point_2> points_2;
  for (std::size_t i = 0; i < n; ++i) points_2.push_back(project(P(i), dropped));

  FacePlane result;
  if (n > 3 && !CGAL::is_simple_2(points_2.begin(), points_2.end(), Epick())) {
    const auto [i, j] = crossing_edges(points_2);
    std::string which = "its boundary touches itself";
    if (i < n)
      which = "its edges " + std::to_string(face[i]) + "-" + std::to_string(face[(i + 1) % n]) + " and " +
              std::to_string(face[j]) + "-" + std::to_string(face[(j + 1) % n]) + " intersect";
    source.face_error(f, describe_face(f, face) + " is not a simple polygon: " + which);
  }
  const CGAL::Orientation turn = n > 3 ? CGAL::orientation_2(points_2.begin(), points_2.end(), Epick())
                                       : CGAL::orientation(points_2[0], points_2[1], points_2[2]);
  // The lexicographically smallest vertex of a simple polygon is a strictly
  // convex corner: its turn is the polygon's.
  const std::size_t m = std::size_t(CGAL::left_vertex_2(points_2.begin(), points_2.end(), Epick()) - points_2.begin());
  const std::size_t previous = (m + n - 1) % n, next = (m + 1) % n;
  if (CGAL::orientation(points_2[previous], points_2[m], points_2[next]) != turn)
    source.computation_error(describe_face(f, face) + ": its extreme corner is not convex");
  result.plane_vertices = {face[previous], face[m], face[next]};

  if (n == 3) {
    result.triangles.push_back({0, 1, 2});
    return result;
  }
  Cdt cdt;
  std::vector<Cdt::Vertex_handle> handles;
  for (std::size_t i = 0; i < n; ++i) {
    handles.push_back(cdt.insert(points_2[i]));
    handles.back()->info() = int(i);
  }
  try {
    for (std::size_t i = 0; i < n; ++i) cdt.insert_constraint(handles[i], handles[(i + 1) % n]);
  } catch (const std::exception&) {
    source.computation_error(describe_face(f, face) + ": constrained triangulation of a simple polygon failed");
  }
  // Outside the polygon: reachable from the infinite face without crossing a
  // constraint.
  for (auto it = cdt.all_faces_begin(); it != cdt.all_faces_end(); ++it) it->info() = false;
  std::queue<Cdt::Face_handle> queue;
  queue.push(cdt.infinite_face());
  cdt.infinite_face()->info() = true;
  while (!queue.empty()) {
    const auto fh = queue.front();
    queue.pop();
    for (int i = 0; i < 3; ++i) {
      const auto neighbour = fh->neighbor(i);
      if (!neighbour->info() && !cdt.is_constrained({fh, i})) {
        neighbour->info() = true;
        queue.push(neighbour);
      }
    }
  }
  for (auto it = cdt.finite_faces_begin(); it != cdt.finite_faces_end(); ++it) {
    if (it->info()) continue;
    // CDT faces are counter-clockwise in the projection; the face's triangles
    // turn like the face.
    const int i = it->vertex(0)->info(), j = it->vertex(1)->info(), k = it->vertex(2)->info();
    if (turn == CGAL::COUNTERCLOCKWISE)
      result.triangles.push_back({i, j, k});
    else
      result.triangles.push_back({i, k, j});
  }
  if (result.triangles.size() != n - 2)
    source.computation_error(describe_face(f, face) + ": its triangulation has " +
                             std::to_string(result.triangles.size()) + " triangles, not " + std::to_string(n - 2));
  return result;
}

// Pairs of input faces whose triangles intersect other than in shared edges
// and vertices.
void check_self_intersections(const std::vector<Epick::Point_3>& points, const std::vector<Triangle>& triangles,
                              const std::vector<std::vector<int>>& faces, const Source& source) {
  using Mesh = CGAL::Surface_mesh<Epick::Point_3>;
  Mesh mesh;
  for (const auto& p : points) mesh.add_vertex(p);
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const auto& v = triangles[t].vertices;
    const auto added =
        mesh.add_face(Mesh::Vertex_index(Mesh::size_type(v[0])), Mesh::Vertex_index(Mesh::size_type(v[1])),
                      Mesh::Vertex_index(Mesh::size_type(v[2])));
    if (added == Mesh::null_face() || std::size_t(added.idx()) != t)
      source.computation_error("the triangulated surface could not be built as a CGAL Surface_mesh (triangle " +
                               std::to_string(t) + " of face " + std::to_string(triangles[t].face) + ")");
  }
  std::vector<std::pair<Mesh::Face_index, Mesh::Face_index>> pairs;
  CGAL::Polygon_mesh_processing::self_intersections(mesh, std::back_inserter(pairs));
  if (pairs.empty()) return;
  std::vector<std::pair<int, int>> face_pairs;
  for (const auto& [s, t] : pairs) {
    const int a = triangles[std::size_t(s.idx())].face, b = triangles[std::size_t(t.idx())].face;
    face_pairs.emplace_back(std::min(a, b), std::max(a, b));
  }
  std::sort(face_pairs.begin(), face_pairs.end());
  face_pairs.erase(std::unique(face_pairs.begin(), face_pairs.end()), face_pairs.end());
  const auto [a, b] = face_pairs[0];
  source.face_error(a, "the surface intersects itself: " + describe_face(a, faces[std::size_t(a)]) + " and " +
                           describe_face(b, faces[std::size_t(b)]) + " intersect" +
                           (face_pairs.size() > 1 ? " (" + std::to_string(face_pairs.size()) + " pairs of faces in all)"
                                                  : std::string()));
}

// The unit normal and offset of an exact plane a x + b y + c z + d = 0, with
// the coefficients scaled by their largest magnitude before normalising.
Plane approximate(const Epeck::Plane_3& plane) {
  Eigen::Vector3d n(CGAL::to_double(plane.a()), CGAL::to_double(plane.b()), CGAL::to_double(plane.c()));
  const double scale = n.cwiseAbs().maxCoeff();
  n /= scale;
  const double length = n.norm();
  return {n / length, -(CGAL::to_double(plane.d()) / scale) / length};
}

}  // namespace

Polyhedron::Polyhedron(PolygonSoup soup) : name_(soup.name) {
  const Source source(soup);
  if (soup.faces.empty()) source.error("the solid has no faces");
  check_coordinates(soup.vertices, source);
  const SurfaceTopology topology(soup, /*require_connected=*/true);
  vertices_ = std::move(soup.vertices);
  faces_ = std::move(soup.faces);
  edges_ = topology.edges();
  face_edges_ = topology.face_edges();
  vertex_faces_ = topology.vertex_faces();
  vertex_edges_ = topology.vertex_edges();

  // Geometry: faces planar and simple, their planes and triangulations.
  std::vector<Epick::Point_3> points;
  auto exact = std::make_shared<Exact>();
  for (const auto& x : vertices_) {
    points.emplace_back(x(0), x(1), x(2));
    exact->points.emplace_back(x(0), x(1), x(2));
  }
  for (std::size_t f = 0; f < faces_.size(); ++f) {
    FacePlane face_plane = analyse_face(int(f), faces_[f], points, vertices_, source);
    const auto& [a, b, c] = face_plane.plane_vertices;
    exact->planes.emplace_back(exact->points[std::size_t(a)], exact->points[std::size_t(b)],
                               exact->points[std::size_t(c)]);
    planes_.push_back(approximate(exact->planes.back()));
    plane_vertices_.push_back(face_plane.plane_vertices);
    for (const auto& t : face_plane.triangles)
      triangles_.push_back(
          {{faces_[f][std::size_t(t[0])], faces_[f][std::size_t(t[1])], faces_[f][std::size_t(t[2])]}, int(f)});
  }
  check_self_intersections(points, triangles_, faces_, source);

  // Volume and centroid, exactly: with the fan (x_0, x_i, x_i+1) of each face
  // and D = det(x_0, x_i, x_i+1) (six times the signed volume of the
  // tetrahedron with the origin), V = sum D / 6 and
  // c = sum D (x_0 + x_i + x_i+1) / (4 sum D). A fan gives the exact signed
  // area vector of any planar polygon, convex or not.
  using Q = CGAL::Exact_rational;
  std::vector<std::array<Q, 3>> q;
  q.reserve(vertices_.size());
  for (const auto& x : vertices_) q.push_back({Q(x(0)), Q(x(1)), Q(x(2))});
  Q six_volume = 0;
  std::array<Q, 3> moment{Q(0), Q(0), Q(0)};
  for (const auto& face : faces_) {
    const auto& x0 = q[std::size_t(face[0])];
    for (std::size_t i = 1; i + 1 < face.size(); ++i) {
      const auto& x1 = q[std::size_t(face[i])];
      const auto& x2 = q[std::size_t(face[i + 1])];
      const Q d = x0[0] * (x1[1] * x2[2] - x1[2] * x2[1]) - x0[1] * (x1[0] * x2[2] - x1[2] * x2[0]) +
                  x0[2] * (x1[0] * x2[1] - x1[1] * x2[0]);
      six_volume += d;
      for (std::size_t k = 0; k < 3; ++k) moment[k] += d * (x0[k] + x1[k] + x2[k]);
    }
  }
  if (CGAL::sign(six_volume) != CGAL::POSITIVE) {
    std::ostringstream out;
    if (CGAL::sign(six_volume) == CGAL::ZERO)
      out << "the surface encloses no volume";
    else
      out << "the solid is inside out: its volume is " << CGAL::to_double(six_volume / 6)
          << " (the faces are clockwise seen from outside; reverse the order of every face's vertices)";
    source.error(out.str());
  }
  volume_ = CGAL::to_double(six_volume / 6);
  for (std::size_t k = 0; k < 3; ++k) centroid_(Eigen::Index(k)) = CGAL::to_double(moment[k] / (4 * six_volume));
  exact_ = std::move(exact);
}

int Polyhedron::find_edge(int a, int b) const {
  if (a < 0 || a >= vertex_count()) return -1;
  for (const int e : vertex_edges_[std::size_t(a)]) {
    const auto& v = edges_[std::size_t(e)].vertices;
    if (v[0] == b || v[1] == b) return e;
  }
  return -1;
}

const CGAL::Plane_3<CGAL::Epeck>& Polyhedron::exact_plane(int f) const { return exact_->planes[std::size_t(f)]; }
const CGAL::Point_3<CGAL::Epeck>& Polyhedron::exact_vertex(int v) const { return exact_->points[std::size_t(v)]; }

}  // namespace contactref::robust_geometry
