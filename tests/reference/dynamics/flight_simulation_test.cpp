// The hybrid simulator with flight, impacts and contact re-established
// (issue 30 items 1, 2, 4, 5) against closed forms:
//  - a ball dropped from rest onto a plane with restitution e: impact k at
//    t_k = t_0 + sum_{j<k} 2 e^j v_0 / g (t_0 = sqrt(2 h_0 / g), v_0 = g t_0),
//    leaving at e times its approach speed (apex heights e^(2k) h_0); the
//    bounces end by t_0 (1 + e) / (1 - e), in contact, at rest, without
//    stalling;
//  - the ball thrown with forward speed and backspin (e_t = 0, friction):
//    every impulse at the contact point keeps v_x + (2/5) r w_y (angular
//    momentum about the contact point), so it ends rolling at
//    (5 v_x0 + 2 r w_y0) / 7;
//  - a frictionless ellipsoid dropped tilted and spinning, e = 1: its
//    horizontal momentum is constant and its energy kept across impacts;
//  - a thin disc thrown at 100 m/s does not pass through the floor in a
//    16 ms step (conservative advancement): its first impact is where its
//    parabola meets the floor.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "core/scalar.hpp"
#include "reference/dynamics/contact_simulation.hpp"
#include "reference/dynamics/flight.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "tests/reference/dynamics/sphere_on_plane.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;

using contactref::test::one_patch;

constexpr double kG = 9.81;

struct BallOnFloor {
  double r = 0.1, mass = 1.0;
  su::PatchComplex<double> ball = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(r, r, r)));
  su::PatchComplex<double> floor = one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  ContactSystem<double> system(double e, double mu) const {
    ContactSystem<double> s{mass, Mat3<double>::Identity() * (0.4 * mass * r * r), &ball, &floor,
                            Mat4<double>::Identity(), Vec3<double>(0, 0, -kG), {}};
    s.restitution = e;
    s.friction.law.mu = mu;
    s.friction.mu_static = mu;
    return s;
  }
  // The chart's poles (its s = 0, pi, body x) along world y: a spin about
  // y keeps the contact on the periodic t.
  FlightStart<double> drop(double height, const Vec3<double>& v = Vec3<double>::Zero(),
                           const Vec3<double>& omega = Vec3<double>::Zero()) const {
    FlightStart<double> start;
    start.body.x_w = Vec3<double>(0, 0, r + height);
    start.body.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(std::acos(-1.0) / 2, Vec3<double>::UnitZ()));
    start.body.v_w = v;
    start.body.omega_w = omega;
    return start;
  }
};

std::vector<SimulationEvent<double>> events_of(const SimulationResult<double>& result, EventKind kind) {
  std::vector<SimulationEvent<double>> found;
  for (const SimulationEvent<double>& event : result.events)
    if (event.kind == kind) found.push_back(event);
  return found;
}

