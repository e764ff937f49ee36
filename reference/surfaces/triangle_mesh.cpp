#include "reference/surfaces/triangle_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include "reference/spatial/errors.hpp"
#include "reference/spatial/input_file.hpp"
#include "reference/spatial/number_text.hpp"

namespace contactref::surfaces {
namespace {

[[noreturn]] void fail(const std::string& name, int line, const std::string& what) {
  throw InputError(name + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what);
}

// The value of the whole of `word` by `convert` (std::stod, std::stol), or
// an InputError calling it not `what`.
template <class Convert>
auto parse_word(const std::string& word, const std::string& name, int line, const char* what, Convert convert) {
  std::size_t used = 0;
  decltype(convert(word, &used)) value{};
  try {
    value = convert(word, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != word.size()) fail(name, line, "'" + word + "' is not " + what);
  return value;
}

double parse_coordinate(const std::string& word, const std::string& name, int line) {
  const std::optional<double> value = parse_double(word);
  if (!value) fail(name, line, "'" + word + "' is not a number");
  if (!std::isfinite(*value)) fail(name, line, "coordinate " + non_finite_reason(word));
  return *value;
}

int parse_index(const std::string& word, const std::string& name, int line) {
  return int(parse_word(word, name, line, "an integer index",
                        [](const std::string& w, std::size_t* used) { return std::stol(w, used); }));
}

// Calls visit(words, line) for each line of text, '#' comments removed.
template <class Visit>
void for_each_line(const std::string& text, Visit visit) {
  std::istringstream in(text);
  std::string line_text;
  for (int line = 1; std::getline(in, line_text); ++line) {
    std::istringstream words(line_text.substr(0, line_text.find('#')));
    visit(words, line);
  }
}

}  // namespace

TriangleMesh parse_obj(const std::string& text, const std::string& name) {
  TriangleMesh mesh;
  for_each_line(text, [&](std::istringstream& words, int line) {
    std::string keyword;
    if (!(words >> keyword)) return;
    if (keyword == "v") {
      std::string x, y, z;
      if (!(words >> x >> y >> z)) fail(name, line, "a vertex needs three coordinates");
      mesh.vertices.emplace_back(parse_coordinate(x, name, line), parse_coordinate(y, name, line),
                                 parse_coordinate(z, name, line));
    } else if (keyword == "f") {
      std::vector<int> corners;
      std::string corner;
      while (words >> corner) {
        int index = parse_index(corner.substr(0, corner.find('/')), name, line);
        if (index < 0) index = int(mesh.vertices.size()) + index + 1;  // relative index
        if (index < 1 || index > int(mesh.vertices.size()))
          fail(name, line, "vertex index " + corner + " is out of range (1.." + std::to_string(mesh.vertices.size()) + ")");
        corners.push_back(index - 1);
      }
      if (corners.size() != 3)
        fail(name, line, "only triangles are supported (this face has " + std::to_string(corners.size()) + " corners)");
      mesh.faces.push_back({corners[0], corners[1], corners[2]});
    }
    // other OBJ statements (vn, vt, g, o, s, usemtl, ...) carry no geometry we use
  });
  if (mesh.faces.empty()) fail(name, 0, "no faces");
  return mesh;
}

TriangleMesh parse_off(const std::string& text, const std::string& name) {
  // Tokens with their line numbers, comments removed.
  std::vector<std::pair<std::string, int>> tokens;
  int line = 0;  // the last line, for an unexpected end of file
  for_each_line(text, [&](std::istringstream& words, int number) {
    std::string word;
    while (words >> word) tokens.emplace_back(word, number);
    line = number;
  });
  std::size_t next = 0;
  const auto take = [&](const char* what) -> const std::pair<std::string, int>& {
    if (next >= tokens.size()) fail(name, line, std::string("unexpected end of file, expected ") + what);
    return tokens[next++];
  };
  if (tokens.empty() || tokens[0].first != "OFF") fail(name, 1, "an OFF file starts with 'OFF'");
  ++next;
  const auto& nv = take("the vertex count");
  const auto& nf = take("the face count");
  take("the edge count");
  const int vertex_count = parse_index(nv.first, name, nv.second), face_count = parse_index(nf.first, name, nf.second);
  if (vertex_count <= 0 || face_count <= 0) fail(name, nv.second, "vertex and face counts must be positive");
  TriangleMesh mesh;
  for (int v = 0; v < vertex_count; ++v) {
    Vec3<double> x;
    for (int k = 0; k < 3; ++k) {
      const auto& token = take("a vertex coordinate");
      x(k) = parse_coordinate(token.first, name, token.second);
    }
    mesh.vertices.push_back(x);
  }
  for (int f = 0; f < face_count; ++f) {
    const auto& count = take("a face");
    if (parse_index(count.first, name, count.second) != 3)
      fail(name, count.second, "only triangles are supported (face " + std::to_string(f) + " has " + count.first + " corners)");
    std::array<int, 3> face{};
    for (int k = 0; k < 3; ++k) {
      const auto& token = take("a face corner");
      face[std::size_t(k)] = parse_index(token.first, name, token.second);
      if (face[std::size_t(k)] < 0 || face[std::size_t(k)] >= vertex_count)
        fail(name, token.second, "vertex index " + token.first + " is out of range (0.." + std::to_string(vertex_count - 1) + ")");
    }
    // Words after the corners on the face's line are its colour (Geomview OFF): ignored.
    while (next < tokens.size() && tokens[next].second == count.second) ++next;
    mesh.faces.push_back(face);
  }
  return mesh;
}

TriangleMesh read_triangle_mesh(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (extension != ".obj" && extension != ".off")
    throw InputError(path.string() + ": unknown mesh format '" + extension + "' (use .obj or .off)");
  const std::string text = read_input_file(path, "the mesh file");
  return extension == ".obj" ? parse_obj(text, path.string()) : parse_off(text, path.string());
}

void check_mesh_geometry(const TriangleMesh& mesh, const std::string& name) {
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
    if (!mesh.vertices[v].allFinite()) fail(name, 0, "vertex " + std::to_string(v) + " has a non-finite coordinate");
  double scale = 0;
  for (const auto& x : mesh.vertices) scale = std::max(scale, x.cwiseAbs().maxCoeff());
  // Coordinates divided by the power of two 2^e >= scale (exactly), so that
  // the cross product cannot overflow however large the mesh.
  int exponent = 0;
  std::frexp(scale, &exponent);
  const auto unit = [&](int v) -> Vec3<double> {
    return mesh.vertices[std::size_t(v)].unaryExpr([&](double x) { return std::ldexp(x, -exponent); });
  };
  const double unit_scale = std::ldexp(scale, -exponent);
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const auto& [a, b, c] = mesh.faces[f];
    const Vec3<double> n = (unit(b) - unit(a)).cross(unit(c) - unit(a));
    // Zero area up to the round-off of the cross product of coordinates of size `unit_scale`.
    if (!(n.norm() > 16 * std::numeric_limits<double>::epsilon() * unit_scale * unit_scale))
      fail(name, 0, "face " + std::to_string(f) + " (vertices " + std::to_string(a) + ", " + std::to_string(b) + ", " +
                        std::to_string(c) + ") is degenerate (zero area)");
  }
}

MeshTopology::MeshTopology(int vertex_count, const std::vector<std::array<int, 3>>& faces, bool allow_boundary,
                           const std::string& name)
    : faces_(faces),
      twin_(3 * faces.size(), -1),
      outgoing_(std::size_t(vertex_count), -1),
      valence_(std::size_t(vertex_count), 0),
      boundary_(std::size_t(vertex_count), false) {
  std::map<std::pair<int, int>, int> directed;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    for (std::size_t k = 0; k < 3; ++k) {
      const int p = faces[f][k], q = faces[f][(k + 1) % 3];
      if (p < 0 || p >= vertex_count)
        fail(name, 0, "face " + std::to_string(f) + " refers to vertex " + std::to_string(p) + ", which does not exist");
      if (p == q || faces[f][(k + 2) % 3] == p)
        fail(name, 0, "face " + std::to_string(f) + " repeats vertex " + std::to_string(p) + " (degenerate face)");
      const int h = int(3 * f + k);
      if (!directed.emplace(std::make_pair(p, q), h).second) {
        fail(name, 0, "edge " + std::to_string(p) + "-" + std::to_string(q) +
                          " is used twice in the same direction: inconsistent orientation or a non-manifold edge");
      }
      if (outgoing_[std::size_t(p)] < 0) outgoing_[std::size_t(p)] = h;
    }
  }
  std::vector<int> faces_at(std::size_t(vertex_count), 0);
  for (const auto& [edge, h] : directed) {
    const auto it = directed.find({edge.second, edge.first});
    if (it != directed.end()) {
      twin_[std::size_t(h)] = it->second;
    } else {
      if (!allow_boundary)
        fail(name, 0, "edge " + std::to_string(edge.first) + "-" + std::to_string(edge.second) +
                          " has only one face: the mesh is not closed");
      boundary_[std::size_t(edge.first)] = boundary_[std::size_t(edge.second)] = true;
      // A boundary vertex's fan starts at its boundary outgoing half-edge: the
      // one whose clockwise neighbour (twin of the previous) is missing.
    }
    ++faces_at[std::size_t(edge.first)];
  }
  for (int v = 0; v < vertex_count; ++v) {
    if (outgoing_[std::size_t(v)] < 0) fail(name, 0, "vertex " + std::to_string(v) + " is not used by any face");
    if (boundary_[std::size_t(v)]) {
      // Rotate clockwise until the fan's first half-edge: prev's twin missing.
      int h = outgoing_[std::size_t(v)];
      for (int guard = 0; guard < faces_at[std::size_t(v)]; ++guard) {
        const int incoming = twin_[std::size_t(h)];
        if (incoming < 0) break;
        h = 3 * (incoming / 3) + (incoming % 3 + 1) % 3;  // the half-edge after `incoming`, leaving v
      }
      outgoing_[std::size_t(v)] = h;
    }
    const std::vector<int> neighbours = ring(v);
    const int fan_faces = int(neighbours.size()) - (boundary_[std::size_t(v)] ? 1 : 0);
    if (fan_faces != faces_at[std::size_t(v)])
      fail(name, 0, "vertex " + std::to_string(v) + " is non-manifold: its faces form more than one fan");
    valence_[std::size_t(v)] = int(neighbours.size());
  }
}

