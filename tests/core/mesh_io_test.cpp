// core/mesh_io.hpp (the readers by extension; OFF and OBJ in detail are
// tested through Polyhedron's bad-file table in polyhedron_test.cpp, PLY and
// XYZ in ply_xyz_test.cpp) and core/surface_topology.hpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/mesh_io.hpp"
#include "core/surface_topology.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref {
namespace {

const std::filesystem::path kData = contactref::test::source_dir() / "validation/fixtures";

// The same cube as OFF text and as OBJ text: one soup whatever the format
// (OBJ indices are 1-based), and every element keeps its own line.
TEST(CoreMeshIo, OffAndObjOfOneCubeGiveOneSoupWithTheirOwnLines) {
  const PolygonSoup off = read_polygon_soup(kData / "polyhedra/cube.off");
  std::ostringstream obj;
  obj << "# the cube of cube.off\n";
  for (const Eigen::Vector3d& x : off.vertices) obj << "v " << x.x() << ' ' << x.y() << ' ' << x.z() << '\n';
  for (const auto& face : off.faces) {
    obj << 'f';
    for (const int v : face) obj << ' ' << v + 1;
    obj << '\n';
  }
  const PolygonSoup from_obj = parse_obj(obj.str(), "cube.obj");
  EXPECT_EQ(from_obj.vertices, off.vertices);
  EXPECT_EQ(from_obj.faces, off.faces);
  EXPECT_EQ(from_obj.vertex_line(0), 2);
  EXPECT_EQ(from_obj.face_line(5), 15);
  EXPECT_EQ(off.vertex_line(0), 5);  // after the header, two comment lines and the counts
  EXPECT_EQ(off.face_line(0), 13);
  EXPECT_EQ(off.face_line(99), 0);  // no such face: no line
  EXPECT_TRUE(off.normals.empty());
}

TEST(CoreMeshIo, TheExtensionChoosesTheReaderAndIsCheckedFirst) {
  const std::string stl = test::message_of<InputError>([] { read_polygon_soup("/no/such/mesh.stl"); });
  EXPECT_EQ(stl, "/no/such/mesh.stl: unknown mesh file format '.stl' (use .off, .obj or .ply)");
  const std::string off = test::message_of<InputError>([] { read_point_cloud(kData / "polyhedra/cube.off"); });
  EXPECT_NE(off.find("unknown point-cloud file format '.off' (use .xyz or .ply)"), std::string::npos) << off;
  const std::string device = test::message_of<InputError>([] { read_polygon_soup("/dev/zero"); });
  EXPECT_EQ(device, "/dev/zero: unknown mesh file format '' (use .off, .obj or .ply)");
}

TEST(CoreMeshIo, ThePointCloudOfAPlyFileEqualsItsXyzTwin) {
  const PointCloud xyz = read_point_cloud(kData / "points/cube_corners.xyz");
  const PointCloud ply = read_point_cloud(kData / "points/cube_corners.ply");
  ASSERT_EQ(xyz.points.size(), 8u);
  EXPECT_EQ(ply.points, xyz.points);
  EXPECT_EQ(ply.normals, xyz.normals);
  EXPECT_EQ(xyz.normals.size(), 8u);
  // Each corner's normal points away from the centre, along the corner.
  for (std::size_t i = 0; i < xyz.points.size(); ++i) EXPECT_GT(xyz.points[i].dot(xyz.normals[i]), 0) << i;
}

// A unit square in the plane z = 0 as two triangles, counter-clockwise seen
// from +z: an open surface.
PolygonSoup open_square() {
  return polygon_soup("square", {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1, 2}, {0, 2, 3}});
}

int edge_between(const SurfaceTopology& t, int a, int b) {
  for (std::size_t e = 0; e < t.edges().size(); ++e) {
    const auto& v = t.edges()[e].vertices;
    if ((v[0] == a && v[1] == b) || (v[0] == b && v[1] == a)) return int(e);
  }
  return -1;
}

