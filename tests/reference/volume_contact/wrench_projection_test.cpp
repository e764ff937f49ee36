// Algorithm 1 (reference/volume_contact/wrench_projection.hpp, Bouchard et
// al. Sections 5.1-5.6) and the joint's Schur complement
// (contact_jacobian.hpp), against independent references:
//  - the Jacobian against the finite-difference velocity of the contact
//    frame's point on a moving body, and S against the kinetic energy an
//    impulse gives (lambda^T S lambda = 2 T);
//  - each branch against a hand-computed impulse for a box or a sphere on a
//    fixed ground: stuck, sliding (the box keeps its orientation, so the cone
//    force is m |v_n| (1, mu) by hand), the frictionless sphere of Section 5.2
//    (no torque), tipping and rolling (the classical point-contact impulse
//    K^-1 (-v_p), K = I/m - [r] I^-1 [r], at the projected point), the spin
//    clamp (mu f_n sqrt(a^2 + b^2) at the patch's centre); in the easy frame
//    and with the scene rotated (S and e in the contact frame do not change,
//    so neither may the result);
//  - the cone's direction against a brute-force Euclidean projection onto
//    the cone; the point contact's update: its fixed points satisfy
//    Coulomb's law;
//  - random problems: every projected impulse is feasible (compressive, in
//    the cone, its centre of pressure in the ellipse, its spin within the
//    bound), and each branch zeroes the velocities it claims to;
//  - the support region for the ellipse (support_region.hpp): a box whose
//    centre of pressure lies past its footprint but inside the ellipse tips
//    about the footprint's edge (the point-contact impulse there), and its
//    spin clamp is the uniformly loaded square's mu f_n (s/6)(sqrt 2 +
//    ln(1 + sqrt 2)); without the re-solve, the clamp changes tau_n alone.
#include "reference/volume_contact/wrench_projection.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <numbers>
#include <random>

#include "reference/spatial/so3.hpp"
#include "reference/volume_contact/centre_of_pressure.hpp"
#include "reference/volume_contact/contact_jacobian.hpp"
#include "tests/kit/errors.hpp"

