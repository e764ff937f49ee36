// The bilateral joints of the simulator (reference/volume_contact/
// volume_world.hpp, block_pgs.hpp: spherical and hinge, for the pinch grasp
// of Section 6.1.6) and the external wrench, against closed forms:
//  - a rod on a spherical joint swings as the compound pendulum,
//    T = 2 pi sqrt(I_p / (m g d)) (1 + theta0^2/16 + ...);
//  - a door on a hinge keeps only the spin about its axis, with the
//    scheme's predicted anchor drift and O(h^2) loss of spin;
//  - a hinge's PD drive turns a door as the damped oscillator;
//  - a force applied with apply_wrench accelerates a free body by F/m;
//  - a stuck contact on a light hinged body, solved by block PGS, against
//    the dense solve of all its rows;
//  - a sliding contact there: the joint elimination's answer is a fixed
//    point of the paper's plain block Gauss-Seidel (each joint's impulse its
//    own projection: projection_residual, and a plain sweep from it moves
//    nothing), reached in fewer sweeps than plain Gauss-Seidel needs.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <random>

#include "reference/volume_contact/volume_world.hpp"
#include "tests/kit/errors.hpp"
#include "validation/fixtures/volume_contact_scenes.hpp"
#include "tests/reference/volume_contact/box_soup.hpp"

