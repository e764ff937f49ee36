#include "reference/surfaces/triangle_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include "core/errors.hpp"
#include "core/reader_text.hpp"
#include "core/surface_topology.hpp"

namespace contactref::surfaces {
namespace {

// The faces as the topology check takes them.
std::vector<std::vector<int>> polygon_faces(const std::vector<std::array<int, 3>>& faces) {
  std::vector<std::vector<int>> polygons;
  polygons.reserve(faces.size());
  for (const auto& face : faces) polygons.emplace_back(face.begin(), face.end());
  return polygons;
}

}  // namespace

TriangleMesh triangle_mesh(const PolygonSoup& soup) {
  TriangleMesh mesh;
  mesh.vertices = soup.vertices;
  for (std::size_t f = 0; f < soup.faces.size(); ++f) {
    const std::vector<int>& face = soup.faces[f];
    if (face.size() != 3)
      detail::fail(soup.name, soup.face_line(int(f)),
                   "face " + std::to_string(f) + " has " + std::to_string(face.size()) +
                       " corners; a Loop control mesh takes triangles only");
    mesh.faces.push_back({face[0], face[1], face[2]});
  }
  mesh.vertex_lines = soup.vertex_lines;
  mesh.face_lines = soup.face_lines;
  return mesh;
}

TriangleMesh read_triangle_mesh(const std::filesystem::path& path) { return triangle_mesh(read_polygon_soup(path)); }

void check_mesh_geometry(const TriangleMesh& mesh, const std::string& name) {
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
    if (!mesh.vertices[v].allFinite())
      detail::fail(name, mesh.vertex_line(int(v)), "vertex " + std::to_string(v) + " has a non-finite coordinate");
  double scale = 0;
  for (const auto& x : mesh.vertices) scale = std::max(scale, x.cwiseAbs().maxCoeff());
  // Coordinates divided by the power of two 2^e >= scale (exactly), so that
  // the cross product cannot overflow however large the mesh.
  int exponent = 0;
  std::frexp(scale, &exponent);
  const auto unit = [&](int v) -> Vec3<double> {
    return mesh.vertices[std::size_t(v)].unaryExpr([&](double x) { return std::ldexp(x, -exponent); });
  };
  const double unit_scale = std::ldexp(scale, -exponent);
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const auto& [a, b, c] = mesh.faces[f];
    const Vec3<double> n = (unit(b) - unit(a)).cross(unit(c) - unit(a));
    // Zero area up to the round-off of the cross product of coordinates of size `unit_scale`.
    if (!(n.norm() > 16 * std::numeric_limits<double>::epsilon() * unit_scale * unit_scale))
      detail::fail(name, mesh.face_line(int(f)), "face " + std::to_string(f) + " (vertices " + std::to_string(a) + ", " + std::to_string(b) + ", " +
                        std::to_string(c) + ") is degenerate (zero area)");
  }
}

MeshTopology::MeshTopology(int vertex_count, const std::vector<std::array<int, 3>>& faces, bool allow_boundary,
                           const std::string& name)
    : MeshTopology(SurfaceTopology(name, vertex_count, polygon_faces(faces), {}, {}, false, allow_boundary), faces) {}

MeshTopology::MeshTopology(const TriangleMesh& mesh, const std::string& name)
    : MeshTopology(SurfaceTopology(name, int(mesh.vertices.size()), polygon_faces(mesh.faces), mesh.vertex_lines,
                                   mesh.face_lines, false, false),
                   mesh.faces) {}

MeshTopology::MeshTopology(const SurfaceTopology& topology, const std::vector<std::array<int, 3>>& faces)
    : faces_(faces),
      twin_(3 * faces.size(), -1),
      outgoing_(topology.vertex_faces().size(), -1),
      valence_(topology.vertex_faces().size(), 0),
      boundary_(topology.vertex_faces().size(), false) {
  for (const SurfaceEdge& e : topology.edges()) {
    if (e.on_boundary()) continue;
    const int h0 = 3 * e.faces[0] + e.positions[0], h1 = 3 * e.faces[1] + e.positions[1];
    twin_[std::size_t(h0)] = h1;
    twin_[std::size_t(h1)] = h0;
  }
  for (std::size_t v = 0; v < outgoing_.size(); ++v) {
    // The fan's first face (after the boundary edge of a boundary vertex);
    // its half-edge leaving v starts the ring.
    const int f = topology.vertex_faces()[v].front();
    const auto& face = faces_[std::size_t(f)];
    const auto corner = std::find(face.begin(), face.end(), int(v)) - face.begin();
    outgoing_[v] = 3 * f + int(corner);
    boundary_[v] = topology.on_boundary(int(v));
    valence_[v] = int(ring(int(v)).size());
  }
}

int MeshTopology::half_edge(int p, int q) const {
  int h = outgoing_[std::size_t(p)];
  const int start = h;
  do {
    if (target(h) == q) return h;
    const int prev = 3 * (h / 3) + (h % 3 + 2) % 3;  // r -> p in face (p, q, r)
    h = twin_[std::size_t(prev)];
  } while (h >= 0 && h != start);
  return -1;
}

int MeshTopology::next_ccw(int p, int q) const {
  const int h = half_edge(p, q);
  return h < 0 ? -1 : faces_[std::size_t(h / 3)][std::size_t((h % 3 + 2) % 3)];
}

std::vector<int> MeshTopology::ring(int v, int first) const {
  std::vector<int> neighbours;
  int h = outgoing_[std::size_t(v)];
  const int start = h;
  while (true) {
    neighbours.push_back(target(h));
    const int prev = 3 * (h / 3) + (h % 3 + 2) % 3;
    const int next = twin_[std::size_t(prev)];
    if (next < 0) {  // open fan: the last neighbour closes it
      neighbours.push_back(origin(prev));
      break;
    }
    if (next == start) break;
    h = next;
  }
  if (first >= 0 && !boundary_[std::size_t(v)]) {
    const auto it = std::find(neighbours.begin(), neighbours.end(), first);
    if (it != neighbours.end()) std::rotate(neighbours.begin(), it, neighbours.end());
  }
  return neighbours;
}

}  // namespace contactref::surfaces
