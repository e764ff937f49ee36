// The MuJoCo peer oracle for several bodies (validation/oracles/mujoco_scene.hpp)
// on the volume-contact scenes (validation/fixtures/volume_contact_scenes.hpp):
// the sliding octagon against the Coulomb block's closed form, the cube stack
// at rest within the contact softness, the per-step contact counts against the
// geometry, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "tests/kit/errors.hpp"
#include "tests/kit/tolerance.hpp"
#include "validation/oracles/mujoco_volume_scenes.hpp"

namespace contactref::oracles {
namespace {

using Vec3d = Vec3<double>;

using test::kFloatEps;
// The oracle's contact softness (mujoco_scene.hpp): d = 0.99, tc = 2 h.
constexpr double kImpedance = 0.99;

// The height of a body's lowest vertex in the world at a sampled state.
double lowest_vertex(const fixtures::VolumeContactBody& body, const MujocoStart& state) {
  double lowest = std::numeric_limits<double>::infinity();
  for (const Eigen::Vector3d& v : body.surface_b.vertices) lowest = std::min(lowest, (state.com_w + state.R_w_b * v).z());
  return lowest;
}

const char* name(MujocoIntegrator integrator) { return integrator == MujocoIntegrator::kRK4 ? "RK4" : "Euler"; }

struct OctagonCase {
  MujocoIntegrator integrator;
  double timestep;
};

class SlidingOctagon : public ::testing::TestWithParam<OctagonCase> {};

TEST_P(SlidingOctagon, StopsWhereTheCoulombBlockStops) {
  const OctagonCase c = GetParam();
  const double h = c.timestep;
  const fixtures::VolumeContactScene fixture = fixtures::sliding_octagon();
  const fixtures::VolumeContactBody& octagon = fixture.bodies[0];
  // Every step sampled, to 1.2 s: well after the stop.
  const MujocoSceneRun run = run_mujoco_scene(mujoco_scene(fixture, c.integrator, h, 1.2, h));
  ASSERT_EQ(run.steps.size() + 1, run.samples.size());
  EXPECT_TRUE(test::contains(run.model_xml, std::string("integrator=\"") + name(c.integrator) + "\""));

  const double v0 = octagon.velocity_w.x(), mu = fixture.mu, g = -fixture.gravity_w.z();
  const double z0 = octagon.com_w.z();
  // The Coulomb block (shared/notes/references.md 1.3).
  const double d = v0 * v0 / (2 * mu * g), t_s = v0 / (mu * g);

  // A rigorous lower bound at every sample. Every contact force MuJoCo
  // applies lies in its elliptic cone, so |f_t| <= mu f_n (the spinning and
  // rolling rows are torques): m a_x >= -mu sum f_n = -mu m (a_z + g) for
  // every evaluation of the dynamics. Summed over the steps, with v_z = 0 at
  // the start:
  //  - semi-implicit Euler (v += h a, then x += h v):
  //      v_x,k >= v0 - mu g t_k - mu v_z,k, so
  //      x_n >= v0 t - mu g t^2 / 2 - mu g h t / 2 - mu (z_n - z_0);
  //  - RK4: every stage velocity obeys the same bound at its stage time, and
  //      x and z advance by the same weighted mean (1, 2, 2, 1)/6 of the
  //      stage velocities, so x_n >= v0 t - mu g t^2 / 2 - mu (z_n - z_0)
  //      (the stage times average to t_k + h/2: the midpoint rule, exact).
  // Flights (no contact, no friction) and the extra normal force of the
  // elliptic cone's kick at the landing all cancel in these sums, since the
  // normal impulse is what changes v_z. Slack: MuJoCo's Newton solver stops at
  // a relative tolerance 1e-10, leaving accelerations 1e-10 g out of the cone
  // per step: 1e-10 g t^2 < 1e-9 m of position; round-off is 1e3 smaller.
  const double euler = c.integrator == MujocoIntegrator::kEuler ? 1 : 0;
  std::size_t stop = run.samples.size();
  for (std::size_t n = 0; n < run.samples.size(); ++n) {
    const double t = run.samples[n].time;
    const MujocoStart& s = run.samples[n].bodies[0];
    const double lower = v0 * t - mu * g * t * t / 2 - euler * mu * g * h * t / 2 - mu * (s.com_w.z() - z0);
    EXPECT_GE(s.com_w.x(), lower - 1e-9) << "t = " << t;
    // Stopped: slower than one step's Coulomb deceleration (a sliding block
    // has at most one step to go).
    if (stop == run.samples.size() && s.velocity_w.x() <= mu * g * h) stop = n;
  }
  ASSERT_LT(stop, run.samples.size()) << "the octagon never stopped";
  const MujocoStart& stopped = run.samples[stop].bodies[0];
  const MujocoStart& last = run.samples.back().bodies[0];
  const double t_stop = run.samples[stop].time;
  std::cout << name(c.integrator) << " h = " << h << " s: stops at t = " << t_stop << " s (closed form " << t_s
            << "), x = " << stopped.com_w.x() << " m then " << last.com_w.x() << " m at " << run.samples.back().time
            << " s (closed form " << d << ")\n";
  // The same velocity bound, v_x,n >= v0 - mu g t_n - mu v_z,n, with
  // v_x,n <= mu g h, gives t_stop >= t_s - h - v_z,n / g.
  EXPECT_GE(t_stop, t_s - h - stopped.velocity_w.z() / g);
  // The other side is not a consequence of the cone: MuJoCo's friction falls
  // short of mu f_n along -x where a contact's slip leaves that direction
  // (the octagon rocks after the landing kick, and spins a little), where its
  // spinning and rolling rows take part of the elliptic cone, and in its
  // soft unsaturated tail (slip below mu g tc / 2, extra mu g tc^2 / 8 <=
  // 0.15 mm). These are rotational effects of relative size |omega| H / v0;
  // we allow 1% of the closed form (7 ms, 7 mm): a 1% error in mu or g, or a
  // frictionless flight of 7 ms that no contact made up for, exceeds it.
  const double physical = 0.01;
  EXPECT_LE(t_stop, t_s + h + physical * t_s);
  EXPECT_LE(stopped.com_w.x(), d * (1 + physical));
  // At rest at the end, where it stopped: no longer sliding, and not beyond
  // the same bounds (Euler's right sums lose up to v0 h / 2).
  EXPECT_LE(last.velocity_w.head<2>().norm(), mu * g * h);
  EXPECT_LE(last.com_w.x(), d * (1 + physical));
  EXPECT_GE(last.com_w.x(), d * (1 - physical) - euler * v0 * h / 2);

  // Per step: times are measured, rows are 6 per condim-6 contact (elliptic
  // cone), and with Euler the contacts are those of the state the step starts
  // from (sample n): present when the lowest vertex is below the plane,
  // absent above it, beyond the float hull's rounding (8 float ulps of the
  // radius, the tolerance the oracle checks the mesh against).
  const double hull = 8 * kFloatEps * 0.1;
  for (std::size_t n = 0; n < run.steps.size(); ++n) {
    const MujocoStepRecord& step = run.steps[n];
    EXPECT_GT(step.seconds, 0) << "step " << n;
    EXPECT_EQ(step.constraint_rows, 6 * step.contacts) << "step " << n;
    if (c.integrator != MujocoIntegrator::kEuler) continue;
    const double below = lowest_vertex(octagon, run.samples[n].bodies[0]);
    if (below < -hull) {
      EXPECT_GT(step.contacts, 0) << "step " << n << ", lowest vertex at " << below;
    } else if (below > hull) {
      EXPECT_EQ(step.contacts, 0) << "step " << n << ", lowest vertex at " << below;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(MujocoScene, SlidingOctagon,
                         ::testing::Values(OctagonCase{MujocoIntegrator::kEuler, 1e-3},
                                           OctagonCase{MujocoIntegrator::kEuler, 1e-2},
                                           OctagonCase{MujocoIntegrator::kRK4, 1e-3},
                                           OctagonCase{MujocoIntegrator::kRK4, 1e-2}),
                         [](const ::testing::TestParamInfo<OctagonCase>& param) {
                           return std::string(name(param.param.integrator)) + "_" +
                                  std::to_string(std::lround(param.param.timestep * 1e3)) + "ms";
                         });

class CubeStack : public ::testing::TestWithParam<MujocoIntegrator> {};

TEST_P(CubeStack, StaysAtRestWithinTheContactSoftness) {
  const double h = 1e-3;
  const fixtures::VolumeContactScene fixture = fixtures::cube_stack();
  const MujocoSceneRun run = run_mujoco_scene(mujoco_scene(fixture, GetParam(), h, 1.0, h));
  const std::size_t cubes = fixture.bodies.size();
  const double s = 0.1, m = 1, g = -fixture.gravity_w.z(), tc = 2 * h;

  // The deepest penetration of interface j (j = 0: the plane and cube 0;
  // j > 0: cubes j - 1 and j), which carries the weight of the cubes above it,
  // (cubes - j) m g. At rest (mujoco_scene.hpp) r = (1 - d) A f tc^2 for a
  // contact with force f <= (cubes - j) m g and MuJoCo's inverse-inertia
  // estimate A <= 1/m + |c x n|^2 / I = 4/m per cube at a corner c (the
  // exact diagonal; its own estimate is the translational 1/m), 8/m for two
  // cubes. Landing: the stack starts flush, where a margin-0 contact has no
  // force yet, so an interface closes at a speed v <= g h at most and a
  // critically damped contact sinks v tc / e more (the maximum of v t e^(-t/tc)).
  std::vector<double> depth(cubes);
  for (std::size_t j = 0; j < cubes; ++j) {
    const double A = (j == 0 ? 4 : 8) / m;
    depth[j] = (1 - kImpedance) * A * double(cubes - j) * m * g * tc * tc + g * h * tc / std::exp(1.0);
  }
  // Float hulls: 8 float ulps of the corner distance per interface.
  const double hull = 8 * kFloatEps * s * std::sqrt(3.0);

  for (std::size_t k = 0; k < cubes; ++k) {
    SCOPED_TRACE("cube " + std::to_string(k));
    // Cube k sinks by the interfaces below it; unequal penetrations across a
    // face of width s tilt it by at most depth_j / s, which moves cube k's
    // centre, (k - j + 1/2) s above interface j, sideways by
    // depth_j (k - j + 1/2). Friction (mu = 0.5) holds the tangential loads of
    // such tilts (~ depth / s << mu), and their creep is of the penetration's
    // size times the tilt. So |drift_k| <= sum_j (depth_j + hull) (k - j + 3/2),
    // tilt_k <= sum_j (depth_j + 2 hull) / s.
    double drift_bound = 0, tilt_bound = 0;
    for (std::size_t j = 0; j <= k; ++j) {
      drift_bound += (depth[j] + hull) * (double(k - j) + 1.5);
      tilt_bound += (depth[j] + 2 * hull) / s;
    }
    double drift = 0, tilt = 0;
    for (const MujocoSceneSample& sample : run.samples) {
      const MujocoStart& cube = sample.bodies[k];
      drift = std::max(drift, (cube.com_w - fixture.bodies[k].com_w).norm());
      tilt = std::max(tilt, (cube.R_w_b.col(2) - Vec3d::UnitZ()).norm());
    }
    std::cout << name(GetParam()) << " cube " << k << ": drift " << drift << " m (bound " << drift_bound
              << "), tilt " << tilt << " (bound " << tilt_bound << ")\n";
    EXPECT_LE(drift, drift_bound);
    EXPECT_LE(tilt, tilt_bound);
  }
  // Every interface carries weight throughout, so each has a contact in every
  // step: at least one per interface.
  for (std::size_t n = 0; n < run.steps.size(); ++n) {
    EXPECT_GE(run.steps[n].contacts, int(cubes)) << "step " << n;
    EXPECT_EQ(run.steps[n].constraint_rows, 6 * run.steps[n].contacts) << "step " << n;
    EXPECT_GT(run.steps[n].seconds, 0) << "step " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(MujocoScene, CubeStack, ::testing::Values(MujocoIntegrator::kEuler, MujocoIntegrator::kRK4),
                         [](const ::testing::TestParamInfo<MujocoIntegrator>& param) { return name(param.param); });

TEST(MujocoScene, RejectsBadInput) {
  const auto error = [](auto change) {
    MujocoScene scene = mujoco_scene(fixtures::cube_stack(), MujocoIntegrator::kEuler, 1e-3, 0.01, 1e-3);
    change(scene);
    return test::message_of<InputError>([&] { run_mujoco_scene(scene); });
  };
  EXPECT_TRUE(test::contains(error([](MujocoScene& s) { s.bodies.clear(); }), "no bodies"));
  const std::string few = error([](MujocoScene& s) { s.bodies[3].points_b.resize(3); });
  EXPECT_TRUE(test::contains(few, "body 3: points_b")) << few;
  EXPECT_TRUE(test::contains(few, "at least 4 points")) << few;
  const std::string nan = error([](MujocoScene& s) { s.bodies[2].start.velocity_w.y() = std::nan(""); });
  EXPECT_TRUE(test::contains(nan, "body 2: start velocity_w")) << nan;
  const std::string point = error([](MujocoScene& s) { s.bodies[1].points_b[6].x() = std::numeric_limits<double>::infinity(); });
  EXPECT_TRUE(test::contains(point, "body 1: points_b: point 6")) << point;
  EXPECT_TRUE(test::contains(error([](MujocoScene& s) { s.bodies[4].mass = std::nan(""); }), "body 4: mass must"));
  EXPECT_TRUE(test::contains(error([](MujocoScene& s) { s.mu_spin = -1; }), "mu_spin must"));
  EXPECT_TRUE(test::contains(error([](MujocoScene& s) { s.duration = 1e5; }), "steps is too many"));
}

}  // namespace
}  // namespace contactref::oracles