namespace contactref::volume_contact {
namespace {

// Round-off bound for the 6x6 solves on these well-conditioned problems
// (condition numbers below 1e4, entries of order 1): 1e4 * 1e3 ulps.
constexpr double kSolveTolerance = 1e-12;

TEST(PaperOrder, MapsOursToThePapersNormalFirstForceThenTorqueOrder) {
  Vector6d ours;
  ours << 10, 11, 12, 13, 14, 15;  // (tau_u, tau_w, tau_n, f_u, f_w, f_n)
  Vector6d paper;
  paper << 15, 13, 14, 12, 10, 11;  // (f_n, f_u, f_w, tau_n, tau_u, tau_w)
  EXPECT_EQ(to_paper_order(ours), paper);
  EXPECT_EQ(from_paper_order(paper), ours);
  Matrix6d S = Matrix6d::Random();
  const Vector6d x = Vector6d::Random();
  EXPECT_LT((to_paper_order(S) * to_paper_order(x) - to_paper_order(Vector6d(S * x))).norm(), 1e-15);
}

// A free body (box or sphere) above a fixed ground; frame c at the contact.
struct Body {
  double mass = 2;
  Eigen::Matrix3d inertia_b = Eigen::Matrix3d::Identity();
  Eigen::Matrix3d R_w_b = Eigen::Matrix3d::Identity();
  Eigen::Vector3d com_w = Eigen::Vector3d::Zero();
  InverseMass inverse() const {
    return {1 / mass, R_w_b * inertia_b.inverse() * R_w_b.transpose()};
  }
};

Body box(double hx, double hy, double hz, double mass) {
  Body b;
  b.mass = mass;
  b.inertia_b = (mass / 3 * Eigen::Vector3d(hy * hy + hz * hz, hx * hx + hz * hz, hx * hx + hy * hy)).asDiagonal();
  return b;
}

Body solid_sphere(double radius, double mass) {
  Body b;
  b.mass = mass;
  b.inertia_b = 0.4 * mass * radius * radius * Eigen::Matrix3d::Identity();
  return b;
}

TEST(ContactJacobian, MatchesTheFiniteDifferenceVelocityOfTheContactFrameAndTheKineticEnergy) {
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  const auto random_vector = [&] { return Eigen::Vector3d(g(rng), g(rng), g(rng)); };
  for (int trial = 0; trial < 20; ++trial) {
    Body b = box(0.3, 0.2, 0.1, 1.5);
    b.R_w_b = Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
    b.com_w = random_vector();
    const Eigen::Matrix3d R_w_c = Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
    const Eigen::Vector3d x_c = random_vector(), omega = random_vector(), v = random_vector();
    const Matrix6d J = frame_jacobian(R_w_c, x_c, b.com_w);
    Vector6d velocity;
    velocity << omega, v;
    // The material point at x_c moves with the body: x(t) = com + t v + exp(t [omega]) (x_c - com).
    const double h = 1e-6;
    const auto point = [&](double t) {
      return Eigen::Vector3d(b.com_w + t * v + spatial::so3_exp<double>(t * omega) * (x_c - b.com_w));
    };
    const Eigen::Vector3d v_fd = (point(h) - point(-h)) / (2 * h);  // central difference, error ~h^2 |omega|^3 |r|
    const Vector6d twist_c = J * velocity;
    EXPECT_LT((twist_c.head<3>() - R_w_c.transpose() * omega).norm(), 1e-14);
    EXPECT_LT((twist_c.tail<3>() - R_w_c.transpose() * v_fd).norm(), 1e-8);
    // An impulse lambda on the body at c changes the kinetic energy from rest
    // to T = lambda^T S lambda / 2 (S = J M^-1 J^T with a fixed A), computed
    // here from the body's own momentum: T = (m |dv|^2 + dw^T I_w dw) / 2.
    const Vector6d lambda = Vector6d::Random();
    const InverseMass inverse = b.inverse();
    const Matrix6d S = schur_complement(Matrix6d::Zero(), InverseMass{}, J, inverse);
    const Eigen::Vector3d force_w = R_w_c * lambda.tail<3>();
    const Eigen::Vector3d torque_w = R_w_c * lambda.head<3>() + (x_c - b.com_w).cross(force_w);
    const Eigen::Vector3d dv = force_w / b.mass, dw = inverse.inverse_inertia_w * torque_w;
    const Eigen::Matrix3d inertia_w = b.R_w_b * b.inertia_b * b.R_w_b.transpose();
    const double energy = 0.5 * (b.mass * dv.squaredNorm() + dw.dot(inertia_w * dw));
    EXPECT_NEAR(lambda.dot(S * lambda) / 2, energy, 1e-12 * energy);
  }
}

// The joint of a body on a fixed ground with frame c at x_c, axes R_w_c.
struct Joint {
  Matrix6d S;
  Vector6d e;
};

Joint joint(const Body& b, const Eigen::Matrix3d& R_w_c, const Eigen::Vector3d& x_c, const Eigen::Vector3d& omega_w,
            const Eigen::Vector3d& v_w) {
  const Matrix6d J = frame_jacobian(R_w_c, x_c, b.com_w);
  Vector6d velocity;
  velocity << omega_w, v_w;
  return {schur_complement(Matrix6d::Zero(), InverseMass{}, J, b.inverse()), J * velocity};
}

// The scene in the easy frame (c's axes the world's, n = z) or turned by a
// fixed rotation: the result in c's axes must be the same.
struct Scene {
  Eigen::Matrix3d R;  // world from the easy frame
  Body body;
  Eigen::Vector3d contact;  // x_c in the easy frame
  Joint make(const Eigen::Vector3d& omega, const Eigen::Vector3d& v) const {
    Body turned = body;
    turned.R_w_b = R * body.R_w_b;
    turned.com_w = R * body.com_w;
    return joint(turned, R, R * contact, R * omega, R * v);
  }
};

std::vector<Eigen::Matrix3d> frames() {
  return {Eigen::Matrix3d::Identity(),
          Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, -2, 0.5).normalized()).toRotationMatrix()};
}

Vector6d wrench(double tu, double tw, double tn, double fu, double fw, double fn) {
  Vector6d w;
  w << tu, tw, tn, fu, fw, fn;
  return w;
}

const Eigen::Vector2d kPatch(0.15, 0.08);