namespace contactref::volume_contact {
namespace {

constexpr double kGravity = 9.81;

// The box [-hx, hx] x [-hy, hy] x [-hz, hz].
using test::box_soup;

RigidBody box(const std::string& name, double hx, double hy, double hz, double mass) {
  RigidBody body;
  body.name = name;
  body.shape = std::make_shared<const BodyShape>(box_soup(hx, hy, hz));
  if (mass > 0) body.I_com_b = uniform_solid(body.shape->triangles, mass).mass.I_com_b;
  body.mass = mass;
  return body;
}

WorldOptions options(double h) {
  WorldOptions o;
  o.time_step = h;
  o.pgs.tolerance = 1e-14;
  return o;
}

TEST(BilateralJoints, ARodOnASphericalJointSwingsAsTheCompoundPendulum) {
  const double d = 0.2, mass = 0.5, theta0 = 0.05, h = 1e-4;
  RigidBody support = box("support", 0.01, 0.01, 0.01, 0);  // fixed, 0.3 m above the pivot
  support.x_w = Eigen::Vector3d(0, 0, 0.3);
  RigidBody rod = box("rod", 0.01, 0.01, d, mass);  // hangs from its top end at the origin
  rod.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(theta0, Eigen::Vector3d::UnitY()));
  rod.x_w = rod.q_w_b * Eigen::Vector3d(0, 0, -d);
  BilateralJoint pivot;
  pivot.kind = JointKind::kSpherical;
  pivot.a = 0;
  pivot.b = 1;
  pivot.anchor_a = Eigen::Vector3d(0, 0, -0.3);
  pivot.anchor_b = Eigen::Vector3d(0, 0, d);
  VolumeWorld world({support, rod}, options(h), {pivot});
  const double I_p = rod.I_com_b(1, 1) + mass * d * d;
  const double period = 2 * std::numbers::pi * std::sqrt(I_p / (mass * kGravity * d)) * (1 + theta0 * theta0 / 16);
  // Upward crossings of x = 0 by the centre of mass, interpolated linearly.
  std::vector<double> crossings;
  double anchor_error = 0;
  while (world.time() < 2.5 * period) {
    const double x_before = world.bodies()[1].x_w.x(), t_before = world.time();
    world.step();
    const RigidBody& r = world.bodies()[1];
    const double x = r.x_w.x();
    if (x_before < 0 && x >= 0) crossings.push_back(t_before + h * (-x_before) / (x - x_before));
    anchor_error = std::max(anchor_error, (r.x_w + r.R_w_b() * pivot.anchor_b).norm());
  }
  ASSERT_GE(crossings.size(), 2u);
  // Symplectic Euler's phase error is O((omega h)^2) ~ 1e-7 per period here,
  // the next amplitude term (11/3072) theta0^4 ~ 2e-8, the crossing's linear
  // interpolation (h/T)^2: the period is the closed form's to 1e-5.
  EXPECT_NEAR(crossings[1] - crossings[0], period, 1e-5 * period);
  EXPECT_LT(anchor_error, 1e-9);  // post-stabilisation holds the pivot
  EXPECT_LT(std::abs(world.bodies()[1].v_w.y()), 1e-12);  // a planar swing stays planar
}

// A 3 kg door (0.8 x 0.04 x 1 m) on a hinge along z through (0.01, 0, 0),
// at its edge, to a fixed frame 1 m away (the door never touches it).
struct Door {
  RigidBody frame, door;
  BilateralJoint hinge;
};

Door door_on_hinge() {
  Door d{box("frame", 0.01, 0.01, 0.5, 0), box("door", 0.4, 0.02, 0.5, 3), {}};
  d.frame.x_w = Eigen::Vector3d(-1, 0, 0);
  d.door.x_w = Eigen::Vector3d(0.41, 0, 0);
  d.hinge.kind = JointKind::kHinge;
  d.hinge.a = 0;
  d.hinge.b = 1;
  d.hinge.anchor_a = Eigen::Vector3d(1.01, 0, 0);
  d.hinge.anchor_b = Eigen::Vector3d(-0.4, 0, 0);
  return d;
}

TEST(BilateralJoints, ADoorOnAHingeKeepsOnlyItsSpinAboutTheAxis) {
  // After the first step the door turns about the hinge alone. Two errors of
  // the velocity-level step are predicted and checked:
  //  - the anchor drifts by the step's centripetal term h^2 omega^2 r / 2
  //    before the next projection brings it back;
  //  - each step projects the centre's velocity, tangent to the circle at the
  //    old angle, onto the new tangent: the spin loses the fraction
  //    (omega h)^2/2 * m r^2 / I_p per step (I_p = I_zz + m r^2 about the
  //    hinge), the scheme's O(h^2) dissipation.
  const double mass = 3, r = 0.4, h = 1e-3;  // r: from the hinge to the centre of mass
  auto [frame, door, hinge] = door_on_hinge();
  door.omega_w = Eigen::Vector3d(0.3, -0.2, 1.5);
  door.v_w = Eigen::Vector3d(0.1, 0.2, -0.1);
  WorldOptions o = options(h);
  o.gravity.setZero();
  VolumeWorld world({frame, door}, o, {hinge});
  world.step();
  const double I_p = door.I_com_b(2, 2) + mass * r * r;
  for (int k = 0; k < 2000; ++k) {
    const double spin = world.bodies()[1].omega_w.z();
    world.step();
    const RigidBody& d = world.bodies()[1];
    EXPECT_LT(d.omega_w.head<2>().norm(), 1e-12);
    const double drift = (d.x_w + d.R_w_b() * hinge.anchor_b - Eigen::Vector3d(0.01, 0, 0)).norm();
    EXPECT_NEAR(drift, h * h * spin * spin * r / 2, 0.01 * h * h * spin * spin * r / 2);
    const double loss = std::pow(spin * h, 2) / 2 * mass * r * r / I_p;
    EXPECT_NEAR(1 - d.omega_w.z() / spin, loss, 0.02 * loss);  // next order: (omega h)^2 ~ 6e-7 of it
  }
}

// theta(t) of the door below on a driven hinge, from rest, at time step h.
std::vector<double> driven_door_angles(double h, double duration, const HingeDrive& drive, double* inertia) {
  auto [frame, door, hinge] = door_on_hinge();
  hinge.drive = drive;
  WorldOptions o = options(h);
  o.gravity.setZero();
  VolumeWorld world({frame, door}, o, {hinge});
  *inertia = door.I_com_b(2, 2) + door.mass * 0.4 * 0.4;  // about the hinge
  std::vector<double> angles;
  while (world.time() < duration - h / 2) {
    world.step();
    angles.push_back(world.hinge_angle(0));
  }
  return angles;
}

// A hinge's PD drive (the pinch grasp's fingers, Section 6.1.6) turns a door
// from rest as the damped oscillator I theta'' = k (theta* - theta) - c theta'
// (closed form below); the semi-implicit step is first order: halving h at
// least nearly halves the largest error.
TEST(BilateralJoints, ADrivenHingeTurnsADoorAsTheDampedOscillatorToFirstOrder) {
  HingeDrive drive;
  drive.stiffness = 4;
  drive.damping = 0.4;
  drive.angle = 0.3;
  const double duration = 3;
  double largest_error[2] = {0, 0};
  for (int refinement = 0; refinement < 2; ++refinement) {
    const double h = 1e-3 / (1 << refinement);
    double I = 0;
    const std::vector<double> angles = driven_door_angles(h, duration, drive, &I);
    const double omega0 = std::sqrt(drive.stiffness / I), zeta = drive.damping / (2 * std::sqrt(drive.stiffness * I));
    const double omega_d = omega0 * std::sqrt(1 - zeta * zeta);
    for (std::size_t k = 0; k < angles.size(); ++k) {
      const double t = h * double(k + 1);
      const double exact = drive.angle * (1 - std::exp(-zeta * omega0 * t) *
                                                  (std::cos(omega_d * t) +
                                                   zeta / std::sqrt(1 - zeta * zeta) * std::sin(omega_d * t)));
      largest_error[refinement] = std::max(largest_error[refinement], std::abs(angles[k] - exact));
    }
  }
  EXPECT_LT(largest_error[0], 0.01 * drive.angle);
  EXPECT_LT(largest_error[1], 0.6 * largest_error[0]);
}

TEST(BilateralJoints, ADriveNeedsAHingeAndFiniteGains) {
  RigidBody support = box("support", 0.01, 0.01, 0.01, 0);
  RigidBody rod = box("rod", 0.01, 0.01, 0.2, 1);
  BilateralJoint joint;
  joint.kind = JointKind::kSpherical;
  joint.a = 0;
  joint.b = 1;
  joint.drive.stiffness = 1;
  EXPECT_TRUE(test::contains(test::error_of([&] { VolumeWorld({support, rod}, options(1e-3), {joint}); }),
                             "joint 0's drive needs a hinge"));
  joint.kind = JointKind::kHinge;
  for (const double bad : {-1.0, std::nan("")}) {
    joint.drive.damping = bad;
    EXPECT_TRUE(test::contains(test::error_of([&] { VolumeWorld({support, rod}, options(1e-3), {joint}); }),
                               "finite gains >= 0"));
  }
  joint.drive.damping = 0;
  joint.drive.angle = 4;
  EXPECT_TRUE(test::contains(test::error_of([&] { VolumeWorld({support, rod}, options(1e-3), {joint}); }),
                             "an angle in [-pi, pi]"));
  joint.drive.angle = 0;
  joint.kind = JointKind::kSpherical;
  joint.drive.stiffness = 0;
  const VolumeWorld world({support, rod}, options(1e-3), {joint});
  EXPECT_TRUE(test::contains(test::error_of([&] { (void)world.hinge_angle(0); }), "index of a hinge joint"));
}

TEST(BilateralJoints, AnAppliedForceAcceleratesAFreeBodyForOneStep) {
  RigidBody b = box("b", 0.1, 0.1, 0.1, 2);
  WorldOptions o = options(1e-2);
  o.gravity.setZero();
  VolumeWorld world({b}, o);
  Vector6d wrench;
  wrench << 0, 0, 0.4, 3, 0, 0;
  world.apply_wrench(0, wrench);
  world.step();
  EXPECT_NEAR(world.bodies()[0].v_w.x(), 3 / 2.0 * 1e-2, 1e-17);
  EXPECT_NEAR(world.bodies()[0].omega_w.z(), 0.4 / b.I_com_b(2, 2) * 1e-2, 1e-16);
  world.step();  // the wrench lasted one step
  EXPECT_NEAR(world.bodies()[0].v_w.x(), 3 / 2.0 * 1e-2, 1e-17);
  EXPECT_TRUE(test::contains(test::error_of([&] { world.apply_wrench(3, wrench); }), "body index in range"));
  BilateralJoint bad;
  bad.a = 0;
  bad.b = 0;
  EXPECT_TRUE(test::contains(test::error_of([&] { VolumeWorld({b}, o, {bad}); }), "two different bodies"));
}

// A light finger (10 g) on a hinge pressing a heavy block (2 kg) with a stuck
// 6D contact: with their rows all equalities, the impulses solve the dense
// KKT system G M^-1 G^T lambda = -G v0 (G: the contact's 6 rows and the
// hinge's 5, for both bodies; built here from the Jacobians, independently of
// block_pgs.cpp's couplings). Plain Gauss-Seidel between the contact and the
// hinge converges at a rate set by the mass ratio (thousands of sweeps here);
// the hinge eliminated in the contact's block (block_pgs.hpp) takes a few.
TEST(BilateralJoints, ALightFingerOnAHingeStopsAHeavyBlockAsTheDenseSolveInAFewSweeps) {
  const fixtures::HingedFinger scene = fixtures::hinged_finger(Eigen::Vector2d(0.2, 0.15), 100);  // mu 100: stuck
  const std::vector<InverseMass>& masses = scene.masses;
  const PgsJoint &contact = scene.joints[0], &hinge = scene.joints[1];
  std::vector<Vector6d> velocities(3, Vector6d::Zero());
  velocities[1] << 2, 0.1, -0.3, 0.05, -0.2, 0.01;  // the finger swings down onto the block
  velocities[2] << 0.1, 0.2, -0.1, 0.01, 0.02, 0.03;
  // Dense: the finger's and the block's 12 velocities, 11 rows.
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(11, 12), M_inv = Eigen::MatrixXd::Zero(12, 12);
  G.block<6, 6>(0, 0) = contact.J_b;
  G.block<6, 6>(0, 6) = -contact.J_a;
  G.block<5, 6>(6, 0) = hinge.J_b(bilateral_rows(JointKind::kHinge), Eigen::all);
  for (int k = 0; k < 2; ++k)
    for (int c = 0; c < 6; ++c) M_inv.block<6, 1>(6 * k, 6 * k + c) = masses[std::size_t(k + 1)].apply(Vector6d::Unit(c));
  Eigen::VectorXd v0(12);
  v0 << velocities[1], velocities[2];
  const Eigen::MatrixXd S_dense = G * M_inv * G.transpose();
  const Eigen::VectorXd lambda = S_dense.ldlt().solve(-G * v0);
  // Either solve carries round-off of the order of eps times S's condition number.
  const Eigen::VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S_dense).eigenvalues();
  const double round_off = 1e-16 * eigenvalues.maxCoeff() / eigenvalues.minCoeff();
  const Eigen::VectorXd v = v0 + M_inv * G.transpose() * lambda;
  // The dense solution is a stuck contact (so Algorithm 1 keeps it): compressive, inside the cone and the ellipse.
  const Vector6d paper = to_paper_order(Vector6d(lambda.head<6>()));
  ASSERT_GT(paper[0], 0);
  ASSERT_LT(paper.segment<2>(1).norm(), contact.mu * paper[0]);
  ASSERT_LT(std::hypot(paper[4] / contact.semi_axes.y(), paper[5] / contact.semi_axes.x()), paper[0]);

