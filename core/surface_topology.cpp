#include "core/surface_topology.hpp"

#include <algorithm>
#include <cstdint>
#include <queue>
#include <string>
#include <unordered_map>

#include "core/reader_text.hpp"

namespace contactref {
namespace {

using detail::fail;
using detail::join;

std::uint64_t edge_key(int a, int b) {
  const auto lo = std::uint64_t(std::uint32_t(std::min(a, b))), hi = std::uint64_t(std::uint32_t(std::max(a, b)));
  return lo << 32 | hi;
}

// A corner of a face: face(face)[position].
struct Corner {
  int face, position;
};

void check_faces(const std::string& name, int vertex_count, const std::vector<std::vector<int>>& faces,
                 const std::vector<int>& face_lines) {
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const std::vector<int>& face = faces[f];
    const int line = source_line(face_lines, int(f));
    for (const int v : face) {
      if (v < 0 || v >= vertex_count)
        fail(name, line,
             "face " + std::to_string(f) + " refers to vertex " + std::to_string(v) + ", which does not exist (" +
                 std::to_string(vertex_count) + " vertices)");
    }
    detail::check_face_corners(face, int(f), name, line);
  }
  if (faces.empty()) fail(name, 0, "the mesh has no faces");
}

}  // namespace

SurfaceTopology::SurfaceTopology(const PolygonSoup& soup, bool require_connected, bool allow_boundary)
    : SurfaceTopology(soup.name, int(soup.vertices.size()), soup.faces, soup.vertex_lines, soup.face_lines,
                      require_connected, allow_boundary) {}

