// Bouchard et al. Fig. 8, validation/fixtures/scenes/tapered_stack.json: a
// nested stack of boxes whose footprints shrink upwards rests on a plane
// for 2 s, upright, each interface no deeper than the target volume's depth
// over its footprint, in both contact models (as the octagon-convergence
// suite checks the cube stack: validation/suites/octagon_convergence.cpp).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "tests/kit/sanitized.hpp"
#include "tests/validation/volume_contact_scene_world.hpp"

namespace contactref::volume_contact {
namespace {

void expect_the_stack_rests(ContactModel model) {
  const scenes::Scene scene = test::example_scene("tapered_stack.json");
  VolumeWorld world = test::scene_world(scene, model);
  const std::vector<RigidBody> start = world.bodies();
  const double h = world.options().time_step, V_t = world.options().target_volume.value();
  // Every mesh pair is 7 exact intersections a step (~0.1 s a step for the
  // 6D model): the sanitized build takes a few steps.
  const int steps = test::kSanitized ? 3 : int(std::lround(scene.options.duration / h));
  for (int k = 0; k < steps; ++k) {
    const StepReport report = world.step();
    // Every interface is a contact from the first step: one 6D joint each
    // (5); the point model's corners of each face-face region (4 each).
    EXPECT_EQ(report.contacts, model == ContactModel::kVolume6d ? 5 : 20) << "t = " << report.time;
  }
  double sink_allowed = 0;  // m: the target depths of the interfaces below
  for (std::size_t k = 1; k < start.size(); ++k) {
    SCOPED_TRACE(start[k].name);
    const RigidBody& box = world.bodies()[k];
    // Its footprint (the smaller of each touching pair: the upper box's) is
    // the side of its bottom face, read from its shape.
    double side = 0;
    for (const Eigen::Vector3d& x : box.shape->triangles.vertices) side = std::max(side, 2 * x.x());
    sink_allowed += V_t / (side * side);
    // Below its flush height (0.025 m + 0.05 m per box below) by at most the
    // target depths of the interfaces under it: each keeps V_t over its
    // footprint; 1e-6 of them for the stabilisation's stopping criterion.
    const double flush = 0.025 + 0.05 * double(k - 1);
    EXPECT_LE(flush - box.x_w.z(), sink_allowed * (1 + 1e-6));
    EXPECT_GE(flush - box.x_w.z(), model == ContactModel::kVolume6d ? 0 : -1e-9);
    // Upright and in place: every normal is vertical (no side face of one
    // box lies in another's plane), so nothing turns or slides but
    // round-off and PGS's tolerance (1e-12 N s a step on 0.5 to 2 kg).
    EXPECT_LT(Eigen::AngleAxisd(box.q_w_b * start[k].q_w_b.conjugate()).angle(), 1e-9);
    EXPECT_LT((box.x_w - start[k].x_w).head<2>().norm(), 1e-9);
    EXPECT_LT(box.v_w.norm() + box.omega_w.norm(), 1e-9);
  }
}

TEST(TaperedStack, RestsUprightWithTheSixDimensionalContacts) { expect_the_stack_rests(ContactModel::kVolume6d); }

TEST(TaperedStack, RestsUprightWithThePointContacts) { expect_the_stack_rests(ContactModel::kPointContact); }

}  // namespace
}  // namespace contactref::volume_contact