  std::vector<PgsJoint> joints{contact, hinge};
  PgsOptions options;
  options.tolerance = 1e-11;  // the first sweep's update is 0.1 N s; round-off leaves ~1e-12
  options.max_iterations = 100;
  // The paper's plain block Gauss-Seidel: not within 100 sweeps.
  PgsOptions plain = options;
  plain.eliminate_joints = false;
  std::vector<PgsJoint> plain_joints = joints;
  std::vector<Vector6d> plain_velocities = velocities;
  EXPECT_FALSE(solve_block_pgs(plain_joints, plain_velocities, masses, plain).converged);
  const PgsResult result = solve_block_pgs(joints, velocities, masses, options);
  ASSERT_TRUE(result.converged);
  EXPECT_LE(result.iterations, 3);
  EXPECT_EQ(joints[0].state, JointState::kStuck);
  EXPECT_LT((joints[0].impulse - lambda.head<6>()).norm(), 10 * round_off * lambda.norm());
  EXPECT_LT((joints[1].impulse(bilateral_rows(JointKind::kHinge)) - lambda.tail<5>()).norm(),
            10 * round_off * lambda.norm());
  EXPECT_LT((velocities[1] - v.head<6>()).norm(), 10 * round_off * v0.norm());
  EXPECT_LT((velocities[2] - v.tail<6>()).norm(), 10 * round_off * v0.norm());
}

