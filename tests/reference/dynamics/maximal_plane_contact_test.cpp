// The maximal-coordinate baseline (Kry & Pai Section 1): Newton-Euler with an
// acceleration-level multiplier against the plane z_w = 0. Each property
// against a reference independent of the code under test:
//  - g' = J phi against a 50-digit central difference of g(E(t)) along the
//    free motion E(t) = E0 exp(t O(phi)) (Loop bodies: a squashed icosphere and
//    the bowl of the frictionless-bowl-drift suite);
//  - g'' = J phi' + kappa: d/dt g' along the free flow (no multiplier) and
//    along the constrained flow (where it must vanish), both by 50-digit
//    central differences over RK4 steps of +-h;
//  - the reduced-coordinate model (ContactDynamics) at the same physical state:
//    normal force, acceleration and contact point agree;
//  - a sphere resting and rolling: lambda = m g in closed form;
//  - the continuous energy is conserved and the gap is kept, both up to
//    drifts that shrink at RK4's fourth order (measured);
//  - the errors for bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "reference/dynamics/contact_dynamics.hpp"
#include "reference/dynamics/maximal_plane_contact.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/mass_properties.hpp"
#include "reference/surfaces/triangle_mesh.hpp"
#include "tests/kit/finite_difference.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/scalars.hpp"
#include "tests/kit/tolerance.hpp"
#include "tests/kit/source_dir.hpp"
#include "tests/kit/report.hpp"

