#include "robust_geometry/polyhedron.hpp"

#include "robust_geometry/coordinate_range.hpp"

#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Exact_rational.h>
#include <CGAL/Polygon_2_algorithms.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <fstream>
#include <queue>
#include <sstream>
#include <unordered_map>
#include <utility>

namespace contactref::robust_geometry {

// Epick for predicates on the input points (exact: CGAL's filtered predicates
// fall back to exact arithmetic, and no point is constructed); Epeck where a
// construction (a support plane) feeds later predicates.
using Epick = CGAL::Exact_predicates_inexact_constructions_kernel;
using Epeck = CGAL::Exact_predicates_exact_constructions_kernel;

struct Polyhedron::Exact {
  std::vector<Epeck::Point_3> points;
  std::vector<Epeck::Plane_3> planes;
};

namespace {

// ---------------------------------------------------------------------------
// Messages: "NAME:LINE: what" where the line is known, "NAME: what" otherwise.

std::string located(const std::string& name, int line) {
  return name + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": ";
}

[[noreturn]] void fail(const std::string& name, int line, const std::string& what) {
  throw GeometryInputError(located(name, line) + what);
}

std::string join(const std::vector<int>& values, std::size_t at_most = 12) {
  std::string out;
  for (std::size_t i = 0; i < values.size() && i < at_most; ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  if (values.size() > at_most) out += ", ... (" + std::to_string(values.size()) + " in all)";
  return out;
}

// Where the elements of a soup came from, for the constructor's messages.
class Source {
 public:
  explicit Source(const PolygonSoup& soup)
      : name_(soup.name), vertex_lines_(soup.vertex_lines), face_lines_(soup.face_lines) {}
  [[noreturn]] void vertex_error(int v, const std::string& what) const { fail(name_, line(vertex_lines_, v), what); }
  [[noreturn]] void face_error(int f, const std::string& what) const { fail(name_, line(face_lines_, f), what); }
  [[noreturn]] void error(const std::string& what) const { fail(name_, 0, what); }
  [[noreturn]] void computation_error(const std::string& what) const {
    throw GeometryComputationError(name_ + ": " + what);
  }

 private:
  static int line(const std::vector<int>& lines, int i) {
    return i >= 0 && std::size_t(i) < lines.size() ? lines[std::size_t(i)] : 0;
  }
  std::string name_;
  std::vector<int> vertex_lines_, face_lines_;
};

std::string describe_face(int f, const std::vector<int>& face) {
  return "face " + std::to_string(f) + " (vertices " + join(face) + ")";
}

// ---------------------------------------------------------------------------
// Reading.

// The lines of a text, each split into words, '#' comments removed; a final
// '\r' (DOS line ends) counts as white space.
std::vector<std::vector<std::string>> split_lines(const std::string& text) {
  std::vector<std::vector<std::string>> lines;
  std::istringstream in(text);
  std::string line_text;
  while (std::getline(in, line_text)) {
    std::istringstream words(line_text.substr(0, line_text.find('#')));
    std::vector<std::string> line;
    for (std::string word; words >> word;) line.push_back(word);
    lines.push_back(std::move(line));
  }
  return lines;
}

double parse_coordinate(const std::string& word, const std::string& name, int line) {
  const char* begin = word.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end == begin || *end != '\0') fail(name, line, "'" + word + "' is not a number");
  // ERANGE also flags an underflow, whose result (a subnormal or zero) is the
  // correctly rounded value; only an overflow is refused.
  if (errno == ERANGE && std::abs(value) == HUGE_VAL) fail(name, line, "coordinate '" + word + "' overflows a double");
  if (!std::isfinite(value)) fail(name, line, "coordinate '" + word + "' is not finite");
  return value;
}

long parse_integer(const std::string& word, const std::string& name, int line, const char* what) {
  long value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc() || end != word.data() + word.size()) fail(name, line, "'" + word + "' is not " + what);
  return value;
}

// A face's checks that need no geometry, shared by the readers (which know
// the line) and the constructor.
void check_face_corners(const std::vector<int>& face, int f, const std::string& where, int line) {
  if (face.size() < 3)
    fail(where, line,
         "face " + std::to_string(f) + " has " + std::to_string(face.size()) + " vertices; a face needs at least 3");
  std::vector<int> sorted = face;
  std::sort(sorted.begin(), sorted.end());
  const auto repeat = std::adjacent_find(sorted.begin(), sorted.end());
  if (repeat != sorted.end()) fail(where, line, describe_face(f, face) + " repeats vertex " + std::to_string(*repeat));
}

}  // namespace

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