// Issue 29, item 14. The finger pressed onto the block and sliding on it
// (mu 0.5, the two patch sizes of the harness, 20 seeded states):
// each joint's impulse must be its own projection (Algorithm 1 for the
// contact with its own S; the hinge's rows solved), which is what a sweep of
// the paper's plain block Gauss-Seidel computes, so a plain sweep from the
// eliminated solver's answer moves it by no more than the tolerance. (The
// earlier elimination projected the contact with the reduced S - D instead:
// its answers were off by up to 2e-2 N s, and it separated 21 of 36
// contacts that the paper's solver keeps.) Plain Gauss-Seidel from zero
// needs hundreds of sweeps; the elimination, far fewer. The fixed point need
// not be unique (Algorithm 1's branches): the two solvers may land on
// different ones, so their answers are not compared with each other.
TEST(BilateralJoints, ASlidingContactOnALightHingedFingerEndsAtThePapersFixedPoint) {
  std::mt19937 rng(5);  // the harness's seed
  PgsOptions options;
  options.tolerance = 1e-13;  // N s: impulses of 1e-2 N s, round-off of the projections ~1e-16
  options.max_iterations = 20000;
  PgsOptions plain = options;
  plain.eliminate_joints = false;
  int trials = 0, sliding = 0;
  long eliminated_sweeps = 0, plain_sweeps = 0;
  for (const Eigen::Vector2d& patch : {Eigen::Vector2d(0.002, 0.001), Eigen::Vector2d(0.02, 0.01)})
    for (int trial = 0; trial < 20; ++trial) {
      const fixtures::HingedFinger scene = fixtures::hinged_finger(patch, 0.5);
      const std::vector<Vector6d> start = fixtures::hinged_finger_start(rng);
      std::vector<PgsJoint> joints = scene.joints;
      std::vector<Vector6d> velocities = start;
      const PgsResult result = solve_block_pgs(joints, velocities, scene.masses, options);
      ASSERT_TRUE(result.converged) << "trial " << trial;
      EXPECT_LE(result.projection_residual, options.tolerance) << "trial " << trial;
      EXPECT_EQ(result.projection_residual, projection_residual(joints, velocities, plain));
      // A plain sweep from the answer (the impulses applied to the start).
      std::vector<PgsJoint> again = joints;
      std::vector<Vector6d> from = start;
      const PgsResult check = solve_block_pgs(again, from, scene.masses, plain);
      EXPECT_EQ(check.iterations, 1) << "trial " << trial;
      EXPECT_LE(check.residuals.front(), options.tolerance) << "trial " << trial;
      // The paper's solver from zero.
      std::vector<PgsJoint> cold = scene.joints;
      std::vector<Vector6d> cold_velocities = start;
      const PgsResult paper = solve_block_pgs(cold, cold_velocities, scene.masses, plain);
      ASSERT_TRUE(paper.converged) << "trial " << trial;
      EXPECT_LE(paper.projection_residual, options.tolerance) << "trial " << trial;
      ++trials;
      sliding += joints[0].state == JointState::kSliding || joints[0].state == JointState::kRollingSliding;
      eliminated_sweeps += result.iterations;
      plain_sweeps += paper.iterations;
    }
  EXPECT_GT(sliding, trials / 2);  // the case of the item: contacts that slide
  EXPECT_LT(10 * eliminated_sweeps, plain_sweeps);
}

}  // namespace
}  // namespace contactref::volume_contact