TEST(CoreSurfaceTopology, AnOpenFanRunsCounterClockwiseFromBoundaryToBoundary) {
  const PolygonSoup square = open_square();
  EXPECT_NE(test::message_of<InputError>([&] { SurfaceTopology(square, false); }).find("the surface is open"),
            std::string::npos);
  const SurfaceTopology t(square, /*require_connected=*/true, /*allow_boundary=*/true);
  ASSERT_EQ(t.edges().size(), 5u);
  int boundary = 0;
  for (const SurfaceEdge& e : t.edges()) boundary += e.on_boundary();
  EXPECT_EQ(boundary, 4);
  // Around vertex 0, seen from +z, the spokes leave towards 1, 2, 3 in that
  // order: face 0 lies between spokes 0-1 and 0-2, face 1 between 0-2 and 0-3.
  EXPECT_TRUE(t.on_boundary(0));
  EXPECT_EQ(t.vertex_faces()[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(t.vertex_edges()[0], (std::vector<int>{edge_between(t, 0, 1), edge_between(t, 0, 2), edge_between(t, 0, 3)}));
  EXPECT_EQ(t.vertex_faces()[1], (std::vector<int>{0}));
  EXPECT_EQ(t.vertex_edges()[1], (std::vector<int>{edge_between(t, 1, 2), edge_between(t, 1, 0)}));
}

// A tetrahedron, and two of them apart.
PolygonSoup tetrahedra(int count) {
  PolygonSoup soup = polygon_soup("tetrahedra", {}, {});
  for (int k = 0; k < count; ++k) {
    const int o = int(soup.vertices.size());
    const Eigen::Vector3d shift(3.0 * k, 0, 0);
    for (const Eigen::Vector3d& x : {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 1, 0),
                                     Eigen::Vector3d(0, 0, 1)})
      soup.vertices.push_back(x + shift);
    for (const std::vector<int>& f : {std::vector<int>{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}})
      soup.faces.push_back({o + f[0], o + f[1], o + f[2]});
  }
  return soup;
}

TEST(CoreSurfaceTopology, EveryEdgeOfAClosedSurfaceIsTraversedOnceEachWay) {
  const PolygonSoup soup = tetrahedra(1);
  const SurfaceTopology t(soup, true);
  ASSERT_EQ(t.edges().size(), 6u);
  for (const SurfaceEdge& e : t.edges()) {
    ASSERT_FALSE(e.on_boundary());
    EXPECT_LT(e.faces[0], e.faces[1]);
    for (std::size_t k = 0; k < 2; ++k) {
      const auto& face = soup.faces[std::size_t(e.faces[k])];
      const std::size_t at = std::size_t(e.positions[k]);
      EXPECT_EQ(face[at], e.vertices[k]);
      EXPECT_EQ(face[(at + 1) % face.size()], e.vertices[1 - k]);
    }
  }
  for (int v = 0; v < 4; ++v) {
    EXPECT_FALSE(t.on_boundary(v));
    EXPECT_EQ(t.vertex_faces()[std::size_t(v)].size(), 3u);
    EXPECT_EQ(t.vertex_edges()[std::size_t(v)].size(), 3u);
  }
}

TEST(CoreSurfaceTopology, ConnectednessIsCheckedOnlyWhenAsked) {
  const PolygonSoup two = tetrahedra(2);
  EXPECT_NO_THROW(SurfaceTopology(two, /*require_connected=*/false));
  EXPECT_EQ(test::message_of<InputError>([&] { SurfaceTopology(two, true); }),
            "tetrahedra: the surface is not connected: face 4 is not connected to face 0 (a polyhedron is one closed "
            "shell; give each component as its own polyhedron)");
}

TEST(CoreSurfaceTopology, BadIndicesAndEmptySoupsAreRefusedByName) {
  PolygonSoup soup = tetrahedra(1);
  soup.faces[2][1] = 7;
  soup.face_lines = {10, 11, 12, 13};
  EXPECT_EQ(test::message_of<InputError>([&] { SurfaceTopology(soup, true); }),
            "tetrahedra:12: face 2 refers to vertex 7, which does not exist (4 vertices)");
  soup.faces[2][1] = -1;
  EXPECT_NE(test::message_of<InputError>([&] { SurfaceTopology(soup, true); }).find("refers to vertex -1"),
            std::string::npos);
  const PolygonSoup empty = polygon_soup("nothing", {}, {});
  EXPECT_EQ(test::message_of<InputError>([&] { SurfaceTopology(empty, true); }), "nothing: the mesh has no faces");
}

// Faces without coordinates (a mesh built in code): the same adjacency as from
// the soup, the same refusals, with the vertex line where one is given.
TEST(CoreSurfaceTopology, FacesWithoutCoordinatesGetTheSoupsCheck) {
  const PolygonSoup soup = tetrahedra(1);
  const SurfaceTopology from_soup(soup, true);
  const SurfaceTopology from_faces("tetrahedra", 4, soup.faces, {}, {}, true, false);
  ASSERT_EQ(from_faces.edges().size(), from_soup.edges().size());
  for (std::size_t e = 0; e < from_soup.edges().size(); ++e) {
    EXPECT_EQ(from_faces.edges()[e].faces, from_soup.edges()[e].faces);
    EXPECT_EQ(from_faces.edges()[e].positions, from_soup.edges()[e].positions);
  }
  EXPECT_EQ(from_faces.vertex_faces(), from_soup.vertex_faces());
  EXPECT_EQ(test::message_of<InputError>([&] { SurfaceTopology("local", 5, soup.faces, {1, 2, 3, 4, 9}, {}, true, false); }),
            "local:9: vertex 4 is not used by any face");
  EXPECT_EQ(test::message_of<InputError>([&] { SurfaceTopology("local", 3, soup.faces, {}, {}, true, false); }),
            "local: face 1 refers to vertex 3, which does not exist (3 vertices)");
  EXPECT_EQ(test::message_of<InputError>([&] { SurfaceTopology("local", -1, soup.faces, {}, {}, true, false); }),
            "local: negative vertex count -1");
}

}  // namespace
}  // namespace contactref