TEST(FlightSimulation, DroppedBallBouncesAtTheClosedFormTimesAndComesToRestByTheZenoTime) {
  const BallOnFloor scene;
  const double e = 0.5, h0 = 1.0;
  SimulationOptions<double> options;
  options.duration = 3;
  const SimulationResult<double> result = simulate(scene.system(e, 0), scene.drop(h0), options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  const double t0 = std::sqrt(2 * h0 / kG), v0 = kG * t0;
  // Contact is re-established at the first impact that leaves at most
  // g h_min: e^k v0 <= g h_min.
  const int impacts = int(std::ceil(std::log(kG * options.h_min / v0) / std::log(e)));
  const std::vector<SimulationEvent<double>> collisions = events_of(result, EventKind::kCollision);
  ASSERT_EQ(int(collisions.size()), impacts);
  double t = t0, approach = v0;
  for (int k = 0; k < impacts; ++k) {
    SCOPED_TRACE(k);
    // A ballistic flight without rotation is a polynomial of degree 2: RK4
    // integrates it exactly, and the impact is located to the contact
    // tolerance (1e-9 m) over the approach speed (> 8e-3 m/s here), plus
    // the round-off of k sums of times.
    EXPECT_NEAR(collisions[std::size_t(k)].time, t, 2e-7);
    EXPECT_NEAR(collisions[std::size_t(k)].normal_velocity_before, -approach, 1e-6 * v0);
    EXPECT_NEAR(collisions[std::size_t(k)].normal_velocity_after, e * approach, 1e-6 * v0);
    // Apex e^(2k) h0 (the leaving speed's height): energy (1 - e^2) of the approach's lost.
    EXPECT_NEAR(collisions[std::size_t(k)].energy_change, -(1 - e * e) * scene.mass * approach * approach / 2,
                1e-6 * scene.mass * v0 * v0);
    t += 2 * e * approach / kG;
    approach *= e;
  }
  const std::vector<SimulationEvent<double>> contacts = events_of(result, EventKind::kContact);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].time, collisions.back().time);
  EXPECT_LT(contacts[0].time, t0 * (1 + e) / (1 - e));
  // At rest on the floor from there: the weight carried, no drift.
  EXPECT_FALSE(result.ended_in_flight);
  const SimulationSample<double>& last = result.samples.back();
  EXPECT_FALSE(last.flight);
  EXPECT_EQ(last.state.time, 3.0);
  EXPECT_NEAR(last.normal_force, scene.mass * kG, 1e-9);
  EXPECT_NEAR(last.com_w.z(), scene.r, 1e-9);
  EXPECT_LT(last.com_velocity_w.norm(), 1e-12);
  // The balance: what the impacts took is the energy lost (the contact's
  // entry discards at most the last bounce's energy, in impulse_work too).
  EXPECT_NEAR(last.energy - result.initial_energy - last.impulse_work - last.work, 0, 1e-9);
  EXPECT_EQ(result.statistics.collisions, impacts);
  EXPECT_EQ(result.statistics.contacts, 1);
  // Resting for 2.4 s: the normal force is the weight, far above its
  // round-off, so no separation (a located crossing below -64 eps m g).
  EXPECT_EQ(result.statistics.separations, 0);
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
// The same drop (from 0.2 m, four impacts in 0.57 s) in 50 digits (the
// referee): the impacts are located to a contact tolerance of 1e-35 m (the
// 50-digit Newton closest points; the hierarchy's double distance only
// bounds the steps), so their times match the closed form to 1e-30 s, far
// past double's round-off.
TEST(FlightSimulation, DroppedBallBouncesAtTheClosedFormTimesIn50Digits) {
  using T = Real50;
  const T r("0.1"), g("9.81"), e("0.5"), h0("0.2");
  const su::PatchComplex<T> ball = one_patch<T>(std::make_unique<su::EllipsoidPatch<T>>(Vec3<T>(r, r, r)));
  const su::PatchComplex<T> floor = one_patch<T>(std::make_unique<su::PlanePatch<T>>());
  ContactSystem<T> system{T(1), Mat3<T>(Mat3<T>::Identity() * T(T("0.4") * r * r)), &ball, &floor, Mat4<T>::Identity(),
                          Vec3<T>(0, 0, -g), {}};
  system.restitution = e;
  FlightStart<T> start;
  start.body.x_w = Vec3<T>(0, 0, r + h0);
  SimulationOptions<T> options;
  options.duration = T("0.57");
  options.contact_tolerance = T("1e-35");
  options.proximity_bound = T("0.01");  // a coarse hierarchy: its 50-digit tessellation is the cost
  const SimulationResult<T> result = simulate(system, start, options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  using std::sqrt;
  const T t0 = sqrt(T(2) * h0 / g), v0 = g * t0;
  T t = t0, approach = v0;
  int k = 0;
  for (const SimulationEvent<T>& event : result.events) {
    if (event.kind != EventKind::kCollision) continue;
    SCOPED_TRACE(k++);
    using std::abs;
    EXPECT_LT(abs(T(event.time - t)), T("1e-30")) << event.time << " " << t;
    EXPECT_LT(abs(T(event.normal_velocity_after - e * approach)), T("1e-30"));
    t += T(2) * e * approach / g;
    approach *= e;
  }
  EXPECT_EQ(k, 4);  // the fourth at t0 (1 + 2 e + 2 e^2 + 2 e^3) = 0.555 s, the fifth at 0.581 s
}

#endif  // CONTACTREF_HAS_REAL50

TEST(FlightSimulation, BackspunBallBouncesThenRollsAtTheConservedAngularMomentum) {
  const BallOnFloor scene;
  const double vx0 = 2, wy0 = -30;
  SimulationOptions<double> options;
  options.duration = 3;
  const SimulationResult<double> result =
      simulate(scene.system(0.5, 0.3), scene.drop(0.2, Vec3<double>(vx0, 0, 0), Vec3<double>(0, wy0, 0)), options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  EXPECT_GE(result.statistics.collisions, 2);
  const double rolling = (5 * vx0 + 2 * scene.r * wy0) / 7;
  // Gravity and the normal impulses pass through the centre; friction acts
  // at the contact point: v_x + (2/5) r w_y is kept. An impact located at a
  // gap d <= contact_tolerance acts at the gap's midpoint, d / 2 off the
  // ball's surface: the impulse J then changes the invariant by at most
  // |J| (d / 2) (2/5) r / I = |J| d / (2 m r); summed over the impacts.
  double bound = 1e-14;
  for (const SimulationEvent<double>& event : result.events)
    bound += event.impulse_w.norm() * options.contact_tolerance / (2 * scene.mass * scene.r);
  for (const SimulationSample<double>& sample : result.samples) {
    EXPECT_NEAR(sample.com_velocity_w.x() + 0.4 * scene.r * sample.omega_w.y(), vx0 + 0.4 * scene.r * wy0, bound)
        << sample.state.time;
  }
  const SimulationSample<double>& last = result.samples.back();
  EXPECT_FALSE(last.flight);
  EXPECT_EQ(last.state.mode, ContactMode::kNoSlip);
  EXPECT_NEAR(last.com_velocity_w.x(), rolling, bound);
  EXPECT_NEAR(scene.r * last.omega_w.y(), rolling, bound);
  EXPECT_NEAR(last.com_w.z(), scene.r, 1e-9);
}

TEST(FlightSimulation, ElasticFrictionlessEllipsoidKeepsItsEnergyAndHorizontalMomentum) {
  const su::PatchComplex<double> body =
      one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(0.15, 0.1, 0.06)));
  const su::PatchComplex<double> floor = one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  ContactSystem<double> system{2.0, Vec3<double>(0.004, 0.006, 0.008).asDiagonal(), &body, &floor,
                               Mat4<double>::Identity(), Vec3<double>(0, 0, -kG), {}};
  system.restitution = 1;
  FlightStart<double> start;
  start.body.x_w = Vec3<double>(0, 0, 0.5);
  start.body.q_w_b = Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3<double>(1, 2, 0).normalized()));
  start.body.v_w = Vec3<double>(0.3, -0.2, 0);
  start.body.omega_w = Vec3<double>(2, -1, 5);
  SimulationOptions<double> options;
  options.integrator = IntegratorKind::kDormandPrince54;
  options.tolerance = 1e-12;
  options.duration = 2;
  options.output_interval = 0;
  const SimulationResult<double> result = simulate(system, start, options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  EXPECT_GE(result.statistics.collisions, 3);
  EXPECT_EQ(result.statistics.contacts, 0);  // an elastic body leaves as fast as it came
  // No horizontal force (the normal impulses are vertical) and e = 1 keeps
  // the energy at each impact (to round-off). In flight the body-frame
  // state's error per step is within the tolerance times (1 + |y_i|) per
  // component (the velocities and the quaternion are O(1) here), so the
  // world velocity and the energy may drift by the steps' count times that.
  const double drift = double(result.statistics.flight_steps + 1) * options.tolerance * 4;
  for (const SimulationSample<double>& sample : result.samples) {
    EXPECT_NEAR(sample.com_velocity_w.x(), 0.3, drift);
    EXPECT_NEAR(sample.com_velocity_w.y(), -0.2, drift);
    EXPECT_NEAR(sample.energy, result.initial_energy, drift * result.initial_energy);
    EXPECT_GT(sample.gap, -options.contact_tolerance);
  }
}