PolygonSoup read_polygon_soup(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (extension != ".off" && extension != ".obj")
    throw GeometryInputError(path.string() + ": unknown polyhedron file format '" + extension + "' (use .off or .obj)");
  // Anything but a regular file (a device such as /dev/zero, a FIFO) might
  // never end: refused before a byte is read, as read_input_file does for
  // reference/ (one reader for both when core/ lands, issue 11).
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw GeometryInputError(path.string() + ": cannot open the file (" +
                             (std::filesystem::exists(path, error) ? "not a regular file" : "no such file") + ")");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw GeometryInputError(path.string() + ": cannot open the file");
  std::stringstream buffer;
  buffer << file.rdbuf();
  return extension == ".off" ? parse_off(buffer.str(), path.string()) : parse_obj(buffer.str(), path.string());
}

Polyhedron read_polyhedron(const std::filesystem::path& path) { return Polyhedron(read_polygon_soup(path)); }

// ---------------------------------------------------------------------------
// Validation and construction.

namespace {

std::uint64_t edge_key(int a, int b) {
  const auto lo = std::uint64_t(std::uint32_t(std::min(a, b))), hi = std::uint64_t(std::uint32_t(std::max(a, b)));
  return lo << 32 | hi;
}

// Coordinates: coordinate_range.hpp.
void check_coordinates(const std::vector<Eigen::Vector3d>& vertices, const Source& source) {
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    for (int k = 0; k < 3; ++k) {
      const double x = vertices[v](k);
      if (!std::isfinite(x))
        source.vertex_error(int(v),
                            "vertex " + std::to_string(v) + " has a non-finite coordinate (" + std::to_string(x) + ")");
      if (!supported_coordinate(x)) {
        std::ostringstream out;
        out << "vertex " << v << ": coordinate " << x << " is outside the supported magnitudes "
            << kSupportedMagnitudes << "; rescale the model";
        source.vertex_error(int(v), out.str());
      }
    }
  }
}

struct Topology {
  std::vector<Edge> edges;
  std::vector<std::vector<int>> face_edges;
  std::vector<std::vector<int>> vertex_faces, vertex_edges;
};