SurfaceTopology::SurfaceTopology(const std::string& name, int vertex_count_in,
                                 const std::vector<std::vector<int>>& faces, const std::vector<int>& vertex_lines,
                                 const std::vector<int>& face_lines, bool require_connected, bool allow_boundary) {
  if (vertex_count_in < 0) fail(name, 0, "negative vertex count " + std::to_string(vertex_count_in));
  check_faces(name, vertex_count_in, faces, face_lines);
  const auto face_error = [&](int f, const std::string& what) { fail(name, source_line(face_lines, f), what); };
  const auto start = [&](const Corner& c) { return faces[std::size_t(c.face)][std::size_t(c.position)]; };
  const auto end = [&](const Corner& c) {
    const auto& face = faces[std::size_t(c.face)];
    return face[(std::size_t(c.position) + 1) % face.size()];
  };

  // Edges: the corners that start each undirected edge.
  std::unordered_map<std::uint64_t, int> index;
  std::vector<std::vector<Corner>> uses;
  face_edges_.resize(faces.size());
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const auto& face = faces[f];
    for (std::size_t i = 0; i < face.size(); ++i) {
      const auto [it, added] = index.emplace(edge_key(face[i], face[(i + 1) % face.size()]), int(uses.size()));
      if (added) uses.emplace_back();
      uses[std::size_t(it->second)].push_back({int(f), int(i)});
      face_edges_[f].push_back(it->second);
    }
  }
  for (const std::vector<Corner>& u : uses) {
    const std::string edge = "edge " + std::to_string(start(u[0])) + "-" + std::to_string(end(u[0]));
    if (u.size() > 2) {
      std::vector<int> around;
      for (const Corner& c : u) around.push_back(c.face);
      face_error(u[0].face, edge + " is non-manifold: it has " + std::to_string(u.size()) + " faces (faces " +
                                join(around) + ")");
    }
    if (u.size() == 1) {
      if (!allow_boundary)
        face_error(u[0].face,
                   edge + " has only one face (face " + std::to_string(u[0].face) + "): the surface is open");
      edges_.push_back({{start(u[0]), end(u[0])}, {u[0].face, -1}, {u[0].position, -1}});
      continue;
    }
    if (start(u[0]) == start(u[1]))
      face_error(u[1].face, "faces " + std::to_string(u[0].face) + " and " + std::to_string(u[1].face) +
                                " are inconsistently oriented: both traverse their shared " + edge +
                                " in the same direction");
    edges_.push_back({{start(u[0]), end(u[0])}, {u[0].face, u[1].face}, {u[0].position, u[1].position}});
  }

  // Fans. Around v, counter-clockwise seen from outside, the face after f is
  // the other face of f's edge (previous corner, v); the face before f is
  // across f's edge (v, next corner), so a boundary vertex's fan starts at the
  // corner whose outgoing edge is on the boundary.
  const auto vertex_count = std::size_t(vertex_count_in);
  std::vector<std::vector<Corner>> corners(vertex_count);
  for (std::size_t f = 0; f < faces.size(); ++f)
    for (std::size_t i = 0; i < faces[f].size(); ++i) corners[std::size_t(faces[f][i])].push_back({int(f), int(i)});
  const auto outgoing = [&](const Corner& c) { return face_edges_[std::size_t(c.face)][std::size_t(c.position)]; };
  vertex_faces_.resize(vertex_count);
  vertex_edges_.resize(vertex_count);
  for (std::size_t v = 0; v < vertex_count; ++v) {
    const std::vector<Corner>& at = corners[v];
    if (at.empty()) fail(name, source_line(vertex_lines, int(v)), "vertex " + std::to_string(v) + " is not used by any face");
    const auto first = std::find_if(at.begin(), at.end(),
                                    [&](const Corner& c) { return edges_[std::size_t(outgoing(c))].on_boundary(); });
    Corner corner = first != at.end() ? *first : at[0];
    std::vector<int>& fan = vertex_faces_[v];
    std::vector<int>& spokes = vertex_edges_[v];
    while (fan.size() < at.size()) {
      fan.push_back(corner.face);
      spokes.push_back(outgoing(corner));
      const auto& face = faces[std::size_t(corner.face)];
      const std::size_t previous = (std::size_t(corner.position) + face.size() - 1) % face.size();
      const int incoming = face_edges_[std::size_t(corner.face)][previous];
      const SurfaceEdge& e = edges_[std::size_t(incoming)];
      if (e.on_boundary()) {
        spokes.push_back(incoming);  // closes the open fan
        break;
      }
      const std::size_t k = e.faces[0] == corner.face ? 1 : 0;  // the other face: it traverses v -> previous corner
      corner = {e.faces[k], e.positions[k]};
      if (corner.face == fan.front()) break;
    }
    if (fan.size() != at.size()) {
      std::vector<int> others;
      for (const Corner& c : at)
        if (std::find(fan.begin(), fan.end(), c.face) == fan.end()) others.push_back(c.face);
      fail(name, source_line(vertex_lines, int(v)),
           "vertex " + std::to_string(v) + " is non-manifold: its faces form more than one fan (faces " + join(fan) +
               " around it, and separately faces " + join(others) + ")");
    }
  }

  if (!require_connected) return;
  // Connectedness through edges (with manifold vertices, the same as through
  // vertices).
  std::vector<bool> reached(faces.size(), false);
  std::queue<int> queue;
  reached[0] = true;
  queue.push(0);
  while (!queue.empty()) {
    const int f = queue.front();
    queue.pop();
    for (const int e : face_edges_[std::size_t(f)]) {
      for (const int g : edges_[std::size_t(e)].faces) {
        if (g >= 0 && !reached[std::size_t(g)]) {
          reached[std::size_t(g)] = true;
          queue.push(g);
        }
      }
    }
  }
  const auto apart = std::find(reached.begin(), reached.end(), false);
  if (apart != reached.end()) {
    const int f = int(apart - reached.begin());
    face_error(f, "the surface is not connected: face " + std::to_string(f) +
                      " is not connected to face 0 (a polyhedron is one closed shell; give each component as its own "
                      "polyhedron)");
  }
}

}  // namespace contactref
