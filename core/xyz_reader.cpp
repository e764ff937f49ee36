// XYZ point clouds (core/mesh_io.hpp): one point per line, "x y z" or
// "x y z nx ny nz"; the first point fixes which for the whole file, so that a
// cloud has a normal at every point or at none.
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/mesh_io.hpp"
#include "core/reader_text.hpp"

namespace contactref {

PointCloud parse_xyz(const std::string& text, const std::string& name) {
  using detail::fail;
  using detail::parse_coordinate;
  const auto lines = detail::split_lines(text);
  PointCloud cloud;
  cloud.name = name;
  std::size_t columns = 0;  // the first point's count of values, 3 or 6
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::string>& words = lines[i];
    if (words.empty()) continue;
    const int line = int(i + 1);
    if (words.size() != 3 && words.size() != 6)
      fail(name, line, "expected 3 values 'x y z' or 6 'x y z nx ny nz', found " + std::to_string(words.size()));
    if (columns == 0) columns = words.size();
    if (words.size() != columns)
      fail(name, line,
           "found " + std::to_string(words.size()) + " values, but the first point (line " +
               std::to_string(cloud.point_lines.front()) + ") has " + std::to_string(columns));
    cloud.points.emplace_back(parse_coordinate(words[0], name, line), parse_coordinate(words[1], name, line),
                              parse_coordinate(words[2], name, line));
    cloud.point_lines.push_back(line);
    if (columns == 3) continue;
    const Eigen::Vector3d normal(parse_coordinate(words[3], name, line), parse_coordinate(words[4], name, line),
                                 parse_coordinate(words[5], name, line));
    // A zero normal has no direction; -0 counts as zero.
    if (normal == Eigen::Vector3d::Zero())
      fail(name, line, "point " + std::to_string(cloud.points.size() - 1) + " has the zero normal");
    cloud.normals.push_back(normal);
  }
  if (cloud.points.empty()) fail(name, 0, "no points");
  return cloud;
}

}  // namespace contactref