TEST(WrenchProjection, ABoxLandingWithinTheConeIsStoppedByTheRigidJointsImpulse) {
  for (const Eigen::Matrix3d& R : frames()) {
    const double h = 0.05;  // the centre of mass is h above c
    Scene scene{R, box(0.2, 0.1, h, 2), Eigen::Vector3d(0, 0, -h)};
    const Joint j = scene.make(Eigen::Vector3d::Zero(), Eigen::Vector3d(0.1, 0, -1));
    const WrenchProjection out = project_joint(j.S, j.e, kPatch, 0.5);
    // Stopping the translation without turning: f = -m v, and the torque at c
    // that cancels its moment about the centre of mass, (com - c) x f.
    const Eigen::Vector3d f(-0.2, 0, 2);
    const Vector6d expected = wrench(Eigen::Vector3d(0, 0, h).cross(f)[0], Eigen::Vector3d(0, 0, h).cross(f)[1], 0,
                                     f.x(), f.y(), f.z());
    EXPECT_EQ(out.state, JointState::kStuck);
    EXPECT_LT((out.impulse_c - expected).norm(), kSolveTolerance);
    EXPECT_LT((out.pressure_point - Eigen::Vector2d(h * 0.2 / 2, 0)).norm(), kSolveTolerance);
  }
}

TEST(WrenchProjection, ASlidingBoxGetsTheConeForceAndKeepsItsOrientation) {
  for (const Eigen::Matrix3d& R : frames()) {
    const double h = 0.05, mu = 0.5, mass = 2;
    Scene scene{R, box(0.2, 0.1, h, mass), Eigen::Vector3d(0, 0, -h)};
    const Joint j = scene.make(Eigen::Vector3d::Zero(), Eigen::Vector3d(3, 0, -1));
    const WrenchProjection out = project_joint(j.S, j.e, kPatch, mu);
    // Eq. 4 keeps the angular velocity zero, so the force acts on the mass
    // alone: f_n = m |v_n| = 2 and f_u = -mu f_n, against the slip.
    const Eigen::Vector3d f(-mu * mass, 0, mass);
    const Eigen::Vector3d tau = Eigen::Vector3d(0, 0, h).cross(f);
    EXPECT_EQ(out.state, JointState::kSliding);
    EXPECT_LT((out.impulse_c - wrench(tau.x(), tau.y(), tau.z(), f.x(), f.y(), f.z())).norm(), kSolveTolerance);
    const Vector6d after = j.e + j.S * out.impulse_c;
    EXPECT_NEAR(after[3], 3 - mu, kSolveTolerance);  // still sliding at v_u - mu |v_n|
  }
}

TEST(WrenchProjection, AFrictionlessSphereOnAnInclineGetsNoTorque) {
  // Section 5.2: the normal passes through the sphere's centre, so the
  // re-solved wrench has no torque and the sphere slides without rolling.
  for (const Eigen::Matrix3d& R : frames()) {
    const double radius = 0.1, mass = 1;
    Scene scene{R, solid_sphere(radius, mass), Eigen::Vector3d(0, 0, -radius)};
    const Joint j = scene.make(Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 0.3, -0.5));
    const WrenchProjection out = project_joint(j.S, j.e, Eigen::Vector2d(0.01, 0.01), 0);
    EXPECT_EQ(out.state, JointState::kSliding);
    EXPECT_LT((out.impulse_c - wrench(0, 0, 0, 0, 0, 0.5 * mass)).norm(), kSolveTolerance);
  }
}

// The classical point-contact impulse that stops the point p of a body:
// K = I/m - [r] I_w^-1 [r] with r = p - com, f = K^-1 (-v_p); all in world axes.
Eigen::Vector3d point_impulse(const Body& b, const Eigen::Vector3d& p, const Eigen::Vector3d& omega,
                              const Eigen::Vector3d& v) {
  const Eigen::Vector3d r = p - b.com_w;
  const Eigen::Matrix3d rx = spatial::skew<double>(r);
  const Eigen::Matrix3d K = Eigen::Matrix3d::Identity() / b.mass - rx * b.inverse().inverse_inertia_w * rx;
  return K.inverse() * -(v + omega.cross(r));
}

