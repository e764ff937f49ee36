// Polyhedra (B-reps) of robust_geometry. Each test names its independent
// check:
//   - the bad-input corpus (tests/robust_geometry/data/bad): every file is
//     refused with a InputError whose message names the file, the
//     line and the element (asserted substrings written by hand);
//   - the good solids (validation/fixtures/polyhedra and tests/robust_geometry/data):
//     V, E, F counted by hand from their construction, V - E + F against
//     2 - 2 genus, volumes and centroids against closed forms (unit cube,
//     corner tetrahedron, L-prism by decomposition into two boxes, octahedron,
//     square frame), the 128-face UV sphere against the prismatoid formula
//     evaluated in exact rationals from the ring polygons;
//   - edges against the face lists (each edge in its two faces, in opposite
//     directions), fans against a scan of the faces and, on convex solids,
//     against the turn of the outward normals;
//   - support planes against every vertex of the face (exactly, CGAL Epeck)
//     and against the face's Newell normal (orientation even where the first
//     corner of a face is reflex);
//   - triangulations against the face's area vector;
//   - OBJ and OFF of the same solid give the same polyhedron.
#include "robust_geometry/polyhedron.hpp"

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_rational.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "tests/kit/errors.hpp"  // message_of
#include "tests/kit/scratch_dir.hpp"
#include "tests/kit/source_dir.hpp"
#include "tests/kit/tolerance.hpp"
#include "tests/robust_geometry/test_solids.hpp"

