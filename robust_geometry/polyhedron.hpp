#pragma once
// Polyhedral solids as boundary representations (Bouma & Vanecek, Section 1,
// assumption 1: "objects are polyhedral B-reps"): vertices, planar polygonal
// faces (convex or not), edges with their two faces, adjacency, exact support
// planes, volume and centroid.
//
// A Polyhedron is immutable and always valid: its constructor refuses, with a
// InputError naming the offending element, anything that is not a
// closed, oriented, connected 2-manifold polyhedral surface without
// self-intersections bounding a positive volume, with planar simple faces.
// Every geometric decision is exact (CGAL's exact predicates on the input
// coordinates, read as the doubles they are); no tolerance is involved.
//
// CGAL stays out of this header: the exact support planes and points are
// reached through forward-declared CGAL types, so that only the translation
// units that use them include CGAL's kernel (<CGAL/Exact_predicates_exact_constructions_kernel.h>).
#include <Eigen/Core>
#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/mesh_io.hpp"
#include "core/surface_topology.hpp"

namespace CGAL {
class Epeck;
template <class Kernel>
class Point_3;
template <class Kernel>
class Plane_3;
}  // namespace CGAL

namespace contactref::robust_geometry {

// Meshes are read by core (core/mesh_io.hpp: OFF, OBJ, PLY) into a
// PolygonSoup; its topology is checked by core/surface_topology.hpp.

// A support plane in double: unit outward normal n and offset d, the plane
// being n . x = d. It approximates the exact plane (exact_plane) to a few ulps.
struct Plane {
  Eigen::Vector3d normal;
  double offset;
};

// An edge of a closed polyhedron (core/surface_topology.hpp): never on a
// boundary, so faces[1] and positions[1] are always set.
using Edge = SurfaceEdge;

// A triangle of the triangulation of face `face` (its corners are vertex
// indices, counter-clockwise seen from outside like the face).
struct Triangle {
  std::array<int, 3> vertices;
  int face;
};

class Polyhedron {
 public:
  // Validates (see below) and builds the adjacency, exact planes and
  // triangulation. Throws InputError naming soup.name, the source line
  // where known, and the element:
  //   - a vertex coordinate not finite, or of magnitude outside
  //     [2^-256, 2^256] (zero allowed), the range in which every exact
  //     quantity rounds to a normal double;
  //   - a face with fewer than 3 vertices, an index out of range, a vertex
  //     repeated in a face; a vertex used by no face;
  //   - an edge with one face (open), with more than two (non-manifold), or
  //     traversed in the same direction by its two faces (inconsistent
  //     orientation); a vertex whose faces form more than one fan
  //     (non-manifold vertex);
  //   - more than one connected component (a solid is one shell: two bodies
  //     are two polyhedra, and a shell nested in another cannot be checked
  //     for orientation by local tests);
  //   - a face whose vertices are all collinear (degenerate), a face with a
  //     vertex off the plane of its first three non-collinear vertices
  //     (non-planar; exact orientation predicate, no tolerance), a face that
  //     is not a simple polygon in its plane;
  //   - two faces that intersect other than in their shared edges and
  //     vertices (CGAL Polygon_mesh_processing::self_intersections on the
  //     triangulation; the message names the two input faces);
  //   - a volume <= 0 (inside out: faces clockwise seen from outside).
  explicit Polyhedron(PolygonSoup soup);

  const std::string& name() const { return name_; }
  int vertex_count() const { return int(vertices_.size()); }
  int edge_count() const { return int(edges_.size()); }
  int face_count() const { return int(faces_.size()); }
  // V - E + F: 2 for a solid without handles, 2 - 2 g for genus g.
  int euler_characteristic() const { return vertex_count() - edge_count() + face_count(); }

  // The input coordinates, exactly as read.
  const std::vector<Eigen::Vector3d>& vertices() const { return vertices_; }
  const Eigen::Vector3d& vertex(int v) const { return vertices_[std::size_t(v)]; }
  // Vertex indices counter-clockwise seen from outside.
  const std::vector<std::vector<int>>& faces() const { return faces_; }
  const std::vector<int>& face(int f) const { return faces_[std::size_t(f)]; }
  // Edges, numbered in order of first appearance along the faces.
  const std::vector<Edge>& edges() const { return edges_; }
  const Edge& edge(int e) const { return edges_[std::size_t(e)]; }
  // face_edges(f)[i] is the edge from face(f)[i] to face(f)[i + 1].
  const std::vector<int>& face_edges(int f) const { return face_edges_[std::size_t(f)]; }
  // The faces around v, counter-clockwise seen from outside (one fan), and
  // the edges of v in the same order: vertex_edges(v)[k] lies between
  // vertex_faces(v)[k - 1] and vertex_faces(v)[k] (cyclically).
  const std::vector<int>& vertex_faces(int v) const { return vertex_faces_[std::size_t(v)]; }
  const std::vector<int>& vertex_edges(int v) const { return vertex_edges_[std::size_t(v)]; }
  // The edge joining vertices a and b, or -1.
  int find_edge(int a, int b) const;

  // Face f's support plane in double (unit outward normal, offset).
  const Plane& plane(int f) const { return planes_[std::size_t(f)]; }
  // The three vertices whose exact plane is face f's support plane: a
  // strictly convex corner of the face (previous, corner, next), so that the
  // plane's orientation is the face's even where the face is not convex.
  const std::array<int, 3>& plane_vertices(int f) const { return plane_vertices_[std::size_t(f)]; }
  // The same plane exactly (CGAL::Epeck::Plane_3 through plane_vertices(f),
  // its positive side outside), and the vertices as exact points. Include
  // <CGAL/Exact_predicates_exact_constructions_kernel.h> to use them.
  const CGAL::Plane_3<CGAL::Epeck>& exact_plane(int f) const;
  const CGAL::Point_3<CGAL::Epeck>& exact_vertex(int v) const;

  // A triangulation of every face, with vertices only at polygon vertices
  // (constrained Delaunay in the face plane, exact predicates), each triangle
  // oriented like its face. Each face f of k vertices gives k - 2 triangles.
  const std::vector<Triangle>& triangles() const { return triangles_; }

  // Volume and centroid, computed exactly in rationals from the input
  // coordinates (divergence theorem over fans of tetrahedra from the origin)
  // and rounded once to double (within 1 ulp of the exact value).
  double volume() const { return volume_; }
  const Eigen::Vector3d& centroid() const { return centroid_; }

 private:
  struct Exact;  // the CGAL objects (exact points and planes)

  std::string name_;
  std::vector<Eigen::Vector3d> vertices_;
  std::vector<std::vector<int>> faces_;
  std::vector<Edge> edges_;
  std::vector<std::vector<int>> face_edges_;
  std::vector<std::vector<int>> vertex_faces_;
  std::vector<std::vector<int>> vertex_edges_;
  std::vector<Plane> planes_;
  std::vector<std::array<int, 3>> plane_vertices_;
  std::vector<Triangle> triangles_;
  double volume_ = 0;
  Eigen::Vector3d centroid_ = Eigen::Vector3d::Zero();
  std::shared_ptr<const Exact> exact_;  // immutable, so copies share it
};

// read_polygon_soup, then the Polyhedron (validated).
Polyhedron read_polyhedron(const std::filesystem::path& path);

}  // namespace contactref::robust_geometry