TEST(WrenchProjection, ATallBoxTipsAboutTheEllipsesEdge) {
  // Sliding fast, a tall box's cone force has its centre of pressure beyond
  // the patch's front edge: the joint becomes a point contact at (a, 0).
  for (const Eigen::Matrix3d& R : frames()) {
    const double h = 0.5, mu = 0.5;
    Scene scene{R, box(0.2, 0.1, h, 2), Eigen::Vector3d(0, 0, -h)};
    const Eigen::Vector3d omega = Eigen::Vector3d::Zero(), v(3, 0, -1);
    const Joint j = scene.make(omega, v);
    const WrenchProjection out = project_joint(j.S, j.e, kPatch, mu);
    EXPECT_LT((out.pressure_point - Eigen::Vector2d(kPatch.x(), 0)).norm(), 1e-15);
    const Eigen::Vector3d p(kPatch.x(), 0, -h);
    Eigen::Vector3d f = point_impulse(scene.body, p, omega, v);
    ASSERT_GT(f.head<2>().norm(), mu * f.z());  // it slides: Eq. 10 along q, sized by the normal row
    const Eigen::Vector3d q = Eigen::Vector3d(mu * f.x() / f.head<2>().norm(), mu * f.y() / f.head<2>().norm(), 1);
    const Eigen::Vector3d r = p - scene.body.com_w;
    const Eigen::Vector3d n_velocity_per_q =
        q / scene.body.mass + (scene.body.inverse().inverse_inertia_w * r.cross(q)).cross(r);
    f = q * (-(v + omega.cross(r)).z() / n_velocity_per_q.z());
    const Eigen::Vector3d tau = Eigen::Vector3d(kPatch.x(), 0, 0).cross(f);
    EXPECT_EQ(out.state, JointState::kRollingSliding);
    EXPECT_LT((out.impulse_c - wrench(tau.x(), tau.y(), tau.z(), f.x(), f.y(), f.z())).norm(), kSolveTolerance);
  }
}

TEST(WrenchProjection, ARollingSphereKeepsRollingThroughAPointContactAtThePatchsEdge) {
  for (const Eigen::Matrix3d& R : frames()) {
    const double radius = 0.1, mass = 1;
    Scene scene{R, solid_sphere(radius, mass), Eigen::Vector3d(0, 0, -radius)};
    const Eigen::Vector3d omega(0, 2, 0);
    const Eigen::Vector3d v = omega.cross(Eigen::Vector3d(0, 0, radius)) + Eigen::Vector3d(0, 0, -0.01);
    const Joint j = scene.make(omega, v);
    const Eigen::Vector2d patch(0.005, 0.005);
    const WrenchProjection out = project_joint(j.S, j.e, patch, 0.8);
    EXPECT_EQ(out.state, JointState::kRolling);
    EXPECT_NEAR(out.pressure_point.norm(), patch.x(), 1e-15);
    const Eigen::Vector3d p(out.pressure_point.x(), out.pressure_point.y(), -radius);
    const Eigen::Vector3d f = point_impulse(scene.body, p, omega, v);
    const Eigen::Vector3d tau = Eigen::Vector3d(p.x(), p.y(), 0).cross(f);
    EXPECT_LT((out.impulse_c - wrench(tau.x(), tau.y(), tau.z(), f.x(), f.y(), f.z())).norm(), kSolveTolerance);
    // The rigid joint would have stopped the roll with a torque of I omega = 8e-3 N m s.
    EXPECT_LT(out.impulse_c.head<2>().norm(), 1e-4);
  }
}

TEST(WrenchProjection, TheSpinTorqueIsClampedToTheFourCornerBound) {
  for (const Eigen::Matrix3d& R : frames()) {
    const double h = 0.05, mu = 0.5;
    const Body b = box(0.2, 0.1, h, 2);
    Scene scene{R, b, Eigen::Vector3d(0, 0, -h)};
    for (const double spin : {2.0, 20.0}) {
      const Joint j = scene.make(Eigen::Vector3d(0, 0, spin), Eigen::Vector3d(0, 0, -1));
      const WrenchProjection out = project_joint(j.S, j.e, kPatch, mu);
      // p = c: the four corners share f_n equally at distance sqrt(a^2 + b^2).
      const double bound = mu * 2 * kPatch.norm(), rigid = b.inertia_b(2, 2) * spin;
      EXPECT_EQ(out.spin_clamped, rigid > bound);
      EXPECT_LT((out.impulse_c - wrench(0, 0, -std::min(rigid, bound), 0, 0, 2)).norm(), kSolveTolerance);
      EXPECT_NEAR(spin_torque_bound(Eigen::Vector2d::Zero(), kPatch, 2, mu), bound, 1e-15);
    }
  }
}

