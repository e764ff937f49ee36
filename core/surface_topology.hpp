#pragma once
// The one topology check of a polygon mesh, shared by robust_geometry's
// Polyhedron and the Loop control meshes of reference/surfaces: every index in
// range, every face with at least 3 distinct corners, every vertex used, every
// edge with two faces traversing it in opposite directions (or one, on the
// boundary of an open surface), the faces around every vertex one fan, and
// optionally one connected component. Each refusal is an InputError naming
// the soup, the source line where the soup has one, and the element.
#include <array>
#include <string>
#include <vector>

#include "core/mesh_io.hpp"

namespace contactref {

// An undirected edge. faces[0] traverses it from vertices[0] to vertices[1]
// and faces[1] from vertices[1] to vertices[0]; positions[k] is the corner of
// faces[k] where the edge starts: face(faces[0])[positions[0]] == vertices[0]
// and face(faces[1])[positions[1]] == vertices[1]. faces[0] < faces[1]. On the
// boundary of an open surface faces[1] = positions[1] = -1.
struct SurfaceEdge {
  std::array<int, 2> vertices;
  std::array<int, 2> faces;
  std::array<int, 2> positions;
  bool on_boundary() const { return faces[1] < 0; }
};

class SurfaceTopology {
 public:
  // Checks soup's faces against its vertex count (see above) and builds the
  // adjacency. allow_boundary: an open surface (an edge may have one face);
  // require_connected: one component (a polyhedron is one shell).
  SurfaceTopology(const PolygonSoup& soup, bool require_connected, bool allow_boundary = false);
  // The same for faces without coordinates (a mesh built in code, or one whose
  // coordinates are held elsewhere): `name` and the line vectors (which may be
  // empty) as in PolygonSoup.
  SurfaceTopology(const std::string& name, int vertex_count, const std::vector<std::vector<int>>& faces,
                  const std::vector<int>& vertex_lines, const std::vector<int>& face_lines, bool require_connected,
                  bool allow_boundary);

  // Edges, numbered in order of first appearance along the faces.
  const std::vector<SurfaceEdge>& edges() const { return edges_; }
  // face_edges(f)[i] is the edge from face(f)[i] to face(f)[i + 1].
  const std::vector<std::vector<int>>& face_edges() const { return face_edges_; }
  // The faces around v, counter-clockwise seen from outside (one fan), and the
  // edges of v in the same order: vertex_edges(v)[k] leaves v along
  // vertex_faces(v)[k] and lies between vertex_faces(v)[k - 1] and
  // vertex_faces(v)[k] (cyclically). A boundary vertex's fan is open: it
  // starts at the face after a boundary edge, and vertex_edges(v) holds one
  // more edge, the boundary edge that closes it.
  const std::vector<std::vector<int>>& vertex_faces() const { return vertex_faces_; }
  const std::vector<std::vector<int>>& vertex_edges() const { return vertex_edges_; }
  bool on_boundary(int v) const { return vertex_edges_[std::size_t(v)].size() > vertex_faces_[std::size_t(v)].size(); }

 private:
  std::vector<SurfaceEdge> edges_;
  std::vector<std::vector<int>> face_edges_;
  std::vector<std::vector<int>> vertex_faces_;
  std::vector<std::vector<int>> vertex_edges_;
};

}  // namespace contactref