// Edges (each with exactly two faces traversing it in opposite directions),
// the fans around the vertices (one each), and connectedness.
Topology build_topology(int vertex_count, const std::vector<std::vector<int>>& faces, const Source& source) {
  Topology t;
  struct Use {
    int face, position;
  };
  std::unordered_map<std::uint64_t, int> index;
  std::vector<std::vector<Use>> uses;
  t.face_edges.resize(faces.size());
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const auto& face = faces[f];
    for (std::size_t i = 0; i < face.size(); ++i) {
      const auto [it, added] = index.emplace(edge_key(face[i], face[(i + 1) % face.size()]), int(uses.size()));
      if (added) uses.emplace_back();
      uses[std::size_t(it->second)].push_back({int(f), int(i)});
      t.face_edges[f].push_back(it->second);
    }
  }
  const auto start = [&](const Use& u) { return faces[std::size_t(u.face)][std::size_t(u.position)]; };
  const auto end = [&](const Use& u) {
    const auto& face = faces[std::size_t(u.face)];
    return face[(std::size_t(u.position) + 1) % face.size()];
  };
  for (std::size_t e = 0; e < uses.size(); ++e) {
    const auto& u = uses[e];
    const std::string name = "edge " + std::to_string(start(u[0])) + "-" + std::to_string(end(u[0]));
    if (u.size() == 1)
      source.face_error(u[0].face,
                        name + " has only one face (face " + std::to_string(u[0].face) + "): the surface is open");
    if (u.size() > 2) {
      std::vector<int> around;
      for (const auto& use : u) around.push_back(use.face);
      source.face_error(u[0].face, name + " is non-manifold: it has " + std::to_string(u.size()) + " faces (faces " +
                                       join(around) + ")");
    }
    if (start(u[0]) == start(u[1]))
      source.face_error(u[1].face, "faces " + std::to_string(u[0].face) + " and " + std::to_string(u[1].face) +
                                       " are inconsistently oriented: both traverse their shared " + name +
                                       " in the same direction");
    t.edges.push_back({{start(u[0]), end(u[0])}, {u[0].face, u[1].face}, {u[0].position, u[1].position}});
  }

  // Fans. Around v, counter-clockwise seen from outside, the face after f is
  // the other face of f's edge (previous corner, v).
  std::vector<std::vector<Use>> corners(static_cast<std::size_t>(vertex_count));
  for (std::size_t f = 0; f < faces.size(); ++f)
    for (std::size_t i = 0; i < faces[f].size(); ++i) corners[std::size_t(faces[f][i])].push_back({int(f), int(i)});
  t.vertex_faces.resize(std::size_t(vertex_count));
  t.vertex_edges.resize(std::size_t(vertex_count));
  for (int v = 0; v < vertex_count; ++v) {
    const auto& at = corners[std::size_t(v)];
    if (at.empty()) source.vertex_error(v, "vertex " + std::to_string(v) + " is not used by any face");
    Use corner = at[0];
    do {
      const auto& face = faces[std::size_t(corner.face)];
      t.vertex_faces[std::size_t(v)].push_back(corner.face);
      t.vertex_edges[std::size_t(v)].push_back(t.face_edges[std::size_t(corner.face)][std::size_t(corner.position)]);
      const std::size_t previous = (std::size_t(corner.position) + face.size() - 1) % face.size();
      const Edge& e = t.edges[std::size_t(t.face_edges[std::size_t(corner.face)][previous])];
      const int k = e.faces[0] == corner.face ? 1 : 0;  // the other face: it traverses v -> previous corner
      corner = {e.faces[std::size_t(k)], e.positions[std::size_t(k)]};
    } while (corner.face != at[0].face && t.vertex_faces[std::size_t(v)].size() <= at.size());
    if (t.vertex_faces[std::size_t(v)].size() != at.size()) {
      std::vector<int> fan = t.vertex_faces[std::size_t(v)], others;
      for (const auto& c : at)
        if (std::find(fan.begin(), fan.end(), c.face) == fan.end()) others.push_back(c.face);
      source.vertex_error(v, "vertex " + std::to_string(v) +
                                 " is non-manifold: its faces form more than one fan (faces " + join(fan) +
                                 " around it, and separately faces " + join(others) + ")");
    }
  }

  // Connectedness (through edges; with manifold vertices, the same as through
  // vertices).
  std::vector<int> component(faces.size(), -1);
  std::queue<int> queue;
  component[0] = 0;
  queue.push(0);
  while (!queue.empty()) {
    const int f = queue.front();
    queue.pop();
    for (const int e : t.face_edges[std::size_t(f)]) {
      for (const int g : t.edges[std::size_t(e)].faces) {
        if (component[std::size_t(g)] < 0) {
          component[std::size_t(g)] = 0;
          queue.push(g);
        }
      }
    }
  }
  const auto apart = std::find(component.begin(), component.end(), -1);
  if (apart != component.end()) {
    const int f = int(apart - component.begin());
    source.face_error(f, "the surface is not connected: face " + std::to_string(f) +
                             " is not connected to face 0 (a polyhedron is one closed shell; give each "
                             "component as its own polyhedron)");
  }
  return t;
}

