// The blob-in-bowl control meshes (validation/fixtures/blob_in_bowl.hpp):
// the dish is a closed, consistently oriented mesh whose top is regular
// (valence 6) away from the box's edges and whose vertices lie on the
// paraboloid z = a (x^2 + y^2); the face dish_top_face names covers the
// cell it says; bad shapes are InputErrors; the OBJ files of the
// blob_in_bowl.json scene are these meshes, bit for bit.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "tests/kit/source_dir.hpp"
#include "validation/fixtures/blob_in_bowl.hpp"

namespace contactref {
namespace {

TEST(BlobInBowlMeshes, DishIsAClosedLoopSurfaceWithARegularParaboloidTop) {
  const fixtures::DishShape shape;
  const surfaces::TriangleMesh mesh = fixtures::dish_mesh(shape);
  const surfaces::LoopSurface<double> dish(mesh, "dish");  // validates closed, manifold, oriented
  // The top's inner cells (one ring in from the rim) have no extraordinary corner.
  for (int i = 1; i + 1 < shape.cells; ++i)
    for (int j = 1; j + 1 < shape.cells; ++j)
      for (int half = 0; half < 2; ++half) {
        const int face = fixtures::dish_top_face(shape, i, j) + half;
        EXPECT_EQ(dish.kind(face), surfaces::LoopPatchKind::kRegular) << "cell " << i << ", " << j;
      }
  // Corners of cell (3, 5), lower-right half: (i, j), (i + 1, j), (i + 1, j + 1).
  const auto& corners = mesh.faces[std::size_t(fixtures::dish_top_face(shape, 3, 5))];
  const double step = 2 * shape.half_width / shape.cells;
  const int offsets[3][2] = {{0, 0}, {1, 0}, {1, 1}};
  for (int k = 0; k < 3; ++k) {
    const Vec3<double>& x = mesh.vertices[std::size_t(corners[std::size_t(k)])];
    EXPECT_NEAR(x.x(), -shape.half_width + (3 + offsets[k][0]) * step, 1e-15);
    EXPECT_NEAR(x.y(), -shape.half_width + (5 + offsets[k][1]) * step, 1e-15);
    EXPECT_NEAR(x.z(), shape.curvature * (x.x() * x.x() + x.y() * x.y()), 1e-15);
  }
}

void expect_same_mesh(const surfaces::TriangleMesh& file, const surfaces::TriangleMesh& generated) {
  ASSERT_EQ(file.vertices.size(), generated.vertices.size());
  ASSERT_EQ(file.faces.size(), generated.faces.size());
  // The files hold 17 significant digits: a double's exact round trip, equal bits.
  for (std::size_t i = 0; i < file.vertices.size(); ++i) EXPECT_EQ(file.vertices[i], generated.vertices[i]) << "vertex " << i;
  for (std::size_t f = 0; f < file.faces.size(); ++f) EXPECT_EQ(file.faces[f], generated.faces[f]) << "face " << f;
}

TEST(BlobInBowlMeshes, CommittedObjFilesAreTheFixtureMeshes) {
  const std::filesystem::path meshes = test::source_dir() / "validation/fixtures/meshes";
  expect_same_mesh(surfaces::read_triangle_mesh(meshes / "blob_dish.obj"), fixtures::dish_mesh(fixtures::DishShape()));
  // The suite's marble: radius 0.02 m, lumpiness 0.02 (validation/suites/blob_in_bowl.cpp).
  expect_same_mesh(surfaces::read_triangle_mesh(meshes / "blob_marble.obj"),
                   fixtures::lumpy_marble_mesh(surfaces::read_triangle_mesh(meshes / "icosphere1.obj"), 0.02, 0.02));
}

TEST(BlobInBowlMeshes, BadShapesAndCellsAreInputErrors) {
  fixtures::DishShape flat;
  flat.thickness = 0;
  EXPECT_THROW(fixtures::dish_mesh(flat), InputError);
  fixtures::DishShape coarse;
  coarse.cells = 1;
  EXPECT_THROW(fixtures::dish_mesh(coarse), InputError);
  EXPECT_THROW(fixtures::dish_top_face(fixtures::DishShape(), 16, 0), InputError);
  EXPECT_THROW(fixtures::dish_top_face(fixtures::DishShape(), 0, -1), InputError);
}

}  // namespace
}  // namespace contactref
