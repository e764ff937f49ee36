// The friction modes (Kry & Pai Section 3.4, Eqs. 21-40; thesis Eqs.
// 4.24-4.44), each property against a reference independent of the code:
//  - the reduced Jacobians' time derivatives Hdot' and Hdot'' (not in the
//    papers), times r', and Pdot r', against 50-digit central differences of
//    H_r(q) r' = H_1(q) P(q) r' and P(q) r' at fixed r';
//  - energy: dE/dt from a 50-digit central difference of the energy function
//    along the state derivative equals the closed-form power of the friction
//    law, -f_n (mu |v| + mu_roll |rho| + mu_spin |omega_z|) - damping |omega|^2,
//    which is <= 0 (friction never does positive work), and 0 in no-slip and
//    no-spin without resistance (energy conserved);
//  - a sphere on an inclined plane against the closed-form Newton-Euler
//    solution in each mode: sliding a = g_t - mu g_n s, rolling
//    a = 5/7 (g_t - mu_roll g_n v / R), the spin and rolling resistance
//    torques;
//  - the zero law reproduces the frictionless dynamics of Eq. 20 (a
//    different solve: Cholesky of H^T M H against LU of F M H);
//  - high friction degrades the condition number of F M H (Section 3.4.1),
//    and a singular one is an error; bad input is an InputError.
#include <gtest/gtest.h>

#include <Eigen/LU>

#include <algorithm>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <string>

#include "reference/dynamics/contact_dynamics.hpp"
#include "tests/reference/dynamics/contact_pairs.hpp"
#include "reference/spatial/pose.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/finite_difference.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scalars.hpp"
#include "tests/kit/tolerance.hpp"
#include "tests/kit/report.hpp"