// What analyse_face finds out about a face: the corner that carries its
// support plane and its triangulation. The face is studied in a projection
// onto a coordinate plane (exact: dropping a coordinate constructs nothing).
struct FacePlane {
  std::array<int, 3> plane_vertices;
  std::vector<std::array<int, 3>> triangles;  // corner indices of the face
};

Epick::Point_2 project(const Epick::Point_3& p, int dropped) {
  // Cyclic order, so that the projected orientation has the sign of the
  // normal's dropped component.
  if (dropped == 0) return {p.y(), p.z()};
  if (dropped == 1) return {p.z(), p.x()};
  return {p.x(), p.y()};
}

// The first pair of non-adjacent edges of a polygon that intersect, or two
// adjacent edges that overlap; for the message about a non-simple face.
std::pair<std::size_t, std::size_t> crossing_edges(const std::vector<Epick::Point_2>& points) {
  const std::size_t n = points.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Epick::Segment_2 a(points[i], points[(i + 1) % n]);
    for (std::size_t j = i + 1; j < n; ++j) {
      const Epick::Segment_2 b(points[j], points[(j + 1) % n]);
      const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      if (!adjacent) {
        if (CGAL::do_intersect(a, b)) return {i, j};
      } else {
        // Adjacent edges share one end point; they overlap iff the far end of
        // one lies on the other (a spike folding back on itself).
        const auto& shared = j == i + 1 ? points[j] : points[i];
        const auto& p = j == i + 1 ? points[i] : points[(i + 1) % n];
        const auto& q = j == i + 1 ? points[(j + 1) % n] : points[j];
        if (CGAL::collinear(p, shared, q) && !CGAL::collinear_are_strictly_ordered_along_line(p, shared, q))
          return {i, j};
      }
    }
  }
  return {n, n};
}

using CdtVertexBase = CGAL::Triangulation_vertex_base_with_info_2<int, Epick>;
using CdtFaceBase =
    CGAL::Triangulation_face_base_with_info_2<bool, Epick, CGAL::Constrained_triangulation_face_base_2<Epick>>;
using Cdt =
    CGAL::Constrained_Delaunay_triangulation_2<Epick, CGAL::Triangulation_data_structure_2<CdtVertexBase, CdtFaceBase>,
                                               CGAL::No_constraint_intersection_tag>;