// A bar (30 x 3 x 0.5 cm, 54 g) on a small patch 3.5 cm from its centre of
// mass (the pinch grasp's ruler on one pad, Section 6.1.6), whose rigid
// joint would need a spin torque twice the bound mu f_n sqrt(a^2 + b^2) with
// the centre of pressure at the patch's centre (e = -S lambda* for that
// rigid impulse lambda*), the force inside the cone (stuck) or outside it
// (sliding). Algorithm 1's clamp alone changes tau_n and, through S's
// coupling of the spin with the force rows (the patch far from the centre of
// mass), leaves the stuck patch sliding; the re-solve keeps the branch's
// other rows: stuck, the five other velocity rows zero; sliding, Eq. 4's
// normal and tangential angular rows zero. Both with the spin at the bound.
TEST(WrenchProjection, TheClampedSpinKeepsTheOtherRowsOfItsBranch) {
  const Eigen::Vector2d patch(0.002, 0.002);
  const double mu = 0.8, f_n = 2, bound = mu * f_n * patch.norm();
  const Scene scene{Eigen::Matrix3d::Identity(), box(0.15, 0.015, 0.0025, 0.054),
                    Eigen::Vector3d(-0.035, 0, -0.0025)};
  const Matrix6d S = scene.make(Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()).S;
  for (const bool sliding : {false, true}) {
    const Vector6d rigid = wrench(0, 0, 2 * bound, sliding ? 2.0 : 0.5, 0.3, f_n);
    const Vector6d e = -S * rigid;
    ProjectionOptions paper;
    paper.spin_resolve = false;
    const WrenchProjection alone = project_joint(S, e, patch, mu, paper);
    EXPECT_TRUE(alone.spin_clamped && !alone.spin_resolved);
    const WrenchProjection out = project_joint(S, e, patch, mu);
    EXPECT_EQ(out.state, sliding ? JointState::kSliding : JointState::kStuck);
    ASSERT_TRUE(out.spin_clamped && out.spin_resolved);
    const Vector6d& l = out.impulse_c;
    const Vector6d after = e + S * l;
    const Eigen::Vector2d p = out.pressure_point;
    const double spin_at_p = l[2] - (p.x() * l[4] - p.y() * l[3]);
    EXPECT_NEAR(std::abs(spin_at_p), spin_torque_bound(p, patch, l[5], mu), 1e-12 * std::abs(spin_at_p));
    EXPECT_LT(spin_at_p * after[2], 0);  // the spin slips against its torque
    if (sliding) {
      EXPECT_LT(std::abs(after[5]) + after.head<2>().norm(), kSolveTolerance);
      EXPECT_NEAR(l.segment<2>(3).norm(), mu * l[5], kSolveTolerance);
    } else {
      EXPECT_LT(after(std::array<int, 5>{0, 1, 3, 4, 5}).norm(), kSolveTolerance);
      EXPECT_LT(l.segment<2>(3).norm(), mu * l[5]);
      // Algorithm 1's clamp alone (spin_resolve false) changes tau_n only,
      // which leaves the patch sliding at cm/s.
      Vector6d clamped = rigid;
      clamped[2] = bound;
      EXPECT_LT((alone.impulse_c - clamped).norm(), kSolveTolerance);
      EXPECT_GT((e + S * alone.impulse_c).segment<2>(3).norm(), 1e-2);
    }
  }
}

TEST(WrenchProjection, WithTheSupportRegionABoxTipsAboutItsFootprintsEdgeWhereTheEllipseHoldsIt) {
  // A box (half extents 0.1, 0.05, h = 0.1) landing at (vx, 0, -1) without
  // turning: the rigid joint's impulse is m (-vx, 0, 1) at c with the torque
  // that keeps it from turning, whose centre of pressure is d = (h vx, 0).
  // With vx = 1.15, d_u = 0.115: past the footprint's edge (0.1) but inside
  // the ellipse (sqrt(5/12) 0.2 = 0.129). The ellipse keeps it stuck; the
  // footprint makes it a point contact at (0.1, 0): the classical impulse
  // there (mu = 2 holds it in the cone).
  for (const Eigen::Matrix3d& R : frames()) {
    const double h = 0.1, mu = 2, vx = 1.15, mass = 2;
    Scene scene{R, box(0.1, 0.05, h, mass), Eigen::Vector3d(0, 0, -h)};
    const Eigen::Vector3d omega = Eigen::Vector3d::Zero(), v(vx, 0, -1);
    const Joint j = scene.make(omega, v);
    const Eigen::Vector2d ellipse = std::sqrt(5.0 / 12.0) * Eigen::Vector2d(0.2, 0.1);
    const WrenchProjection held = project_joint(j.S, j.e, ellipse, mu);
    EXPECT_EQ(held.state, JointState::kStuck);
    EXPECT_NEAR(held.pressure_point.x(), h * vx, 1e-15);
    const SupportRegion footprint = support_region({{-0.1, -0.05}, {0.1, -0.05}, {0.1, 0.05}, {-0.1, 0.05}});
    ProjectionOptions options;
    options.support = &footprint;
    const WrenchProjection tipped = project_joint(j.S, j.e, ellipse, mu, options);
    EXPECT_EQ(tipped.state, JointState::kRolling);
    EXPECT_LT((tipped.pressure_point - Eigen::Vector2d(0.1, 0)).norm(), 1e-15);
    const Eigen::Vector3d p(0.1, 0, -h);
    const Eigen::Vector3d f = point_impulse(scene.body, p, omega, v);
    const Eigen::Vector3d tau = Eigen::Vector3d(0.1, 0, 0).cross(f);
    EXPECT_LT((tipped.impulse_c - wrench(tau.x(), tau.y(), tau.z(), f.x(), f.y(), f.z())).norm(), kSolveTolerance);
  }
}

