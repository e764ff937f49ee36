// The bowl-on-table scene's table (validation/fixtures/table_mesh.hpp): the
// committed OBJ is the generator's mesh; a closed Loop control mesh of 60
// triangles whose only extraordinary vertices are six box corners; its top's
// middle cell is the plane z = 0 (Loop's box spline reproduces affine
// functions, and the cell's twelve control points lie in that plane); and its
// rim's limit points agree with Loop's limit mask for valence 6,
// v/2 + (1/12) sum of the neighbours (Loop 1987: chi = 1 / (n + 3 / (8
// beta)), beta = 1/16 at n = 6), which also puts the top's edge about 20 cm
// from the centre: a table about 40 cm square.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "reference/surfaces/loop_surface.hpp"
#include "tests/kit/source_dir.hpp"
#include "validation/fixtures/table_mesh.hpp"

namespace contactref {
namespace {

namespace su = contactref::surfaces;

TEST(TableMesh, TheCommittedObjIsTheGeneratorsMesh) {
  const su::TriangleMesh file = su::read_triangle_mesh(test::source_dir() / "validation/fixtures/meshes/table_40cm.obj");
  const su::TriangleMesh generated = fixtures::table_mesh();
  ASSERT_EQ(file.vertices.size(), generated.vertices.size());
  ASSERT_EQ(file.faces.size(), generated.faces.size());
  // The file holds each coordinate's shortest round-trip decimal: equal bits.
  for (std::size_t i = 0; i < file.vertices.size(); ++i) EXPECT_EQ(file.vertices[i], generated.vertices[i]) << "vertex " << i;
  for (std::size_t f = 0; f < file.faces.size(); ++f) EXPECT_EQ(file.faces[f], generated.faces[f]) << "face " << f;
}

TEST(TableMesh, ClosedSixtyPatchesWithSixCornerExtraordinaryVertices) {
  const su::TriangleMesh mesh = fixtures::table_mesh();
  const su::LoopSurface<double> table(mesh, "table");  // validates closed, manifold, oriented
  EXPECT_EQ(table.face_count(), 60);
  EXPECT_EQ(mesh.vertices.size(), 32u);
  std::map<int, int> valence;
  for (const auto& face : mesh.faces)
    for (int v : face) ++valence[v];
  int extraordinary = 0;
  for (const auto& [v, n] : valence) {
    if (n == 6) continue;
    ++extraordinary;
    EXPECT_EQ(n, 4) << "vertex " << v;
    const Vec3<double>& x = mesh.vertices[std::size_t(v)];
    EXPECT_EQ(std::abs(x.x()), 0.225) << "vertex " << v << " is no box corner";
    EXPECT_EQ(std::abs(x.y()), 0.225) << "vertex " << v << " is no box corner";
  }
  EXPECT_EQ(extraordinary, 6);
  EXPECT_EQ(fixtures::table_top_face_count(), 18);
  for (int f = 0; f < fixtures::table_top_face_count(); ++f)
    for (int v : mesh.faces[std::size_t(f)]) EXPECT_EQ(mesh.vertices[std::size_t(v)].z(), 0.0) << "top face " << f;
}

// The middle cell (faces 8 and 9): z = 0 and normal +z, to the round-off of
// an evaluation of coordinates of 0.2 m (a few hundred roundings).
TEST(TableMesh, TheTopsMiddleCellIsThePlaneZEqualsZero) {
  const su::LoopSurface<double> table(fixtures::table_mesh(), "table");
  const int middle = fixtures::dish_top_face(fixtures::table_shape(), 1, 1);
  EXPECT_EQ(middle, 8);
  for (int f : {middle, middle + 1}) {
    EXPECT_EQ(table.kind(f), su::LoopPatchKind::kRegular);
    for (const auto& [u, v] : {std::pair{0.1, 0.1}, std::pair{0.6, 0.3}, std::pair{0.2, 0.7}, std::pair{1.0 / 3, 1.0 / 3}}) {
      const su::PatchJet<double> jet = table.patch(f).evaluate(u, v);
      EXPECT_NEAR(jet.c().z(), 0, 1e-16) << f;
      const Vec3<double> n = jet.c_s().cross(jet.c_t()).normalized();
      EXPECT_NEAR(n.z(), 1, 1e-15) << f;
      EXPECT_LE(std::abs(jet.c().x()), 0.075 + 1e-15) << f;  // inside the cell's square
      EXPECT_LE(std::abs(jet.c().y()), 0.075 + 1e-15) << f;
    }
  }
}

// The limit points of the vertices on the top's edges (valence 6) against
// Loop's limit mask, to a few roundings of 0.2 m coordinates. Two of each
// one's six neighbours lie a cell (0.15 m) inwards on the top, the others on
// the side's plane, so the mask puts it 2 x 0.15 / 12 = 2.5 cm inside the
// control box: the top's edge is 0.2 m from the centre, a table 40 cm square.
TEST(TableMesh, RimLimitPointsFollowLoopsValenceSixMask) {
  const su::TriangleMesh mesh = fixtures::table_mesh();
  const su::LoopSurface<double> table(mesh, "table");
  std::map<int, std::set<int>> neighbours;
  for (const auto& face : mesh.faces)
    for (int k = 0; k < 3; ++k) neighbours[face[std::size_t(k)]].insert(face[std::size_t((k + 1) % 3)]);
  int rim_vertices = 0;
  for (int v = 0; v < int(mesh.vertices.size()); ++v) {
    const Vec3<double>& x = mesh.vertices[std::size_t(v)];
    // The top's edges, corners left out (three of the four have valence 4).
    if (x.z() != 0 || (std::abs(x.x()) == 0.225) == (std::abs(x.y()) == 0.225)) continue;
    ASSERT_EQ(neighbours[v].size(), 6u) << "vertex " << v;
    ++rim_vertices;
    Vec3<double> mask = x / 2;
    for (int w : neighbours[v]) mask += mesh.vertices[std::size_t(w)] / 12;
    const Vec3<double> limit = table.limit_position(v);
    EXPECT_LE((limit - mask).norm(), 1e-15) << "vertex " << v;
    EXPECT_NEAR(std::max(std::abs(limit.x()), std::abs(limit.y())), 0.2, 1e-15) << "vertex " << v;
  }
  EXPECT_EQ(rim_vertices, 8);  // two on each of the top's four edges
}

}  // namespace
}  // namespace contactref
