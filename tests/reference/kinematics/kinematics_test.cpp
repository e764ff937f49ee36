// Contact kinematics (Kry & Pai Eqs. 5-14 and 44-57, thesis Eq. 4.18), each
// against a reference that does not use the code under test:
//  - H against 50-digit central differences of the pose map Eq. 9, built here
//    from Eqs. 5-7 as printed (Gram-Schmidt y, not the library's y = z x x);
//  - Hdot against 50-digit central differences of H along q', and Hdot q'
//    (set_hdot_qdot, from directional derivatives) against those of H q'
//    at fixed q';
//  - the zero bottom row of H_1c and rank 5, with det of its upper 5x5 block
//    against Montana's curvature forms;
//  - a closed form for a sphere on a plane;
//  - Montana's contact equations, from the first and second fundamental forms;
//  - double against 50 digits; and the errors for bad input.
// Every pair of surface types among plane, ellipsoid, torus, bicubic Bezier,
// a regular Loop face and a Loop face with an extraordinary vertex.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/spatial/adjoint.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "validation/fixtures/rattleback_net.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/finite_difference.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scalars.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref::kinematics {
namespace {

using surfaces::Patch;
using surfaces::PatchJet;
using test::matrices_near;
using test::tolerance;
template <class T> using Mat2 = Eigen::Matrix<T, 2, 2>;
template <class T> using Vec2 = Eigen::Matrix<T, 2, 1>;

// ---------------------------------------------------------------------------
// The surfaces, in both scalars (the Real50 ones from the same doubles).

enum class Surface { kPlane, kEllipsoid, kTorus, kBezier, kLoopRegular, kLoopExtraordinary };
constexpr std::array<Surface, 6> kSurfaces = {Surface::kPlane,  Surface::kEllipsoid,   Surface::kTorus,
                                              Surface::kBezier, Surface::kLoopRegular, Surface::kLoopExtraordinary};
const char* name(Surface surface) {
  static const char* names[] = {"plane", "ellipsoid", "torus", "bezier", "loop regular", "loop extraordinary"};
  return names[int(surface)];
}


template <class T>
class TestSurfaces {
 public:
  TestSurfaces()
      : ellipsoid_(Vec3<T>(T(1), T(0.7), T(0.5))),
        torus_(T(1), T(0.4)),
        bezier_(fixtures::rattleback_net<T>()),  // a dome, convex seen from its normal c_s x c_t (+z)
        icosphere_(surfaces::read_triangle_mesh(contactref::test::source_dir() /
                                                "validation/fixtures/meshes/icosphere1.obj"),
                   "icosphere1") {
    for (int f = 0; f < icosphere_.face_count(); ++f) {
      if (regular_ < 0 && icosphere_.kind(f) == surfaces::LoopPatchKind::kRegular) regular_ = f;
      if (extraordinary_ < 0 && icosphere_.kind(f) == surfaces::LoopPatchKind::kExtraordinary) extraordinary_ = f;
    }
    if (regular_ < 0 || extraordinary_ < 0) throw std::logic_error("icosphere1 lacks a regular or an extraordinary face");
  }
  const Patch<T>& operator()(Surface surface) const {
    switch (surface) {
      case Surface::kPlane: return plane_;
      case Surface::kEllipsoid: return ellipsoid_;
      case Surface::kTorus: return torus_;
      case Surface::kBezier: return bezier_;
      case Surface::kLoopRegular: return icosphere_.patch(regular_);
      default: return icosphere_.patch(extraordinary_);
    }
  }

