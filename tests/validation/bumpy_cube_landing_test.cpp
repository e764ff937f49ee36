// Bouchard et al. Fig. 13 (Section 6.1.7), validation/fixtures/scenes/
// bumpy_cube_landing.json: a bumpy cube dropped onto a plane with normal and
// tangential velocity. The paper's point: the 6D model keeps one joint
// however many bumps touch ("the complexity of 6D contact remains fixed"),
// where the point baseline needs a point per touching bump. The cube lands,
// slides to rest and stays, in both models.
//
// Sliding. While the cube slides, each contact step's friction impulse is mu
// times its normal impulse, which is at least m g h once it rests on the
// plane (more while landing): its horizontal speed falls by at least mu g h
// a step, so it stops within v0 / (mu g) of its first contact (plus a step
// for the last partial one) and slides at most v0^2 / (2 mu g) + v0 h.
#include <gtest/gtest.h>

#include <cmath>

#include "core/mesh_io.hpp"
#include "tests/kit/sanitized.hpp"
#include "tests/validation/volume_contact_scene_world.hpp"
#include "validation/fixtures/bumpy_cube.hpp"

namespace contactref::volume_contact {
namespace {

// The mesh file is the fixture's bumpy cube (make_bumpy_cube.py repeats
// bumpy_cube.cpp's construction): the same vertices in the same order, to
// the 10 significant digits it prints (half a unit of 1e-10 m on coordinates
// up to 0.104 m: 5e-11 m),
// and the same triangles.
TEST(BumpyCubeLanding, TheMeshFileIsTheFixturesBumpyCube) {
  const PolygonSoup file = read_polygon_soup(test::source_dir() / "validation/fixtures/polyhedra/bumpy_cube_16.off");
  const robust_geometry::TriangleSolid cube = fixtures::bumpy_cube(16, 0.1, 0.004, 4);
  ASSERT_EQ(file.vertices.size(), cube.vertices.size());
  ASSERT_EQ(file.faces.size(), cube.triangles.size());
  EXPECT_EQ(cube.triangles.size(), 3072u);
  for (std::size_t k = 0; k < cube.vertices.size(); ++k)
    EXPECT_LT((file.vertices[k] - cube.vertices[k]).cwiseAbs().maxCoeff(), 5e-11) << "vertex " << k;
  for (std::size_t k = 0; k < cube.triangles.size(); ++k)
    EXPECT_EQ(file.faces[k], std::vector<int>(cube.triangles[k].begin(), cube.triangles[k].end())) << "face " << k;
}

struct Landing {
  int most_contacts = 0, fewest_contacts = 1 << 30;  // over the steps after the first contact
  double first_contact = -1, stopped = -1;           // s
  double slide = 0;                                  // m along x
};

Landing land(ContactModel model, double duration) {
  const scenes::Scene scene = test::example_scene("bumpy_cube_landing.json");
  VolumeWorld world = test::scene_world(scene, model);
  const double h = world.options().time_step, x0 = world.bodies()[1].x_w.x();
  Landing out;
  while (world.time() < duration - h / 2) {
    const StepReport report = world.step();
    if (out.first_contact < 0 && report.contacts > 0) out.first_contact = report.time;
    if (out.first_contact >= 0) {
      out.most_contacts = std::max(out.most_contacts, report.contacts);
      out.fewest_contacts = std::min(out.fewest_contacts, report.contacts);
    }
    const RigidBody& cube = world.bodies()[1];
    if (out.stopped < 0 && cube.v_w.head<2>().norm() < 1e-9) out.stopped = report.time;
    // At rest from then on (PGS's tolerance: 1e-12 N s a step on 8 kg).
    if (out.stopped >= 0) {
      EXPECT_LT(cube.v_w.norm() + cube.omega_w.norm(), 1e-9) << "t = " << report.time;
    }
  }
  out.slide = world.bodies()[1].x_w.x() - x0;
  return out;
}

void expect_coulomb_stop(const Landing& landing) {
  const scenes::Scene scene = test::example_scene("bumpy_cube_landing.json");
  const double v0 = scene.bodies[1].v_w.x(), mu = scene.volume_contact.mu, g = -scene.gravity.z();
  const double h = scene.volume_contact.time_step;
  EXPECT_GT(landing.first_contact, 0);
  EXPECT_GT(landing.stopped, 0);
  EXPECT_LE(landing.stopped, landing.first_contact + v0 / (mu * g) + h);
  EXPECT_LE(landing.slide, v0 * landing.first_contact + v0 * v0 / (2 * mu * g) + v0 * h);
}

TEST(BumpyCubeLanding, SixDimensionalModelKeepsOneJointAndComesToRest) {
  // The half-space path over 3,072 triangles: microseconds a step.
  const Landing landing = land(ContactModel::kVolume6d, 1.0);
  EXPECT_EQ(landing.most_contacts, 1);
  EXPECT_EQ(landing.fewest_contacts, 1);
  expect_coulomb_stop(landing);
}

TEST(BumpyCubeLanding, PointModelNeedsAPointPerBumpTip) {
  // find_contacts on 3,072 triangles takes ~17 ms a step: 0.3 s of the run
  // (the stop is due by 0.1 s), one step in the sanitized build.
  const Landing landing = land(ContactModel::kPointContact, test::kSanitized ? 0.002 : 0.3);
  // The bottom face's 8 outward bump tips (4 bumps along each edge: the
  // tips at u, v in {1/8, 3/8, 5/8, 7/8} where both sines have one sign) lie
  // level and all within the touch tolerance: one point each.
  EXPECT_EQ(landing.most_contacts, 8);
  if (test::kSanitized) return;
  EXPECT_EQ(landing.fewest_contacts, 8);
  expect_coulomb_stop(landing);
}

}  // namespace
}  // namespace contactref::volume_contact