TEST(WrenchProjection, WithTheSupportRegionTheSpinIsClampedToTheUniformlyLoadedSquaresTorque) {
  // A 0.2 m square footprint under a box spinning about n at its centre: the
  // bound is mu f_n (s/6)(sqrt 2 + ln(1 + sqrt 2)) (a uniform pressure), where
  // the paper's ellipse gives mu f_n sqrt(a^2 + b^2) = 0.913 s mu f_n.
  const double h = 0.05, mu = 0.5, s = 0.2;
  const Body b = box(0.1, 0.1, h, 2);
  const SupportRegion footprint = support_region({{-0.1, -0.1}, {0.1, -0.1}, {0.1, 0.1}, {-0.1, 0.1}});
  ProjectionOptions options;
  options.support = &footprint;
  const Eigen::Vector2d ellipse = Eigen::Vector2d::Constant(std::sqrt(5.0 / 12.0) * s);
  for (const Eigen::Matrix3d& R : frames()) {
    Scene scene{R, b, Eigen::Vector3d(0, 0, -h)};
    const Joint j = scene.make(Eigen::Vector3d(0, 0, 20), Eigen::Vector3d(0, 0, -1));
    const WrenchProjection out = project_joint(j.S, j.e, ellipse, mu, options);
    const double bound = mu * 2 * s / 6 * (std::sqrt(2.0) + std::log(1 + std::sqrt(2.0)));
    ASSERT_TRUE(out.spin_clamped);
    EXPECT_LT((out.impulse_c - wrench(0, 0, -bound, 0, 0, 2)).norm(), kSolveTolerance);
    EXPECT_NEAR(project_joint(j.S, j.e, ellipse, mu).impulse_c[2], -mu * 2 * ellipse.norm(), kSolveTolerance);
  }
}

TEST(WrenchProjection, TheSpinBoundUsesTheBilinearCornerWeights) {
  // At a corner the whole force sits there: no torque; at the middle of the
  // edge u = a: half at each of the two corners (a, +-b), distance b.
  const Eigen::Vector2d ab(0.3, 0.1);
  EXPECT_NEAR(spin_torque_bound(ab, ab, 10, 0.5), 0, 1e-15);
  EXPECT_NEAR(spin_torque_bound(Eigen::Vector2d(0.3, 0), ab, 10, 0.5), 0.5 * 10 * 0.1, 1e-15);
  EXPECT_NEAR(spin_torque_bound(Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 0), 10, 0.5), 0, 0);
  EXPECT_TRUE(test::contains(test::error_of([&] { spin_torque_bound(Eigen::Vector2d(0.4, 0), ab, 1, 0.5); }),
                             "inside the rectangle"));
}

