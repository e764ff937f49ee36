#pragma once
// Triangle meshes (the control meshes of Loop surfaces), read by core's
// readers, and their half-edge topology, checked by core's topology check.
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "core/mesh_io.hpp"
#include "core/scalar.hpp"

namespace contactref {
class SurfaceTopology;
}

namespace contactref::surfaces {

// A triangle mesh with the source line of each vertex and face where it was
// read from a file (empty otherwise), so that later checks name the line.
struct TriangleMesh {
  std::vector<Vec3<double>> vertices;
  std::vector<std::array<int, 3>> faces;  // counter-clockwise seen from outside
  std::vector<int> vertex_lines;
  std::vector<int> face_lines;

  // The source line of vertex v / face f, 0 when unknown.
  int vertex_line(int v) const { return source_line(vertex_lines, v); }
  int face_line(int f) const { return source_line(face_lines, f); }
};

// The soup as a triangle mesh; InputError naming the file and line of the
// first face that is not a triangle.
TriangleMesh triangle_mesh(const PolygonSoup& soup);
// core's reader (OBJ, OFF or PLY by extension: core/mesh_io.hpp), then
// triangle_mesh.
TriangleMesh read_triangle_mesh(const std::filesystem::path& path);

// Half-edge adjacency of a triangle mesh. Half-edge h = 3 f + k runs from
// faces[f][k] to faces[f][(k + 1) % 3].
class MeshTopology {
 public:
  // The topology check of core/surface_topology.hpp (closed unless
  // allow_boundary), with messages naming `name` and the element: for meshes
  // built in code (a local or canonical mesh). Throws InputError.
  MeshTopology(int vertex_count, const std::vector<std::array<int, 3>>& faces, bool allow_boundary,
               const std::string& name);
  // The same for a closed control mesh, whose messages also name the source
  // line of the element.
  MeshTopology(const TriangleMesh& mesh, const std::string& name);

  int face_count() const { return int(faces_.size()); }
  int vertex_count() const { return int(outgoing_.size()); }
  const std::array<int, 3>& face(int f) const { return faces_[std::size_t(f)]; }
  int origin(int h) const { return faces_[std::size_t(h / 3)][std::size_t(h % 3)]; }
  int target(int h) const { return faces_[std::size_t(h / 3)][std::size_t((h + 1) % 3)]; }
  int twin(int h) const { return twin_[std::size_t(h)]; }  // -1 on a boundary
  // The half-edge from p to q, or -1.
  int half_edge(int p, int q) const;
  // The third vertex of the face that contains the half-edge p -> q: the
  // neighbour of p that follows q counter-clockwise. -1 if there is none.
  int next_ccw(int p, int q) const;
  // The neighbours of v in counter-clockwise order, starting at `first` (a
  // neighbour of v) or anywhere; for a boundary vertex the fan is open and
  // starts at its first boundary neighbour.
  std::vector<int> ring(int v, int first = -1) const;
  int valence(int v) const { return valence_[std::size_t(v)]; }
  bool on_boundary(int v) const { return boundary_[std::size_t(v)]; }

 private:
  std::vector<std::array<int, 3>> faces_;
  std::vector<int> twin_;
  std::vector<int> outgoing_;  // one outgoing half-edge per vertex (the boundary one, if any)
  std::vector<int> valence_;
  std::vector<bool> boundary_;

  MeshTopology(const SurfaceTopology& topology, const std::vector<std::array<int, 3>>& faces);
};

// Throws InputError, naming the line where the mesh has one, unless every
// coordinate is finite and no face has zero area (collinear or coincident
// corners).
void check_mesh_geometry(const TriangleMesh& mesh, const std::string& name);

}  // namespace contactref::surfaces