// Over a plane only the motion along its normal closes the gap: a ball
// thrown at 100 m/s along the floor takes the flight steps of the same ball
// dropped (conservative advancement on the normal components), not steps
// of the gap over 100 m/s, and follows its parabola (closed form) to the
// first impact at t_0 = sqrt(2 h_0 / g).
TEST(FlightSimulation, ABallThrownAlongTheFloorTakesTheStepsOfTheBallDropped) {
  const BallOnFloor scene;
  const double h0 = 0.5, t0 = std::sqrt(2 * h0 / kG);
  SimulationOptions<double> options;
  options.duration = 0.9 * t0;
  const SimulationResult<double> dropped = simulate(scene.system(0.5, 0), scene.drop(h0), options);
  const SimulationResult<double> thrown =
      simulate(scene.system(0.5, 0), scene.drop(h0, Vec3<double>(100, 0, 0)), options);
  ASSERT_EQ(dropped.status, SimulationStatus::kCompleted) << dropped.message;
  ASSERT_EQ(thrown.status, SimulationStatus::kCompleted) << thrown.message;
  ASSERT_TRUE(thrown.ended_in_flight);
  EXPECT_EQ(thrown.statistics.flight_steps, dropped.statistics.flight_steps);
  const double t = options.duration;
  EXPECT_NEAR(thrown.final_body.x_w.x(), 100 * t, 1e-9);
  EXPECT_NEAR(thrown.final_body.x_w.z(), scene.r + h0 - kG * t * t / 2, 1e-9);
  options.duration = 1.1 * t0;
  const SimulationResult<double> landed =
      simulate(scene.system(0.5, 0), scene.drop(h0, Vec3<double>(100, 0, 0)), options);
  const std::vector<SimulationEvent<double>> collisions = events_of(landed, EventKind::kCollision);
  ASSERT_EQ(collisions.size(), 1u) << landed.message;
  EXPECT_NEAR(collisions[0].time, t0, 1e-9);
}