TEST(WrenchProjection, TheConeDirectionIsTheEuclideanProjectionFoundByBruteForce) {
  // With S = blockdiag(I, I) forces and torques decouple, so Eq. 4's force
  // is its size times q, the direction of the rigid force's Euclidean
  // projection onto the cone: compared with the nearest point of the cone's
  // surface found over 3,600 directions.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  const double mu = 0.4;
  int outside = 0;
  for (int trial = 0; trial < 50; ++trial) {
    Vector6d e;
    e << 0, 0, 0, u(rng), u(rng), -std::abs(u(rng));  // approaching: a compressive rigid force
    const WrenchProjection out = project_joint(Matrix6d::Identity(), e, Eigen::Vector2d(1, 1), mu);
    const Eigen::Vector3d f = -e.tail<3>();  // (f_u, f_w, f_n)
    if (f.head<2>().norm() <= mu * f.z()) continue;
    ++outside;
    Eigen::Vector3d best = Eigen::Vector3d::Zero();
    for (int k = 0; k < 3600; ++k) {
      const double theta = 2 * std::numbers::pi * k / 3600;
      const Eigen::Vector3d ray = Eigen::Vector3d(mu * std::cos(theta), mu * std::sin(theta), 1).normalized();
      const Eigen::Vector3d nearest = std::max(0.0, ray.dot(f)) * ray;
      if ((nearest - f).norm() < (best - f).norm()) best = nearest;
    }
    EXPECT_EQ(out.state, JointState::kSliding);
    EXPECT_LT((out.impulse_c.tail<3>().normalized() - best.normalized()).norm(), 2e-3);  // the grid's angular step
    EXPECT_NEAR(out.impulse_c[5], f.z(), kSolveTolerance);  // the normal row: zero normal velocity after
  }
  EXPECT_GT(outside, 10);
}

TEST(PointProjection, ItsFixedPointsAreCoulombContacts) {
  // Iterated alone, the point's update converges to a Coulomb solution, which
  // is checked from its definition: separating (lambda = 0, u_n >= 0),
  // sticking (u = 0, |lambda_t| <= mu lambda_n) or sliding (u_n = 0,
  // lambda_t = -mu lambda_n u_t/|u_t|), u = e + S lambda.
  std::mt19937 rng(5);
  std::normal_distribution<double> g;
  int count[3] = {};
  for (int trial = 0; trial < 2000; ++trial) {
    Eigen::Matrix3d A;
    for (int i = 0; i < 9; ++i) A.data()[i] = g(rng);
    const Eigen::Matrix3d S = A * A.transpose() + 0.2 * Eigen::Matrix3d::Identity();
    const Eigen::Vector3d e(g(rng), g(rng), g(rng));
    const double mu = std::abs(g(rng));
    PointProjection p;
    int sweeps = 0;
    for (double change = 1; change > 1e-14 && sweeps < 100000; ++sweeps) {
      const PointProjection next = project_point(S, e, p.impulse, mu);
      change = (next.impulse - p.impulse).norm();
      p = next;
    }
    if (sweeps == 100000) continue;  // a slow contraction (badly conditioned S): not a fixed point
    ++count[static_cast<int>(p.state)];
    const Eigen::Vector3d u = e + S * p.impulse;
    const double scale = 1e-10 * (1 + e.norm());
    switch (p.state) {
      case JointState::kSeparating:
        EXPECT_EQ(p.impulse, Eigen::Vector3d::Zero());
        EXPECT_GE(u.z(), -scale);
        break;
      case JointState::kStuck:
        EXPECT_LT(u.norm(), scale);
        EXPECT_LE(p.impulse.head<2>().norm(), mu * p.impulse.z() * (1 + 1e-12));
        break;
      default:
        EXPECT_LT(std::abs(u.z()), scale);
        EXPECT_LT((p.impulse.head<2>() + mu * p.impulse.z() * u.head<2>().normalized()).norm(), 1e-8 * (1 + p.impulse.norm()));
    }
  }
  for (int state = 0; state < 3; ++state) EXPECT_GT(count[state], 100) << to_string(static_cast<JointState>(state));
}