int MeshTopology::half_edge(int p, int q) const {
  int h = outgoing_[std::size_t(p)];
  const int start = h;
  do {
    if (target(h) == q) return h;
    const int prev = 3 * (h / 3) + (h % 3 + 2) % 3;  // r -> p in face (p, q, r)
    h = twin_[std::size_t(prev)];
  } while (h >= 0 && h != start);
  return -1;
}

int MeshTopology::next_ccw(int p, int q) const {
  const int h = half_edge(p, q);
  return h < 0 ? -1 : faces_[std::size_t(h / 3)][std::size_t((h % 3 + 2) % 3)];
}

std::vector<int> MeshTopology::ring(int v, int first) const {
  std::vector<int> neighbours;
  int h = outgoing_[std::size_t(v)];
  const int start = h;
  while (true) {
    neighbours.push_back(target(h));
    const int prev = 3 * (h / 3) + (h % 3 + 2) % 3;
    const int next = twin_[std::size_t(prev)];
    if (next < 0) {  // open fan: the last neighbour closes it
      neighbours.push_back(origin(prev));
      break;
    }
    if (next == start) break;
    h = next;
    if (neighbours.size() > faces_.size() * 3) break;  // corrupt input; the caller's count check reports it
  }
  if (first >= 0 && !boundary_[std::size_t(v)]) {
    const auto it = std::find(neighbours.begin(), neighbours.end(), first);
    if (it != neighbours.end()) std::rotate(neighbours.begin(), it, neighbours.end());
  }
  return neighbours;
}

}  // namespace contactref::surfaces