namespace contactref::dynamics {
namespace {

using surfaces::Vec2;
using test::matrices_near;
using test::tolerance;
#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
using State50 = MaximalPlaneContact<Real50>::State;
#endif  // CONTACTREF_HAS_REAL50

template <class T>
Vec3<T> gravity() {
  return Vec3<T>(T(0), T(0), T(-9.81));
}

template <class T>
Mat3<T> rotation_about(const Vec3<double>& axis_angle) {
  return spatial::so3_exp<T>(Vec3<T>(T(axis_angle.x()), T(axis_angle.y()), T(axis_angle.z())));
}

// ---------------------------------------------------------------------------
// Bodies.

// A one-patch complex of an analytic closed chart (no edges, no links).
template <class T>
surfaces::PatchComplex<T> chart_complex(std::unique_ptr<surfaces::Patch<T>> patch) {
  surfaces::PatchComplex<T> complex;
  complex.patches.push_back(std::move(patch));
  complex.links.emplace_back();
  return complex;
}

// A Loop body with its frame at its centre of mass: the control mesh scaled
// per axis, its solid's centre of mass (density 1000 kg/m^3, computed in
// double) moved to the origin, mass and inertia from the same computation.
template <class T>
struct LoopBody {
  std::unique_ptr<surfaces::LoopSurface<T>> surface;
  T mass;
  Mat3<T> I;
};
template <class T>
LoopBody<T> loop_body(const std::string& mesh_name, const Vec3<double>& scale) {
  surfaces::TriangleMesh mesh = surfaces::read_triangle_mesh(contactref::test::source_dir() /
                                                             "validation/fixtures/meshes" / mesh_name);
  for (Vec3<double>& x : mesh.vertices) x = x.cwiseProduct(scale).eval();
  const surfaces::MassProperties<double> mp =
      surfaces::mass_properties<double>(surfaces::LoopSurface<double>(mesh, mesh_name), 1000.0);
  for (Vec3<double>& x : mesh.vertices) x -= mp.centre_of_mass;
  // Symmetrised in double (exactly symmetric, also after the cast to T).
  const Mat3<double> I = (mp.inertia_com + mp.inertia_com.transpose()) / 2;
  return {std::make_unique<surfaces::LoopSurface<T>>(mesh, mesh_name), T(mp.mass), I.cast<T>()};
}
// The squashed icosphere (convex) and the bowl of the drift suite
// (0.0872 m per mesh unit; its base faces -z).
template <class T>
const LoopBody<T>& icosphere_body() {
  static const LoopBody<T> body = loop_body<T>("icosphere1.obj", Vec3<double>(0.12, 0.09, 0.07));
  return body;
}
template <class T>
const LoopBody<T>& bowl_body() {
  static const LoopBody<T> body = loop_body<T>("bowl_b2.obj", Vec3<double>(0.0872, 0.0872, 0.0872));
  return body;
}

// A cold start for the support point: the patch whose domain centroid is
// lowest for up-direction zeta_b (Newton walks from there).
template <class T>
SupportPoint<T> coarse_support(const surfaces::PatchComplex<T>& complex, const Vec3<T>& zeta_b) {
  SupportPoint<T> best;
  T lowest = T(0);
  for (std::size_t f = 0; f < complex.patches.size(); ++f) {
    const auto& polygon = complex.patches[f]->domain().polygon;
    Vec2<T> centroid = Vec2<T>::Zero();
    for (const Vec2<T>& x : polygon) centroid += x / T(int(polygon.size()));
    const T height = zeta_b.dot(complex.patches[f]->evaluate(centroid.x(), centroid.y()).c());
    if (best.patch < 0 || height < lowest) {
      best.patch = int(f);
      best.st = centroid;
      lowest = height;
    }
  }
  return best;
}

// The (s, t) of the ellipsoid chart (a cos s, b sin s cos t, c sin s sin t)
// whose outward normal is -zeta_b: the normal of the ellipsoid at x is
// along (x/a^2, y/b^2, z/c^2), so x = -D^2 zeta / |D zeta| with D = diag(a, b, c).
template <class T>
Vec2<T> ellipsoid_support(const Vec3<T>& axes, const Vec3<T>& zeta_b) {
  using std::acos;
  using std::atan2;
  const Vec3<T> x = -(axes.cwiseProduct(axes).cwiseProduct(zeta_b)) / axes.cwiseProduct(zeta_b).norm();
  const Vec3<T> unit = x.cwiseQuotient(axes);
  return Vec2<T>(acos(unit.x()), atan2(unit.z(), unit.y()));
}

// A body resting on the plane: rotation R, support point touching (gap 0),
// twist omega with v chosen so that the contact point is at rest (g' = 0)
// plus a tangential slide (frictionless contact allows it).
template <class T>
typename MaximalPlaneContact<T>::State resting_state(const MaximalPlaneContact<T>& model, const Mat3<T>& R,
                                                     const Vec3<T>& omega_b, const Vec3<T>& slide_w) {
  typename MaximalPlaneContact<T>::State y =
      maximal_state_from_pose<T>(spatial::make_pose<T>(R, Vec3<T>::Zero()), Vec6<T>::Zero());
  const Vec3<T> c = model.support_point(y).c_b;
  y(6) = -model.gap(y);
  y.template segment<3>(7) = omega_b;
  Vec3<T> slide_horizontal = slide_w;
  slide_horizontal.z() = T(0);
  y.template segment<3>(10) = -omega_b.cross(c) + R.transpose() * slide_horizontal;
  return y;
}

// ---------------------------------------------------------------------------
// g' = J phi against a 50-digit difference of g along the free motion.

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(MaximalPlaneContact, GapRateMatchesA50DigitDifferenceAlongTheFreeMotion) {
  struct Case {
    const LoopBody<Real50>* body;
    Vec3<double> tilt;   // axis-angle of R
    const char* name;
  };
  const Case cases[] = {{&icosphere_body<Real50>(), {0.7, -1.9, 0.4}, "icosphere"},
                        {&icosphere_body<Real50>(), {2.2, 0.3, -1.1}, "icosphere"},
                        {&bowl_body<Real50>(), {0.0, 0.0, 0.0}, "bowl upright"},
                        {&bowl_body<Real50>(), {0.25, -0.15, 1.0}, "bowl tilted"}};
  double worst = 0;
  for (const Case& k : cases) {
    const Mat3<Real50> R = rotation_about<Real50>(k.tilt);
    const surfaces::PatchComplex<Real50>& complex = k.body->surface->complex();
    const MaximalPlaneContact<Real50> model(k.body->mass, k.body->I, complex, gravity<Real50>(),
                                            coarse_support<Real50>(complex, Vec3<Real50>(R.row(2).transpose())));
    const Mat4<Real50> E0 = spatial::make_pose<Real50>(R, Vec3<Real50>(Real50("0.01"), Real50("-0.02"), Real50("0.03")));
    const Vec6<Real50> phi = (Vec6<Real50>() << Real50("1.3"), Real50("-0.7"), Real50("2.1"), Real50("0.4"),
                              Real50("-0.3"), Real50("0.25")).finished();
    const auto g = [&](const Real50& tau) {
      return model.gap(maximal_state_from_pose<Real50>(Mat4<Real50>(E0 * spatial::se3_exp<Real50>(Vec6<Real50>(tau * phi))), phi));
    };
    const State50 y = maximal_state_from_pose<Real50>(E0, phi);
    const Real50 analytic = model.gap_rate(y);
    const Real50 numeric = test::central_difference(g, Real50(0));
    // finite_difference_tolerance: |g|, |g'''| <= 1e2 here (g ~ 0.1 m, rates ~ 1).
    EXPECT_LE(abs(analytic - numeric), test::finite_difference_tolerance()) << k.name << " g' = " << analytic;
    EXPECT_GT(abs(analytic), Real50("1e-3")) << "a non-trivial rate";
    worst = std::max(worst, double(abs(analytic - numeric)));
  }
  test::report("maximal", "|J phi - dg/dt (50-digit central difference)|, worst of 4 states", worst);
}
#endif  // CONTACTREF_HAS_REAL50

// ---------------------------------------------------------------------------
// g'' = J phi' + kappa along the exact flows.

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(MaximalPlaneContact, SecondDerivativeOfTheGapMatchesKappaAndVanishesAlongTheConstrainedFlow) {
  // y(+-h) by one RK4 step (local error O(h^5)); with h = 1e-12 in 50 digits
  // the central differences err by O(h^2) ~ 1e-24 (truncation) plus
  // 1e-50 / h^2 ~ 1e-26 (round-off of the second difference).
  const Real50 h("1e-12");
  const Real50 bound("1e-20");  // four digits of margin on the above, rates ~ 1
  double worst_free = 0, worst_constrained = 0, worst_second = 0, smallest_kappa = 1e300;
  for (const LoopBody<Real50>* body : {&icosphere_body<Real50>(), &bowl_body<Real50>()}) {
    const bool bowl = body == &bowl_body<Real50>();
    const Mat3<Real50> R = rotation_about<Real50>(bowl ? Vec3<double>(0.2, 0.1, 0.5) : Vec3<double>(1.1, -0.6, 0.3));
    const surfaces::PatchComplex<Real50>& complex = body->surface->complex();
    const MaximalPlaneContact<Real50> model(body->mass, body->I, complex, gravity<Real50>(),
                                            coarse_support<Real50>(complex, Vec3<Real50>(R.row(2).transpose())));
    State50 y = resting_state<Real50>(model, R, Vec3<Real50>(Real50("2.5"), Real50("-1.5"), Real50("3")),
                                      Vec3<Real50>(Real50("0.2"), Real50("-0.1"), Real50(0)));
    y(12) += Real50("0.3");  // a non-zero g' as well (v_z in body axes)
    const MaximalContactEvaluation<Real50> e = model.evaluate(y);
    const State50 dy = model.derivative(y);
    const Vec6<Real50> dphi = dy.segment<6>(7);

    // Free flow (gravity only, no multiplier): g'' = J M^-1 b + kappa.
    const spatial::RigidBodyInertia<Real50> inertia(body->mass, body->I);
    const auto gravity_wrench = [&](const Real50&, const State50& z) {
      Vec6<Real50> f = Vec6<Real50>::Zero();
      f.tail<3>() = body->mass * (spatial::rotation_from_quaternion<Real50>(z.segment<4>(0)).transpose() *
                                  gravity<Real50>());
      return f;
    };
    const auto free_step = [&](const Real50& dt) {
      return spatial::free_body_rk4_step<Real50>(inertia, Real50(0), y, dt, gravity_wrench);
    };
    const Vec6<Real50> dphi_free = spatial::free_body_derivative<Real50>(inertia, y, gravity_wrench(Real50(0), y))
                                       .segment<6>(7);
    const Real50 gddot_free = (model.gap_rate(free_step(h)) - model.gap_rate(free_step(-h))) / (2 * h);
    const Real50 predicted_free = e.J.dot(dphi_free) + e.kappa;
    EXPECT_LE(abs(gddot_free - predicted_free), bound) << "free flow, g'' = " << predicted_free;
    worst_free = std::max(worst_free, double(abs(gddot_free - predicted_free)));

    // Constrained flow: d/dt g' = J phi' + kappa = 0; and the second
    // difference of g agrees.
    const State50 y_plus = model.step(y, h), y_minus = model.step(y, -h);
    const Real50 gddot = (model.gap_rate(y_plus) - model.gap_rate(y_minus)) / (2 * h);
    const Real50 second = (model.gap(y_plus) - 2 * model.gap(y) + model.gap(y_minus)) / (h * h);
    EXPECT_LE(abs(e.J.dot(dphi) + e.kappa), tolerance<Real50>(256)) << "the multiplier enforces g'' = 0";
    EXPECT_LE(abs(gddot), bound) << "d/dt g' along the constrained flow";
    EXPECT_LE(abs(second), Real50(1e4) * bound) << "second difference of g (round-off 1e-50 / h^2 ~ 1e-26 m/s^2)";
    worst_constrained = std::max(worst_constrained, double(abs(gddot)));
    worst_second = std::max(worst_second, double(abs(second)));
    smallest_kappa = std::min(smallest_kappa, double(abs(e.kappa)));
  }
  EXPECT_GT(smallest_kappa, 1e-2) << "kappa is exercised";
  test::report("maximal", "|d/dt g' (free flow, 50-digit difference) - (J M^-1 b + kappa)|", worst_free);
  test::report("maximal", "|d/dt g'| along the constrained flow (50-digit difference)", worst_constrained);
  test::report("maximal", "|d2/dt2 g| along the constrained flow (50-digit second difference)", worst_second);
  test::report("maximal", "smallest |kappa| in these states (m/s^2)", smallest_kappa);
}
#endif  // CONTACTREF_HAS_REAL50

// ---------------------------------------------------------------------------
// The reduced-coordinate model at the same physical state.

template <class T>
class MaximalPlaneContactTyped : public ::testing::Test {};
using test::Scalars;
TYPED_TEST_SUITE(MaximalPlaneContactTyped, Scalars);

TYPED_TEST(MaximalPlaneContactTyped, AgreesWithTheReducedModelAtTheSameState) {
  using T = TypeParam;
  using std::abs;
  const Vec3<T> axes(T(0.1), T(0.08), T(0.05));
  const surfaces::PatchComplex<T> complex = chart_complex<T>(std::make_unique<surfaces::EllipsoidPatch<T>>(axes));
  const surfaces::PlanePatch<T> plane;
  const T mass(1.7);
  const Mat3<T> I = Vec3<T>(T(0.0059), T(0.0043), T(0.0076)).asDiagonal();
  const ContactDynamics<T> reduced(mass, I, *complex.patches[0], plane, Mat4<T>::Identity(), gravity<T>());
  double worst_force = 0, worst_accel = 0;
  const double samples[3][10] = {{1.3, -1.2, 0.01, -0.02, 0.4, 0.7, -1.1, 0.3, 0.2, 2.0},
                                 {1.9, -2.0, -0.03, 0.05, -1.2, -0.4, 0.9, -0.2, 0.1, -1.5},
                                 {1.57, -1.57, 0.0, 0.0, 0.0, 0.2, 0.1, 0.0, 0.0, 0.5}};
  for (const auto& sample : samples) {
    Vec10<T> y_reduced;
    for (Eigen::Index k = 0; k < 10; ++k) y_reduced(k) = T(sample[k]);
    const ContactDynamicsState<T> r = reduced.evaluate(y_reduced);
    SupportPoint<T> start;
    start.patch = 0;
    start.st = Vec2<T>(y_reduced(0), y_reduced(1));
    const MaximalPlaneContact<T> model(mass, I, complex, gravity<T>(), start);
    const typename MaximalPlaneContact<T>::State y = maximal_state_from_pose<T>(r.E_w_1, r.phi);
    const MaximalContactEvaluation<T> e = model.evaluate(y);
    const typename MaximalPlaneContact<T>::State dy = model.derivative(y);
    // The pose round trip through the quaternion: ~16 roundings.
    EXPECT_TRUE(matrices_near(spatial::pose_of<T>(y), r.E_w_1, tolerance<T>(16)));
    // The same contact point, gap and rate zero: Newton ends at round-off,
    // the pose is rounded through some 64 operations at |x| ~ 0.1 m.
    EXPECT_TRUE(matrices_near(e.support.c_b, spatial::translation_of<T>(r.kinematics.E_1_1c), tolerance<T>(64)));
    EXPECT_LE(abs(e.gap), tolerance<T>(64));
    EXPECT_LE(abs(e.gap_rate), tolerance<T>(64) * T(1 + r.phi.cwiseAbs().maxCoeff()));
    // The normal force and the body acceleration: two different formulations
    // (5x5 Eq. 20 vs 7x7 KKT) of the same physics; the reduced side's
    // conditioning (|H|, 1/sigma(H^T M H)) is some 1e2, on ~1e3 roundings.
    const T scale = mass * T(9.81);
    EXPECT_LE(abs(e.lambda - r.f_n), tolerance<T>(1e3, 1e2) * scale) << "lambda " << e.lambda << " f_n " << r.f_n;
    EXPECT_TRUE(matrices_near(Vec6<T>(dy.template segment<6>(7)), r.dphi, tolerance<T>(1e3, 1e2) * T(10),
                              test::kAbsolute));
    EXPECT_GT(e.lambda, T(0));
    worst_force = std::max(worst_force, double(abs(e.lambda - r.f_n) / scale));
    worst_accel = std::max(worst_accel, double((dy.template segment<6>(7) - r.dphi).cwiseAbs().maxCoeff()));
  }
  const std::string digits = std::is_same_v<T, double> ? "double" : "50 digits";
  test::report("maximal", "vs reduced model, " + digits + ": |lambda - f_n| / (m g)", worst_force);
  test::report("maximal", "vs reduced model, " + digits + ": |phi' - dphi| (1/s^2, m/s^2)", worst_accel);
}

// ---------------------------------------------------------------------------
// Sphere: the centre cannot accelerate vertically, so lambda = m g.

TYPED_TEST(MaximalPlaneContactTyped, SphereRestsAndRollsWithNormalForceMG) {
  using T = TypeParam;
  using std::abs;
  const T r(0.1), mass(2.0), g(9.81);
  // A loaded sphere: anisotropic inertia (the contact wrench has no torque
  // about the centre, whatever the inertia).
  const Mat3<T> I = Vec3<T>(T(0.006), T(0.008), T(0.009)).asDiagonal();
  const Vec3<T> axes(r, r, r);
  const surfaces::PatchComplex<T> complex = chart_complex<T>(std::make_unique<surfaces::EllipsoidPatch<T>>(axes));
  const Mat3<T> R = rotation_about<T>(Vec3<double>(0.3, -1.2, 0.8));
  const Vec3<T> zeta = R.row(2).transpose();
  const MaximalPlaneContact<T> model(mass, I, complex, gravity<T>(), {0, ellipsoid_support<T>(axes, zeta), {}});

  // At rest: lambda = m g, nothing moves.
  const typename MaximalPlaneContact<T>::State rest = resting_state<T>(model, R, Vec3<T>::Zero(), Vec3<T>::Zero());
  EXPECT_LE(abs(rest(6) - r), tolerance<T>(16) * r);
  const typename MaximalPlaneContact<T>::State dy_rest = model.derivative(rest);
  // lambda's formula: ~32 roundings of terms of size m g.
  EXPECT_LE(abs(model.normal_force(rest) - mass * g), tolerance<T>(32) * mass * g);
  // The angular part is lambda (c x zeta) / I with |c x zeta| <= r times the
  // support point's Newton tolerance (64 eps).
  const typename MaximalPlaneContact<T>::State zero = MaximalPlaneContact<T>::State::Zero();
  EXPECT_TRUE(matrices_near(dy_rest, zero, tolerance<T>(64) * (g + mass * g * r / I.diagonal().minCoeff()),
                            test::kAbsolute));

  // Rolling, spinning and sliding: still m g; the centre's vertical
  // acceleration (R (v' + omega x v)).z is zero.
  const typename MaximalPlaneContact<T>::State rolling =
      resting_state<T>(model, R, Vec3<T>(T(3), T(-2), T(4)), Vec3<T>(T(0.3), T(-0.2), T(0)));
  const MaximalContactEvaluation<T> e = model.evaluate(rolling);
  const typename MaximalPlaneContact<T>::State dy = model.derivative(rolling);
  const Vec3<T> omega = rolling.template segment<3>(7), v = rolling.template segment<3>(10);
  const Vec3<T> a_centre_w = R * (dy.template segment<3>(10) + omega.cross(v));
  // Terms |omega| |v| ~ 2 and g ~ 10 through ~64 roundings.
  EXPECT_LE(abs(e.lambda - mass * g), tolerance<T>(64) * mass * g) << "lambda " << e.lambda;
  EXPECT_LE(abs(a_centre_w.z()), tolerance<T>(64) * g);
  EXPECT_LE(abs(e.gap_rate), tolerance<T>(16));
  const std::string digits = std::is_same_v<T, double> ? "double" : "50 digits";
  test::report("maximal", "sphere, " + digits + ": |lambda - m g| / (m g) at rest",
         double(abs(model.normal_force(rest) - mass * g) / (mass * g)));
  test::report("maximal", "sphere, " + digits + ": |lambda - m g| / (m g) rolling", double(abs(e.lambda - mass * g) / (mass * g)));
}

// ---------------------------------------------------------------------------
// RK4 runs: energy and gap drift at fourth order.

struct Drift {
  double energy, gap, gap_rate;  // max over the run of |E - E0|, |g|, |g'|
  int shortened;                 // steps that advance() ended on a piece boundary
};

// A run of `duration` with nominal step duration / steps, on a new model (its
// own warm start), by advance() (piece-aware) or by plain step().
template <class T, class MakeModel>
Drift run(const MakeModel& make_model, const typename MaximalPlaneContact<T>::State& y0, double duration, int steps,
          bool piece_aware) {
  using std::abs;
  const MaximalPlaneContact<T> model = make_model();
  const T h = T(duration) / T(steps), t_end = T(duration);
  typename MaximalPlaneContact<T>::State y = y0;
  const T E0 = model.energy(y0);
  Drift d{0, 0, 0, 0};
  for (T t = T(0); t < t_end - h / 1024;) {
    if (piece_aware) {
      const MaximalStep<T> taken = model.advance(y, std::min(h, T(t_end - t)));
      y = taken.y;
      t += taken.h;
      d.shortened += taken.piece_boundary ? 1 : 0;
    } else {
      y = model.step(y, h);
      t += h;
    }
    const MaximalContactEvaluation<T> e = model.evaluate(y);
    d.energy = std::max(d.energy, double(abs(model.energy(y) - E0)));
    d.gap = std::max(d.gap, double(abs(e.gap)));
    d.gap_rate = std::max(d.gap_rate, double(abs(e.gap_rate)));
  }
  return d;
}

// Orders log2(drift(h) / drift(h/2)) over the halvings; returns the smallest.
double report_orders(const std::string& what, const std::vector<Drift>& drifts, double Drift::*field,
                     const std::vector<int>& steps) {
  double smallest = 1e300;
  for (std::size_t k = 0; k < drifts.size(); ++k) {
    std::ostringstream os;
    os << what << ", " << steps[k] << " steps (" << drifts[k].shortened << " ended on a piece boundary)";
    test::report("maximal", os.str(), drifts[k].*field);
    if (k > 0) {
      const double order = std::log2(drifts[k - 1].*field / (drifts[k].*field));
      test::report("maximal", "  order", order);
      smallest = std::min(smallest, order);
    }
  }
  return smallest;
}

TEST(MaximalPlaneContact, RockingEllipsoidConservesEnergyAndKeepsTheGapToFourthOrder) {
  // An ellipsoid tilted by 0.4 rad, spinning, rocks for 0.5 s (about one
  // rocking period). The exact flow keeps E, g = 0 and g' = 0; RK4 keeps them
  // up to drifts of order h^4 (global error), nothing pulls them back.
  const Vec3<double> axes(0.1, 0.08, 0.05);
  const surfaces::PatchComplex<double> complex =
      chart_complex<double>(std::make_unique<surfaces::EllipsoidPatch<double>>(axes));
  const double mass = 1.7;
  const Mat3<double> I = (mass / 5 * Vec3<double>(axes.y() * axes.y() + axes.z() * axes.z(),
                                                 axes.x() * axes.x() + axes.z() * axes.z(),
                                                 axes.x() * axes.x() + axes.y() * axes.y())).asDiagonal();
  const Mat3<double> R = rotation_about<double>(Vec3<double>(0.4, 0.15, 0.0));
  const auto make_model = [&] {
    return MaximalPlaneContact<double>(mass, I, complex, gravity<double>(),
                                       {0, ellipsoid_support<double>(axes, R.row(2).transpose()), {}});
  };
  const MaximalPlaneContact<double>::State y0 =
      resting_state<double>(make_model(), R, Vec3<double>(0.5, -0.3, 4.0), Vec3<double>(0.05, 0.02, 0));
  const std::vector<int> steps = {50, 100, 200, 400};
  std::vector<Drift> drifts;
  for (int n : steps) drifts.push_back(run<double>(make_model, y0, 0.5, n, false));
  const double energy_order = report_orders("ellipsoid |E - E0| (J)", drifts, &Drift::energy, steps);
  const double gap_order = report_orders("ellipsoid max |g| (m)", drifts, &Drift::gap, steps);
  const double rate_order = report_orders("ellipsoid max |g'| (m/s)", drifts, &Drift::gap_rate, steps);
  // Fourth order, measured: at least 3.5 on every halving (these drifts sit
  // far above double's round-off: checked next).
  EXPECT_GE(energy_order, 3.5);
  EXPECT_GE(gap_order, 3.5);
  EXPECT_GE(rate_order, 3.5);
  // The drift exists: on the finest run still a thousand times round-off.
  EXPECT_GT(drifts.back().gap, 1e3 * std::numeric_limits<double>::epsilon() * axes.maxCoeff());
  EXPECT_GT(drifts.back().energy, 1e3 * std::numeric_limits<double>::epsilon() * mass * 9.81 * axes.maxCoeff());
}

TEST(MaximalPlaneContact, RockingBowlDriftsAndConvergesAtFourthOrderWithPieceAwareSteps) {
  // The drift suite's body: the bowl (Loop surface; every control vertex is
  // extraordinary, so every patch is split or ringed into polynomial pieces)
  // on its base, tilted, spinning and let go. The equations of motion use the
  // surface's second derivatives (kappa), whose own derivatives jump between
  // pieces: plain RK4 steps across those lines drop to second order
  // (printed), advance() ends steps on them and keeps the fourth.
  const LoopBody<double>& body = bowl_body<double>();
  const surfaces::PatchComplex<double>& complex = body.surface->complex();
  const Mat3<double> R = rotation_about<double>(Vec3<double>(0.3, -0.2, 0.0));
  const auto make_model = [&] {
    return MaximalPlaneContact<double>(body.mass, body.I, complex, gravity<double>(),
                                       coarse_support<double>(complex, R.row(2).transpose()));
  };
  const MaximalPlaneContact<double>::State y0 =
      resting_state<double>(make_model(), R, Vec3<double>(0.0, 0.0, 2.0), Vec3<double>::Zero());
  const std::vector<int> steps = {50, 100, 200, 400};
  std::vector<Drift> plain, aware;
  for (int n : steps) {
    plain.push_back(run<double>(make_model, y0, 0.4, n, false));
    aware.push_back(run<double>(make_model, y0, 0.4, n, true));
  }
  report_orders("bowl, plain steps, |E - E0| (J)", plain, &Drift::energy, steps);
  report_orders("bowl, plain steps, max |g| (m)", plain, &Drift::gap, steps);
  const double energy_order = report_orders("bowl, advance(), |E - E0| (J)", aware, &Drift::energy, steps);
  const double gap_order = report_orders("bowl, advance(), max |g| (m)", aware, &Drift::gap, steps);
  const double rate_order = report_orders("bowl, advance(), max |g'| (m/s)", aware, &Drift::gap_rate, steps);
  EXPECT_GE(energy_order, 3.5);
  EXPECT_GE(gap_order, 3.5);
  EXPECT_GE(rate_order, 3.5);
  EXPECT_GT(aware.back().shortened, 0) << "the run crosses piece boundaries";
  EXPECT_GT(aware.back().gap, 1e3 * std::numeric_limits<double>::epsilon() * 0.0872) << "the drift exists";
}

// ---------------------------------------------------------------------------
// Bad input.

TEST(MaximalPlaneContact, RejectsBadInput) {
  const Vec3<double> axes(0.1, 0.08, 0.05);
  const surfaces::PatchComplex<double> complex =
      chart_complex<double>(std::make_unique<surfaces::EllipsoidPatch<double>>(axes));
  const Mat3<double> I = Vec3<double>(0.004, 0.005, 0.006).asDiagonal();
  const SupportPoint<double> ok{0, Vec2<double>(1.5, -1.5), {}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NO_THROW(MaximalPlaneContact<double>(1.0, I, complex, gravity<double>(), ok));
  EXPECT_THROW(MaximalPlaneContact<double>(1.0, I, complex, Vec3<double>(0, nan, -9.81), ok), InputError);
  EXPECT_THROW(MaximalPlaneContact<double>(0.0, I, complex, gravity<double>(), ok), InputError);
  EXPECT_THROW(MaximalPlaneContact<double>(1.0, Mat3<double>::Zero(), complex, gravity<double>(), ok), InputError);
  for (int patch : {-1, 1, 7}) {
    try {
      MaximalPlaneContact<double>(1.0, I, complex, gravity<double>(), {patch, Vec2<double>(1.5, -1.5), {}});
      ADD_FAILURE() << "patch " << patch << " accepted";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("patch"), std::string::npos) << error.what();
    }
  }
  EXPECT_THROW(MaximalPlaneContact<double>(1.0, I, complex, gravity<double>(), {0, Vec2<double>(4.0, 0.0), {}}),
               InputError);  // s outside (0, pi)
  EXPECT_THROW(MaximalPlaneContact<double>(1.0, I, complex, gravity<double>(), {0, Vec2<double>(nan, 0.0), {}}),
               InputError);

  const MaximalPlaneContact<double> model(1.0, I, complex, gravity<double>(), ok);
  MaximalPlaneContact<double>::State y =
      maximal_state_from_pose<double>(Mat4<double>::Identity(), Vec6<double>::Zero());
  y(8) = nan;
  EXPECT_THROW(model.derivative(y), InputError);
  EXPECT_THROW((void)model.gap(y), InputError);
  y(8) = 0;
  y(0) = 2;  // not a unit quaternion
  EXPECT_THROW(model.step(y, 1e-3), InputError);
  EXPECT_THROW(model.advance(y, 1e-3), InputError);
  y(0) = 1;
  EXPECT_THROW(model.advance(y, 0.0), InputError);
  EXPECT_THROW(model.advance(y, nan), InputError);
  Mat4<double> sheared = Mat4<double>::Identity();
  sheared(0, 1) = 0.5;
  EXPECT_THROW(maximal_state_from_pose<double>(sheared, Vec6<double>::Zero()), InputError);

  // A torus lying flat touches the plane along a circle: the height has no
  // strict minimum, so the support point is not defined.
  const surfaces::PatchComplex<double> torus =
      chart_complex<double>(std::make_unique<surfaces::TorusPatch<double>>(0.3, 0.1));
  const double half_pi = std::acos(-1.0) / 2;
  const MaximalPlaneContact<double> flat(1.0, I, torus, gravity<double>(), {0, Vec2<double>(0.2, -half_pi), {}});
  EXPECT_THROW((void)flat.gap(maximal_state_from_pose<double>(Mat4<double>::Identity(), Vec6<double>::Zero())),
               ComputationError);
  // A paraboloid cup opening upward: its lowest point has the outward normal
  // +z (the inside of the cup faces the plane's side, not the plane).
  const surfaces::PatchComplex<double> cup =
      chart_complex<double>(std::make_unique<surfaces::ParaboloidPatch<double>>(5.0, 3.0));
  const MaximalPlaneContact<double> inside(1.0, I, cup, gravity<double>(), {0, Vec2<double>(0.01, -0.02), {}});
  EXPECT_THROW((void)inside.gap(maximal_state_from_pose<double>(Mat4<double>::Identity(), Vec6<double>::Zero())),
               ComputationError);
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(MaximalPlaneContact, StateFromPoseRoundTrips) {
  // Rotations near the identity, near a half turn (w ~ 0, where the branch of
  // the conversion changes) and generic.
  for (const Vec3<double>& axis_angle :
       {Vec3<double>(1e-3, 0, 0), Vec3<double>(0, 3.1415, 0), Vec3<double>(2.0, -0.5, 0.8), Vec3<double>(0, 0, -3.1)}) {
    const Mat4<Real50> E = spatial::make_pose<Real50>(rotation_about<Real50>(axis_angle),
                                                      Vec3<Real50>(Real50("0.1"), Real50("0.2"), Real50("-0.3")));
    const Vec6<Real50> phi = Vec6<Real50>::Constant(Real50("0.5"));
    const State50 y = maximal_state_from_pose<Real50>(E, phi);
    EXPECT_TRUE(matrices_near(spatial::pose_of<Real50>(y), E, tolerance<Real50>(32)));
    EXPECT_TRUE(matrices_near(Vec6<Real50>(y.segment<6>(7)), phi, Real50(0)));
    EXPECT_GE(y(0), Real50(0));
  }
}
#endif  // CONTACTREF_HAS_REAL50

}  // namespace
}  // namespace contactref::dynamics
