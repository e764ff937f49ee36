#pragma once
// Triangle meshes (the control meshes of Loop surfaces): reading OBJ and OFF,
// and the half-edge topology with the checks a Loop surface needs.
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "reference/spatial/scalar.hpp"

namespace contactref::surfaces {

struct TriangleMesh {
  std::vector<Vec3<double>> vertices;
  std::vector<std::array<int, 3>> faces;  // counter-clockwise seen from outside
};

// Reads an OBJ ("v x y z", "f a b c" with 1-based indices, "a/b/c" forms and
// negative indices accepted) or an OFF file (a colour after a face's corners
// ignored), chosen by the extension, which is checked before the path is
// opened; only a regular file is read (input_file.hpp). Only triangles are
// accepted. Throws InputError naming the file and line.
TriangleMesh read_triangle_mesh(const std::filesystem::path& path);
TriangleMesh parse_obj(const std::string& text, const std::string& name);
TriangleMesh parse_off(const std::string& text, const std::string& name);

// Half-edge adjacency of a triangle mesh. Half-edge h = 3 f + k runs from
// faces[f][k] to faces[f][(k + 1) % 3].
class MeshTopology {
 public:
  // Checks, with a message naming the vertex, edge or face: indices in range,
  // no face repeating a vertex, each directed edge used once (otherwise the
  // orientation is inconsistent or the edge is non-manifold), every vertex
  // used and its faces forming one fan. With allow_boundary = false (a
  // closed surface) every edge must have two faces. Throws InputError.
  MeshTopology(int vertex_count, const std::vector<std::array<int, 3>>& faces, bool allow_boundary,
               const std::string& name);

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
};

// Throws InputError unless every coordinate is finite and no face has zero
// area (collinear or coincident corners).
void check_mesh_geometry(const TriangleMesh& mesh, const std::string& name);

}  // namespace contactref::surfaces