// Planarity, simplicity, a strictly convex corner for the support plane, and
// the triangulation of face f; all decisions by exact predicates.
FacePlane analyse_face(int f, const std::vector<int>& face, const std::vector<Epick::Point_3>& points,
                       const std::vector<Eigen::Vector3d>& coordinates, const Source& source) {
  const std::size_t n = face.size();
  const auto P = [&](std::size_t i) -> const Epick::Point_3& { return points[std::size_t(face[i])]; };
  // The first three non-collinear vertices a, b, c.
  std::size_t b = 1;
  while (b < n && P(b) == P(0)) ++b;
  std::size_t c = b + 1;
  while (c < n && CGAL::collinear(P(0), P(b), P(c))) ++c;
  if (b >= n || c >= n) source.face_error(f, describe_face(f, face) + " is degenerate: all its vertices are collinear");
  for (std::size_t i = 1; i < n; ++i) {
    if (i != b && i != c && CGAL::orientation(P(0), P(b), P(c), P(i)) != CGAL::COPLANAR)
      source.face_error(f, describe_face(f, face) + " is not planar: vertex " + std::to_string(face[i]) +
                               " is off the plane through vertices " + std::to_string(face[0]) + ", " +
                               std::to_string(face[b]) + ", " + std::to_string(face[c]) + " (exact orientation test)");
  }
  // Drop the axis along which the normal is largest (in double), provided the
  // exact projection of a, b, c is not collinear (then the projection of the
  // plane is one-to-one).
  const Eigen::Vector3d& x0 = coordinates[std::size_t(face[0])];
  const Eigen::Vector3d normal_estimate =
      (coordinates[std::size_t(face[b])] - x0).cross(coordinates[std::size_t(face[c])] - x0);
  std::array<int, 3> axes{0, 1, 2};
  std::stable_sort(axes.begin(), axes.end(),
                   [&](int i, int j) { return std::abs(normal_estimate(i)) > std::abs(normal_estimate(j)); });
  int dropped = -1;
  for (const int axis : axes) {
    if (CGAL::orientation(project(P(0), axis), project(P(b), axis), project(P(c), axis)) != CGAL::COLLINEAR) {
      dropped = axis;
      break;
    }
  }
  if (dropped < 0) source.computation_error(describe_face(f, face) + ": no axis projects the face one-to-one");
  std::vector<Epick::Point_2> points_2;
  for (std::size_t i = 0; i < n; ++i) points_2.push_back(project(P(i), dropped));

  FacePlane result;
  if (n > 3 && !CGAL::is_simple_2(points_2.begin(), points_2.end(), Epick())) {
    const auto [i, j] = crossing_edges(points_2);
    std::string which = "its boundary touches itself";
    if (i < n)
      which = "its edges " + std::to_string(face[i]) + "-" + std::to_string(face[(i + 1) % n]) + " and " +
              std::to_string(face[j]) + "-" + std::to_string(face[(j + 1) % n]) + " intersect";
    source.face_error(f, describe_face(f, face) + " is not a simple polygon: " + which);
  }
  const CGAL::Orientation turn = n > 3 ? CGAL::orientation_2(points_2.begin(), points_2.end(), Epick())
                                       : CGAL::orientation(points_2[0], points_2[1], points_2[2]);
  // The lexicographically smallest vertex of a simple polygon is a strictly
  // convex corner: its turn is the polygon's.
  const std::size_t m = std::size_t(CGAL::left_vertex_2(points_2.begin(), points_2.end(), Epick()) - points_2.begin());
  const std::size_t previous = (m + n - 1) % n, next = (m + 1) % n;
  if (CGAL::orientation(points_2[previous], points_2[m], points_2[next]) != turn)
    source.computation_error(describe_face(f, face) + ": its extreme corner is not convex");
  result.plane_vertices = {face[previous], face[m], face[next]};

  if (n == 3) {
    result.triangles.push_back({0, 1, 2});
    return result;
  }
  Cdt cdt;
  std::vector<Cdt::Vertex_handle> handles;
  for (std::size_t i = 0; i < n; ++i) {
    handles.push_back(cdt.insert(points_2[i]));
    handles.back()->info() = int(i);
  }
  try {
    for (std::size_t i = 0; i < n; ++i) cdt.insert_constraint(handles[i], handles[(i + 1) % n]);
  } catch (const std::exception&) {
    source.computation_error(describe_face(f, face) + ": constrained triangulation of a simple polygon failed");
  }
  // Outside the polygon: reachable from the infinite face without crossing a
  // constraint.
  for (auto it = cdt.all_faces_begin(); it != cdt.all_faces_end(); ++it) it->info() = false;
  std::queue<Cdt::Face_handle> queue;
  queue.push(cdt.infinite_face());
  cdt.infinite_face()->info() = true;
  while (!queue.empty()) {
    const auto fh = queue.front();
    queue.pop();
    for (int i = 0; i < 3; ++i) {
      const auto neighbour = fh->neighbor(i);
      if (!neighbour->info() && !cdt.is_constrained({fh, i})) {
        neighbour->info() = true;
        queue.push(neighbour);
      }
    }
  }
  for (auto it = cdt.finite_faces_begin(); it != cdt.finite_faces_end(); ++it) {
    if (it->info()) continue;
    // CDT faces are counter-clockwise in the projection; the face's triangles
    // turn like the face.
    const int i = it->vertex(0)->info(), j = it->vertex(1)->info(), k = it->vertex(2)->info();
    if (turn == CGAL::COUNTERCLOCKWISE)
      result.triangles.push_back({i, j, k});
    else
      result.triangles.push_back({i, k, j});
  }
  if (result.triangles.size() != n - 2)
    source.computation_error(describe_face(f, face) + ": its triangulation has " +
                             std::to_string(result.triangles.size()) + " triangles, not " + std::to_string(n - 2));
  return result;
}

