// Patch::singular_corners of Loop patches (used by the simulator to name the
// extraordinary vertex a contact reaches): every face corner whose vertex has
// valence != 6 is listed, with the vertex index and valence of the mesh,
// and nothing else. Independent check: the mesh topology's valences, and
// that Stam's evaluation at a listed corner is undefined (throws).
#include <gtest/gtest.h>

#include <filesystem>

#include "core/errors.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref::surfaces {
namespace {

TEST(LoopSingularCorners, AreTheFacesExtraordinaryVerticesNamedByTheMesh) {
  const TriangleMesh mesh =
      read_triangle_mesh(contactref::test::source_dir() / "validation/fixtures/meshes/bowl_b2.obj");
  const LoopSurface<double> surface(mesh, "bowl");
  int listed = 0;
  for (int f = 0; f < surface.face_count(); ++f) {
    const Patch<double>& patch = surface.patch(f);
    std::vector<int> expected;
    for (int k = 0; k < 3; ++k)
      if (surface.topology().valence(surface.topology().face(f)[std::size_t(k)]) != 6) expected.push_back(k);
    const auto singular = patch.singular_corners();
    ASSERT_EQ(singular.size(), expected.size()) << patch.describe();
    for (std::size_t i = 0; i < singular.size(); ++i) {
      const int vertex = surface.topology().face(f)[std::size_t(singular[i].corner)];
      EXPECT_EQ(singular[i].corner, expected[i]);
      EXPECT_EQ(singular[i].vertex, "vertex " + std::to_string(vertex) + " (valence " +
                                        std::to_string(surface.topology().valence(vertex)) + ")");
      const Vec2<double>& corner = patch.domain().polygon[std::size_t(singular[i].corner)];
      EXPECT_THROW(patch.evaluate(corner.x(), corner.y()), ComputationError) << patch.describe();
      ++listed;
    }
  }
  EXPECT_GT(listed, 0);
}

}  // namespace
}  // namespace contactref::surfaces
