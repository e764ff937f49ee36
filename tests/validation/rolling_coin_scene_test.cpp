// Bouchard et al. Fig. 11 (Section 6.1.5), validation/fixtures/scenes/
// rolling_coin.json: a coin launched rolling on its rim with a small lean
// rolls, wobbles, falls and comes to rest lying flat, and never gains
// energy but what the post-stabilisation's position moves add.
//
// The energy E = T + m g z per step k -> k+1 of the scheme (free motion,
// stabilisation, PGS, positions; volume_world.hpp), with v- = v_k + h g the
// velocity after gravity and v+ after the contact impulses:
//   E_(k+1) - E_k = [T(v+) - T(v-)] + m g h (v+_z - v-_z) - m g^2 h^2 / 2
//                   + m g dz + dT_gyro + dT_turn,
// where
//  - the first three terms together are <= 0 for a dissipative contact
//    impulse: its normal part P_z against the ground removes at least
//    P_z^2 / (2 m) of kinetic energy (inelastic; S_nn >= 1/m) and lifts the
//    body by h P_z / m over the step, -P_z^2/(2m) + g h P_z - m g^2 h^2/2 =
//    -(P_z - m g h)^2 / (2m) <= 0, and friction only removes energy; this is
//    what the test checks;
//  - dz is the stabilisation's lift (Section 5.7), measured from the states:
//    dx = x_(k+1) - x_k - h v_(k+1) (the positions move by h v+ after it);
//  - dT_gyro = h^2 |omega x I omega|^2_(I^-1) / 2 is the explicit gyroscopic
//    update's gain (omega . (omega x I omega) = 0 leaves the second order);
//  - dT_turn is the change of omega . I_w omega / 2 when the stabilisation
//    turns the body by dtheta (measured: q_(k+1) = exp(h omega) dq q_k): the
//    commutator of [dtheta x] with I_w has norm <= |dtheta| (I_max - I_min),
//    so |dT_turn| <= |dtheta| |omega|^2 (I_max - I_min) / 2 to first order;
//    the test allows four times that for the higher orders.
// Round-off of E's sums: 64 roundings of the initial energy.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <limits>

#include "tests/validation/volume_contact_scene_world.hpp"

namespace contactref::volume_contact {
namespace {

// The rotation the stabilisation gave the body in a step: q_(k+1) =
// exp(h omega_(k+1)) dq q_k (rad).
double stabilisation_turn(const RigidBody& before, const RigidBody& after, double h) {
  const double speed = after.omega_w.norm();
  const Eigen::Quaterniond by_velocity =
      speed > 0 ? Eigen::Quaterniond(Eigen::AngleAxisd(h * speed, after.omega_w / speed)) : Eigen::Quaterniond::Identity();
  return Eigen::AngleAxisd(by_velocity.conjugate() * after.q_w_b * before.q_w_b.conjugate()).angle();
}

TEST(RollingCoin, RollsFallsAndComesToRestFlatNeverGainingEnergy) {
  const scenes::Scene scene = test::example_scene("rolling_coin.json");
  VolumeWorld world = test::scene_world(scene, ContactModel::kVolume6d);
  const Eigen::Vector3d g = scene.gravity;
  const double h = world.options().time_step;
  const RigidBody& coin = world.bodies()[1];
  const double E0 = test::mechanical_energy(world.bodies(), g), m = coin.mass;
  const Eigen::Vector3d moments = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(coin.I_com_b).eigenvalues();
  const double spread = moments.maxCoeff() - moments.minCoeff();
  double lean_while_rolling = 0, rest = -1;
  while (world.time() < scene.options.duration - h / 2) {
    const RigidBody before = coin;
    const double E = test::mechanical_energy(world.bodies(), g);
    world.step();
    const double dz = (coin.x_w - before.x_w - h * coin.v_w).z();
    const Eigen::Matrix3d I_w = before.inertia_w();
    const Eigen::Vector3d gyro = before.omega_w.cross(I_w * before.omega_w);
    const double omega2 = std::max(before.omega_w.squaredNorm(), coin.omega_w.squaredNorm());
    const double gain = m * -g.z() * std::max(0.0, dz) + 0.5 * h * h * gyro.dot(I_w.ldlt().solve(gyro)) +
                        2 * stabilisation_turn(before, coin, h) * omega2 * spread;
    EXPECT_LE(test::mechanical_energy(world.bodies(), g) - E, gain + 64 * std::numeric_limits<double>::epsilon() * E0)
        << "t = " << world.time();
    // Its axis (body z) is horizontal while it rolls on its rim.
    const double axis_up = std::abs(coin.R_w_b().col(2).z());
    if (world.time() < 0.5) lean_while_rolling = std::max(lean_while_rolling, std::asin(axis_up));
    if (rest < 0 && coin.v_w.norm() < 1e-9 && coin.omega_w.norm() < 1e-9) rest = world.time();
  }
  // It rolls on its rim for the first half second (its lean of 0.1 rad grows
  // and shrinks as it wobbles, below 0.3 rad).
  EXPECT_LT(lean_while_rolling, 0.3);
  EXPECT_GT(lean_while_rolling, 0.05);
  // It ends lying flat: a face tilted by theta about a diameter on the plane
  // cuts a wedge of (2/3) theta R^3 under its lower half, which post-
  // stabilisation keeps at most at V_t: theta <= 1.5 V_t / R^3 = 9.6e-6 rad;
  // at rest on its face (centre of mass at half the thickness, less the
  // target depth V_t / (pi R^2) = 5e-8 m).
  const double R = 0.025;
  EXPECT_GT(std::abs(coin.R_w_b().col(2).z()), std::cos(1.5 * scene.volume_contact.target_volume.value() / (R * R * R)));
  EXPECT_GT(rest, 0);
  EXPECT_LT(rest, scene.options.duration - 0.5);
  EXPECT_NEAR(coin.x_w.z(), 0.0015, 1e-7);
  EXPECT_LT(coin.v_w.norm() + coin.omega_w.norm(), 1e-9);
}

}  // namespace
}  // namespace contactref::volume_contact