 private:
  surfaces::PlanePatch<T> plane_;
  surfaces::EllipsoidPatch<T> ellipsoid_;
  surfaces::TorusPatch<T> torus_;
  surfaces::BezierPatch<T> bezier_;
  surfaces::LoopSurface<T> icosphere_;
  int regular_ = -1, extraordinary_ = -1;
};

template <class T>
const TestSurfaces<T>& test_surfaces() {
  static const TestSurfaces<T> instance;
  return instance;
}

// Two parameter points per surface, inside the domain and away from its edges.
// Set 0: convex points (both principal curvatures of the outward normal
// positive, or the flat plane): torus on its outer half (cos t > 0), the dome
// near its top, the icosphere anywhere. Set 1: other points, the torus on its
// saddle-shaped inner half.
Vec2<double> parameter_point(Surface surface, int set) {
  static const double points[6][2][2] = {{{0.3, -0.2}, {-1.2, 0.8}},  {{1.1, 0.7}, {2.3, -1.9}},
                                         {{0.4, 0.3}, {2.1, 2.6}},    {{0.4, 0.55}, {0.8, 0.15}},
                                         {{0.31, 0.33}, {0.1, 0.75}}, {{0.31, 0.33}, {0.07, 0.11}}};
  return {points[int(surface)][set][0], points[int(surface)][set][1]};
}

struct Configuration {
  Surface body1, body2;
  Vec5<double> q, qdot;
  std::string label() const { return std::string(name(body1)) + " on " + name(body2); }
};

// Every ordered pair of surface types (36), body 1 at point `set` of its
// surface and body 2 at point `set` of its own, with a seeded psi and q'.
std::vector<Configuration> configurations(int set) {
  test::Rng rng(test::kSeed + 400 + std::uint64_t(set));
  std::vector<Configuration> all;
  for (Surface a : kSurfaces) {
    for (Surface b : kSurfaces) {
      Configuration c{a, b, {}, {}};
      c.q << parameter_point(a, set), parameter_point(b, set), fixtures::uniform(rng, -3, 3);
      for (int j = 0; j < 5; ++j) c.qdot(j) = fixtures::uniform(rng, -1, 1);
      all.push_back(c);
    }
  }
  return all;
}

template <class T>
ContactKinematics<T> kinematics_of(const Configuration& c) {
  const TestSurfaces<T>& s = test_surfaces<T>();
  return contact_kinematics<T>(s(c.body1), s(c.body2), c.q.cast<T>(), c.qdot.cast<T>());
}

// Hdot_1 q' and Hdot_1c q' by the directional path (set_hdot_qdot), stacked.
template <class T>
Eigen::Matrix<T, 6, 2> hdot_qdot_of(const Configuration& c) {
  const TestSurfaces<T>& s = test_surfaces<T>();
  ContactRates<T> rates;
  set_configuration<T>(rates, s(c.body1), s(c.body2), c.q.cast<T>());
  set_hdot_qdot<T>(rates, c.qdot.cast<T>());
  Eigen::Matrix<T, 6, 2> both;
  both << rates.Hdot_1_qdot, rates.Hdot_1c_qdot;
  return both;
}

// max |a - b| / max(1, max |b|): the measure matrices_near bounds.
template <class DA, class DB>
double relative_difference(const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b) {
  using T = typename DB::Scalar;
  return double((a.template cast<T>() - b).cwiseAbs().maxCoeff() / std::max(T(1), b.cwiseAbs().maxCoeff()));
}

// Prints a measured residual with the [kinematics] prefix.
void report(const std::string& what, double residual, const std::string& detail = "") {
  std::cerr << "[kinematics] " << what << ": " << residual << (detail.empty() ? "" : " (" + detail + ")") << "\n";
}

// ---------------------------------------------------------------------------
// The pose map of Eq. 9, built here from Eqs. 5-7 as printed.

template <class T>
Mat4<T> printed_contact_frame(const PatchJet<T>& jet) {  // Eqs. 5-6
  const Vec3<T> c_s = jet.c_s(), c_t = jet.c_t();
  const Vec3<T> y = c_s.dot(c_s) * c_t - c_s.dot(c_t) * c_s;
  const Vec3<T> z = c_s.cross(c_t);
  Mat4<T> E = Mat4<T>::Identity();
  E.template topRows<3>() << c_s / c_s.norm(), y / y.norm(), z / z.norm(), jet.c();
  return E;
}

template <class T>
Mat4<T> printed_alignment(const T& psi) {  // Eq. 7: E_1c_2c
  using std::cos;
  using std::sin;
  Mat4<T> E = Mat4<T>::Identity();
  E.template topLeftCorner<3, 3>() << cos(psi), -sin(psi), T(0), -sin(psi), -cos(psi), T(0), T(0), T(0), T(-1);
  return E;
}

template <class T>
Mat4<T> pose_map(const Patch<T>& patch1, const Patch<T>& patch2, const Vec5<T>& q) {  // Eq. 9: E_2_1
  const Mat4<T> E_1_1c = printed_contact_frame(patch1.evaluate(q(0), q(1)));
  const Mat4<T> E_2_2c = printed_contact_frame(patch2.evaluate(q(2), q(3)));
  const Mat4<T> E_2c_1c = spatial::pose_inverse(printed_alignment(q(4)));
  return E_2_2c * E_2c_1c * spatial::pose_inverse(E_1_1c);
}

// The scale of the central differences below (finite_difference_tolerance):
// E_2_1, H and their third derivatives along q stay below 1e2 on these
// unit-size surfaces, the Loop faces evaluated away from their extraordinary
// vertices.
[[maybe_unused]] constexpr double kDifferenceScale = 1.0;  // the 50-digit tests' (release only)

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(ContactKinematics, HMatchesFiniteDifferencesOfThePoseMap) {  // Eqs. 11-13
  const TestSurfaces<Real50>& s = test_surfaces<Real50>();
  double worst_H = 0, worst_twist = 0, worst_bottom = 0, worst_pose = 0;
  for (int set = 0; set < 2; ++set) {
    for (const Configuration& c : configurations(set)) {
      const Patch<Real50>&p1 = s(c.body1), &p2 = s(c.body2);
      const Vec5<Real50> q = c.q.cast<Real50>();
      const ContactKinematics<Real50> k = kinematics_of<Real50>(c);
      const Mat4<Real50> E_2_1 = pose_map(p1, p2, q);
      const Mat4<Real50> E_1_2 = spatial::pose_inverse(E_2_1);
      // The library's Eq. 9 (y = z x x) against the printed one.
      EXPECT_TRUE(matrices_near(k.E_2_1, E_2_1, tolerance<Real50>(256))) << c.label();
      worst_pose = std::max(worst_pose, double((k.E_2_1 - E_2_1).cwiseAbs().maxCoeff()));
      Mat65<Real50> H_fd;
      for (int j = 0; j < 5; ++j) {
        const Mat4<Real50> X = E_1_2 * test::central_difference(
                                           [&](const Real50& x) {
                                             Vec5<Real50> qj = q;
                                             qj(j) = x;
                                             return pose_map(p1, p2, qj);
                                           },
                                           q(j));
        // Eq. 12: each E_1_2 dE_2_1/dq_j is a twist: skew upper block, zero bottom row.
        const Mat3<Real50> symmetric = X.topLeftCorner<3, 3>() + X.topLeftCorner<3, 3>().transpose();
        worst_twist =
            std::max({worst_twist, double(symmetric.cwiseAbs().maxCoeff()), double(X.row(3).cwiseAbs().maxCoeff())});
        H_fd.col(j) = spatial::vee(X);
      }
      EXPECT_TRUE(matrices_near(k.H_1, H_fd, test::finite_difference_tolerance(kDifferenceScale))) << c.label();
      worst_H = std::max(worst_H, relative_difference(k.H_1, H_fd));
      // In frame 1c no q' moves body 1 along the normal: the bottom row of the
      // differenced H, taken to frame 1c, vanishes.
      const Mat65<Real50> H_fd_1c = spatial::adjoint_inverse(k.E_1_1c) * H_fd;
      worst_bottom = std::max(worst_bottom, double(H_fd_1c.row(5).cwiseAbs().maxCoeff()));
    }
  }
  // A central difference of an exact twist is a twist to the difference's error.
  EXPECT_LT(worst_twist, double(test::finite_difference_tolerance(kDifferenceScale)));
  EXPECT_LT(worst_bottom, double(test::finite_difference_tolerance(kDifferenceScale)));
  report("H_1 vs 50-digit differences of Eq. 9, worst relative entry", worst_H, "72 configurations");
  report("E_1_2 dE_2_1/dq_j, largest non-twist part", worst_twist);
  report("bottom row of the differenced H in frame 1c, largest entry", worst_bottom);
  report("E_2_1 (y = z x x) vs Eq. 9 as printed (Gram-Schmidt y), 50 digits", worst_pose);
}

TEST(ContactKinematics, HdotMatchesFiniteDifferencesOfH) {  // Eq. 57, thesis Eq. 4.18
  double worst_1 = 0, worst_1c = 0;
  for (int set = 0; set < 2; ++set) {
    for (const Configuration& c : configurations(set)) {
      const ContactKinematics<Real50> k = kinematics_of<Real50>(c);
      const TestSurfaces<Real50>& s = test_surfaces<Real50>();
      const Vec5<Real50> q = c.q.cast<Real50>(), qdot = c.qdot.cast<Real50>();
      const auto H_along = [&](const Real50& x) {
        const ContactKinematics<Real50> moved =
            contact_kinematics<Real50>(s(c.body1), s(c.body2), Vec5<Real50>(q + x * qdot), qdot);
        Eigen::Matrix<Real50, 6, 10> both;
        both << moved.H_1, moved.H_1c;
        return both;
      };
      const Eigen::Matrix<Real50, 6, 10> rate = test::central_difference(H_along, Real50(0));
      const Mat65<Real50> Hdot_1 = rate.leftCols<5>(), Hdot_1c = rate.rightCols<5>();
      EXPECT_TRUE(matrices_near(k.Hdot_1, Hdot_1, test::finite_difference_tolerance(kDifferenceScale))) << c.label();
      EXPECT_TRUE(matrices_near(k.Hdot_1c, Hdot_1c, test::finite_difference_tolerance(kDifferenceScale))) << c.label();
      worst_1 = std::max(worst_1, relative_difference(k.Hdot_1, Hdot_1));
      worst_1c = std::max(worst_1c, relative_difference(k.Hdot_1c, Hdot_1c));
    }
  }
  report("Hdot_1 vs 50-digit differences of H_1 along q', worst relative entry", worst_1, "72 configurations");
  report("Hdot_1c vs 50-digit differences of H_1c along q', worst relative entry", worst_1c);
}

// The directional path's Hdot q' (frame_jacobian_rate: no partials of the
// frames) against 50-digit differences of the twists H q' along q' at fixed
// q', (H(q + h q') - H(q - h q')) q' / 2h: independent of both Hdot paths.
TEST(ContactKinematics, HdotQdotMatchesFiniteDifferencesOfTheTwist) {  // Eq. 19's Hdot q'
  double worst = 0;
  for (int set = 0; set < 2; ++set) {
    for (const Configuration& c : configurations(set)) {
      const TestSurfaces<Real50>& s = test_surfaces<Real50>();
      const Vec5<Real50> q = c.q.cast<Real50>(), qdot = c.qdot.cast<Real50>();
      const auto twists_along = [&](const Real50& x) {
        const ContactConfiguration<Real50> moved =
            contact_configuration<Real50>(s(c.body1), s(c.body2), Vec5<Real50>(q + x * qdot));
        Eigen::Matrix<Real50, 6, 2> both;
        both << moved.H_1 * qdot, moved.H_1c * qdot;
        return both;
      };
      const Eigen::Matrix<Real50, 6, 2> rate = test::central_difference(twists_along, Real50(0));
      const Eigen::Matrix<Real50, 6, 2> directional = hdot_qdot_of<Real50>(c);
      EXPECT_TRUE(matrices_near(directional, rate, test::finite_difference_tolerance(kDifferenceScale))) << c.label();
      worst = std::max(worst, relative_difference(directional, rate));
    }
  }
  report("Hdot q' (directional) vs 50-digit differences of H q' along q', worst relative entry", worst,
         "72 configurations");
}
#endif  // CONTACTREF_HAS_REAL50


// ---------------------------------------------------------------------------
// Montana's forms (Montana 1988, "The kinematics of contact and grasp", cited
// by Kry & Pai Section 2), computed here from the fundamental forms of the
// chart, with no contact frame. Montana assumes orthogonal charts; for a
// general chart, with E = c_s.c_s, F = c_s.c_t, G = c_t.c_t, W = |c_s x c_t|
// and the frame of Eq. 5 (x along c_s, y in the tangent plane, n = z):
//  - metric A: c_s = x sqrt(E), c_t = x F/sqrt(E) + y W/sqrt(E), so the
//    velocity of the contact point in frame coordinates is A alpha', A upper
//    triangular with A^T A = [E F; F G] (Montana's M = diag(|c_s|, |c_t|) when F = 0);
//  - curvature form K: from n . c_j = 0, n_k . c_j = -II_jk with
//    II = [c_ss.n c_st.n; c_st.n c_tt.n], so (x . n_k, y . n_k) = -A^-T II e_k and
//    [x.n_k; y.n_k] = K A e_k with K = -A^-T II A^-1 (symmetric; positive
//    definite where the surface is convex seen from n);
//  - torsion form tau (Montana's T M): tau_k = y . x_k, with
//    x_k = (c_sk - x (x . c_sk)) / sqrt(E) and y = (E c_t - F c_s) / (sqrt(E) W):
//    tau_k = (E c_t . c_sk - F c_s . c_sk) / (E W).
template <class T>
struct MontanaForms {
  Mat2<T> A, K;
  Eigen::Matrix<T, 1, 2> tau;
  T area;  // W = det A
};

template <class T>
MontanaForms<T> montana_forms(const PatchJet<T>& jet) {
  using std::sqrt;
  const Vec3<T> c_s = jet.c_s(), c_t = jet.c_t(), c_ss = jet.c_ss(), c_st = jet.c_st(), c_tt = jet.c_tt();
  const T E = c_s.dot(c_s), F = c_s.dot(c_t), G = c_t.dot(c_t);
  MontanaForms<T> f;
  f.area = sqrt(E * G - F * F);
  const Vec3<T> n = c_s.cross(c_t) / f.area;
  f.A << sqrt(E), F / sqrt(E), T(0), f.area / sqrt(E);
  Mat2<T> II;
  II << c_ss.dot(n), c_st.dot(n), c_st.dot(n), c_tt.dot(n);
  const Mat2<T> A_inv = f.A.inverse();
  f.K = -A_inv.transpose() * II * A_inv;
  f.tau << (E * c_t.dot(c_ss) - F * c_s.dot(c_ss)) / (E * f.area), (E * c_t.dot(c_st) - F * c_s.dot(c_st)) / (E * f.area);
  return f;
}

template <class T>
Mat2<T> montana_rotation(const T& psi) {  // Montana's R_psi, the tangent block of Eq. 7
  using std::cos;
  using std::sin;
  Mat2<T> R;
  R << cos(psi), -sin(psi), -sin(psi), -cos(psi);
  return R;
}

// Montana's contact equations (Montana 1988, Eqs. 16-20). His (omega; v) is the
// motion of object 1's contact frame relative to object 2's, in the former:
// with object 1 = body 1 that is ^{1c}phi(2,1), the phi of
// contact_kinematics.hpp. Derivation: moving over a surface at alpha', its contact frame turns with omega = (J K A alpha', tau alpha') and
// moves with v = (A alpha', 0) relative to the body (ndot = omega x n gives
// (x . ndot, y . ndot) = (omega_y, -omega_x) = K A alpha'; J = [0 -1; 1 0]).
// Frame 2c's motion, taken to 1c by blockdiag(R_psi, R_psi) with
// R_psi J = -J R_psi (R_psi is a reflection in the plane) and
// K~2 = R_psi K2 R_psi, is (-J K~2 w2, -tau2 alpha2', w2, 0) with
// w2 = R_psi A2 alpha2'. Frame 1c turns by +psi' about z_1c relative to 2c
// (x_2c = R_psi e_x turns by -psi). With w1 = A1 alpha1', the relative twist
// phi(2,1) = phi(2,2c) + phi(2c,1c) - phi(1,1c) (all at the contact, in 1c) is
//   v = w2 - w1,  (omega_x, omega_y) = -J (K1 w1 + K~2 w2),
//   omega_z = psi' - tau1 alpha1' - tau2 alpha2',  v_z = 0.
// Solving, with J (omega_x, omega_y) = (-omega_y, omega_x):
//   alpha1' = A1^-1 (K1 + K~2)^-1 ((-omega_y, omega_x) - K~2 v)
//   alpha2' = A2^-1 R_psi (K1 + K~2)^-1 ((-omega_y, omega_x) + K1 v)
//   psi'    = omega_z + tau1 alpha1' + tau2 alpha2'
// which are Montana's Eqs. 17-19 as printed (R_psi and K~2 = R_psi K2 R_psi his
// Eq. 16), his metric M_i replaced by the A_i of a non-orthogonal chart. They
// need K1 + K~2 invertible (no conforming contact).
template <class T>
Vec5<T> montana_rates(const MontanaForms<T>& f1, const MontanaForms<T>& f2, const T& psi, const Vec6<T>& phi) {
  const Mat2<T> R = montana_rotation(psi);
  const Mat2<T> K2_tilde = R * f2.K * R;
  const Mat2<T> relative_inverse = (f1.K + K2_tilde).inverse();
  const Vec2<T> omega(-phi(1), phi(0)), v(phi(3), phi(4));
  const Vec2<T> alpha1 = f1.A.inverse() * relative_inverse * (omega - K2_tilde * v);
  const Vec2<T> alpha2 = f2.A.inverse() * R * relative_inverse * (omega + f1.K * v);
  Vec5<T> rates;
  rates << alpha1, alpha2, phi(2) + (f1.tau * alpha1)(0) + (f2.tau * alpha2)(0);
  return rates;
}

// det(K1 + K~2): zero exactly at conforming contact.
template <class T>
T relative_curvature_determinant(const MontanaForms<T>& f1, const MontanaForms<T>& f2, const T& psi) {
  const Mat2<T> R = montana_rotation(psi);
  return (f1.K + R * f2.K * R).determinant();
}

template <class T>
std::pair<MontanaForms<T>, MontanaForms<T>> forms_of(const Configuration& c) {
  const TestSurfaces<T>& s = test_surfaces<T>();
  return {montana_forms(s(c.body1).evaluate(T(c.q(0)), T(c.q(1)))),
          montana_forms(s(c.body2).evaluate(T(c.q(2)), T(c.q(3))))};
}

// The convex configurations without the one conforming pair (plane on plane).
[[maybe_unused]] std::vector<Configuration> nonconforming_configurations() {
  std::vector<Configuration> all = configurations(0);
  all.erase(std::remove_if(all.begin(), all.end(),
                           [](const Configuration& c) { return c.body1 == Surface::kPlane && c.body2 == Surface::kPlane; }),
            all.end());
  return all;
}

// 2x2 condition number bound: sigma_max / sigma_min <= |M|_F^2 / |det M|.
template <class T>
T condition_bound(const Mat2<T>& M) {
  using std::abs;
  return M.squaredNorm() / abs(M.determinant());
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(ContactKinematics, MontanasContactEquationsInvertH) {
  double worst = 0;
  for (const Configuration& c : nonconforming_configurations()) {
    const ContactKinematics<Real50> k = kinematics_of<Real50>(c);
    const auto [f1, f2] = forms_of<Real50>(c);
    const Real50 psi(c.q(4));
    const Mat2<Real50> R = montana_rotation(psi);
    // Montana's equations applied to each column of H_1c give back that unit rate.
    Eigen::Matrix<Real50, 5, 5> rates;
    for (int j = 0; j < 5; ++j) rates.col(j) = montana_rates(f1, f2, psi, Vec6<Real50>(k.H_1c.col(j)));
    // About 100 roundings through (K1 + K~2)^-1 and A_i^-1, each amplified by
    // its condition number.
    const Real50 cond =
        condition_bound<Real50>(f1.K + R * f2.K * R) * std::max(condition_bound(f1.A), condition_bound(f2.A));
    EXPECT_TRUE(matrices_near(rates, Eigen::Matrix<Real50, 5, 5>::Identity(), tolerance<Real50>(128, double(cond))))
        << c.label();
    worst = std::max(worst, double((rates - Eigen::Matrix<Real50, 5, 5>::Identity()).cwiseAbs().maxCoeff()));
  }
  report("Montana's equations applied to H_1c vs the identity, 50 digits, worst entry", worst, "35 pairs");
}

// relative_curvature against Montana's K1 + R_psi K2 R_psi, his curvature
// forms computed from the first and second fundamental forms (montana_forms):
// the same frames, so entry by entry.
TEST(ContactKinematics, RelativeCurvatureMatchesMontanasForms) {
  double worst = 0;
  for (const Configuration& c : nonconforming_configurations()) {
    const auto [f1, f2] = forms_of<Real50>(c);
    const Mat2<Real50> R = montana_rotation(Real50(c.q(4)));
    const Mat2<Real50> expected = f1.K + R * f2.K * R;
    const Mat2<Real50> K = relative_curvature(kinematics_of<Real50>(c));
    // Both from second-order jets through a few tens of roundings (relative
    // to max(1, |K|): matrices_near).
    EXPECT_TRUE(matrices_near(K, expected, tolerance<Real50>(256))) << c.label();
    worst = std::max(worst, double((K - expected).cwiseAbs().maxCoeff()));
  }
  report("relative curvature vs Montana's K1 + R K2 R, 50 digits, worst entry", worst, "35 pairs");
}

TEST(ContactKinematics, BottomRowIsZeroAndRankIsFiveAwayFromConformingContact) {
  // Eqs. 13-14 remark: no contact-coordinate rate moves body 1 along z_1c.
  for (int set = 0; set < 2; ++set) {
    for (const Configuration& c : configurations(set)) {
      EXPECT_TRUE(kinematics_of<double>(c).H_1c.row(5).isZero(0)) << c.label();
      EXPECT_TRUE(kinematics_of<Real50>(c).H_1c.row(5).isZero(0)) << c.label();
    }
  }
  // det of the upper 5x5 block = -|c_s x c_t| |d_u x d_v| det(K1 + K~2), from
  // the block form of H in Montana's forms (see montana_rates): the psi column
  // is e_3, and the rest factors as [-J K1, -J K~2; -I, I] diag(A1, R_psi A2),
  // with det(R_psi) = -1 and det [-J K1, -J K~2; -I, I] = det(-J (K1 + K~2)).
  // So H has rank 5 exactly where K1 + K~2 is invertible: away from conforming
  // contact. Here every surface is convex at the point (set 0), so K1 + K~2 is
  // positive definite unless both are flat.
  double worst_det = 0, smallest_ratio = std::numeric_limits<double>::infinity();
  for (const Configuration& c : nonconforming_configurations()) {
    const auto [f1, f2] = forms_of<Real50>(c);
    const Real50 relative = relative_curvature_determinant(f1, f2, Real50(c.q(4)));
    EXPECT_GT(relative, 0) << c.label();
    const Real50 det_montana = -f1.area * f2.area * relative;
    const Eigen::Matrix<Real50, 5, 5> H5 = kinematics_of<Real50>(c).H_1c.topRows<5>();
    // LU is backward stable: a perturbation of eps |col_j| in each column moves
    // the determinant by at most 5 eps prod_j |col_j| (Hadamard), times the
    // growth factor; 1024 covers both.
    Real50 hadamard(1);
    for (int j = 0; j < 5; ++j) hadamard *= H5.col(j).norm();
    EXPECT_LT(abs(H5.determinant() - det_montana), tolerance<Real50>(1024) * hadamard) << c.label();
    worst_det = std::max(worst_det, double(abs(H5.determinant() - det_montana) / hadamard));
    // Rank 5 in double: sigma_5 = |det| / (sigma_1 ... sigma_4) >= |det| / sigma_1^4,
    // and the double singular values are within round-off of the exact ones
    // (half of the bound is ample margin when sigma_5 >> eps sigma_1).
    const Eigen::JacobiSVD<Mat65<double>> svd(kinematics_of<double>(c).H_1c);
    const auto sigma = svd.singularValues();
    EXPECT_GT(sigma(4), 0.5 * std::abs(double(det_montana)) / std::pow(sigma(0), 4)) << c.label();
    smallest_ratio = std::min(smallest_ratio, sigma(4) / sigma(0));
  }
  report("det(H_1c upper 5x5) vs -|c_s x c_t| |d_u x d_v| det(K1 + K~2), 50 digits, relative to prod |col|", worst_det);
  report("smallest sigma_5 / sigma_1 of H_1c, convex pairs in double", smallest_ratio);
}
#endif  // CONTACTREF_HAS_REAL50

// A patch with its parameters exchanged, c'(s, t) = c(t, s): its normal
// c'_s x c'_t = c_t x c_s is reversed, so a sphere becomes a socket.
template <class T>
class SwappedPatch final : public Patch<T> {
 public:
  explicit SwappedPatch(const Patch<T>& inner)
      : inner_(inner), domain_(surfaces::Domain<T>::make_chart(inner.domain().t, inner.domain().s)) {}
  PatchJet<T> evaluate(const T& s, const T& t) const override {
    const PatchJet<T> jet = inner_.evaluate(t, s);
    PatchJet<T> swapped;
    for (int k = 0; k < surfaces::kJetSize; ++k) {
      const auto& order = surfaces::kJetOrders[std::size_t(k)];
      swapped.d.col(k) = jet.d.col(surfaces::jet_index(order[1], order[0]));
    }
    return swapped;
  }
  const surfaces::Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return "swapped " + inner_.describe(); }

 private:
  const Patch<T>& inner_;
  surfaces::Domain<T> domain_;
};

// A ball of radius r on a plane: I / r; in a spherical socket of radius R
// (a swapped sphere: its normals point inwards): (1/r - 1/R) I, zero when
// R = r (conforming); for every psi.
TEST(ContactKinematics, RelativeCurvatureOfBallOnPlaneAndInSockets) {
  const double r = 0.5;
  const surfaces::EllipsoidPatch<double> ball(Vec3<double>(r, r, r));
  const surfaces::PlanePatch<double> plane;
  for (const double psi : {0.0, 0.7, -2.1}) {
    const Vec5<double> q(1.1, 0.7, 0.4, 1.3, psi);
    EXPECT_TRUE(matrices_near(relative_curvature(contact_configuration<double>(ball, plane, q)),
                              Mat2<double>(Mat2<double>::Identity() / r), tolerance<double>(64)));
    for (const double R : {0.75, r}) {
      const surfaces::EllipsoidPatch<double> sphere(Vec3<double>(R, R, R));
      const SwappedPatch<double> socket(sphere);
      EXPECT_TRUE(matrices_near(relative_curvature(contact_configuration<double>(ball, socket, q)),
                                Mat2<double>(Mat2<double>::Identity() * (1 / r - 1 / R)), tolerance<double>(64)))
          << "R = " << R << ", psi = " << psi;
    }
  }
}

TEST(ContactKinematics, ConformingContactIsRankDeficient) {
  // Plane on plane, and a ball in a socket of its own radius (K1 + K~2 = I/r - I/r = 0):
  // H loses a rank (Section 3.2), sigma_5 is round-off of H's O(1) entries.
  const surfaces::PlanePatch<double> plane;
  const surfaces::EllipsoidPatch<double> ball(Vec3<double>(0.75, 0.75, 0.75));
  const SwappedPatch<double> socket(ball);
  const std::pair<const Patch<double>*, const Patch<double>*> cases[] = {{&plane, &plane}, {&ball, &socket}};
  const Vec5<double> q(1.1, 0.7, 0.4, 1.3, 0.9), qdot(0.3, -0.2, 0.5, 0.1, -0.4);
  for (const auto& [body1, body2] : cases) {
    const Mat65<double> H = contact_kinematics<double>(*body1, *body2, q, qdot).H_1c;
    const auto sigma = Eigen::JacobiSVD<Mat65<double>>(H).singularValues();
    EXPECT_LT(sigma(4), tolerance<double>(64) * sigma(0)) << body1->describe() << " on " << body2->describe();
    report("conforming " + body1->describe() + " on " + body2->describe() + ", sigma_5 / sigma_1", sigma(4) / sigma(0));
  }
}

// Sphere of radius r (body 1, the ellipsoid chart with equal axes) on the plane
// (body 2). With x = (-sin s, cos s cos t, cos s sin t), y = (0, -sin t, cos t),
// z = (cos s, sin s cos t, sin s sin t) (outward) and the centre at the body
// origin, the contact point is r z, the centre sits at (u, v, r) in the plane's
// frame and the columns of H_1c follow from the motion each rate needs:
//  - s': the contact point moves by r s' along x on the sphere and stays put on
//    the plane, so the centre stays put and the sphere turns about its centre
//    to bring the point at s + ds down: omega = -s' y (rotation about y by -ds
//    maps z + x ds to z), v = omega x (r z) = -r s' x: (0, -1, 0, -r, 0, 0);
//  - t': the point moves by r sin(s) t' along y: omega_x = sin(s) t' likewise,
//    and the frame (x, y) turns by y . x_t = cos(s) about z relative to the
//    sphere as t changes, so keeping psi fixed needs omega_z = -cos(s) t';
//    v = omega x (r z) = -r sin(s) t' y: (sin s, 0, -cos s, 0, -r sin s, 0);
//  - u', v': a pure translation along the plane's x and y axes, which are
//    R_psi e_x = (cos psi, -sin psi, 0) and R_psi e_y = (-sin psi, -cos psi, 0) in 1c;
//  - psi': x_2c turns by -psi' about z_1c, so body 1 spins by +psi' about the
//    normal through the contact point: (0, 0, 1, 0, 0, 0).
// Hdot_1c is its time derivative along q'.
template <class T>
class SphereOnPlane : public ::testing::Test {};
using test::Scalars;
TYPED_TEST_SUITE(SphereOnPlane, Scalars);

TYPED_TEST(SphereOnPlane, MatchesTheClosedForm) {
  using T = TypeParam;
  using std::cos;
  using std::sin;
  const T r(0.75);
  const surfaces::EllipsoidPatch<T> sphere(Vec3<T>(r, r, r));
  const surfaces::PlanePatch<T> plane;
  test::Rng rng(test::kSeed + 410);
  double worst = 0;
  for (int n = 0; n < 20; ++n) {
    Vec5<T> q, qdot;
    q << T(fixtures::uniform(rng, 0.2, 2.9)), T(fixtures::uniform(rng, -3, 3)), T(fixtures::uniform(rng, -2, 2)),
        T(fixtures::uniform(rng, -2, 2)), T(fixtures::uniform(rng, -3, 3));
    for (int j = 0; j < 5; ++j) qdot(j) = T(fixtures::uniform(rng, -1, 1));
    const ContactKinematics<T> k = contact_kinematics<T>(sphere, plane, q, qdot);
    const T s = q(0), cp = cos(q(4)), sp = sin(q(4));
    Mat65<T> H = Mat65<T>::Zero(), Hdot = Mat65<T>::Zero();
    H.col(0) << T(0), T(-1), T(0), -r, T(0), T(0);
    H.col(1) << sin(s), T(0), -cos(s), T(0), -r * sin(s), T(0);
    H.col(2) << T(0), T(0), T(0), cp, -sp, T(0);
    H.col(3) << T(0), T(0), T(0), -sp, -cp, T(0);
    H.col(4) << T(0), T(0), T(1), T(0), T(0), T(0);
    Hdot.col(1) << cos(s) * qdot(0), T(0), sin(s) * qdot(0), T(0), -r * cos(s) * qdot(0), T(0);
    Hdot.col(2) << T(0), T(0), T(0), -sp * qdot(4), -cp * qdot(4), T(0);
    Hdot.col(3) << T(0), T(0), T(0), -cp * qdot(4), sp * qdot(4), T(0);
    // Entries are O(1) after some 100 roundings (two normalisations, products).
    EXPECT_TRUE(matrices_near(k.H_1c, H, tolerance<T>(128)));
    EXPECT_TRUE(matrices_near(k.Hdot_1c, Hdot, tolerance<T>(512)));  // second derivatives: more roundings
    EXPECT_TRUE(matrices_near(spatial::translation_of(k.E_2_1), Vec3<T>(q(2), q(3), r), tolerance<T>(64)));
    worst = std::max(worst, double(std::max((k.H_1c - H).cwiseAbs().maxCoeff(), (k.Hdot_1c - Hdot).cwiseAbs().maxCoeff())));
  }
  report(std::string("sphere on plane vs closed form, ") + (std::is_same_v<T, double> ? "double" : "50 digits") +
             ", worst entry of H_1c, Hdot_1c",
         worst);
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(ContactKinematics, DoubleAgreesWith50Digits) {
  double worst = 0;
  std::string where;
  for (int set = 0; set < 2; ++set) {
    for (const Configuration& c : configurations(set)) {
      const ContactKinematics<double> d = kinematics_of<double>(c);
      const ContactKinematics<Real50> r = kinematics_of<Real50>(c);
      const double difference =
          std::max({relative_difference(d.E_2_1, r.E_2_1), relative_difference(d.H_1, r.H_1),
                    relative_difference(d.Hdot_1, r.Hdot_1), relative_difference(d.H_1c, r.H_1c),
                    relative_difference(d.Hdot_1c, r.Hdot_1c),
                    relative_difference(hdot_qdot_of<double>(c), hdot_qdot_of<Real50>(c))});
      if (difference > worst) {
        worst = difference;
        where = c.label();
      }
    }
  }
  // The Loop patches carry up to 16 * 64 roundings amplified 50-fold (the bound
  // of loop_test); the frames, H and Hdot add a few hundred roundings at these
  // regular points of unit-size surfaces, well inside that bound.
  EXPECT_LT(worst, tolerance<double>(16 * 64, 50)) << where;
  report("double vs 50 digits, worst relative entry of E_2_1, H, Hdot and Hdot q' (frames 1 and 1c)", worst, where);
}
#endif  // CONTACTREF_HAS_REAL50

// ---------------------------------------------------------------------------
// Bad input.

using test::contains;
using test::error_of;


TEST(ContactKinematicsInput, NonFiniteCoordinatesAreInputErrors) {
  const surfaces::PlanePatch<double> plane;
  const surfaces::EllipsoidPatch<double> ball(Vec3<double>(1, 1, 1));
  const Vec5<double> q(1.1, 0.7, 0.4, 1.3, 0.9), qdot = Vec5<double>::Zero();
  for (int j = 0; j < 5; ++j) {
    Vec5<double> bad = q;
    bad(j) = std::numeric_limits<double>::quiet_NaN();
    const std::string e = error_of([&] { contact_kinematics<double>(ball, plane, bad, qdot); });
    EXPECT_TRUE(contains(e, "InputError: contact kinematics: the contact coordinates must be finite")) << e;
    bad = qdot;
    bad(j) = std::numeric_limits<double>::infinity();
    EXPECT_TRUE(contains(error_of([&] { contact_kinematics<double>(ball, plane, q, bad); }), "InputError"));
  }
}

// Finite jets and finite rates whose Hdot (Eq. 57 and thesis Eq. 4.18,
// linear in q') overflows: a ball of radius 1 km (its chart's derivatives of
// the order of the radius) at a rate s' or t' of 1e308; the kinematics'
// overflow check names the result, Hdot_1c or Hdot_1 (at 1e300, all finite).
TEST(ContactKinematicsInput, AnHdotThatOverflowsIsAComputationErrorNamingIt) {
  const surfaces::PlanePatch<double> plane;
  const surfaces::EllipsoidPatch<double> ball(Vec3<double>(1e3, 1e3, 1e3));
  const Vec5<double> q(1.1, 0.7, 0.4, 1.3, 0.9);
  EXPECT_NO_THROW(contact_kinematics<double>(ball, plane, q, Vec5<double>::Constant(1e300)));
  for (int k = 0; k < 2; ++k) {
    Vec5<double> qdot = Vec5<double>::Zero();
    qdot(k) = 1e308;
    const std::string e = error_of([&] { contact_kinematics<double>(ball, plane, q, qdot); });
    EXPECT_TRUE(contains(e, "ComputationError: contact kinematics: Hdot_1")) << k << ": " << e;
    EXPECT_TRUE(contains(e, " overflows (not representable) at q' = (")) << k << ": " << e;
  }
}

// The same for Hdot q', quadratic in q': on the 1 km ball (chart derivatives
// of order 1e3) its entries are of order 1e3 q'^2, finite at rates of 1e150
// and not representable at 1e160; a non-finite q' is an InputError.
TEST(ContactKinematicsInput, AnHdotQdotThatOverflowsIsAComputationErrorNamingIt) {
  const surfaces::PlanePatch<double> plane;
  const surfaces::EllipsoidPatch<double> ball(Vec3<double>(1e3, 1e3, 1e3));
  ContactRates<double> rates;
  set_configuration<double>(rates, ball, plane, Vec5<double>(1.1, 0.7, 0.4, 1.3, 0.9));
  EXPECT_NO_THROW(set_hdot_qdot<double>(rates, Vec5<double>::Constant(1e150)));
  for (int k = 0; k < 2; ++k) {
    Vec5<double> qdot = Vec5<double>::Zero();
    qdot(k) = 1e160;
    const std::string e = error_of([&] { set_hdot_qdot<double>(rates, qdot); });
    EXPECT_TRUE(contains(e, "ComputationError: contact kinematics: Hdot_1")) << k << ": " << e;
    EXPECT_TRUE(contains(e, " q' overflows (not representable) at q' = (")) << k << ": " << e;
    qdot(k) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_TRUE(contains(error_of([&] { set_hdot_qdot<double>(rates, qdot); }),
                         "InputError: contact kinematics: the contact coordinate rates must be finite"));
  }
}

TEST(ContactKinematicsInput, NonRegularPointsAreComputationErrorsNamingTheBody) {
  const surfaces::PlanePatch<double> plane;
  const surfaces::EllipsoidPatch<double> ball(Vec3<double>(1, 1, 1));
  const Vec5<double> qdot = Vec5<double>::Zero();
  // The ellipsoid's pole s = 0: c_t = 0.
  std::string e = error_of([&] { contact_kinematics<double>(ball, plane, Vec5<double>(0, 0.7, 0.4, 1.3, 0.9), qdot); });
  EXPECT_TRUE(contains(e, "ComputationError: contact kinematics, body 1: ellipsoid is not regular at (s, t) = (0, 0.7)"))
      << e;
  e = error_of([&] { contact_kinematics<double>(plane, ball, Vec5<double>(0.4, 1.3, 0, 0.7, 0.9), qdot); });
  EXPECT_TRUE(contains(e, "ComputationError: contact kinematics, body 2: ellipsoid is not regular")) << e;
  // A Loop face at its extraordinary vertex (the patch itself refuses).
  const surfaces::LoopSurface<double> icosphere(
      surfaces::read_triangle_mesh(contactref::test::source_dir() / "validation/fixtures/meshes/icosphere1.obj"),
      "icosphere1");
  for (int f = 0; f < icosphere.face_count(); ++f) {
    if (icosphere.kind(f) != surfaces::LoopPatchKind::kExtraordinary) continue;
    for (int corner = 0; corner < 3; ++corner) {
      if (icosphere.topology().valence(icosphere.topology().face(f)[std::size_t(corner)]) == 6) continue;
      const Vec2<double> x = icosphere.patch(f).domain().polygon[std::size_t(corner)];
      const Vec5<double> q(0, 0, x.x(), x.y(), 0);
      e = error_of([&] { contact_kinematics<double>(plane, icosphere.patch(f), q, qdot); });
      EXPECT_TRUE(contains(e, "ComputationError: contact kinematics, body 2: ")) << e;
    }
    break;
  }
  // A jet that overflows: the paraboloid's height at u = 1e200.
  const surfaces::ParaboloidPatch<double> paraboloid(1, 1);
  e = error_of([&] { contact_kinematics<double>(paraboloid, plane, Vec5<double>(1e200, 0, 0, 0, 0), qdot); });
  EXPECT_TRUE(contains(e, "ComputationError: contact kinematics, body 1: paraboloid evaluates to a non-finite jet")) << e;
}

// The curvature form (contact_frame.hpp) against the closed forms of the
// surfaces' principal curvatures about their outward normals: a sphere of
// radius r, 1/r both ways; an ellipsoid's poles, a / c^2 and b / c^2 along
// its axes; a torus (R, r) at tube angle t: 1/r round the tube and
// cos t / (R + r cos t) round the axis (negative on the inner half: a saddle).
TEST(ContactFrameCurvature, MatchesThePrincipalCurvaturesOfSphereEllipsoidAndTorus) {
  const auto principal = [](const Eigen::Matrix2d& K) {
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> solver(Eigen::Matrix2d((K + K.transpose()) / 2));
    return Eigen::Vector2d(solver.eigenvalues());  // increasing
  };
  const double tolerance = 1e-12;
  const surfaces::EllipsoidPatch<double> sphere(Vec3<double>(0.3, 0.3, 0.3));
  for (const auto& [s, t] : {std::pair{0.7, 0.2}, std::pair{1.9, -2.5}}) {
    const Eigen::Vector2d k = principal(curvature(contact_frame(sphere.evaluate(s, t))));
    EXPECT_NEAR(k(0), 1 / 0.3, tolerance);
    EXPECT_NEAR(k(1), 1 / 0.3, tolerance);
  }
  const double a = 0.5, b = 0.4, c = 0.3;
  const surfaces::EllipsoidPatch<double> ellipsoid(Vec3<double>(a, b, c));
  // The chart c(s, t) = (a cos s, b sin s cos t, c sin s sin t): s = pi/2,
  // t = pi/2 is the pole (0, 0, c), curvatures c / a^2 and c / b^2.
  const Eigen::Vector2d pole = principal(curvature(contact_frame(ellipsoid.evaluate(M_PI / 2, M_PI / 2))));
  EXPECT_NEAR(pole(0), c / (a * a), tolerance);
  EXPECT_NEAR(pole(1), c / (b * b), tolerance);
  const double R = 0.05, r = 0.02;
  const surfaces::TorusPatch<double> torus(R, r);
  for (const double t : {0.0, 1.0, M_PI / 2 + 0.3, M_PI}) {
    const Eigen::Vector2d k = principal(curvature(contact_frame(torus.evaluate(0.4, t))));
    const double around = std::cos(t) / (R + r * std::cos(t));
    EXPECT_NEAR(k(0), std::min(around, 1 / r), tolerance) << "t = " << t;
    EXPECT_NEAR(k(1), std::max(around, 1 / r), tolerance) << "t = " << t;
  }
}

}  // namespace
}  // namespace contactref::kinematics