namespace contactref::robust_geometry {
namespace {

using Q = CGAL::Exact_rational;
using test_solids::geometry_data_folder;
using test_solids::polyhedra_folder;
std::filesystem::path bad_folder() { return geometry_data_folder() / "bad"; }

// ---------------------------------------------------------------------------
// The bad-input corpus.

struct BadCase {
  const char* file;
  int line;              // the line the message must name (0: none)
  const char* expected;  // a substring naming the element and the fault
};

const BadCase kBadCases[] = {
    // Readers.
    {"unknown_extension.stl", 0, "unknown mesh file format '.stl' (use .off, .obj or .ply)"},
    {"off_empty.off", 0, "unexpected end of file: expected the 'OFF' header"},
    {"off_no_header.off", 1, "expected the header 'OFF', found '8'"},
    {"off_variant.off", 1, "expected the header 'OFF', found 'COFF'"},
    {"off_missing_counts.off", 2, "expected the three counts 'vertices faces edges', found 2 values"},
    {"off_bad_count.off", 2, "'six' is not a face count"},
    {"off_bad_number.off", 5, "'1.0x' is not a number"},
    {"off_nan.off", 7, "coordinate 'nan' is not finite"},
    {"off_inf.off", 4, "coordinate 'inf' is not finite"},
    {"off_overflow.off", 9, "coordinate '1e999' overflows a double"},
    {"off_vertex_two_values.off", 6, "vertex 3: expected 3 coordinates 'x y z', found 2 values"},
    {"off_index_out_of_range.off", 14, "face 3: vertex index 8 is out of range (0..7)"},
    {"off_negative_index.off", 13, "face 2: vertex index -5 is out of range (0..7)"},
    {"off_two_vertex_face.off", 14, "face 3 has 2 vertices; a face needs at least 3"},
    {"off_repeated_vertex.off", 15, "face 4 (vertices 2, 3, 7, 3) repeats vertex 3"},
    {"off_short_face.off", 12, "face 1 announces 4 vertices but lists 3"},
    {"off_truncated.off", 15, "unexpected end of file: expected face 5 of 6"},
    {"off_trailing.off", 17, "unexpected content after the last face"},
    {"off_bad_index.off", 16, "'seven' is not a vertex index"},
    {"obj_bad_number.obj", 4, "'zero' is not a number"},
    {"obj_nan.obj", 6, "coordinate 'nan' is not finite"},
    {"obj_bad_w.obj", 2, "vertex 1: homogeneous coordinate w = 2 is not supported (only w = 1)"},
    {"obj_two_coordinates.obj", 2, "vertex 1: expected 'v x y z' (optionally w or r g b), found 2 values"},
    {"obj_index_zero.obj", 10, "face 1: vertex index 0 is invalid (OBJ indices start at 1)"},
    {"obj_index_out_of_range.obj", 11, "face 2: vertex index 9 is out of range (1..8)"},
    {"obj_relative_out_of_range.obj", 10, "face 1: relative vertex index -9 is out of range (only 8 vertices"},
    {"obj_two_vertex_face.obj", 10, "face 1 has 2 vertices; a face needs at least 3"},
    {"obj_repeated_vertex.obj", 10, "face 1 (vertices 4, 5, 6, 5) repeats vertex 5"},
    {"obj_bad_index.obj", 9, "'x' is not a vertex index"},
    {"obj_missing_vertex_index.obj", 9, "face 0: corner '/2/3' has no vertex index"},
    {"obj_no_faces.obj", 0, "the solid has no faces"},
    // Solids.
    {"huge_coordinate.off", 11, "vertex 7: coordinate 1e+100 is outside the supported magnitudes [2^-256, 2^256]"},
    {"open_box.off", 13, "edge 5-4 has only one face (face 1): the surface is open"},
    {"nonmanifold_edge.off", 10, "edge 1-0 is non-manifold: it has 4 faces (faces 0, 1, 4, 5)"},
    {"nonmanifold_vertex.off", 4,
     "vertex 0 is non-manifold: its faces form more than one fan (faces 0, 1, 2 around it, and separately faces 4, "
     "5, 6)"},
    {"inconsistent_orientation.off", 16,
     "faces 1 and 4 are inconsistently oriented: both traverse their shared edge 7-6 in the same direction"},
    {"two_components.off", 16, "the surface is not connected: face 4 is not connected to face 0"},
    {"unused_vertex.off", 12, "vertex 8 is not used by any face"},
    {"degenerate_face.off", 9, "face 1 (vertices 0, 1, 3) is degenerate: all its vertices are collinear"},
    {"nonplanar_face.off", 13,
     "face 1 (vertices 4, 5, 6, 7) is not planar: vertex 7 is off the plane through vertices 4, 5, 6 (exact "
     "orientation test)"},
    {"nonsimple_face.off", 9, "face 0 (vertices 0, 1, 2, 3) is not a simple polygon: its edges 0-1 and 2-3 intersect"},
    {"self_intersecting.off", 13,
     "the surface intersects itself: face 0 (vertices 0, 3, 2) and face 2 (vertices 4, 5, 6) intersect"},
    {"inside_out.off", 0, "the solid is inside out: its volume is -1"},
    {"pillow.off", 7, "the surface intersects itself: face 0 (vertices 0, 1, 2) and face 1 (vertices 0, 2, 1)"},
};

TEST(PolyhedronCorpus, EveryBadFileIsRefusedNamingFileLineAndElement) {
  // Independent check: the expected substrings and lines are written by hand
  // from the files (the fault each one was built with).
  for (const auto& c : kBadCases) {
    SCOPED_TRACE(c.file);
    const std::string path = (bad_folder() / c.file).string();
    const std::string message = test::message_of<InputError>([&] { read_polyhedron(path); });
    ASSERT_NE(message, "no error") << "no InputError";
    const std::string where = path + (c.line > 0 ? ":" + std::to_string(c.line) + ": " : std::string(": "));
    EXPECT_EQ(message.rfind(where, 0), 0u) << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
  }
}

TEST(PolyhedronCorpus, MissingFileIsAnInputError) {
  const std::string message = test::message_of<InputError>([] { read_polyhedron(bad_folder() / "no_such_file.off"); });
  EXPECT_NE(message.find("no_such_file.off: cannot open the mesh file"), std::string::npos) << message;
}

// Issue 10, item 13: a link named like a mesh to a device that never ends
// (/dev/zero) was read without end; now refused before a byte is read.
TEST(PolyhedronCorpus, OnlyRegularFilesAreRead) {
  const std::filesystem::path folder = contactref::test::scratch_dir() / "contactref-polyhedron-test";
  std::filesystem::create_directories(folder);
  const std::filesystem::path link = folder / "dev_zero.off";
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/zero", link);
  const std::string device = test::message_of<InputError>([&] { read_polyhedron(link); });
  EXPECT_NE(device.find("dev_zero.off: cannot open the mesh file (not a regular file)"), std::string::npos) << device;
  std::filesystem::create_directories(folder / "folder.off");
  const std::string directory = test::message_of<InputError>([&] { read_polyhedron(folder / "folder.off"); });
  EXPECT_NE(directory.find("folder.off: cannot open the mesh file (not a regular file)"), std::string::npos) << directory;
  std::filesystem::remove(link);
}

TEST(PolyhedronCorpus, SoupsBuiltInCodeAreCheckedToo) {
  // Independent check: faults placed by hand in a soup without source lines;
  // the message names the soup and the element.
  const auto tetrahedron = [] {
    PolygonSoup soup;
    soup.name = "in-code";
    soup.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    soup.faces = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    return soup;
  };
  EXPECT_NO_THROW(Polyhedron{tetrahedron()});
  auto nan = tetrahedron();
  nan.vertices[2].y() = std::nan("");
  EXPECT_NE(test::message_of<InputError>([&] { Polyhedron{nan}; }).find("in-code: vertex 2 has a non-finite coordinate"),
            std::string::npos);
  auto range = tetrahedron();
  range.faces[3][1] = 4;
  EXPECT_NE(test::message_of<InputError>([&] {
              Polyhedron{range};
            }).find("in-code: face 3 refers to vertex 4, which does not exist (4 vertices)"),
            std::string::npos);
  auto small = tetrahedron();
  small.faces[1] = {0, 1};
  EXPECT_NE(test::message_of<InputError>([&] { Polyhedron{small}; }).find("face 1 has 2 vertices"), std::string::npos);
  auto empty = tetrahedron();
  empty.faces.clear();
  EXPECT_NE(test::message_of<InputError>([&] { Polyhedron{empty}; }).find("in-code: the solid has no faces"), std::string::npos);
  // Line numbers given with the soup appear in the messages.
  auto lines = tetrahedron();
  lines.face_lines = {10, 11, 12, 13};
  lines.faces[2] = {0, 2, 3};  // reversed: inconsistent with its neighbours
  EXPECT_NE(test::message_of<InputError>([&] { Polyhedron{lines}; }).find("in-code:12: faces"), std::string::npos);
}

// ---------------------------------------------------------------------------
// The good solids.

struct GoodCase {
  std::filesystem::path file;
  int v, e, f, euler;
  Q volume;                   // closed form
  std::array<Q, 3> centroid;  // closed form
  bool convex;
};

std::vector<GoodCase> good_cases() {
  // V, E, F counted from the construction of each file (see its comment and
  // validation/fixtures/polyhedra/README.md), not from the code under test.
  return {
      {polyhedra_folder() / "tetrahedron.off", 4, 6, 4, 2, Q(1) / 6, {Q(1) / 4, Q(1) / 4, Q(1) / 4}, true},
      {polyhedra_folder() / "cube.off", 8, 12, 6, 2, Q(1), {Q(1) / 2, Q(1) / 2, Q(1) / 2}, true},
      // Two boxes [0,2]x[0,1]x[0,1] (volume 2, centroid (1, 1/2, 1/2)) and
      // [0,1]x[1,2]x[0,1] (volume 1, centroid (1/2, 3/2, 1/2)).
      {polyhedra_folder() / "l_prism.off", 12, 18, 8, 2, Q(3), {Q(5) / 6, Q(5) / 6, Q(1) / 2}, false},
      {polyhedra_folder() / "octahedron.off", 6, 12, 8, 2, Q(4) / 3, {Q(0), Q(0), Q(0)}, true},
      // 9 - 1 of the square minus its hole, genus 1.
      {geometry_data_folder() / "torus_frame.off", 16, 32, 16, 0, Q(8), {Q(3) / 2, Q(3) / 2, Q(1) / 2}, false},
      {geometry_data_folder() / "cube.obj", 8, 12, 6, 2, Q(1), {Q(1) / 2, Q(1) / 2, Q(1) / 2}, true},
  };
}

// |a - b| within the single rounding of an exact rational to double:
// mpq_get_d truncates, so the error is below 1 ulp <= epsilon |b|.
void expect_rounded(double a, const Q& exact, const char* what) {
  const double b = CGAL::to_double(exact);
  EXPECT_LE(std::abs(a - b), test::tolerance<double>(1) * std::abs(b)) << what << ": " << a << " vs " << b;
}

TEST(PolyhedronSolids, CountsEulerVolumeAndCentroidAgainstClosedForms) {
  for (const auto& c : good_cases()) {
    SCOPED_TRACE(c.file.string());
    const Polyhedron p = read_polyhedron(c.file);
    EXPECT_EQ(p.vertex_count(), c.v);
    EXPECT_EQ(p.edge_count(), c.e);
    EXPECT_EQ(p.face_count(), c.f);
    EXPECT_EQ(p.euler_characteristic(), c.euler);
    expect_rounded(p.volume(), c.volume, "volume");
    for (int k = 0; k < 3; ++k) {
      // A zero coordinate must come out exactly zero (exact arithmetic).
      if (CGAL::is_zero(c.centroid[std::size_t(k)]))
        EXPECT_EQ(p.centroid()(k), 0.0);
      else
        expect_rounded(p.centroid()(k), c.centroid[std::size_t(k)], "centroid");
    }
  }
}

TEST(PolyhedronSolids, EdgesHaveTwoFacesInOppositeDirections) {
  for (const auto& c : good_cases()) {
    SCOPED_TRACE(c.file.string());
    const Polyhedron p = read_polyhedron(c.file);
    // Independent check: every directed edge of every face, collected from
    // the face lists, belongs to exactly one Edge, in the direction that Edge
    // gives for that face.
    std::map<std::pair<int, int>, int> directed;  // (from, to) -> face
    std::size_t corners = 0;
    for (int f = 0; f < p.face_count(); ++f) {
      const auto& face = p.face(f);
      corners += face.size();
      for (std::size_t i = 0; i < face.size(); ++i)
        EXPECT_TRUE(directed.emplace(std::make_pair(face[i], face[(i + 1) % face.size()]), f).second);
    }
    EXPECT_EQ(corners, 2 * std::size_t(p.edge_count()));
    for (int e = 0; e < p.edge_count(); ++e) {
      const Edge& edge = p.edge(e);
      const auto [a, b] = edge.vertices;
      EXPECT_EQ(directed.at({a, b}), edge.faces[0]);
      EXPECT_EQ(directed.at({b, a}), edge.faces[1]);
      EXPECT_LT(edge.faces[0], edge.faces[1]);
      for (std::size_t k = 0; k < 2; ++k) {
        const auto& face = p.face(edge.faces[k]);
        const std::size_t i = std::size_t(edge.positions[k]);
        EXPECT_EQ(face[i], k == 0 ? a : b);
        EXPECT_EQ(face[(i + 1) % face.size()], k == 0 ? b : a);
        EXPECT_EQ(p.face_edges(edge.faces[k])[i], e);
      }
      EXPECT_EQ(p.find_edge(a, b), e);
      EXPECT_EQ(p.find_edge(b, a), e);
    }
  }
}

// The Newell normal: twice the area vector of a planar polygon, whatever its
// convexity (exact in double for the small integer coordinates used here).
Eigen::Vector3d newell(const Polyhedron& p, const std::vector<int>& face) {
  Eigen::Vector3d n = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < face.size(); ++i) n += p.vertex(face[i]).cross(p.vertex(face[(i + 1) % face.size()]));
  return n;
}

TEST(PolyhedronSolids, FansAroundVerticesAreCounterClockwiseFromOutside) {
  for (const auto& c : good_cases()) {
    SCOPED_TRACE(c.file.string());
    const Polyhedron p = read_polyhedron(c.file);
    for (int v = 0; v < p.vertex_count(); ++v) {
      // Independent check 1: the fan holds exactly the faces that list v.
      std::set<int> having;
      for (int f = 0; f < p.face_count(); ++f)
        if (std::count(p.face(f).begin(), p.face(f).end(), v)) having.insert(f);
      const auto& fan = p.vertex_faces(v);
      EXPECT_EQ(std::set<int>(fan.begin(), fan.end()), having);
      ASSERT_EQ(fan.size(), p.vertex_edges(v).size());
      // Check 2: vertex_edges(v)[k] is an edge of v shared by faces k-1 and k.
      for (std::size_t k = 0; k < fan.size(); ++k) {
        const Edge& e = p.edge(p.vertex_edges(v)[k]);
        EXPECT_TRUE(e.vertices[0] == v || e.vertices[1] == v);
        const std::set<int> sides(e.faces.begin(), e.faces.end());
        EXPECT_EQ(sides, (std::set<int>{fan[(k + fan.size() - 1) % fan.size()], fan[k]}));
      }
      // Check 3 (convex solids): the outward normals of consecutive faces
      // turn counter-clockwise about the outward direction at v (the sum of
      // the normals).
      if (!c.convex) continue;
      Eigen::Vector3d outward = Eigen::Vector3d::Zero();
      for (const int f : fan) outward += newell(p, p.face(f)).normalized();
      for (std::size_t k = 0; k < fan.size(); ++k) {
        const Eigen::Vector3d a = newell(p, p.face(fan[(k + fan.size() - 1) % fan.size()]));
        const Eigen::Vector3d b = newell(p, p.face(fan[k]));
        EXPECT_GT(a.cross(b).dot(outward), 0) << "vertex " << v;
      }
    }
  }
}

// The sign of a x + b y + c z + d, evaluated in Epeck's exact number type.
// (Plane_3::has_on would do, but its static filter trips a GCC 12
// -Wmaybe-uninitialized false positive inside CGAL under -O2 with sanitizers.)
CGAL::Sign side(const CGAL::Epeck::Plane_3& plane, const CGAL::Epeck::Point_3& x) {
  return CGAL::sign(plane.a() * x.x() + plane.b() * x.y() + plane.c() * x.z() + plane.d());
}

TEST(PolyhedronSolids, SupportPlanesHoldEveryVertexAndPointOutward) {
  for (const auto& c : good_cases()) {
    SCOPED_TRACE(c.file.string());
    const Polyhedron p = read_polyhedron(c.file);
    for (int f = 0; f < p.face_count(); ++f) {
      const Plane& plane = p.plane(f);
      // Unit normal: one rounding per coordinate and the normalisation.
      EXPECT_NEAR(plane.normal.norm(), 1.0, test::tolerance<double>(4));
      // Exactly: every vertex of the face is on its exact plane.
      for (const int v : p.face(f)) {
        EXPECT_EQ(side(p.exact_plane(f), p.exact_vertex(v)), CGAL::ZERO) << "face " << f << " vertex " << v;
        // In double: |n . x - d| within the rounding of n and d (a few ulps
        // of the coordinates, which are at most 3 here).
        EXPECT_NEAR(plane.normal.dot(p.vertex(v)), plane.offset, test::tolerance<double>(16) * 3);
      }
      // Orientation against the face's Newell normal (independent of which
      // corner the plane was built from; the L-prism's hexagons start at a
      // reflex corner).
      const Eigen::Vector3d n = newell(p, p.face(f)).normalized();
      EXPECT_NEAR(plane.normal.dot(n), 1.0, test::tolerance<double>(8)) << "face " << f;
      // The plane's three vertices are a corner of the face, in face order.
      const auto& face = p.face(f);
      const auto [a, b, cc] = p.plane_vertices(f);
      const std::size_t i = std::size_t(std::find(face.begin(), face.end(), b) - face.begin());
      ASSERT_LT(i, face.size());
      EXPECT_EQ(face[(i + face.size() - 1) % face.size()], a);
      EXPECT_EQ(face[(i + 1) % face.size()], cc);
      // A convex solid lies on the negative side of every support plane.
      if (c.convex) {
        for (int v = 0; v < p.vertex_count(); ++v) EXPECT_NE(side(p.exact_plane(f), p.exact_vertex(v)), CGAL::POSITIVE);
      }
    }
  }
  // Exact values: the L-prism's hexagons are z = 0 (outward -z) and z = 1.
  const Polyhedron l = read_polyhedron(polyhedra_folder() / "l_prism.off");
  EXPECT_EQ(l.plane(0).normal, Eigen::Vector3d(0, 0, -1));
  EXPECT_EQ(l.plane(0).offset, 0.0);
  EXPECT_EQ(l.plane(1).normal, Eigen::Vector3d(0, 0, 1));
  EXPECT_EQ(l.plane(1).offset, 1.0);
}

TEST(PolyhedronSolids, TriangulationsCoverEachFaceWithItsOrientation) {
  for (const auto& c : good_cases()) {
    SCOPED_TRACE(c.file.string());
    const Polyhedron p = read_polyhedron(c.file);
    // Independent check: the triangles of a face sum to its Newell area
    // vector (exact: small integer coordinates), each turns like the face
    // (so none overlaps another with opposite sign), and a face of k
    // vertices gives k - 2 triangles.
    std::vector<Eigen::Vector3d> area(std::size_t(p.face_count()), Eigen::Vector3d::Zero());
    std::vector<std::size_t> count(std::size_t(p.face_count()), 0);
    for (const Triangle& t : p.triangles()) {
      const Eigen::Vector3d twice = newell(p, {t.vertices[0], t.vertices[1], t.vertices[2]});
      EXPECT_GT(twice.dot(newell(p, p.face(t.face))), 0);
      area[std::size_t(t.face)] += twice;
      ++count[std::size_t(t.face)];
      for (const int v : t.vertices)
        EXPECT_NE(std::find(p.face(t.face).begin(), p.face(t.face).end(), v), p.face(t.face).end());
    }
    for (int f = 0; f < p.face_count(); ++f) {
      EXPECT_EQ(count[std::size_t(f)], p.face(f).size() - 2);
      EXPECT_EQ(area[std::size_t(f)], newell(p, p.face(f))) << "face " << f;
    }
  }
}

TEST(PolyhedronSolids, ObjAndOffOfTheSameSolidGiveTheSamePolyhedron) {
  // cube.obj lists cube.off's vertices and faces with every OBJ face form.
  const Polyhedron off = read_polyhedron(polyhedra_folder() / "cube.off");
  const Polyhedron obj = read_polyhedron(geometry_data_folder() / "cube.obj");
  EXPECT_EQ(off.vertices(), obj.vertices());
  EXPECT_EQ(off.faces(), obj.faces());
  ASSERT_EQ(off.edge_count(), obj.edge_count());
  for (int e = 0; e < off.edge_count(); ++e) {
    EXPECT_EQ(off.edge(e).vertices, obj.edge(e).vertices);
    EXPECT_EQ(off.edge(e).faces, obj.edge(e).faces);
    EXPECT_EQ(off.edge(e).positions, obj.edge(e).positions);
  }
  EXPECT_EQ(off.volume(), obj.volume());
  EXPECT_EQ(off.centroid(), obj.centroid());
}

TEST(PolyhedronReaders, OffVariantsOfTheSameText) {
  // The same tetrahedron: counts on the header line, DOS line ends, comments,
  // blank lines, and a colour after the face indices (ignored).
  const std::string text =
      "OFF 4 4 6\r\n# corner tetrahedron\r\n\r\n0 0 0\r\n1 0 0\r\n0 1 0  # vertex 2\r\n0 0 1\r\n"
      "3 0 2 1 255 0 0\r\n3 0 1 3\r\n3 0 3 2 0.5 0.5 0.5 1\r\n3 1 2 3\r\n";
  const Polyhedron a(parse_off(text, "variants"));
  const Polyhedron b = read_polyhedron(polyhedra_folder() / "tetrahedron.off");
  EXPECT_EQ(a.vertices(), b.vertices());
  EXPECT_EQ(a.faces(), b.faces());
  EXPECT_EQ(a.name(), "variants");
  // Hexadecimal floats are read exactly.
  const PolygonSoup hex = parse_obj("v 0x1p-3 -0x1.8p1 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "hex");
  EXPECT_EQ(hex.vertices[0], Eigen::Vector3d(0.125, -3.0, 0.0));
  EXPECT_EQ(hex.face_lines, (std::vector<int>{4}));
}

TEST(PolyhedronSolids, CollinearCornersAndFlatEdgesAreAccepted) {
  // The unit cube with its top split into two rectangles: the front and back
  // faces become pentagons with a straight (180 degree) corner, and the two
  // top faces meet at a flat edge. Independent check: V, E, F counted by
  // hand (10, 15, 7), volume 1 and centroid (1/2, 1/2, 1/2) unchanged.
  PolygonSoup soup;
  soup.vertices = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},   {0, 0, 1},
                   {1, 0, 1}, {1, 1, 1}, {0, 1, 1}, {0.5, 0, 1}, {0.5, 1, 1}};
  soup.faces = {{0, 3, 2, 1}, {4, 8, 9, 7}, {8, 5, 6, 9}, {0, 1, 5, 8, 4}, {1, 2, 6, 5}, {2, 3, 7, 9, 6}, {3, 0, 4, 7}};
  const Polyhedron p(soup);
  EXPECT_EQ(p.vertex_count(), 10);
  EXPECT_EQ(p.edge_count(), 15);
  EXPECT_EQ(p.face_count(), 7);
  EXPECT_EQ(p.volume(), 1.0);
  EXPECT_EQ(p.centroid(), Eigen::Vector3d(0.5, 0.5, 0.5));
  // The straight corner is not used for the plane: front face normal -y.
  EXPECT_EQ(p.plane(3).normal, Eigen::Vector3d(0, -1, 0));
}