// Pairs of input faces whose triangles intersect other than in shared edges
// and vertices.
void check_self_intersections(const std::vector<Epick::Point_3>& points, const std::vector<Triangle>& triangles,
                              const std::vector<std::vector<int>>& faces, const Source& source) {
  using Mesh = CGAL::Surface_mesh<Epick::Point_3>;
  Mesh mesh;
  for (const auto& p : points) mesh.add_vertex(p);
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const auto& v = triangles[t].vertices;
    const auto added =
        mesh.add_face(Mesh::Vertex_index(Mesh::size_type(v[0])), Mesh::Vertex_index(Mesh::size_type(v[1])),
                      Mesh::Vertex_index(Mesh::size_type(v[2])));
    if (added == Mesh::null_face() || std::size_t(added.idx()) != t)
      source.computation_error("the triangulated surface could not be built as a CGAL Surface_mesh (triangle " +
                               std::to_string(t) + " of face " + std::to_string(triangles[t].face) + ")");
  }
  std::vector<std::pair<Mesh::Face_index, Mesh::Face_index>> pairs;
  CGAL::Polygon_mesh_processing::self_intersections(mesh, std::back_inserter(pairs));
  if (pairs.empty()) return;
  std::vector<std::pair<int, int>> face_pairs;
  for (const auto& [s, t] : pairs) {
    const int a = triangles[std::size_t(s.idx())].face, b = triangles[std::size_t(t.idx())].face;
    face_pairs.emplace_back(std::min(a, b), std::max(a, b));
  }
  std::sort(face_pairs.begin(), face_pairs.end());
  face_pairs.erase(std::unique(face_pairs.begin(), face_pairs.end()), face_pairs.end());
  const auto [a, b] = face_pairs[0];
  source.face_error(a, "the surface intersects itself: " + describe_face(a, faces[std::size_t(a)]) + " and " +
                           describe_face(b, faces[std::size_t(b)]) + " intersect" +
                           (face_pairs.size() > 1 ? " (" + std::to_string(face_pairs.size()) + " pairs of faces in all)"
                                                  : std::string()));
}

// The unit normal and offset of an exact plane a x + b y + c z + d = 0, with
// the coefficients scaled by their largest magnitude before normalising.
Plane approximate(const Epeck::Plane_3& plane) {
  Eigen::Vector3d n(CGAL::to_double(plane.a()), CGAL::to_double(plane.b()), CGAL::to_double(plane.c()));
  const double scale = n.cwiseAbs().maxCoeff();
  n /= scale;
  const double length = n.norm();
  return {n / length, -(CGAL::to_double(plane.d()) / scale) / length};
}

}  // namespace

