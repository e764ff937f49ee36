// The quasi-rigid model's scenes (validation/scenes/quasi_rigid_scene.hpp):
// box, sphere and point-cloud bodies sampled into the simulator's bodies (the
// samples lie on the geometry given, in body coordinates about the centre of
// mass), materials per body or from the model, the options from MODEL.
#include "validation/scenes/quasi_rigid_scene.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/kit/source_dir.hpp"
#include "validation/scenes/scene.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::scenes {
namespace {

using test::kEps;

TEST(QuasiRigidScene, BodiesAreSampledOnTheirGeometryWithTheirMaterials) {
  const std::string text = R"({
    "model": {"type": "quasi-rigid", "E": 1e6, "nu": 0.3, "mu": 0.4, "damping": 1.5, "spacing": 0.01,
              "time_step": 0.002, "step_fraction": 0.1, "min_step": 1e-8, "contact_tolerance": 1e-6,
              "active_range": 2},
    "gravity": [0, 0, -9.8],
    "bodies": [
      {"name": "block", "geometry": {"type": "box", "size": [0.2, 0.1, 0.05]}, "density": 500,
       "pose": {"position": [0.1, 0.2, 0.3], "rotate": [0.5, [0, 0, 1]]}, "velocity": {"linear": [1, 0, 0]}},
      {"name": "ball", "geometry": {"type": "sphere", "radius": 0.04}, "fixed": true,
       "material": {"E": 0, "nu": 0}},
      {"name": "cube", "geometry": {"type": "points", "file": "../points/cube_corners.ply"}, "mass": 2,
       "inertia": [[0.3, 0, 0], [0, 0.3, 0], [0, 0, 0.3]]}
    ],
    "duration": 0.5, "output": {"interval": 0.01}
  })";
  const Scene scene = parse_scene(text, test::source_dir() / "validation/fixtures/scenes/inline.json");
  const std::vector<quasi_rigid::DynamicBody> bodies = quasi_rigid_bodies(scene);
  ASSERT_EQ(bodies.size(), 3u);

  const quasi_rigid::DynamicBody& block = bodies[0];
  EXPECT_FALSE(block.fixed);
  EXPECT_NEAR(block.mass.mass, 500 * 0.2 * 0.1 * 0.05, 16 * kEps);
  EXPECT_EQ(block.body.material().E, 1e6);
  EXPECT_EQ(block.state.x_w, Eigen::Vector3d(0.1, 0.2, 0.3));
  EXPECT_NEAR(block.state.q_w_b.angularDistance(Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()))),
              0, 1e-15);
  EXPECT_EQ(block.state.v_w, Eigen::Vector3d(1, 0, 0));
  const Eigen::Vector3d half(0.1, 0.05, 0.025);
  const auto& block_samples = block.body.surface().samples();
  // Every point of the faces (0.07 m^2) lies within the spacing of a sample:
  // at least 0.07 / (pi 0.01^2) = 223 samples.
  EXPECT_GT(block_samples.points.size(), 222u);
  for (std::size_t k = 0; k < block_samples.points.size(); ++k) {
    // On a face (the box is centred at its centre of mass), with its normal.
    const Eigen::Vector3d& p = block_samples.points[k];
    EXPECT_NEAR(p.cwiseQuotient(half).cwiseAbs().maxCoeff(), 1, 1e-12) << p.transpose();
    EXPECT_LE(p.cwiseQuotient(half).cwiseAbs().maxCoeff(), 1 + 1e-12);
    EXPECT_NEAR(block_samples.normals[k].cwiseAbs().maxCoeff(), 1, 1e-15);
  }

  const quasi_rigid::DynamicBody& ball = bodies[1];
  EXPECT_TRUE(ball.fixed);
  EXPECT_EQ(ball.body.material().E, 0);
  for (const Eigen::Vector3d& p : ball.body.surface().samples().points) EXPECT_NEAR(p.norm(), 0.04, 1e-15);

  EXPECT_EQ(bodies[2].body.surface().samples().points.size(), 8u);
  EXPECT_EQ(bodies[2].mass.mass, 2);

  const quasi_rigid::DynamicsOptions options = quasi_rigid_options(scene);
  EXPECT_EQ(options.mu, 0.4);
  EXPECT_EQ(options.damping, 1.5);
  EXPECT_EQ(options.time_step, 0.002);
  EXPECT_EQ(options.step_fraction, 0.1);
  EXPECT_EQ(options.min_step, 1e-8);
  EXPECT_EQ(options.contact_tolerance, 1e-6);
  EXPECT_EQ(options.contact.active_range, 2);
  EXPECT_EQ(options.duration, 0.5);
  EXPECT_EQ(options.output_interval, 0.01);
  EXPECT_EQ(options.gravity_w, Eigen::Vector3d(0, 0, -9.8));
}

TEST(QuasiRigidScene, AMaterialBelongsToTheQuasiRigidModel) {
  const std::string text = R"({"model": {"type": "volume-6d"}, "bodies": [
      {"name": "b", "geometry": {"type": "box", "size": [1, 1, 1]}, "fixed": true, "material": {"E": 1, "nu": 0}}]})";
  try {
    parse_scene(text, "m.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("m.json: bodies[0].material: the volume-6d model takes no material per body"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace contactref::scenes