namespace contactref::dynamics {
namespace {

using test::matrices_near;
using test::tolerance;

template <class T> using Vec2 = Eigen::Matrix<T, 2, 1>;

[[maybe_unused]] constexpr ContactMode kFrictionModes[5] = {ContactMode::kSliding, ContactMode::kNoSlip, ContactMode::kNoSpin,
                                           ContactMode::kNoRoll, ContactMode::kRest};

// ---------------------------------------------------------------------------
// Random configurations of the three pairs of contact_pairs.hpp.

using test::Kind;
using test::kKinds;
using test::name;

// A random body, pose of body 2 and state (q, r') of `mode`, sample n. The
// parameter points are regular and convex, so every matrix solved is regular.
template <class T>
struct ModeSample {
  ContactDynamics<T> dynamics;
  StateVector<T> y;
};
template <class T>
ModeSample<T> sample(Kind kind, ContactMode mode, int n) {
  test::Rng rng(test::kSeed + 3000 + 100 * std::uint64_t(kind) + 10 * std::uint64_t(mode) + std::uint64_t(n));
  const auto [m, I] = test::random_inertia<T>(rng);
  const Mat4<T> E_w_2 = test::random_pose<T>(rng);
  StateVector<T> y(5 + velocity_dimension(mode));
  y.template head<5>() = test::random_contact_point<T>(kind, rng);
  for (int j = 5; j < y.size(); ++j) y(j) = T(fixtures::uniform(rng, -1, 1));
  const test::ContactPairs<T>& p = test::contact_pairs<T>();
  return {ContactDynamics<T>(m, I, p.body1(kind), p.body2(kind), E_w_2, Vec3<T>(T(0), T(0), T(-9.81))), y};
}

template <class T>
FrictionLaw<T> resisting_law() {
  return {T(0.4), T(0.01), T(0.02), T(0.05)};
}

// ---------------------------------------------------------------------------

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(FrictionModes, ReducedJacobianDerivativesMatch50DigitDifferences) {
  // Hdot_r r' = d/dt (H_1 P) r' and Pdot r' along q' = P r' at fixed r': the
  // derived Ddot and Gdot (contact_modes.hpp) against
  // (H_r(q + h q') - H_r(q - h q')) r' / 2h and the same of P r'.
  double worst = 0;
  const test::ContactPairs<Real50>& p = test::contact_pairs<Real50>();
  for (ContactMode mode : kFrictionModes) {
    for (Kind kind : kKinds) {
      for (int n = 0; n < 3; ++n) {
        const ModeSample<Real50> s = sample<Real50>(kind, mode, n);
        const Vec5<Real50> q = s.y.head<5>();
        const ReducedVector<Real50> rdot = s.y.tail(s.y.size() - 5);
        const kinematics::ContactConfiguration<Real50> c =
            kinematics::contact_configuration<Real50>(p.body1(kind), p.body2(kind), q);
        kinematics::ContactRates<Real50> k{c, {}, {}};
        const ModeKinematics<Real50> m = mode_kinematics(mode, k, rdot);
        const Eigen::Matrix<Real50, 11, 1> difference = test::central_difference(
            [&](const Real50& x) {
              const kinematics::ContactConfiguration<Real50> at =
                  kinematics::contact_configuration<Real50>(p.body1(kind), p.body2(kind), Vec5<Real50>(q + x * m.qdot));
              const Vec5<Real50> P_rdot = reduced_velocity_map(mode, at.H_1c) * rdot;
              Eigen::Matrix<Real50, 11, 1> both;
              both << at.H_1 * P_rdot, P_rdot;
              return both;
            },
            Real50(0));
        Eigen::Matrix<Real50, 11, 1> derived;
        derived << m.Hdot_r_rdot, m.Pdot_rdot;
        // |H_r'''| along q' stays below 1e2 here (curvatures and rates O(1)).
        EXPECT_TRUE(matrices_near(derived, difference, test::finite_difference_tolerance(), test::kAbsolute))
            << to_string(mode) << ", " << name(kind) << " sample " << n;
        worst = std::max(worst, double((derived - difference).cwiseAbs().maxCoeff()));
        // The held rows of phi_1c vanish: the slip in every sticking mode, the
        // spin in no-spin and rest, the rolling in no-roll and rest (where P =
        // e_5 or empty claims that pure spin neither rolls nor slips).
        const Vec6<Real50> phi_1c = c.H_1c * m.qdot;
        const auto free = free_rows(mode);
        for (int row = 0; row < 6; ++row) {
          const bool held = std::find(free.begin(), free.begin() + velocity_dimension(mode), row) ==
                            free.begin() + velocity_dimension(mode);
          if (held) {
            EXPECT_LT(abs(phi_1c(row)), tolerance<Real50>(64)) << to_string(mode) << ": phi_1c(" << row << ")";
          }
        }
      }
    }
  }
  test::report("friction", "|(Hdot_r r', Pdot r') - 50-digit differences of (H_1 P r', P r')| worst", worst);
}

// dE/dt along the state derivative by a 50-digit central difference of the
// energy function: independent of the right-hand side's force balance.
Real50 energy_rate_by_difference(const ContactDynamics<Real50>& d, ContactMode mode, const StateVector<Real50>& y,
                                 const StateVector<Real50>& derivative) {
  const Real50 h("1e-15");
  return (d.energy(mode, StateVector<Real50>(y + h * derivative)) -
          d.energy(mode, StateVector<Real50>(y - h * derivative))) /
         (2 * h);
}
#endif  // CONTACTREF_HAS_REAL50

// The power of the friction law and the damping (header of contact_dynamics.hpp).
template <class T>
T law_power(const ContactDynamicsState<T>& r, const FrictionLaw<T>& law) {
  using std::abs;
  const T rolling = r.phi_1c.template head<2>().norm(), spin = abs(r.phi_1c(2)), slip = r.slip_speed();
  return -r.f_n * (law.mu * slip + law.mu_roll * rolling + law.mu_spin * spin) -
         law.damping * r.phi.template head<3>().squaredNorm();
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(FrictionModes, EnergyRateIsTheFrictionLawsPowerByA50DigitDifference) {
  // Checks the whole right-hand side (Hdot_r, the sign of F, the resistance
  // torques): a wrong one gives a dE/dt that is not the law's power.
  double worst = 0, most_negative = 0;
  int compressive = 0;
  for (ContactMode mode : kFrictionModes) {
    for (const bool resisting : {false, true}) {
      const FrictionLaw<Real50> law = resisting ? resisting_law<Real50>() : FrictionLaw<Real50>{};
      for (Kind kind : kKinds) {
        for (int n = 0; n < 2; ++n) {
          const ModeSample<Real50> s = sample<Real50>(kind, mode, n);
          const ContactDynamicsState<Real50> r = s.dynamics.evaluate(mode, s.y, law);
          const Real50 rate = energy_rate_by_difference(s.dynamics, mode, s.y, r.derivative);
          const Real50 expected = law_power(r, law);
          const std::string where = std::string(to_string(mode)) + (resisting ? ", resisting law, " : ", zero law, ") +
                                    name(kind) + " sample " + std::to_string(n);
          // |E| and its third derivative along y' stay below 1e4 (masses <= 10, g ~ 10).
          EXPECT_LT(abs(rate - expected), test::finite_difference_tolerance(1e2)) << where;
          // The state's own power (phi . f_c less the damping), which the simulator integrates.
          EXPECT_LT(abs(r.power - rate), test::finite_difference_tolerance(1e2)) << where << ": power";
          worst = std::max(worst, double(abs(rate - expected)));
          if (r.f_n > 0) {
            ++compressive;
            EXPECT_LE(expected, Real50(0)) << where;
            most_negative = std::min(most_negative, double(expected));
          }
          if (!resisting && mode != ContactMode::kSliding) {
            EXPECT_EQ(expected, Real50(0)) << where;
          }
        }
      }
    }
  }
  EXPECT_GT(compressive, 10) << "too few samples in compression to check the sign of the work";
  test::report("friction", "|dE/dt by difference - the law's power| worst (W)", worst);
  test::report("friction", "most negative power of the law in compression (W)", most_negative);
}
#endif  // CONTACTREF_HAS_REAL50

// ---------------------------------------------------------------------------
// A sphere of radius R on a plane (body 2 at the identity), under gravity
// tilted by theta about y: g_t = g sin(theta) x along the plane,
// g_n = g cos(theta) into it. Newton-Euler with the contact force F at
// r = -R n from the centre and couples tau (derived in the comments below).

template <class T>
struct Incline {
  T R{T(0.5)}, m{T(2)}, g{T(9.81)}, theta{T(0.3)};
  surfaces::EllipsoidPatch<T> sphere{Vec3<T>(R, R, R)};
  surfaces::PlanePatch<T> plane;
  Mat3<T> I() const { return (T(2) / T(5)) * m * R * R * Mat3<T>::Identity(); }
  Vec3<T> gravity() const {
    using std::cos;
    using std::sin;
    return Vec3<T>(g * sin(theta), T(0), -g * cos(theta));
  }
  T g_n() const {
    using std::cos;
    return g * cos(theta);
  }
  Vec3<T> g_t() const { return Vec3<T>(gravity().x(), gravity().y(), T(0)); }
  ContactDynamics<T> dynamics() const {
    return ContactDynamics<T>(m, I(), sphere, plane, Mat4<T>::Identity(), gravity());
  }
};

// World-frame quantities of an evaluated state.
template <class T>
struct World {
  Vec3<T> omega, centre_acceleration, angular_acceleration, slip;
};
template <class T>
World<T> world_of(const ContactDynamicsState<T>& r) {
  const Mat3<T> R_w_1 = spatial::rotation_of<T>(r.E_w_1);
  const Mat3<T> R_w_1c = R_w_1 * spatial::rotation_of<T>(r.kinematics.E_1_1c);
  const Vec3<T> omega = r.phi.template head<3>(), v = r.phi.template tail<3>();
  return {R_w_1 * omega, R_w_1 * Vec3<T>(r.dphi.template tail<3>() + omega.cross(v)),
          R_w_1 * Vec3<T>(r.dphi.template head<3>()), R_w_1c * Vec3<T>(r.phi_1c(3), r.phi_1c(4), T(0))};
}

template <class T>
class SphereOnIncline : public ::testing::Test {};
TYPED_TEST_SUITE(SphereOnIncline, test::Scalars);

TYPED_TEST(SphereOnIncline, SlidingMatchesNewtonEuler) {
  // m a = m g_t - mu m g_n s (s the unit slip of the contact point), and
  // I omega' = (-R n) x F + tau_roll + tau_spin
  //          = R mu m g_n (n x s) - mu_roll m g_n rho - mu_spin m g_n sgn(omega_n) n,
  // rho the unit tangential part of omega; f_n = m g_n.
  using T = TypeParam;
  const Incline<T> set;
  const ContactDynamics<T> d = set.dynamics();
  const FrictionLaw<T> law{T(0.3), T(0.02), T(0.01), T(0)};
  const Vec3<T> n(T(0), T(0), T(1));
  test::Rng rng(test::kSeed + 31);
  double worst = 0;
  for (int k = 0; k < 10; ++k) {
    StateVector<T> y(10);
    y.template head<5>() << T(fixtures::uniform(rng, 0.3, 2.8)), T(fixtures::uniform(rng, -3, 3)), T(fixtures::uniform(rng, -2, 2)),
        T(fixtures::uniform(rng, -2, 2)), T(fixtures::uniform(rng, -3, 3));
    for (int j = 5; j < 10; ++j) y(j) = T(fixtures::uniform(rng, -2, 2));
    const ContactDynamicsState<T> r = d.evaluate(ContactMode::kSliding, y, law);
    const World<T> w = world_of(r);
    const Vec3<T> s = w.slip.normalized();
    const Vec3<T> rho = Vec3<T>(w.omega - w.omega.dot(n) * n).normalized();
    using std::abs;
    const T mg_n = set.m * set.g_n();
    const Vec3<T> a = set.g_t() - law.mu * set.g_n() * s;
    const Vec3<T> torque = set.R * law.mu * mg_n * n.cross(s) - law.mu_roll * mg_n * rho -
                           law.mu_spin * mg_n * (w.omega.dot(n) > T(0) ? T(1) : T(-1)) * n;
    const Vec3<T> alpha = torque / (T(2) / T(5) * set.m * set.R * set.R);
    // Accelerations O(|q'|^2 R + g) <= 40: 1024 roundings of that.
    const T bound = tolerance<T>(1024) * T(40);
    EXPECT_TRUE(matrices_near(w.centre_acceleration, a, bound, test::kAbsolute)) << "sample " << k;
    EXPECT_TRUE(matrices_near(w.angular_acceleration, alpha, bound, test::kAbsolute)) << "sample " << k;
    EXPECT_TRUE(test::scalars_near(r.f_n, mg_n, tolerance<T>(1024)));
    worst = std::max({worst, double((w.centre_acceleration - a).cwiseAbs().maxCoeff()),
                      double((w.angular_acceleration - alpha).cwiseAbs().maxCoeff())});
  }
  test::report("friction", std::string("sphere sliding on an incline, ") + (std::is_same_v<T, double> ? "double" : "50 digits") +
             ", worst |a - closed form| (m/s^2, 1/s^2)",
         worst);
}

TYPED_TEST(SphereOnIncline, RollingInNoSlipAndNoSpinMatchesNewtonEuler) {
  // Rolling (v = omega x R n): eliminating the tangential contact force F
  // from m a = m g_t + F, I omega' = (-R n) x F + tau with I = 2/5 m R^2
  // gives a = 5/7 g_t + 5/(7 m R) tau x n; the rolling couple
  // -mu_roll m g_n rho has rho x n = v/|v|, so a = 5/7 (g_t - mu_roll g_n v / (R |v|)).
  // The spin obeys I omega_n' = -mu_spin m g_n sgn(omega_n) in no-slip and
  // stays 0 in no-spin, whose spin torque is then 0 (isotropic sphere).
  using T = TypeParam;
  const Incline<T> set;
  const ContactDynamics<T> d = set.dynamics();
  const FrictionLaw<T> law{T(0.3), T(0.02), T(0.01), T(0)};
  const Vec3<T> n(T(0), T(0), T(1));
  test::Rng rng(test::kSeed + 32);
  double worst = 0;
  for (ContactMode mode : {ContactMode::kNoSlip, ContactMode::kNoSpin}) {
    for (int k = 0; k < 10; ++k) {
      StateVector<T> y(5 + velocity_dimension(mode));
      y.template head<5>() << T(fixtures::uniform(rng, 0.3, 2.8)), T(fixtures::uniform(rng, -3, 3)),
          T(fixtures::uniform(rng, -2, 2)), T(fixtures::uniform(rng, -2, 2)), T(fixtures::uniform(rng, -3, 3));
      for (int j = 5; j < y.size(); ++j) y(j) = T(fixtures::uniform(rng, -2, 2));
      const ContactDynamicsState<T> r = d.evaluate(mode, y, law);
      const World<T> w = world_of(r);
      const Vec3<T> v = spatial::rotation_of<T>(r.E_w_1) * Vec3<T>(r.phi.template tail<3>());
      const T mg_n = set.m * set.g_n();
      const Vec3<T> a = T(5) / T(7) * (set.g_t() - law.mu_roll * set.g_n() * v.normalized() / set.R);
      const T bound = tolerance<T>(1024) * T(40);
      const std::string where = std::string(to_string(mode)) + " sample " + std::to_string(k);
      EXPECT_TRUE(matrices_near(w.centre_acceleration, a, bound, test::kAbsolute)) << where;
      EXPECT_LT(abs(r.slip_speed()), tolerance<T>(256)) << where;
      using std::abs;
      const T spin_acceleration = w.angular_acceleration.dot(n);
      if (mode == ContactMode::kNoSlip) {
        const T expected = -law.mu_spin * mg_n * (w.omega.dot(n) > T(0) ? T(1) : T(-1)) /
                           (T(2) / T(5) * set.m * set.R * set.R);
        EXPECT_TRUE(test::scalars_near(spin_acceleration, expected, bound, test::kAbsolute)) << where;
        worst = std::max(worst, double(abs(spin_acceleration - expected)));
      } else {
        EXPECT_LT(abs(w.omega.dot(n)), tolerance<T>(256)) << where;
        EXPECT_TRUE(test::scalars_near(spin_acceleration, T(0), bound, test::kAbsolute)) << where;
        EXPECT_LT(r.spin_ratio(), tolerance<T>(1024)) << where;
      }
      EXPECT_TRUE(test::scalars_near(r.f_n, mg_n, tolerance<T>(1024))) << where;
      worst = std::max(worst, double((w.centre_acceleration - a).cwiseAbs().maxCoeff()));
    }
  }
  test::report("friction", std::string("sphere rolling on an incline, ") + (std::is_same_v<T, double> ? "double" : "50 digits") +
             ", worst |a - closed form| (m/s^2, 1/s^2)",
         worst);
}

TEST(FrictionModes, ZeroLawReproducesTheFrictionlessSolve) {
  // Sliding with mu = 0 solves F M H q'' = F b by LU, frictionless solves
  // H^T M H q'' = H^T b by Cholesky: the same q'' when the upper 5x5 block
  // of H_1c is regular (F and H^T then have the same null space).
  double worst = 0;
  for (Kind kind : kKinds) {
    for (int n = 0; n < 5; ++n) {
      const ModeSample<double> s = sample<double>(kind, ContactMode::kSliding, n);
      const ContactDynamicsState<double> sliding = s.dynamics.evaluate(ContactMode::kSliding, s.y, {});
      const ContactDynamicsState<double> frictionless = s.dynamics.evaluate(ContactMode::kFrictionless, s.y, {});
      // Both solves are backward stable on systems of condition <= 1e4 here.
      EXPECT_TRUE(matrices_near(sliding.rddot, frictionless.rddot, tolerance<double>(64, 1e4))) << name(kind) << " " << n;
      worst = std::max(worst, (sliding.rddot - frictionless.rddot).cwiseAbs().maxCoeff());
      EXPECT_LT(frictionless.condition, 1e4);
    }
  }
  test::report("friction", "|q''(sliding, mu = 0) - q''(frictionless)| worst", worst);
}

// The frictionless condition is the 1-norm condition of the Jacobi-scaled
// H^T M H (header), here from a full-pivoting LU inverse, independent of the
// factors the dynamics inverts.
TEST(FrictionModes, FrictionlessConditionIsTheOneNormConditionOfTheScaledMatrix) {
  for (Kind kind : kKinds) {
    for (int n = 0; n < 5; ++n) {
      const ModeSample<double> s = sample<double>(kind, ContactMode::kFrictionless, n);
      const ContactDynamicsState<double> r = s.dynamics.evaluate(ContactMode::kFrictionless, s.y, {});
      const kinematics::Mat65<double> H = r.kinematics.H_1;
      const Mat5<double> A = H.transpose() * s.dynamics.inertia() * H;
      const Eigen::Matrix<double, 5, 1> S = A.diagonal().cwiseSqrt().cwiseInverse();
      const Mat5<double> A_scaled = S.asDiagonal() * A * S.asDiagonal();
      const Mat5<double> inverse = Eigen::FullPivLU<Mat5<double>>(A_scaled).inverse();
      const double expected =
          A_scaled.cwiseAbs().colwise().sum().maxCoeff() * inverse.cwiseAbs().colwise().sum().maxCoeff();
      // Both inverses are backward stable: entries within ~n^2 eps cond of each other.
      EXPECT_TRUE(test::scalars_near(r.condition, expected, tolerance<double>(64, expected))) << name(kind) << " " << n;
    }
  }
}

TEST(FrictionModes, HighFrictionDegradesTheConditionAndASingularSolveIsAnError) {
  // F's slip rows tend to -mu v Ad^T row 5, parallel for mu -> infinity:
  // the condition of the equilibrated F M H grows like mu.
  const ModeSample<double> s = sample<double>(Kind::kEllipsoidOnPlane, ContactMode::kSliding, 0);
  const double low = s.dynamics.evaluate(ContactMode::kSliding, s.y, {0.1, 0, 0, 0}).condition;
  const double high = s.dynamics.evaluate(ContactMode::kSliding, s.y, {1e6, 0, 0, 0}).condition;
  test::report("friction", "condition of F M H at mu = 0.1", low);
  test::report("friction", "condition of F M H at mu = 1e6", high);
  EXPECT_GT(high, 1e3 * low);
  const std::string e = test::error_of([&] { s.dynamics.evaluate(ContactMode::kSliding, s.y, {1e20, 0, 0, 0}); });
  EXPECT_NE(e.find("ComputationError: contact dynamics (sliding): F M H_r is singular to working precision"),
            std::string::npos)
      << e;
}

TEST(FrictionModes, BadStatesAndLawsAreInputErrors) {
  const ModeSample<double> s = sample<double>(Kind::kEllipsoidOnPlane, ContactMode::kNoSlip, 0);
  std::string e = test::error_of([&] { s.dynamics.evaluate(ContactMode::kSliding, s.y, {}); });
  EXPECT_NE(e.find("InputError: contact dynamics state: the sliding mode needs 10 entries (q and 5 velocities), got 8"),
            std::string::npos)
      << e;
  StateVector<double> bad = s.y;
  bad(6) = std::nan("");
  e = test::error_of([&] { s.dynamics.evaluate(ContactMode::kNoSlip, bad, {}); });
  EXPECT_NE(e.find("InputError: contact dynamics state: v' is not finite"), std::string::npos) << e;
  e = test::error_of([&] { s.dynamics.evaluate(ContactMode::kNoSlip, s.y, {0.3, -0.1, 0, 0}); });
  EXPECT_NE(e.find("InputError: contact dynamics: the friction coefficient mu_roll must be finite and >= 0, got -0.1"),
            std::string::npos)
      << e;
  e = test::error_of([&] { s.dynamics.evaluate(ContactMode::kNoSlip, s.y, {0.3, 0, 0, std::nan("")}); });
  EXPECT_NE(e.find("damping must be finite"), std::string::npos) << e;
}

}  // namespace
}  // namespace contactref::dynamics
