// The OFF and OBJ readers (core/mesh_io.hpp).
#include <limits>
#include <string>
#include <vector>

#include "core/mesh_io.hpp"
#include "core/reader_text.hpp"

namespace contactref {

using detail::check_face_corners;
using detail::fail;
using detail::parse_coordinate;
using detail::parse_integer;
using detail::split_lines;

PolygonSoup parse_off(const std::string& text, const std::string& name) {
  const auto lines = split_lines(text);
  PolygonSoup soup;
  soup.name = name;
  std::size_t next = 0;  // the next line to read (0-based)
  // The next non-empty line, or an error naming what was expected.
  const auto take = [&](const std::string& expected) -> std::pair<const std::vector<std::string>*, int> {
    while (next < lines.size() && lines[next].empty()) ++next;
    if (next >= lines.size()) fail(name, int(lines.size()), "unexpected end of file: expected " + expected);
    ++next;
    return {&lines[next - 1], int(next)};
  };
  auto [header, header_line] = take("the 'OFF' header");
  if ((*header)[0] != "OFF")
    fail(name, header_line,
         "expected the header 'OFF', found '" + (*header)[0] + "' (COFF, NOFF and other variants are not supported)");
  std::vector<std::string> counts(header->begin() + 1, header->end());
  int counts_line = header_line;
  if (counts.empty()) {
    auto [words, line] = take("the counts 'vertices faces edges'");
    counts = *words;
    counts_line = line;
  }
  if (counts.size() != 3)
    fail(name, counts_line,
         "expected the three counts 'vertices faces edges', found " + std::to_string(counts.size()) + " values");
  const long vertex_count = parse_integer(counts[0], name, counts_line, "a vertex count");
  const long face_count = parse_integer(counts[1], name, counts_line, "a face count");
  const long edge_count = parse_integer(counts[2], name, counts_line, "an edge count");
  if (vertex_count < 0 || face_count < 0 || edge_count < 0) fail(name, counts_line, "counts must not be negative");
  if (vertex_count > std::numeric_limits<int>::max() || face_count > std::numeric_limits<int>::max())
    fail(name, counts_line, "counts too large");
  for (long v = 0; v < vertex_count; ++v) {
    auto [words, line] = take("vertex " + std::to_string(v) + " of " + std::to_string(vertex_count));
    if (words->size() != 3)
      fail(name, line,
           "vertex " + std::to_string(v) + ": expected 3 coordinates 'x y z', found " + std::to_string(words->size()) +
               " values");
    soup.vertices.emplace_back(parse_coordinate((*words)[0], name, line), parse_coordinate((*words)[1], name, line),
                               parse_coordinate((*words)[2], name, line));
    soup.vertex_lines.push_back(line);
  }
  for (long f = 0; f < face_count; ++f) {
    auto [words, line] = take("face " + std::to_string(f) + " of " + std::to_string(face_count));
    const long size = parse_integer((*words)[0], name, line, "a vertex count (the first number of a face line)");
    if (size < 3)
      fail(name, line,
           "face " + std::to_string(f) + " has " + std::to_string(size) + " vertices; a face needs at least 3");
    if (long(words->size()) - 1 < size)
      fail(name, line,
           "face " + std::to_string(f) + " announces " + std::to_string(size) + " vertices but lists " +
               std::to_string(words->size() - 1));
    std::vector<int> face;
    for (std::size_t k = 1; k <= std::size_t(size); ++k) {
      const long index = parse_integer((*words)[k], name, line, "a vertex index");
      if (index < 0 || index >= vertex_count)
        fail(name, line,
             "face " + std::to_string(f) + ": vertex index " + (*words)[k] + " is out of range (0.." +
                 std::to_string(vertex_count - 1) + ")");
      face.push_back(int(index));
    }
    // Words after the indices are a colour (Geomview OFF): ignored.
    check_face_corners(face, int(f), name, line);
    soup.faces.push_back(std::move(face));
    soup.face_lines.push_back(line);
  }
  while (next < lines.size() && lines[next].empty()) ++next;
  if (next < lines.size())
    fail(name, int(next + 1),
         "unexpected content after the last face (the header announces " + std::to_string(vertex_count) +
             " vertices and " + std::to_string(face_count) + " faces)");
  return soup;
}

PolygonSoup parse_obj(const std::string& text, const std::string& name) {
  const auto lines = split_lines(text);
  PolygonSoup soup;
  soup.name = name;
  // Positive indices may refer to vertices defined further down; they are
  // checked once all vertices are known.
  struct Pending {
    std::size_t face, corner;
    std::string word;
  };
  std::vector<Pending> pending;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const auto& words = lines[l];
    const int line = int(l + 1);
    if (words.empty()) continue;
    if (words[0] == "v") {
      // x y z, optionally w (which must be 1) or an r g b colour (ignored).
      if (words.size() != 4 && words.size() != 5 && words.size() != 7)
        fail(name, line,
             "vertex " + std::to_string(soup.vertices.size()) + ": expected 'v x y z' (optionally w or r g b), found " +
                 std::to_string(words.size() - 1) + " values");
      soup.vertices.emplace_back(parse_coordinate(words[1], name, line), parse_coordinate(words[2], name, line),
                                 parse_coordinate(words[3], name, line));
      if (words.size() == 5 && parse_coordinate(words[4], name, line) != 1.0)
        fail(name, line,
             "vertex " + std::to_string(soup.vertices.size() - 1) + ": homogeneous coordinate w = " + words[4] +
                 " is not supported (only w = 1)");
      soup.vertex_lines.push_back(line);
    } else if (words[0] == "f") {
      const std::size_t f = soup.faces.size();
      std::vector<int> face;
      for (std::size_t k = 1; k < words.size(); ++k) {
        const std::string vertex_part = words[k].substr(0, words[k].find('/'));
        if (vertex_part.empty())
          fail(name, line, "face " + std::to_string(f) + ": corner '" + words[k] + "' has no vertex index");
        const long index = parse_integer(vertex_part, name, line, "a vertex index");
        const long count = long(soup.vertices.size());
        if (index == 0)
          fail(name, line, "face " + std::to_string(f) + ": vertex index 0 is invalid (OBJ indices start at 1)");
        if (index < 0) {
          // Relative: -1 is the last vertex defined so far.
          if (-index > count)
            fail(name, line,
                 "face " + std::to_string(f) + ": relative vertex index " + vertex_part + " is out of range (only " +
                     std::to_string(count) + " vertices defined so far)");
          face.push_back(int(count + index));
        } else {
          if (index > std::numeric_limits<int>::max())
            fail(name, line, "face " + std::to_string(f) + ": vertex index " + vertex_part + " is out of range");
          face.push_back(int(index - 1));
          pending.push_back({f, face.size() - 1, vertex_part});
        }
      }
      if (face.size() < 3)
        fail(
            name, line,
            "face " + std::to_string(f) + " has " + std::to_string(face.size()) + " vertices; a face needs at least 3");
      soup.faces.push_back(std::move(face));
      soup.face_lines.push_back(line);
    }
    // Other statements (vt, vn, g, o, s, usemtl, mtllib, l, p, ...) carry no
    // geometry of the solid.
  }
  for (const auto& p : pending) {
    if (soup.faces[p.face][p.corner] >= int(soup.vertices.size()))
      fail(name, soup.face_lines[p.face],
           "face " + std::to_string(p.face) + ": vertex index " + p.word + " is out of range (1.." +
               std::to_string(soup.vertices.size()) + ")");
  }
  for (std::size_t f = 0; f < soup.faces.size(); ++f)
    check_face_corners(soup.faces[f], int(f), name, soup.face_lines[f]);
  return soup;
}

}  // namespace contactref
