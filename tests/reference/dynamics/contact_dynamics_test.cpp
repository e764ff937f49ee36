// Frictionless single-contact dynamics (Kry & Pai Section 3.3, Eqs. 15-20),
// each property against a reference independent of the code under test:
//  - Section 3.3's statement that frictionless contact transmits only a force
//    along the normal: H^T f_c = 0, and in contact frame 1c the torque about
//    the contact point and the tangential force vanish; the power of the
//    contact wrench is zero, and so is dE/dt from the state derivative. These
//    three are residuals of the solve of Eq. 20: they hold for any Hdot, a
//    wrong one included (WrongHdotKeepsTheSolveResidualsButNotTheEnergy shows
//    it), so they check the solve only;
//  - the check a wrong Hdot fails: dE/dt = 0 in 50 digits against a central
//    difference of the energy function E(y) along the state derivative;
//  - a sphere resting and sliding on a plane against the closed form;
//  - separation under an upward body force larger than m g;
//  - double against 50 digits; and the errors for bad input.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <string>

#include "reference/dynamics/contact_dynamics.hpp"
#include "tests/reference/dynamics/contact_pairs.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "tests/kit/errors.hpp"  // message_of
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
using surfaces::Vec2;

template <class T>
double max_abs(const Eigen::MatrixBase<T>& m) {
  return double(m.cwiseAbs().maxCoeff());
}

// ---------------------------------------------------------------------------
// The configurations, in both scalars from the same seeded doubles.

using test::Kind;
using test::kKinds;
using test::name;

template <class T>
Vec3<T> gravity() {
  return Vec3<T>(T(0), T(0), T(-9.81));
}

// A random body, world pose of body 2 and state for configuration `kind`,
// sample n. Parameter points are regular and convex (ellipsoid s away from its
// poles, torus on its outer half), so H^T M H is definite.
template <class T>
struct Sample {
  T mass;
  Mat3<T> I;
  Mat4<T> E_w_2;
  Vec10<T> y;
};
template <class T>
Sample<T> sample(Kind kind, int n) {
  test::Rng rng(test::kSeed + 1000 * std::uint64_t(kind) + std::uint64_t(n));
  const auto [m, I] = test::random_inertia<T>(rng);
  Sample<T> s{m, I, test::random_pose<T>(rng), {}};
  s.y.template head<5>() = test::random_contact_point<T>(kind, rng);
  for (int j = 5; j < 10; ++j) s.y(j) = T(fixtures::uniform(rng, -1, 1));
  return s;
}

template <class T>
ContactDynamics<T> dynamics_of(Kind kind, const Sample<T>& s) {
  const test::ContactPairs<T>& surf = test::contact_pairs<T>();
  return ContactDynamics<T>(s.mass, s.I, surf.body1(kind), surf.body2(kind), s.E_w_2, gravity<T>());
}

// q'', dphi and f_c: from ContactDynamics, or from the mutation harness below.
template <class T>
struct Solved {
  Vec5<T> qddot;
  Vec6<T> dphi, f_c;
};
template <class T>
Solved<T> solved_of(const ContactDynamicsState<T>& r) {
  return {r.qddot, r.dphi, r.f_c};
}

// The mutation harness: Eqs. 19-20 as the header of contact_dynamics.hpp
// states them, solved with a given Hdot q' in place of the kinematics' one.
template <class T>
Solved<T> solve_with_hdot(const ContactDynamics<T>& d, const ContactDynamicsState<T>& r, const Vec6<T>& Hdot_qdot) {
  const Mat6<T>& M = d.inertia();
  const kinematics::Mat65<T>& H = r.kinematics.H_1;
  const Vec6<T> gyroscopic = spatial::spatial_cross(r.phi).transpose() * (M * r.phi);
  const Mat5<T> A = H.transpose() * M * H;
  Solved<T> out;
  out.qddot = A.ldlt().solve(Vec5<T>(H.transpose() * (r.f_ext + gyroscopic - M * Hdot_qdot)));
  out.dphi = Hdot_qdot + H * out.qddot;
  out.f_c = M * out.dphi - gyroscopic - r.f_ext;
  return out;
}

