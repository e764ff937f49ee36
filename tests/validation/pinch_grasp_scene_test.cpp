// Bouchard et al. Fig. 12 (Section 6.1.6), validation/fixtures/scenes/
// pinch_grasp.json: two spherical fingertips on PD-driven hinges pinch a
// ruler L from its centre of mass; the spin torques about the pinch axis
// (Eqs. 11-13) hold it up against its gravity torque m g L, or do not.
//
// The law. With the ruler held, each pad's normal force f_n and its patch's
// ellipse (a, b) bound the spin torque it can give by mu f_n sqrt(a^2 + b^2)
// (the centre of pressure at the patch's centre: the grip is symmetric), and
// the pads share the demand m g L equally. So:
//  - the ruler is held while 2 mu f_n sqrt(a^2 + b^2) >= m g L. Held, it
//    creeps by the angular compliance c (Section 5.7: impulse c / h^2 is a
//    twist) at the rate c (m g L / 2) / h about the pinch axis, which the
//    test checks to 1e-3 (a rigid joint would not move at all);
//  - otherwise each spin torque is clamped at its bound and the ruler turns
//    about the pinch axis as a pendulum pivoted there against that friction:
//    I_p alpha = m g r_x - sum of the bounds (r_x the centre of mass's
//    horizontal offset from the pads, I_p = I_yy + m |r|^2), checked to 1%.
// Two changes of the held scene make it slip: a longer lever (3.5 cm), and a
// smaller target volume (1e-9 m^3: the pyramid tip at each fingertip's pole
// is smaller, and so is its ellipse), which is the paper's remark that the
// stabilisation parameters set the spinning torque available.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/kit/sanitized.hpp"
#include "tests/validation/volume_contact_scene_world.hpp"