// A needle's inertia (I = diag(I_max, I_max, I_min), I_min / I_max =
// 2.5e-7) spinning end over end at 20 rad/s: its steps resolve the spin by
// the rotational energy's bound sqrt(I_max / I_min) |omega| = 4e4 rad/s
// (flight.hpp), not by |L| / I_min = 8e7 rad/s (2.4e7 steps for 0.3 s,
// beyond this test's max_steps: the run ended failed), and still resolve it.
TEST(FlightSimulation, ANeedleSpinningEndOverEndIsResolvedByItsRotationalEnergy) {
  const BallOnFloor scene;
  ContactSystem<double> system = scene.system(0.5, 0);
  const double I_max = 0.004, I_min = 1e-9, omega = 20;
  system.I_com = Vec3<double>(I_max, I_max, I_min).asDiagonal();
  SimulationOptions<double> options;
  options.duration = 0.3;  // in flight: the floor is reached at 0.32 s
  options.max_steps = 100000;
  // drop() turns body x to world y: the spin is about the major axis x.
  const SimulationResult<double> result =
      simulate(system, scene.drop(0.5, Vec3<double>::Zero(), Vec3<double>(0, omega, 0)), options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  ASSERT_TRUE(result.ended_in_flight);
  EXPECT_GE(double(result.statistics.flight_steps), options.duration * std::sqrt(I_max / I_min) * omega);
  EXPECT_NEAR(result.final_body.omega_w.y(), omega, 1e-9);
}

// In flight as in contact, a spin faster than 1 / h_min ends the run at
// once, naming it (a torus flung at 1e9 rad/s took steps of 1e-9 s, 2e-8 s
// of its run a second); a spin just below it flies. h_min = 1 ms.
TEST(FlightSimulation, ASpinThatHMinCannotResolveEndsTheRunAsInContact) {
  const BallOnFloor scene;
  SimulationOptions<double> options;
  options.duration = 0.3;
  const SimulationResult<double> fast =
      simulate(scene.system(0.5, 0), scene.drop(0.5, Vec3<double>::Zero(), Vec3<double>(0, 2000, 0)), options);
  EXPECT_EQ(fast.status, SimulationStatus::kFailed);
  EXPECT_NE(fast.message.find("the body turns at 2000 rad/s relative to body 2"), std::string::npos) << fast.message;
  EXPECT_EQ(fast.statistics.flight_steps, 0);
  const SimulationResult<double> resolved =
      simulate(scene.system(0.5, 0), scene.drop(0.5, Vec3<double>::Zero(), Vec3<double>(0, 900, 0)), options);
  EXPECT_EQ(resolved.status, SimulationStatus::kCompleted) << resolved.message;
}

TEST(FlightSimulation, ThinFastDiscDoesNotTunnelThroughTheFloor) {
  const su::PatchComplex<double> disc =
      one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(0.1, 0.1, 0.001)));
  const su::PatchComplex<double> floor = one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  ContactSystem<double> system{1.0, Vec3<double>(0.0025, 0.0025, 0.005).asDiagonal(), &disc, &floor,
                               Mat4<double>::Identity(), Vec3<double>(0, 0, -kG), {}};
  system.restitution = 0.5;
  FlightStart<double> start;
  start.body.x_w = Vec3<double>(0, 0, 1);
  start.body.v_w = Vec3<double>(0, 0, -100);  // 1.6 m in a step of h_max
  SimulationOptions<double> options;
  options.duration = 0.05;
  const SimulationResult<double> result = simulate(system, start, options);
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  const std::vector<SimulationEvent<double>> collisions = events_of(result, EventKind::kCollision);
  ASSERT_GE(collisions.size(), 1u);
  // z(t) = 1 - 100 t - g t^2 / 2 reaches the disc's half-thickness 1 mm.
  const double t = (-100 + std::sqrt(100 * 100 + 2 * kG * (1 - 0.001))) / kG;
  EXPECT_NEAR(collisions[0].time, t, 1e-9);
  EXPECT_NEAR(collisions[0].normal_velocity_after, 0.5 * (100 + kG * t), 1e-6);
  for (const SimulationSample<double>& sample : result.samples) EXPECT_GT(sample.com_w.z(), 0.001 - 1e-9);
}

