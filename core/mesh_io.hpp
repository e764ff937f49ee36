#pragma once
// Mesh and point-cloud files, read one way for every layer: one reader per
// format into one soup type that keeps each element's source line, so that
// the topology and geometry checks run later (core/surface_topology.hpp,
// Polyhedron, LoopSurface) can still name the line of the element they refuse.
//
// Formats (chosen by extension, any case, checked before the file is opened;
// only a regular file is read: core/input_file.hpp):
//  - OFF: "OFF" then "V F E", V lines "x y z", F lines "n i_1 ... i_n"
//    (0-based; words after the n indices are a colour and ignored).
//  - OBJ: "v x y z" (optionally w = 1 or an r g b colour), "f a b c ..." with
//    1-based or negative (relative) indices in the forms a, a/t, a//n, a/t/n;
//    "vn" and every other statement ignored (OBJ normals belong to face
//    corners, not vertices).
//  - PLY (ascii, binary_little_endian, binary_big_endian 1.0): element
//    "vertex" with numeric properties x, y, z and optionally nx, ny, nz (all
//    three or none); element "face" with a list property vertex_indices (or
//    vertex_index); other elements and properties are read, checked and
//    ignored; bytes after the last element are refused.
//  - XYZ: one point per line, "x y z" or "x y z nx ny nz", the same count on
//    every line.
// '#' starts a comment in OFF, OBJ, XYZ and PLY text. Every reader throws InputError
// naming the file and the line (binary PLY: the element and its index):
// a bad or non-finite number, a count that disagrees with the data, an index
// out of range, a face with fewer than 3 corners or a repeated corner.
// Coordinates are read as the double nearest to the decimal text (strtod);
// a binary float is widened exactly.
#include <Eigen/Core>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace contactref {

// The 1-based source line lines[i], or 0 when unknown (i out of range, or the
// element was built in code).
inline int source_line(const std::vector<int>& lines, int i) {
  return i >= 0 && std::size_t(i) < lines.size() ? lines[std::size_t(i)] : 0;
}

// Faces as read from a file (or built in code), before any topology check.
// Indices are 0-based; faces are counter-clockwise seen from outside where
// orientation matters. The line vectors, where not empty, hold the 1-based
// source line of each vertex and face.
struct PolygonSoup {
  std::string name = "mesh";  // the file name, for messages
  std::vector<Eigen::Vector3d> vertices;
  std::vector<Eigen::Vector3d> normals;  // one per vertex (as read, not normalised), or none
  std::vector<std::vector<int>> faces;
  std::vector<int> vertex_lines;
  std::vector<int> face_lines;

  // The source line of vertex v / face f, 0 when unknown.
  int vertex_line(int v) const { return source_line(vertex_lines, v); }
  int face_line(int f) const { return source_line(face_lines, f); }
};

// A soup built in code (no normals, no source lines).
inline PolygonSoup polygon_soup(std::string name, std::vector<Eigen::Vector3d> vertices,
                                std::vector<std::vector<int>> faces) {
  PolygonSoup soup;
  soup.name = std::move(name);
  soup.vertices = std::move(vertices);
  soup.faces = std::move(faces);
  return soup;
}

// The box [-l/2, l/2] per axis (size: the edge lengths, m), six quads
// counter-clockwise seen from outside.
PolygonSoup box_soup(const Eigen::Vector3d& size, std::string name);

// Points with optional normals (the quasi-rigid model's surface samples).
struct PointCloud {
  std::string name = "points";
  std::vector<Eigen::Vector3d> points;
  std::vector<Eigen::Vector3d> normals;  // one per point (as read, not normalised), or none
  std::vector<int> point_lines;          // 1-based source lines, or empty
};

PolygonSoup parse_off(const std::string& text, const std::string& name);
PolygonSoup parse_obj(const std::string& text, const std::string& name);
// `bytes` is the whole file (the header is text, the body may be binary).
PolygonSoup parse_ply(const std::string& bytes, const std::string& name);
// Refuses an empty cloud, a zero normal and a line whose count differs from
// the first point's.
PointCloud parse_xyz(const std::string& text, const std::string& name);

// .off, .obj or .ply.
PolygonSoup read_polygon_soup(const std::filesystem::path& path);
// .xyz, or .ply (its vertices and their normals; faces, if any, are read and
// checked like a mesh's, then dropped). Refuses an empty cloud.
PointCloud read_point_cloud(const std::filesystem::path& path);

}  // namespace contactref