Polyhedron::Polyhedron(PolygonSoup soup) : name_(soup.name) {
  const Source source(soup);
  // Combinatorics.
  if (soup.faces.empty()) source.error("the solid has no faces");
  check_coordinates(soup.vertices, source);
  const int vertex_count = int(soup.vertices.size());
  for (std::size_t f = 0; f < soup.faces.size(); ++f) {
    for (const int v : soup.faces[f])
      if (v < 0 || v >= vertex_count)
        source.face_error(int(f), "face " + std::to_string(f) + " refers to vertex " + std::to_string(v) +
                                      ", which does not exist (vertices 0.." + std::to_string(vertex_count - 1) + ")");
    check_face_corners(soup.faces[f], int(f), name_, f < soup.face_lines.size() ? soup.face_lines[f] : 0);
  }
  vertices_ = std::move(soup.vertices);
  faces_ = std::move(soup.faces);
  Topology topology = build_topology(vertex_count, faces_, source);
  edges_ = std::move(topology.edges);
  face_edges_ = std::move(topology.face_edges);
  vertex_faces_ = std::move(topology.vertex_faces);
  vertex_edges_ = std::move(topology.vertex_edges);

  // Geometry: faces planar and simple, their planes and triangulations.
  std::vector<Epick::Point_3> points;
  auto exact = std::make_shared<Exact>();
  for (const auto& x : vertices_) {
    points.emplace_back(x(0), x(1), x(2));
    exact->points.emplace_back(x(0), x(1), x(2));
  }
  for (std::size_t f = 0; f < faces_.size(); ++f) {
    FacePlane face_plane = analyse_face(int(f), faces_[f], points, vertices_, source);
    const auto& [a, b, c] = face_plane.plane_vertices;
    exact->planes.emplace_back(exact->points[std::size_t(a)], exact->points[std::size_t(b)],
                               exact->points[std::size_t(c)]);
    planes_.push_back(approximate(exact->planes.back()));
    plane_vertices_.push_back(face_plane.plane_vertices);
    for (const auto& t : face_plane.triangles)
      triangles_.push_back(
          {{faces_[f][std::size_t(t[0])], faces_[f][std::size_t(t[1])], faces_[f][std::size_t(t[2])]}, int(f)});
  }
  check_self_intersections(points, triangles_, faces_, source);

  // Volume and centroid, exactly: with the fan (x_0, x_i, x_i+1) of each face
  // and D = det(x_0, x_i, x_i+1) (six times the signed volume of the
  // tetrahedron with the origin), V = sum D / 6 and
  // c = sum D (x_0 + x_i + x_i+1) / (4 sum D). A fan gives the exact signed
  // area vector of any planar polygon, convex or not.
  using Q = CGAL::Exact_rational;
  std::vector<std::array<Q, 3>> q;
  q.reserve(vertices_.size());
  for (const auto& x : vertices_) q.push_back({Q(x(0)), Q(x(1)), Q(x(2))});
  Q six_volume = 0;
  std::array<Q, 3> moment{Q(0), Q(0), Q(0)};
  for (const auto& face : faces_) {
    const auto& x0 = q[std::size_t(face[0])];
    for (std::size_t i = 1; i + 1 < face.size(); ++i) {
      const auto& x1 = q[std::size_t(face[i])];
      const auto& x2 = q[std::size_t(face[i + 1])];
      const Q d = x0[0] * (x1[1] * x2[2] - x1[2] * x2[1]) - x0[1] * (x1[0] * x2[2] - x1[2] * x2[0]) +
                  x0[2] * (x1[0] * x2[1] - x1[1] * x2[0]);
      six_volume += d;
      for (std::size_t k = 0; k < 3; ++k) moment[k] += d * (x0[k] + x1[k] + x2[k]);
    }
  }
  if (CGAL::sign(six_volume) != CGAL::POSITIVE) {
    std::ostringstream out;
    if (CGAL::sign(six_volume) == CGAL::ZERO)
      out << "the surface encloses no volume";
    else
      out << "the solid is inside out: its volume is " << CGAL::to_double(six_volume / 6)
          << " (the faces are clockwise seen from outside; reverse the order of every face's vertices)";
    source.error(out.str());
  }
  volume_ = CGAL::to_double(six_volume / 6);
  for (std::size_t k = 0; k < 3; ++k) centroid_(Eigen::Index(k)) = CGAL::to_double(moment[k] / (4 * six_volume));
  exact_ = std::move(exact);
}

int Polyhedron::find_edge(int a, int b) const {
  if (a < 0 || a >= vertex_count()) return -1;
  for (const int e : vertex_edges_[std::size_t(a)]) {
    const auto& v = edges_[std::size_t(e)].vertices;
    if (v[0] == b || v[1] == b) return e;
  }
  return -1;
}

const CGAL::Plane_3<CGAL::Epeck>& Polyhedron::exact_plane(int f) const { return exact_->planes[std::size_t(f)]; }
const CGAL::Point_3<CGAL::Epeck>& Polyhedron::exact_vertex(int v) const { return exact_->points[std::size_t(v)]; }

}  // namespace contactref::robust_geometry
