// Reading mesh and point-cloud files by extension (core/mesh_io.hpp).
#include "core/mesh_io.hpp"

#include <algorithm>
#include <cctype>

#include "core/errors.hpp"
#include "core/input_file.hpp"

namespace contactref {
namespace {

std::string lower_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return extension;
}

}  // namespace

PolygonSoup read_polygon_soup(const std::filesystem::path& path) {
  const std::string extension = lower_extension(path);
  if (extension != ".off" && extension != ".obj" && extension != ".ply")
    throw InputError(path.string() + ": unknown mesh file format '" + extension + "' (use .off, .obj or .ply)");
  const std::string text = read_input_file(path, "the mesh file");
  if (extension == ".off") return parse_off(text, path.string());
  if (extension == ".obj") return parse_obj(text, path.string());
  return parse_ply(text, path.string());
}

PointCloud read_point_cloud(const std::filesystem::path& path) {
  const std::string extension = lower_extension(path);
  if (extension != ".xyz" && extension != ".ply")
    throw InputError(path.string() + ": unknown point-cloud file format '" + extension + "' (use .xyz or .ply)");
  const std::string text = read_input_file(path, "the point-cloud file");
  if (extension == ".xyz") return parse_xyz(text, path.string());
  PolygonSoup soup = parse_ply(text, path.string());
  if (soup.vertices.empty()) throw InputError(path.string() + ": no points (the PLY file has no vertices)");
  return PointCloud{.name = soup.name,
                    .points = std::move(soup.vertices),
                    .normals = std::move(soup.normals),
                    .point_lines = std::move(soup.vertex_lines)};
}

PolygonSoup box_soup(const Eigen::Vector3d& size, std::string name) {
  std::vector<Eigen::Vector3d> vertices;
  for (int k = 0; k < 8; ++k)
    vertices.emplace_back((k & 1 ? 0.5 : -0.5) * size.x(), (k & 2 ? 0.5 : -0.5) * size.y(), (k & 4 ? 0.5 : -0.5) * size.z());
  return polygon_soup(std::move(name), std::move(vertices),
                      {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}});
}

}  // namespace contactref
