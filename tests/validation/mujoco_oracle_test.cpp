// The MuJoCo peer oracle (validation/oracles/mujoco_contact.hpp) against closed
// forms: a cube resting on the plane (penetration bounded by the chosen contact
// softness, energy constant), free fall (gravity and sample times), a
// torque-free spin about a principal axis (the free joint's angular-velocity
// convention), and bad input.
#include <mujoco/mujoco.h>

#include <gtest/gtest.h>

#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <limits>

#include "tests/kit/errors.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/tolerance.hpp"
#include "validation/oracles/mujoco_contact.hpp"

namespace contactref::oracles {
namespace {

using Vec3d = Vec3<double>;
using Mat3d = Mat3<double>;

constexpr double kG = 9.81;
// MuJoCo keeps mesh vertices in single precision.
using test::kFloatEps;

// The 8 corners of a box with half-sides h, centred at the origin, and its
// inertia about the centre for mass m: m/3 diag(hy^2 + hz^2, ...).
std::vector<Vec3d> box_corners(const Vec3d& h) {
  std::vector<Vec3d> corners;
  for (int i = 0; i < 8; ++i)
    corners.emplace_back((i & 1 ? 1 : -1) * h.x(), (i & 2 ? 1 : -1) * h.y(), (i & 4 ? 1 : -1) * h.z());
  return corners;
}

Mat3d box_inertia(double m, const Vec3d& h) {
  return (m / 3 * Vec3d(h.y() * h.y() + h.z() * h.z(), h.x() * h.x() + h.z() * h.z(), h.x() * h.x() + h.y() * h.y()))
      .asDiagonal();
}

// A cube of side 0.2 m and 1 kg (I = m s^2 / 6) under g = 9.81 m/s^2 along -z.
MujocoBodyOnPlane cube(double duration) {
  MujocoBodyOnPlane body;
  const double side = 0.2;
  body.points_b = box_corners(Vec3d::Constant(side / 2));
  body.mass = 1;
  body.inertia_b = (body.mass * side * side / 6) * Mat3d::Identity();
  body.gravity_w = Vec3d(0, 0, -kG);
  body.mu = 0.5;
  body.mu_roll = 2e-3;
  body.mu_spin = 1e-3;
  body.timestep = 1e-3;
  body.duration = duration;
  body.sample_interval = 0.01;
  return body;
}

Mat3d rotation(double angle, const Vec3d& axis) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }

TEST(MujocoOracle, RecordsModelAndVersion) {
  const MujocoRun run = run_mujoco_on_plane(cube(0), MujocoStart{Vec3d(0, 0, 1), Mat3d::Identity(), Vec3d::Zero(), Vec3d::Zero()});
  // The library that ran is the one whose header we compiled against (a
  // mismatch would make every struct offset suspect).
  EXPECT_EQ(run.version, std::to_string(mjVERSION_HEADER));
  ASSERT_EQ(run.samples.size(), 1u);
  EXPECT_TRUE(test::contains(run.model_xml, "condim=\"6\""));
  EXPECT_TRUE(test::contains(run.model_xml, "friction=\"0.5 0.001 0.002\""));
  EXPECT_TRUE(test::contains(run.model_xml, "integrator=\"RK4\""));
  EXPECT_TRUE(test::contains(run.model_xml, "energy=\"enable\""));
}

TEST(MujocoOracle, CubeReleasedAtRestOnThePlaneStaysAtRest) {
  MujocoBodyOnPlane body = cube(0.5);
  body.sample_interval = body.timestep;  // every step: the landing transient lasts a few ms
  const double half = 0.1;
  const MujocoRun run =
      run_mujoco_on_plane(body, MujocoStart{Vec3d(0, 0, half), Mat3d::Identity(), Vec3d::Zero(), Vec3d::Zero()});
  ASSERT_EQ(run.samples.size(), 501u);

  // Steady penetration of a contact with the oracle's softness (header of
  // mujoco_contact.hpp): r_i = (1 - d) A_i f_i tc^2 zeta^2 with d = 0.99,
  // tc = 2 h, zeta = 1. f_i <= m g (the contacts carry the weight together) and
  // A_i <= 1/m + |c x n|^2 / I = 4/m for a corner c of this cube
  // (|c x n|^2 = s^2/2, I = s^2/6), whether MuJoCo uses the exact diagonal or
  // an estimate of it (its translational one is 1/m). So
  // r_steady <= 0.04 g (2 h)^2 ~ 1.6 micrometres.
  const double h = body.timestep;
  const double tc = 2 * h;
  const double steady = (1 - 0.99) * 4 * kG * tc * tc;
  // Landing: the cube starts at zero penetration, where a margin-0 contact
  // does not exist yet, so the first RK4 stages fall freely and the contact
  // meets the cube at a speed v <= g h. A critically damped contact (zeta = 1)
  // hit at speed v sinks at most v tc / e further (the maximum of v t e^(-t/tc)),
  // 7 micrometres, and that excess decays as e^(-t/tc): gone by t = 0.5 s.
  const double landing = kG * h * tc / std::exp(1.0);
  const double deepest = steady + landing;
  // MuJoCo's single-precision hull: 8 float ulps of the corner distance, the
  // tolerance the oracle itself checks the mesh against.
  const double hull = 8 * kFloatEps * half * std::sqrt(3.0);
  const double E0 = body.mass * kG * half;
  // MuJoCo's -m g.com: a dot product and a product (4 roundings).
  EXPECT_NEAR(run.samples[0].energy, E0, test::tolerance<double>(4) * E0);
  for (const MujocoSample& s : run.samples) {
    SCOPED_TRACE("t = " + std::to_string(s.time));
    // A wrong contact (none: free fall; MuJoCo's default solref 0.02: 0.1 mm
    // deep; a bounce) leaves this band.
    EXPECT_GE(s.com_w.z(), half - deepest - hull);
    EXPECT_LE(s.com_w.z(), half + hull);
    // Tilt: turning the cube by theta about a horizontal axis lowers a bottom
    // corner by at least theta * half relative to the COM, and no corner is
    // deeper than `deepest`, while the COM is at most `hull` above half.
    EXPECT_LE((s.R_w_b.col(2) - Vec3d::UnitZ()).norm(), (deepest + 2 * hull) / half);
    // Nothing in exact arithmetic pushes the cube sideways or turns it about
    // z; the corners' round-off differences in penetration (at most `deepest`)
    // are the only source of a sideways force, and friction (mu = 0.5) holds
    // it: drift of the size of the penetration at most.
    EXPECT_LE(s.com_w.head<2>().norm(), deepest);
    EXPECT_LE(std::abs(s.R_w_b(1, 0)), deepest / half);
    // Energy (gravitational + kinetic): the COM sinks by `deepest` at most and
    // the soft contact is a damped spring that gives back no more than it
    // took, so E stays in [E0 - m g (deepest + hull), E0 + m g hull]; a
    // potential with another zero or sign, or a bounce, does not.
    EXPECT_GE(s.energy - E0, -body.mass * kG * (deepest + hull));
    EXPECT_LE(s.energy - E0, body.mass * kG * hull);
  }
  // At rest at the end, the landing has decayed (e^(-250)): only the steady
  // sag remains.
  const MujocoSample& last = run.samples.back();
  EXPECT_GE(last.com_w.z(), half - steady - hull);
  EXPECT_LE(std::abs(last.energy - E0), body.mass * kG * (steady + hull));
  // The residual rocking (the contact set switching between corners) keeps
  // the tilt within theta = (steady + 2 hull) / half and changes it on the
  // contact's time scale tc at the fastest: |omega| <= theta / tc.
  EXPECT_LE(last.omega_w.norm(), (steady + 2 * hull) / half / tc);
}

TEST(MujocoOracle, FreeFallMatchesTheClosedFormAtTheSampleTimes) {
  const MujocoBodyOnPlane body = cube(0.3);
  const Vec3d com0(0.2, -0.1, 1.0);
  const MujocoRun run =
      run_mujoco_on_plane(body, MujocoStart{com0, rotation(0.4, Vec3d(1, 2, 3)), Vec3d::Zero(), Vec3d::Zero()});
  ASSERT_EQ(run.samples.size(), 31u);
  for (std::size_t k = 0; k < run.samples.size(); ++k) {
    const MujocoSample& s = run.samples[k];
    const double t = 0.01 * double(k);
    // MuJoCo's clock is the sum of 10 k steps of 1 ms: each addition rounds by
    // at most eps t / 2.
    EXPECT_NEAR(s.time, t, test::tolerance<double>(10.0 * double(k)) * 0.3);
    // RK4 integrates a constant acceleration exactly, so only round-off
    // separates MuJoCo from 1 - g t^2 / 2; 1e-6 m is far below the 3 mm that a
    // sample one step late (g t h) or a wrong gravity would show, and the
    // lowest corner (at most 0.18 m below the COM) is above the plane until
    // t = 0.3 s (COM at 0.56 m): no contact.
    EXPECT_NEAR(s.com_w.z(), 1.0 - kG * s.time * s.time / 2, 1e-6);
    EXPECT_NEAR(s.com_w.x(), com0.x(), 1e-12);
    EXPECT_NEAR(s.com_w.y(), com0.y(), 1e-12);
    // Energy is conserved in flight; MuJoCo's potential -m g.com has the
    // oracle's zero, so E = m g z0 throughout (round-off of 1e2 operations on
    // values of 10 J).
    EXPECT_NEAR(s.energy, body.mass * kG * com0.z(), 1e-12);
  }
  EXPECT_NEAR(run.samples.back().com_w.z(), 1.0 - kG * 0.09 / 2, 1e-6);
}

TEST(MujocoOracle, AngularVelocityIsInWorldAndTheSpinIsAboutTheWorldAxis) {
  // A box 0.4 x 0.2 x 0.2 m, symmetric about its long body axis x_b, turned so
  // that x_b points along world z: omega_w = (0, 0, 2) spins it about its
  // symmetry axis, a principal axis, so the torque-free motion is a uniform
  // rotation R(t) = Rz(2 t) R0 with constant omega_w (gravity moves the COM
  // only). Had the oracle passed omega_w to MuJoCo as the body-frame qvel, the
  // box would spin about its body z axis instead, which R0 lays horizontal:
  // the long axis would leave the vertical and R(t) would differ at O(1).
  MujocoBodyOnPlane body = cube(0.3);
  const Vec3d half(0.2, 0.1, 0.1);
  body.points_b = box_corners(half);
  body.inertia_b = box_inertia(body.mass, half);
  const Mat3d R0 = rotation(0.3, Vec3d::UnitZ()) * rotation(-boost::math::constants::half_pi<double>(), Vec3d::UnitY());
  ASSERT_TRUE(test::matrices_near(Vec3d(R0 * Vec3d::UnitX()), Vec3d::UnitZ().eval(), test::tolerance<double>(4)));
  const Vec3d omega(0, 0, 2);
  const Vec3d com0(0, 0, 2), v0(0.5, 0, 0);
  const MujocoRun run = run_mujoco_on_plane(body, MujocoStart{com0, R0, v0, omega});
  ASSERT_EQ(run.samples.size(), 31u);

  // The first sample is the start read back: quaternion from R0 and back, R0
  // times R0^T omega: a few dozen roundings of values of size 2.
  EXPECT_TRUE(test::matrices_near(run.samples[0].omega_w, omega, test::tolerance<double>(64)));
  EXPECT_TRUE(test::matrices_near(run.samples[0].R_w_b, R0, test::tolerance<double>(64)));
  // Energy at the start, computed here: m |v|^2 / 2 + omega_b' I omega_b / 2 -
  // m g.com. It checks that MuJoCo's kinetic energy uses the body-frame
  // inertia with the body-frame angular velocity and that its potential has
  // the oracle's zero (round-off of values of 20 J).
  const Vec3d omega_b = R0.transpose() * omega;
  const double E0 = body.mass * v0.squaredNorm() / 2 + omega_b.dot(body.inertia_b * omega_b) / 2 +
                    body.mass * kG * com0.z();
  EXPECT_NEAR(run.samples[0].energy, E0, test::tolerance<double>(64) * E0);

  for (const MujocoSample& s : run.samples) {
    SCOPED_TRACE("t = " + std::to_string(s.time));
    // About a principal axis of a symmetric body, Euler's equations give
    // d omega/dt = 0 exactly, and MuJoCo integrates the orientation by the
    // exponential map of the (constant) angular velocity, exact for a uniform
    // rotation. What remains is round-off over 300 steps (and MuJoCo's own
    // diagonalisation of the inertia, accurate to round-off): 1e-9 is
    // thousands of times that and millions of times below an O(1) error.
    EXPECT_TRUE(test::matrices_near(s.omega_w, omega, 1e-9));
    EXPECT_NEAR(s.omega_w.norm(), omega.norm(), 1e-9);
    EXPECT_TRUE(test::matrices_near(s.R_w_b, Mat3d(rotation(2 * s.time, Vec3d::UnitZ()) * R0), 1e-9));
    // Flight: the COM follows the parabola (RK4 exact for constant
    // acceleration; the lowest corner is 2 - 0.45 - 0.25 > 0 m up at 0.3 s).
    EXPECT_TRUE(test::matrices_near(s.com_w, Vec3d(com0 + v0 * s.time - Vec3d(0, 0, kG * s.time * s.time / 2)), 1e-9));
    EXPECT_NEAR(s.energy, E0, 1e-9 * E0);
  }
}

TEST(MujocoOracle, RejectsBadInput) {
  const MujocoStart start{Vec3d(0, 0, 1), Mat3d::Identity(), Vec3d::Zero(), Vec3d::Zero()};
  const auto input_error = [](const MujocoBodyOnPlane& body, const MujocoStart& s) {
    return test::message_of<InputError>([&] { run_mujoco_on_plane(body, s); });
  };
  const auto body_error = [&](auto change) {
    MujocoBodyOnPlane body = cube(0.1);
    change(body);
    return test::message_of<InputError>([&] { run_mujoco_on_plane(body, start); });
  };
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.points_b.clear(); }), "got 0"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.points_b.resize(3); }), "at least 4 points"));
  EXPECT_TRUE(test::contains(
      body_error([](MujocoBodyOnPlane& b) { b.points_b[5].y() = std::numeric_limits<double>::quiet_NaN(); }),
      "point 5"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.mass = 0; }), "mass must"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.mass = -1; }), "mass must"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.inertia_b(0, 0) = -1; }), "inertia_b"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.inertia_b(0, 1) = 1e-3; }), "symmetric"));
  EXPECT_TRUE(test::contains(
      body_error([](MujocoBodyOnPlane& b) { b.inertia_b = Vec3d(1, 1, 3).asDiagonal(); }), "triangle inequality"));
  EXPECT_TRUE(test::contains(
      body_error([](MujocoBodyOnPlane& b) { b.gravity_w.z() = std::numeric_limits<double>::infinity(); }), "gravity_w"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.mu = -0.1; }), "mu must"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.timestep = 0; }), "timestep must"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.timestep = -1e-3; }), "timestep must"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.duration = -1; }), "duration must"));
  EXPECT_TRUE(test::contains(body_error([](MujocoBodyOnPlane& b) { b.sample_interval = 0.0105; }), "whole number"));

  const MujocoBodyOnPlane body = cube(0.1);
  MujocoStart bad = start;
  bad.R_w_b(0, 0) = 2;
  EXPECT_TRUE(test::contains(input_error(body, bad), "R_w_b"));
  bad = start;
  bad.omega_w.x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(test::contains(input_error(body, bad), "omega_w"));
  bad = start;
  bad.R_w_b = -Mat3d::Identity();  // orthogonal, a reflection
  EXPECT_TRUE(test::contains(input_error(body, bad), "R_w_b"));

  MujocoBodyOnPlane flat = cube(0.1);
  for (Vec3d& p : flat.points_b) p.z() = 0;
  EXPECT_TRUE(test::contains(input_error(flat, start), "coplanar"));

  // A body too light for MuJoCo's compiler (mass and inertia below its
  // mjMINVAL = 1e-15) passes our checks; MuJoCo refuses it and its message
  // comes back as a ComputationError.
  MujocoBodyOnPlane speck = cube(0.1);
  speck.mass = 1e-17;
  speck.inertia_b *= 1e-17;
  const std::string error = test::message_of<ComputationError>([&] { run_mujoco_on_plane(speck, start); });
  EXPECT_TRUE(test::contains(error, "MuJoCo refused the model: Error:")) << error;

  // A spin of 1e11 rad/s is beyond MuJoCo's 1e10 limit on velocities: it
  // flags the state as unstable in the first step (and resets it); the oracle
  // must report that, naming the step, rather than return the reset state.
  MujocoStart spinning = start;
  spinning.omega_w = Vec3d(0, 0, 1e11);
  const std::string unstable = test::message_of<ComputationError>([&] { run_mujoco_on_plane(cube(0.1), spinning); });
  EXPECT_TRUE(test::contains(unstable, "in the step from t = 0 s")) << unstable;
  EXPECT_TRUE(test::contains(unstable, "QVEL")) << unstable;
}

}  // namespace
}  // namespace contactref::oracles