TEST(PolyhedronSolids, ExactAtExtremeScales) {
  // The unit cube scaled by 2^200 and by 2^-200 and translated by a power of
  // two: the volumes are exactly 2^600 and 2^-600 (exact arithmetic throughout,
  // and powers of two round exactly).
  for (const int exponent : {200, -200}) {
    SCOPED_TRACE(exponent);
    const double s = std::ldexp(1.0, exponent);
    PolygonSoup soup = read_polygon_soup(polyhedra_folder() / "cube.off");
    for (auto& x : soup.vertices) x = s * x + Eigen::Vector3d::Constant(2 * s);
    const Polyhedron p(soup);
    EXPECT_EQ(p.volume(), std::ldexp(1.0, 3 * exponent));
    EXPECT_EQ(p.centroid(), Eigen::Vector3d::Constant(2.5 * s));
    EXPECT_EQ(p.plane(0).normal, Eigen::Vector3d(0, 0, -1));
    EXPECT_EQ(p.plane(0).offset, -2 * s);
  }
}

// ---------------------------------------------------------------------------
// The 128-face UV sphere (Bouma & Vanecek, Section 4.2).

TEST(PolyhedronSphere, UvSphereOf128FacesAgainstThePrismatoidFormula) {
  const Polyhedron p = read_polyhedron(polyhedra_folder() / "uv_sphere_128.off");
  // 8 bands x 16 sectors: 2 poles + 7 rings of 16 vertices; edges 16 + 16
  // spokes, 7 x 16 along the rings, 6 x 16 between them; 32 triangles and 96
  // quads.
  EXPECT_EQ(p.vertex_count(), 114);
  EXPECT_EQ(p.edge_count(), 240);
  EXPECT_EQ(p.face_count(), 128);
  EXPECT_EQ(p.euler_characteristic(), 2);
  EXPECT_EQ(std::count_if(p.faces().begin(), p.faces().end(), [](const auto& f) { return f.size() == 3; }), 32);
  EXPECT_EQ(std::count_if(p.faces().begin(), p.faces().end(), [](const auto& f) { return f.size() == 4; }), 96);

  // Independent volume: the sphere is a stack of prismatoids between the
  // levels z of its rings (the poles are rings of one point). Between levels
  // with ring polygons A and B (corresponding vertices on the same
  // meridian), V = h (area(A) + 4 area(M) + area(B)) / 6 with M the polygon of
  // midpoints, exact because the cross-section area is quadratic in z. All in
  // exact rationals from the file's coordinates.
  std::map<double, std::vector<Eigen::Vector3d>, std::greater<>> levels;
  for (const auto& x : p.vertices()) levels[x.z()].push_back(x);
  ASSERT_EQ(levels.size(), 9u);
  for (auto& [z, ring] : levels)
    std::sort(ring.begin(), ring.end(),
              [](const auto& a, const auto& b) { return std::atan2(a.y(), a.x()) < std::atan2(b.y(), b.x()); });
  // Twice the area of the polygon whose vertices are (a_j + b_j) / 2 (a ring
  // of one point is its centre repeated).
  const auto twice_area = [](const std::vector<Eigen::Vector3d>& a, const std::vector<Eigen::Vector3d>& b) {
    const std::size_t n = std::max(a.size(), b.size());
    const auto point = [&](std::size_t j) {
      const auto& u = a[a.size() == 1 ? 0 : j % n];
      const auto& w = b[b.size() == 1 ? 0 : j % n];
      return std::array<Q, 2>{(Q(u.x()) + Q(w.x())) / 2, (Q(u.y()) + Q(w.y())) / 2};
    };
    Q sum = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const auto s = point(j), t = point(j + 1);
      sum += s[0] * t[1] - s[1] * t[0];
    }
    return sum;
  };
  Q volume = 0;
  for (auto it = levels.begin(); std::next(it) != levels.end(); ++it) {
    const auto& [z_top, top] = *it;
    const auto& [z_bottom, bottom] = *std::next(it);
    const Q h = Q(z_top) - Q(z_bottom);
    volume += h * (twice_area(top, top) + 4 * twice_area(top, bottom) + twice_area(bottom, bottom)) / 12;
  }
  // Both are the same rational rounded by the same function, so they agree
  // to the last bit (any difference in the exact values would show here
  // unless below half an ulp).
  EXPECT_EQ(p.volume(), CGAL::to_double(volume));
  // Inscribed in the unit ball, within the gap of a 16 x 8 approximation.
  EXPECT_LT(p.volume(), 4 * std::acos(-1.0) / 3);
  EXPECT_GT(p.volume(), 0.9 * 4 * std::acos(-1.0) / 3);
  // Symmetric up to the rounding of the ring directions to multiples of 2^-24.
  EXPECT_LT(p.centroid().norm(), std::ldexp(1.0, -22));
  // Every quad is exactly planar (checked by the constructor, and here
  // exactly against the exact plane), the double plane holds each vertex to
  // a few ulps (coordinates <= 1; the normal and offset are each rounded
  // from exact values, and the dot product adds 3 roundings), and every
  // plane lies at distance > 0.9 from the centre (cos^2(pi/16) = 0.96 for a
  // band quad), so its normal points outward.
  for (int f = 0; f < p.face_count(); ++f) {
    for (const int v : p.face(f)) {
      EXPECT_EQ(side(p.exact_plane(f), p.exact_vertex(v)), CGAL::ZERO);
      EXPECT_NEAR(p.plane(f).normal.dot(p.vertex(v)), p.plane(f).offset, test::tolerance<double>(16));
    }
    EXPECT_GT(p.plane(f).offset, 0.9);
  }
}

}  // namespace
}  // namespace contactref::robust_geometry