// The size of the terms of Eq. 19, |H| (|M dphi| + |[phi]^T M phi| + |f_ext|):
// the scale of H^T f_c's round-off.
template <class T>
T wrench_scale(const ContactDynamics<T>& d, const ContactDynamicsState<T>& r, const Solved<T>& solved) {
  const Mat6<T>& M = d.inertia();
  const T terms = (M * solved.dphi).cwiseAbs().maxCoeff() +
                  (spatial::spatial_cross(r.phi).transpose() * (M * r.phi)).cwiseAbs().maxCoeff() +
                  r.f_ext.cwiseAbs().maxCoeff();
  using std::max;
  return max(T(1), r.kinematics.H_1.cwiseAbs().maxCoeff()) * terms;
}

// The three residuals of the solve of Eq. 20 (H^T f_c, the power phi . f_c and
// dE/dt from the state derivative), each over its round-off bound: <= 1 for
// any Hdot.
template <class T>
struct SolveResiduals {
  double Htf = 0, power = 0, dE = 0;
};
template <class T>
SolveResiduals<T> solve_residuals(const ContactDynamics<T>& d, const ContactDynamicsState<T>& r,
                                  const Solved<T>& solved, const Vec10<T>& y) {
  const T scale = wrench_scale(d, r, solved);
  // H^T f_c = (H^T M H) q'' - b: the residual of a backward-stable 5x5
  // Cholesky solve plus the products forming both sides, some 256 roundings.
  const T bound_Htf = tolerance<T>(256) * scale;
  const Vec5<T> Htf = r.kinematics.H_1.transpose() * solved.f_c;
  // Power phi . f_c = q'^T (H^T f_c).
  const T qdot_1 = y.template tail<5>().cwiseAbs().sum();
  const T power = r.phi.dot(solved.f_c);
  // dE/dt = phi^T M dphi - m g . Theta_w_1 v from the state derivative
  // (no extra wrench): phi . f_c + phi . ([phi]^T M phi) = 0, both rounded.
  const T dE = r.phi.dot(d.inertia() * solved.dphi) -
               d.mass() * d.gravity().dot(spatial::rotation_of<T>(r.E_w_1) * r.phi.template tail<3>());
  const T phi_1 = r.phi.cwiseAbs().sum();
  return {double(Htf.cwiseAbs().maxCoeff() / bound_Htf), double(abs(power) / (qdot_1 * bound_Htf)),
          double(abs(dE) / (tolerance<T>(1024) * (qdot_1 + phi_1) * scale))};
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
// dE/dt along the state derivative (q', q''), independently of Eq. 19: a
// central difference of the energy function, h = 1e-15 in 50 digits.
Real50 energy_rate_by_difference(const ContactDynamics<Real50>& d, const Vec10<Real50>& y, const Vec5<Real50>& qddot) {
  const Real50 h("1e-15");
  const Vec10<Real50> dy = make_state<Real50>(y.tail<5>(), qddot);
  return (d.energy(Vec10<Real50>(y + h * dy)) - d.energy(Vec10<Real50>(y - h * dy))) / (2 * h);
}
#endif  // CONTACTREF_HAS_REAL50

// ---------------------------------------------------------------------------
// Section 3.3: frictionless contact transmits a pure normal force; its power
// is zero, so energy is conserved at the derivative level.

template <class T>
class KryPaiSection33 : public ::testing::Test {};
using test::Scalars;
TYPED_TEST_SUITE(KryPaiSection33, Scalars);

TYPED_TEST(KryPaiSection33, FrictionlessContactWrenchIsAPureNormalForceWithZeroPower) {
  // Residuals of the solve (see the file comment): they check the solve,
  // beside the energy difference below, which checks Hdot.
  using T = TypeParam;
  const int samples = std::is_same_v<T, double> ? 20 : 3;
  double worst_Htf = 0, worst_tangential = 0, worst_power = 0, worst_dE = 0;
  for (Kind kind : kKinds) {
    for (int n = 0; n < samples; ++n) {
      const Sample<T> s = sample<T>(kind, n);
      const ContactDynamics<T> d = dynamics_of(kind, s);
      const ContactDynamicsState<T> r = d.evaluate(s.y);
      const auto& k = r.kinematics;
      const std::string where = std::string(name(kind)) + " sample " + std::to_string(n);
      const SolveResiduals<T> residuals = solve_residuals(d, r, solved_of(r), s.y);
      EXPECT_LE(residuals.Htf, 1.0) << where << ": H^T f_c over its bound";
      EXPECT_LE(residuals.power, 1.0) << where << ": phi . f_c over its bound";
      EXPECT_LE(residuals.dE, 1.0) << where << ": dE/dt from the state derivative over its bound";
      worst_Htf = std::max(worst_Htf, residuals.Htf);
      worst_power = std::max(worst_power, residuals.power);
      worst_dE = std::max(worst_dE, residuals.dE);
      // In frame 1c, H_1c = (B; 0) with B the regular upper 5x5 block, so
      // f_1c(0..4) = B^-T (H^T f_c): the bound of H^T f_c over sigma_min(B),
      // plus the 64 roundings of the wrench transform of |f_c| (lever arm |c|).
      const T bound_Htf = tolerance<T>(256) * wrench_scale(d, r, solved_of(r));
      const Eigen::JacobiSVD<Eigen::Matrix<double, 5, 5>> svd(
          k.H_1c.template topRows<5>().template cast<double>().eval());
      const double sigma_min = svd.singularValues()(4);
      const T lever = T(1) + spatial::translation_of<T>(k.E_1_1c).norm();
      const T bound_1c = bound_Htf / T(sigma_min) + tolerance<T>(64) * lever * r.f_c.cwiseAbs().maxCoeff();
      EXPECT_TRUE(matrices_near(Vec5<T>(r.f_c_1c.template head<5>()), Vec5<T>::Zero(), bound_1c, test::kAbsolute))
          << where << ": torque about the contact point and tangential force";
      worst_tangential = std::max(worst_tangential, double(r.f_c_1c.template head<5>().cwiseAbs().maxCoeff() / bound_1c));
      EXPECT_EQ(r.separating, r.f_n < T(0));
    }
  }
  const std::string digits = std::is_same_v<T, double> ? "double" : "50 digits";
  test::report("dynamics", "frictionless, " + digits + ", worst |H^T f_c| over its bound", worst_Htf);
  test::report("dynamics", "frictionless, " + digits + ", worst |f_1c tangential + torque| over its bound", worst_tangential);
  test::report("dynamics", "frictionless, " + digits + ", worst |phi . f_c| over its bound", worst_power);
  test::report("dynamics", "frictionless, " + digits + ", worst |dE/dt| from the derivative over its bound", worst_dE);
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(KryPaiSection33, EnergyRateMatchesA50DigitDifferenceOfTheEnergyAndIsZero) {
  // dE/dt = grad E(y) . y' independently of Eq. 19: a central difference of
  // the energy function along the state derivative, h = 1e-15 in 50 digits.
  double worst = 0;
  for (Kind kind : kKinds) {
    for (int n = 0; n < 2; ++n) {
      const Sample<Real50> s = sample<Real50>(kind, n);
      const ContactDynamics<Real50> d = dynamics_of(kind, s);
      const Real50 rate = energy_rate_by_difference(d, s.y, d.evaluate(s.y).qddot);
      // |E| and |d^3E/dx^3| along y' are below 1e4 here (m <= 10, |g| ~ 10,
      // heights and speeds O(1)): finite_difference_tolerance's scale 1e2.
      EXPECT_LT(abs(rate), test::finite_difference_tolerance(1e2)) << name(kind) << " sample " << n;
      worst = std::max(worst, double(abs(rate)));
    }
  }
  test::report("dynamics", "50-digit central difference of E(y) along y', worst |dE/dt| (J/s)", worst);
}

// Eq. 20 solved with a wrong Hdot (omitted, or with its sign flipped, two
// classic slips): the three residuals of the solve still vanish, but the
// energy changes along the state derivative, dE/dt = -phi^T M H (H^T M H)^-1
// H^T M (Hdot_wrong - Hdot) q' != 0, which the 50-digit difference of E(y)
// sees. The harness reproduces ContactDynamics with the kinematics' own Hdot
// (to the solve's round-off: 1024 roundings relative to |q''|, both solves
// being backward stable on the same system).
TEST(KryPaiSection33, WrongHdotKeepsTheSolveResidualsButNotTheEnergy) {
  int detected = 0, cases = 0;
  double smallest_rate = std::numeric_limits<double>::infinity();
  for (Kind kind : kKinds) {
    for (int n = 0; n < 2; ++n) {
      const Sample<Real50> s = sample<Real50>(kind, n);
      const ContactDynamics<Real50> d = dynamics_of(kind, s);
      const ContactDynamicsState<Real50> r = d.evaluate(s.y);
      const std::string where = std::string(name(kind)) + " sample " + std::to_string(n);
      const Solved<Real50> same = solve_with_hdot(d, r, r.kinematics.Hdot_1_qdot);
      EXPECT_TRUE(matrices_near(same.qddot, r.qddot, tolerance<Real50>(1024))) << where << ": the harness";
      for (const Real50& factor : {Real50(0), Real50(-1)}) {
        const Solved<Real50> wrong = solve_with_hdot(d, r, Vec6<Real50>(factor * r.kinematics.Hdot_1_qdot));
        const SolveResiduals<Real50> residuals = solve_residuals(d, r, wrong, s.y);
        EXPECT_LE(residuals.Htf, 1.0) << where << ", Hdot x " << factor;
        EXPECT_LE(residuals.power, 1.0) << where << ", Hdot x " << factor;
        EXPECT_LE(residuals.dE, 1.0) << where << ", Hdot x " << factor;
        ++cases;
        const Real50 rate = abs(energy_rate_by_difference(d, s.y, wrong.qddot));
        detected += rate > test::finite_difference_tolerance(1e2);
        smallest_rate = std::min(smallest_rate, double(rate));
      }
    }
  }
  EXPECT_EQ(detected, cases) << "the energy difference misses a wrong Hdot";
  test::report("dynamics", "wrong Hdot (omitted or negated): smallest |dE/dt| by the 50-digit difference (J/s)", smallest_rate);
}
#endif  // CONTACTREF_HAS_REAL50

// ---------------------------------------------------------------------------
// A sphere of radius r on a horizontal plane (body 2 at a yawed, translated
// world pose): every q is a contact configuration with the centre at height r
// above the plane, directly above the contact point (plane coordinates (u, v)).

template <class T>
struct SphereOnPlaneSetup {
  T r{T(0.5)}, m{T(2)};
  surfaces::EllipsoidPatch<T> sphere{Vec3<T>(r, r, r)};
  surfaces::PlanePatch<T> plane;
  Mat3<T> I() const { return (T(2) / T(5)) * m * r * r * Mat3<T>::Identity(); }
  Mat4<T> E_w_2() const {
    using std::cos;
    using std::sin;
    const T yaw(0.7);
    Mat3<T> R;
    R << cos(yaw), -sin(yaw), T(0), sin(yaw), cos(yaw), T(0), T(0), T(0), T(1);
    return spatial::make_pose<T>(R, Vec3<T>(T(0.3), T(-1.2), T(0.25)));
  }
};

template <class T>
class SphereOnPlane : public ::testing::Test {};
TYPED_TEST_SUITE(SphereOnPlane, Scalars);

TYPED_TEST(SphereOnPlane, AtRestHasZeroAccelerationAndNormalForceMg) {
  using T = TypeParam;
  const SphereOnPlaneSetup<T> set;
  const ContactDynamics<T> d(set.m, set.I(), set.sphere, set.plane, set.E_w_2(), gravity<T>());
  const T mg = set.m * T(9.81);
  test::Rng rng(test::kSeed + 7);
  double worst_qddot = 0, worst_fn = 0;
  for (int n = 0; n < 10; ++n) {
    Vec5<T> q;
    q << T(fixtures::uniform(rng, 0.3, 2.8)), T(fixtures::uniform(rng, -3, 3)), T(fixtures::uniform(rng, -2, 2)),
        T(fixtures::uniform(rng, -2, 2)), T(fixtures::uniform(rng, -3, 3));
    const ContactDynamicsState<T> r = d.evaluate(make_state<T>(q, Vec5<T>::Zero()));
    // q'' = 0 up to the round-off of b ~ eps |H| m g over the smallest
    // eigenvalue of H^T M H ~ m r^2 / 4: 256 roundings of g / r.
    EXPECT_TRUE(matrices_near(r.qddot, Vec5<T>::Zero(), tolerance<T>(256) * T(9.81) / set.r, test::kAbsolute));
    EXPECT_TRUE(test::scalars_near(r.f_n, mg, tolerance<T>(256)));  // relative to m g
    EXPECT_FALSE(r.separating);
    worst_qddot = std::max(worst_qddot, max_abs(r.qddot));
    worst_fn = std::max(worst_fn, double(abs(r.f_n - mg) / mg));
  }
  const std::string digits = std::is_same_v<T, double> ? "double" : "50 digits";
  test::report("dynamics", "sphere resting on plane, " + digits + ", worst |q''| (1/s^2 or m/s^2)", worst_qddot);
  test::report("dynamics", "sphere resting on plane, " + digits + ", worst |f_n - m g| / m g", worst_fn);
}

TYPED_TEST(SphereOnPlane, SlidingWithSpinKeepsCentreVelocityAndSpinConstant) {
  // Frictionless: the contact force is normal, through the centre; with
  // gravity it balances (the centre stays at height r), so the centre moves
  // at constant world velocity, omega is constant (isotropic inertia), the
  // plane coordinates of the contact point have u'' = v'' = 0, and f_n = m g.
  using T = TypeParam;
  const SphereOnPlaneSetup<T> set;
  const ContactDynamics<T> d(set.m, set.I(), set.sphere, set.plane, set.E_w_2(), gravity<T>());
  const T mg = set.m * T(9.81);
  test::Rng rng(test::kSeed + 8);
  double worst = 0;
  for (int n = 0; n < 10; ++n) {
    Vec10<T> y;
    y.template head<5>() << T(fixtures::uniform(rng, 0.3, 2.8)), T(fixtures::uniform(rng, -3, 3)),
        T(fixtures::uniform(rng, -2, 2)), T(fixtures::uniform(rng, -2, 2)), T(fixtures::uniform(rng, -3, 3));
    for (int j = 5; j < 10; ++j) y(j) = T(fixtures::uniform(rng, -2, 2));
    const ContactDynamicsState<T> r = d.evaluate(y);
    const Vec3<T> omega = r.phi.template head<3>(), v = r.phi.template tail<3>();
    const Vec3<T> centre_acceleration =
        spatial::rotation_of<T>(r.E_w_1) * Vec3<T>(r.dphi.template tail<3>() + omega.cross(v));
    // Accelerations are O(|q'|^2 r + g) <= 20 here; 1024 roundings of that.
    const T bound = tolerance<T>(1024) * T(20);
    EXPECT_TRUE(matrices_near(centre_acceleration, Vec3<T>::Zero(), bound, test::kAbsolute)) << "sample " << n;
    EXPECT_TRUE(matrices_near(Vec3<T>(r.dphi.template head<3>()), Vec3<T>::Zero(), bound, test::kAbsolute));
    EXPECT_TRUE(matrices_near(Vec2<T>(r.qddot.template segment<2>(2)), Vec2<T>::Zero(), bound, test::kAbsolute));
    EXPECT_TRUE(test::scalars_near(r.f_n, mg, tolerance<T>(1024)));
    worst = std::max({worst, max_abs(centre_acceleration), max_abs(r.dphi.template head<3>()),
                      max_abs(r.qddot.template segment<2>(2)), double(abs(r.f_n - mg) / mg)});
  }
  test::report("dynamics", std::string("sphere sliding with spin, ") + (std::is_same_v<T, double> ? "double" : "50 digits") +
             ", worst |centre accel|, |domega|, |u''|, |v''|, |f_n - mg|/mg",
         worst);
}

TEST(SphereOnPlaneSeparation, UpwardBodyForceLargerThanWeightGivesNegativeNormalForce) {
  const SphereOnPlaneSetup<double> set;
  const double mg = set.m * 9.81, lift = 1.5 * mg;
  test::Rng rng(test::kSeed + 9);
  for (int n = 0; n < 5; ++n) {
    Vec5<double> q(fixtures::uniform(rng, 0.3, 2.8), fixtures::uniform(rng, -3, 3), fixtures::uniform(rng, -2, 2),
                   fixtures::uniform(rng, -2, 2), fixtures::uniform(rng, -3, 3));
    // The extra wrench is in body coordinates: the world-up force in body axes
    // is Theta_w_1^T e_z, from the kinematics at q.
    const ContactDynamics<double> probe(set.m, set.I(), set.sphere, set.plane, set.E_w_2(), gravity<double>());
    const Mat3<double> R = spatial::rotation_of<double>(probe.evaluate(make_state<double>(q, Vec5<double>::Zero())).E_w_1);
    Vec6<double> extra = Vec6<double>::Zero();
    extra.tail<3>() = R.transpose() * Vec3<double>(0, 0, lift);
    const ContactDynamics<double> d(set.m, set.I(), set.sphere, set.plane, set.E_w_2(), gravity<double>(), extra);
    const ContactDynamicsState<double> r = d.evaluate(make_state<double>(q, Vec5<double>::Zero()));
    EXPECT_TRUE(r.separating);
    EXPECT_TRUE(test::scalars_near(r.f_n, mg - lift, tolerance<double>(256)));  // relative to m g
  }
}

// ---------------------------------------------------------------------------
// Double against 50 digits.

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(KryPaiSection33, DoubleAgreesWith50Digits) {
  double worst = 0;
  std::string where;
  for (Kind kind : kKinds) {
    for (int n = 0; n < 3; ++n) {
      const Sample<double> sd = sample<double>(kind, n);
      const Sample<Real50> sr = sample<Real50>(kind, n);
      const ContactDynamicsState<double> rd = dynamics_of(kind, sd).evaluate(sd.y);
      const ContactDynamicsState<Real50> rr = dynamics_of(kind, sr).evaluate(sr.y);
      // Condition of the scaled 5x5 system, in double.
      const Mat6<double> M = spatial::spatial_inertia_at_com(sd.mass, sd.I);
      const Mat5<double> A = rd.kinematics.H_1.transpose() * M * rd.kinematics.H_1;
      const Vec5<double> S = A.diagonal().cwiseSqrt().cwiseInverse();
      const Eigen::SelfAdjointEigenSolver<Mat5<double>> eig(Mat5<double>(S.asDiagonal() * A * S.asDiagonal()));
      const double cond = eig.eigenvalues()(4) / eig.eigenvalues()(0);
      const double dq = max_abs(rd.qddot - rr.qddot.cast<double>()) / std::max(1.0, double(rr.qddot.cwiseAbs().maxCoeff()));
      const double df = max_abs(rd.f_c - rr.f_c.cast<double>()) / std::max(1.0, double(rr.f_c.cwiseAbs().maxCoeff()));
      // The kinematics carry a few hundred roundings (kinematics_test); the
      // solve multiplies them by the condition number of H^T M H.
      const std::string label = std::string(name(kind)) + " sample " + std::to_string(n);
      EXPECT_LT(dq, tolerance<double>(1024, cond)) << label << ", cond " << cond;
      EXPECT_LT(df, tolerance<double>(1024, cond)) << label << ", cond " << cond;
      if (std::max(dq, df) > worst) worst = std::max(dq, df), where = label;
    }
  }
  test::report("dynamics", "double vs 50 digits, worst relative q'' or f_c (" + where + ")", worst);
}
#endif  // CONTACTREF_HAS_REAL50

// ---------------------------------------------------------------------------
// Bad input and singular configurations.

TEST(ContactDynamicsInput, NonPhysicalBodiesAreInputErrors) {
  const SphereOnPlaneSetup<double> set;
  const auto make = [&](double m, const Mat3<double>& I) {
    ContactDynamics<double>(m, I, set.sphere, set.plane, set.E_w_2(), gravity<double>());
  };
  EXPECT_NE(test::message_of<InputError>([&] { make(0, set.I()); }).find("mass"), std::string::npos);
  EXPECT_NE(test::message_of<InputError>([&] { make(-1, set.I()); }).find("mass"), std::string::npos);
  EXPECT_NE(test::message_of<InputError>([&] { make(std::nan(""), set.I()); }).find("mass"), std::string::npos);
  EXPECT_NE(test::message_of<InputError>([&] { make(1, Vec3<double>(1, 1, 3).asDiagonal().toDenseMatrix()); })
                .find("triangle"), std::string::npos);
  Mat3<double> skewed = Mat3<double>::Identity();
  skewed(0, 1) = 0.5;
  EXPECT_NE(test::message_of<InputError>([&] { make(1, skewed); }).find("symmetric"), std::string::npos);
  EXPECT_NE(test::message_of<InputError>([&] { make(1, -Mat3<double>::Identity()); }).find("positive definite"),
            std::string::npos);
  Mat4<double> sheared = set.E_w_2();
  sheared(0, 1) += 0.1;
  EXPECT_NE(test::message_of<InputError>([&] {
              ContactDynamics<double>(1, set.I(), set.sphere, set.plane, sheared, gravity<double>());
            }).find("E_w_2"),
            std::string::npos);
}

TEST(ContactDynamicsInput, NonFiniteStatesAreInputErrors) {
  const SphereOnPlaneSetup<double> set;
  const ContactDynamics<double> d(set.m, set.I(), set.sphere, set.plane, set.E_w_2(), gravity<double>());
  const Vec10<double> good = make_state<double>(Vec5<double>(1.1, 0.7, 0.4, 1.3, 0.9), Vec5<double>::Zero());
  EXPECT_NO_THROW(d.evaluate(good));
  for (int k = 0; k < 10; ++k) {
    Vec10<double> bad = good;
    bad(k) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(test::message_of<InputError>([&] { d.evaluate(bad); }).find("not finite"), std::string::npos) << k;
    EXPECT_NE(test::message_of<InputError>([&] { d.energy(bad); }).find("not finite"), std::string::npos) << k;
  }
}

TEST(ContactDynamicsInput, ConformingContactIsAComputationErrorNamingTheConfiguration) {
  // Plane on plane: H has rank 3 (kinematics_test), H^T M H is singular.
  const surfaces::PlanePatch<double> plane;
  const ContactDynamics<double> d(1.0, Mat3<double>::Identity(), plane, plane, Mat4<double>::Identity(),
                                  gravity<double>());
  const std::string e = test::message_of<ComputationError>(
      [&] { d.evaluate(make_state<double>(Vec5<double>(0.1, 0.2, 0.3, 0.4, 0.5), Vec5<double>::Zero())); });
  EXPECT_NE(e.find("plane on plane"), std::string::npos) << e;
  EXPECT_NE(e.find("positive definite"), std::string::npos) << e;
}

}  // namespace
}  // namespace contactref::dynamics