TEST(FlightSimulation, BadStartsAndParametersAreRefusedByName) {
  const BallOnFloor scene;
  const auto message = [&](const ContactSystem<double>& system, const FlightStart<double>& start) -> std::string {
    try {
      simulate(system, start, SimulationOptions<double>());
    } catch (const InputError& error) {
      return error.what();
    }
    return "";
  };
  EXPECT_EQ(message(scene.system(0.5, 0), scene.drop(0.1)), "");
  EXPECT_NE(message(scene.system(0.5, 0), scene.drop(-0.01)).find("starts inside body 2"), std::string::npos);
  EXPECT_NE(message(scene.system(0.5, 0), scene.drop(0)).find("starts touching body 2"), std::string::npos);
  EXPECT_NE(message(scene.system(1.5, 0), scene.drop(0.1)).find("restitution must be in [0, 1]"), std::string::npos);
  ContactSystem<double> bad = scene.system(0.5, 0);
  bad.tangential_restitution = std::nan("");
  EXPECT_NE(message(bad, scene.drop(0.1)).find("tangential_restitution"), std::string::npos);
  FlightStart<double> spinning = scene.drop(0.1);
  spinning.body.omega_w.x() = std::numeric_limits<double>::infinity();
  EXPECT_NE(message(scene.system(0.5, 0), spinning).find("not finite"), std::string::npos);
  // Finite entries whose magnitude overflows (1e300 squared): every flight
  // step bound is 0 under it. Refused whether the run starts in flight or in
  // contact.
  ContactSystem<double> huge_gravity = scene.system(0.5, 0);
  huge_gravity.gravity_w = Vec3<double>(0, 0, 1e300);
  EXPECT_NE(message(huge_gravity, scene.drop(0.1)).find("gravity (0, 0, 1e+300) m/s^2 is not finite or its magnitude"),
            std::string::npos);
  // A zero principal moment: the flight's angular speed bound (over I_min)
  // is infinite (it ended with a flight step of 0 s, naming no cause).
  ContactSystem<double> flat = scene.system(0.5, 0);
  flat.I_com(0, 0) = 0;
  EXPECT_NE(message(flat, scene.drop(0.1)).find("simulation: body 1: inertia is not positive definite"),
            std::string::npos);
  EXPECT_THROW(FlightDynamics<double>(1.0, flat.I_com, Vec3<double>(0, 0, -kG)), InputError);
  const test::SphereOnPlaneScene<double> sphere;
  ContactSystem<double> sphere_system = sphere.system({});
  sphere_system.gravity_w = huge_gravity.gravity_w;
  EXPECT_THROW(simulate(sphere_system, sphere.sliding_start(1.0), SimulationOptions<double>()), InputError);
  sphere_system.gravity_w.z() = -1e300;
  EXPECT_THROW(simulate(sphere_system, sphere.sliding_start(1.0), SimulationOptions<double>()), InputError);
}

// A flight step bound that overflows to 0 (|v| = 1e200 m/s: its square is
// infinite, so conservative advancement allows no step) ends the run at
// t = 0 naming the step, where a step of 0 s was taken for ever before
// (passes that do not move the clock, each counted as a flight step, so the
// watchdog never fired; max_steps keeps this test short if it regresses).
TEST(FlightSimulation, AStepBoundThatOverflowsToZeroAtTimeZeroEndsTheRunInsteadOfSteppingZero) {
  const BallOnFloor scene;
  SimulationOptions<double> options;
  options.max_steps = 1000;
  const SimulationResult<double> result =
      simulate(scene.system(0.5, 0), scene.drop(0.1, Vec3<double>(0, 0, 1e200)), options);
  EXPECT_EQ(result.status, SimulationStatus::kFailed);
  EXPECT_NE(result.message.find("a flight step of 0 s does not move the clock at t = 0 s"), std::string::npos)
      << result.message;
  EXPECT_EQ(result.statistics.flight_steps, 0);
  EXPECT_EQ(result.final_state.time, 0.0);
}

}  // namespace
}  // namespace contactref::dynamics