namespace contactref::volume_contact {
namespace {

struct Grip {
  double demand = 0;    // m g r_x (N m): the gravity torque about the pinch axis
  double capacity = 0;  // sum of mu f_n sqrt(a^2 + b^2) over the pads (N m)
  double spin = 0;      // sum of the pads' spin torques on the ruler about y (N m)
  double largest_spin_to_bound = 0;  // max over the pads of |spin| / bound
  Eigen::Vector3d pivot_w = Eigen::Vector3d::Zero();  // the pads' centres' midpoint
};

// Bodies: hand, ruler, finger_left, finger_right; the contacts ruler-finger.
Grip grip(const StepReport& report, const VolumeWorld& world, double mu) {
  const RigidBody& ruler = world.bodies()[1];
  const double h = world.options().time_step, g = -world.options().gravity.z();
  Grip out;
  int pads = 0;
  for (std::size_t k = 0; k < report.joints.size(); ++k) {
    const PgsJoint& j = report.joints[k];
    if (j.kind != JointKind::kVolume6d) continue;
    EXPECT_EQ(j.a, 1);
    const double f_n = j.impulse[5] / h, bound = mu * f_n * j.semi_axes.norm();
    const Eigen::Vector3d spin_on_ruler_w = -j.R_w_c.col(2) * j.impulse[2] / h;  // -lambda acts on a
    out.capacity += bound;
    out.spin += spin_on_ruler_w.y();
    out.largest_spin_to_bound = std::max(out.largest_spin_to_bound, std::abs(j.impulse[2] / h) / bound);
    out.pivot_w += j.x_w_c / 2;
    ++pads;
  }
  EXPECT_EQ(pads, 2);
  out.demand = ruler.mass * g * (ruler.x_w - out.pivot_w).x();
  return out;
}

TEST(PinchGrasp, TheSpinTorquesHoldTheRulerAndItCreepsByTheAngularCompliance) {
  const scenes::Scene scene = test::example_scene("pinch_grasp.json");
  VolumeWorld world = test::scene_world(scene, ContactModel::kVolume6d);
  const double h = world.options().time_step, c = world.options().angular_compliance, mu = scene.volume_contact.mu;
  const RigidBody& ruler = world.bodies()[1];
  const int steps = 25, settled = 15;
  int checked = 0;
  for (int k = 0; k < steps; ++k) {
    const StepReport report = world.step();
    const Grip g = grip(report, world, mu);
    if (k < settled) continue;  // the PD drives press the pads to their steady force
    ASSERT_TRUE(report.pgs.converged) << "step " << k;
    EXPECT_GT(g.capacity, 1.2 * g.demand);  // the law says: held, with a margin
    EXPECT_LT(g.largest_spin_to_bound, 1);
    // The spin torques carry the gravity torque (their sum, and half each by symmetry) ...
    EXPECT_NEAR(g.spin, -g.demand, 1e-4 * g.demand);
    // ... and the compliance lets the ruler turn by c tau / h per pad.
    EXPECT_NEAR(ruler.omega_w.y(), c * (g.demand / 2) / h, 1e-3 * c * (g.demand / 2) / h);
    ++checked;
  }
  EXPECT_EQ(checked, steps - settled);
}

// Runs `steps` steps of a changed scene that the law says slips, and checks
// the pendulum's angular acceleration where PGS converged.
void expect_turns_against_the_clamped_spin(const scenes::Scene& scene, int steps) {
  VolumeWorld world = test::scene_world(scene, ContactModel::kVolume6d);
  const double h = world.options().time_step, mu = scene.volume_contact.mu;
  const RigidBody& ruler = world.bodies()[1];
  int checked = 0;
  double demand = 0;
  for (int k = 0; k < steps; ++k) {
    const double omega_before = ruler.omega_w.y();
    const StepReport report = world.step();
    const Grip g = grip(report, world, mu);
    demand = g.demand;
    if (k < 5) continue;  // the PD drives press the pads to their steady force
    EXPECT_LT(g.capacity, g.demand);  // the law says: it slips
    if (!report.pgs.converged) continue;  // the transient's clamps converge slowly
    // Clamped: the tangential torques move the centre of pressure off the
    // patch's centre by a few % of a, which lowers Eq. 13's bound by O((d/a)^2).
    EXPECT_NEAR(g.largest_spin_to_bound, 1, 2e-3);
    const Eigen::Vector3d r = ruler.x_w - g.pivot_w;
    const double I_p = ruler.inertia_w()(1, 1) + ruler.mass * r.squaredNorm();
    const double alpha = (ruler.omega_w.y() - omega_before) / h;
    EXPECT_NEAR(alpha, (g.demand + g.spin) / I_p, 0.01 * (g.demand + g.spin) / I_p) << "step " << k;
    ++checked;
  }
  EXPECT_GT(checked, 5);
  // Far faster than a held ruler's creep.
  EXPECT_GT(ruler.omega_w.y(), 10 * world.options().angular_compliance * (demand / 2) / h);
}

TEST(PinchGrasp, ALongerLeverTurnsTheRulerAgainstTheClampedSpinTorques) {
  if (test::kSanitized) GTEST_SKIP() << "exact intersections, slow sanitized: the hold runs there";
  scenes::Scene scene = test::example_scene("pinch_grasp.json");
  scene.bodies[1].E_w_b = RigidPose<double>::from_axis_angle(0, Eigen::Vector3d::UnitZ(), Eigen::Vector3d(0.035, 0, 0),
                                                             "ruler");
  expect_turns_against_the_clamped_spin(scene, 40);
}

TEST(PinchGrasp, ASmallerTargetVolumeGivesSmallerPatchesThatLetTheRulerTurn) {
  if (test::kSanitized) GTEST_SKIP() << "exact intersections, slow sanitized: the hold runs there";
  scenes::Scene scene = test::example_scene("pinch_grasp.json");
  scene.volume_contact.target_volume = 1e-9;
  expect_turns_against_the_clamped_spin(scene, 40);
}

}  // namespace
}  // namespace contactref::volume_contact