TEST(WrenchProjection, EveryProjectedImpulseIsFeasibleAndZeroesWhatItsBranchConstrains) {
  std::mt19937 rng(11);
  std::normal_distribution<double> g;
  int count[5] = {}, resolved = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    Matrix6d A;
    for (int i = 0; i < 36; ++i) A.data()[i] = g(rng);
    const Matrix6d S = A * A.transpose() + 0.1 * Matrix6d::Identity();
    Vector6d e;
    for (int i = 0; i < 6; ++i) e[i] = g(rng);
    const double mu = std::abs(g(rng));
    const Eigen::Vector2d patch(0.5 + std::abs(g(rng)), 0.5 * std::abs(g(rng)));
    const Eigen::Vector2d semi(std::max(patch.x(), patch.y()), std::min(patch.x(), patch.y()));
    const WrenchProjection out = project_joint(S, e, semi, mu);
    ++count[static_cast<int>(out.state)];
    const Vector6d& l = out.impulse_c;
    const Vector6d after = e + S * l;
    if (out.state == JointState::kSeparating) {
      EXPECT_EQ(l, Vector6d::Zero());
      continue;
    }
    const double f_n = l[5];
    ASSERT_GT(f_n, 0);
    EXPECT_LE(l.segment<2>(3).norm(), mu * f_n * (1 + 1e-12));
    const Eigen::Vector2d d = centre_of_pressure(f_n, l.head<2>());
    EXPECT_LE(std::pow(d.x() / semi.x(), 2) + std::pow(d.y() / semi.y(), 2), 1 + 1e-9);
    const Eigen::Vector3d r(d.x(), d.y(), 0);
    const double spin_at_d = l[2] - r.cross(l.tail<3>()).z();
    EXPECT_LE(std::abs(spin_at_d), spin_torque_bound(out.pressure_point, semi, f_n, mu) * (1 + 1e-12) + 1e-15);
    const double scale = 1e-10 * (1 + e.norm());
    // A re-solved spin clamp: the spin torque at its bound opposes the relative spin left.
    const std::array<int, 5> all_but_spin = {0, 1, 3, 4, 5};
    if (out.spin_resolved) {
      ++resolved;
      EXPECT_NEAR(std::abs(spin_at_d), spin_torque_bound(out.pressure_point, semi, f_n, mu),
                  1e-11 * (1 + std::abs(spin_at_d)));
      EXPECT_LE(spin_at_d * after[2], 1e-12);
    }
    switch (out.state) {
      case JointState::kStuck:  // Eq. 1 (or its five other rows after a re-solved spin clamp)
        if (!out.spin_clamped) {
          EXPECT_LT(after.norm(), scale);
        }
        if (out.spin_resolved) {
          EXPECT_LT(after(all_but_spin).norm(), scale);
        }
        break;
      case JointState::kSliding:  // Eq. 4: normal and angular velocity zero (the spin's after a clamp: not)
        if (!out.spin_clamped || out.spin_resolved) {
          EXPECT_LT(std::abs(after[5]), scale);
          EXPECT_LT(after.head<2>().norm(), scale);
        }
        if (!out.spin_clamped) {
          EXPECT_LT(std::abs(after[2]), scale);
        }
        break;
      case JointState::kRolling:  // Eq. 8: the velocity of the point p is zero
      case JointState::kRollingSliding: {
        const Eigen::Vector3d v_p = after.tail<3>() + after.head<3>().cross(r);
        if (out.state == JointState::kRolling) {
          EXPECT_LT(v_p.norm(), scale);
        }
        EXPECT_LT(std::abs(v_p.z()), scale);
        EXPECT_NEAR(std::pow(d.x() / semi.x(), 2) + std::pow(d.y() / semi.y(), 2), 1, 1e-9);
        break;
      }
      case JointState::kSeparating: break;
    }
  }
  for (int state = 0; state < 5; ++state) EXPECT_GT(count[state], 50) << to_string(static_cast<JointState>(state));
  // Random S rarely clamp a stuck joint's spin (TheClampedSpinKeepsTheOtherRowsOfItsBranch covers it).
  EXPECT_GT(resolved, 0);
}

TEST(WrenchProjection, BadInputIsRefused) {
  const Matrix6d S = Matrix6d::Identity();
  const Vector6d e = Vector6d::Zero();
  EXPECT_TRUE(test::contains(test::error_of([&] { project_joint(S, e, kPatch, -1); }), "friction coefficient"));
  EXPECT_TRUE(test::contains(test::error_of([&] { project_joint(S, e, Eigen::Vector2d(0.1, 0.2), 0.5); }),
                             "a >= b >= 0"));
  Vector6d bad = e;
  bad[2] = std::nan("");
  EXPECT_TRUE(test::contains(test::error_of([&] { project_joint(S, bad, kPatch, 0.5); }), "non-finite"));
  EXPECT_TRUE(test::contains(test::error_of([&] { project_joint(Matrix6d::Zero(), e, kPatch, 0.5); }),
                             "not positive definite"));
  EXPECT_TRUE(test::contains(test::error_of([&] {
                               project_point(Eigen::Matrix3d::Zero(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), 0.5);
                             }),
                             "not positive definite"));
}

}  // namespace
}  // namespace contactref::volume_contact
