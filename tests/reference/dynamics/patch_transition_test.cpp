// Patch-boundary traversal (Kry & Pai Section 3.5, Eqs. 41-43; thesis Eqs.
// 4.52-4.54), checked against references that the code under test does not
// compute:
//  - the physical invariants: the relative pose E_2_1 (Eq. 9) and the relative
//    twist H_1 q' (Eq. 14) before and after a transition agree to round-off,
//    for transitions on body 1 and on body 2, across edges of regular Loop
//    faces, faces with an extraordinary vertex and split faces, at fractions
//    inside the edge and at its corners, against an analytic ellipsoid and
//    against another Loop surface, in double and in 50 digits. The pose check
//    is what fixes psi's sign (Eq. 42); the test also shows that the opposite
//    sign would fail it, so the check can tell the two apart;
//  - crossing back returns the original patch, edge, q and q';
//  - the normal row of H is the linear-z row in both contact frames;
//  - Eq. 43's singularity test: a cup conforming to a paraboloid (singular
//    only in exact arithmetic) is refused, one 10% flatter goes through;
//  - double against 50 digits; and the errors for bad input.
#include "reference/dynamics/patch_transition.hpp"

#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <algorithm>
#include <array>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "reference/spatial/adjoint.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scalars.hpp"
#include "tests/kit/tolerance.hpp"
#include "tests/kit/source_dir.hpp"
#include "tests/kit/report.hpp"

namespace contactref::dynamics {
namespace {

using kinematics::contact_kinematics;
using kinematics::ContactKinematics;
using kinematics::Mat65;
using surfaces::LoopPatchKind;
using surfaces::LoopSurface;
using surfaces::Patch;
using surfaces::Vec2;
using test::matrices_near;
using test::tolerance;

// ---------------------------------------------------------------------------
// The bodies, in both scalars, from the same doubles.

const std::array<std::string, 3> kMeshes = {"icosphere1.obj", "valences_3_to_10.obj", "bowl_b2.obj"};

// The other body: a small ellipsoid (principal curvatures >= 0.06 / 0.1^2 = 6,
// more than any of the unit-size Loop surfaces' concave curvatures, so that the
// contact is never conforming), or a regular face of icosphere1 (convex,
// curvature about 1) at an interior point.
enum class Other { kEllipsoid, kLoopFace };
const Vec2<double> kEllipsoidPoint(1.1, 0.7), kLoopFacePoint(0.31, 0.33);

template <class T>
class Bodies {
 public:
  Bodies() : ellipsoid_(Vec3<T>(T(0.1), T(0.08), T(0.06))) {
    for (const std::string& file : kMeshes) {
      meshes_[file] = std::make_unique<LoopSurface<T>>(
          surfaces::read_triangle_mesh(contactref::test::source_dir() / "validation/fixtures/meshes" / file),
          file);
    }
    const LoopSurface<T>& icosphere = mesh("icosphere1.obj");
    for (int f = 0; f < icosphere.face_count() && regular_face_ < 0; ++f)
      if (icosphere.kind(f) == LoopPatchKind::kRegular) regular_face_ = f;
  }
  const LoopSurface<T>& mesh(const std::string& file) const { return *meshes_.at(file); }
  const Patch<T>& other(Other which) const {
    return which == Other::kEllipsoid ? static_cast<const Patch<T>&>(ellipsoid_)
                                      : mesh("icosphere1.obj").patch(regular_face_);
  }
  static Vec2<double> other_point(Other which) { return which == Other::kEllipsoid ? kEllipsoidPoint : kLoopFacePoint; }

 private:
  std::map<std::string, std::unique_ptr<LoopSurface<T>>> meshes_;
  surfaces::EllipsoidPatch<T> ellipsoid_;
  int regular_face_ = -1;
};

template <class T>
const Bodies<T>& bodies() {
  static const Bodies<T> instance;
  return instance;
}

// One transition: body `body` crosses edge `edge` of face `face` of `mesh` at
// fraction alpha; the other body sits at its point; psi and q' seeded.
struct Case {
  std::string mesh;
  LoopPatchKind kind;
  int face, edge, body;
  double alpha;
  Other other;
  Vec5<double> q, qdot;  // q's entries of `body` are replaced by the edge point
  std::string label() const {
    static const char* kinds[] = {"regular", "extraordinary", "split"};
    return mesh + " face " + std::to_string(face) + " (" + kinds[int(kind)] + ") edge " + std::to_string(edge) +
           " alpha " + std::to_string(alpha) + ", body " + std::to_string(body) + " crosses, other " +
           (other == Other::kEllipsoid ? "ellipsoid" : "loop face");
  }
};

// For every mesh and face kind, the first two faces of that kind, each of
// their edges at alpha = 0.13, 0.5, 0.77, and at the corners alpha = 0, 1
// where the corner vertex has valence 6 (a Loop patch is not regular at an
// extraordinary vertex: tested below).
std::vector<Case> cases() {
  test::Rng rng(test::kSeed + 700);
  std::vector<Case> all;
  for (const std::string& file : kMeshes) {
    const LoopSurface<double>& surface = bodies<double>().mesh(file);
    for (LoopPatchKind kind : {LoopPatchKind::kRegular, LoopPatchKind::kExtraordinary, LoopPatchKind::kSplit}) {
      int found = 0;
      for (int f = 0; f < surface.face_count() && found < 2; ++f) {
        if (surface.kind(f) != kind) continue;
        ++found;
        for (int e = 0; e < 3; ++e) {
          std::vector<double> alphas = {0.13, 0.5, 0.77};
          if (surface.topology().valence(surface.topology().face(f)[std::size_t(e)]) == 6) alphas.push_back(0);
          if (surface.topology().valence(surface.topology().face(f)[std::size_t(e + 1) % 3]) == 6) alphas.push_back(1);
          for (double alpha : alphas) {
            for (int body = 1; body <= 2; ++body) {
              for (Other other : {Other::kEllipsoid, Other::kLoopFace}) {
                Case c{file, kind, f, e, body, alpha, other, {}, {}};
                const Vec2<double> x = Bodies<double>::other_point(other);
                c.q << 0.3, 0.3, 0.3, 0.3, fixtures::uniform(rng, -3, 3);
                c.q.segment<2>(body == 1 ? 2 : 0) = x;
                for (int j = 0; j < 5; ++j) c.qdot(j) = fixtures::uniform(rng, -1, 1);
                all.push_back(c);
              }
            }
          }
        }
      }
    }
  }
  return all;
}

template <class T>
struct Outcome {
  Vec5<T> q_A;  // q with the edge point (Eq. 41), computed here
  PatchTransition<T> transition;
  ContactKinematics<T> before, after;
};

template <class T>
Outcome<T> run(const Case& c) {
  const Bodies<T>& b = bodies<T>();
  const surfaces::PatchComplex<T>& complex = b.mesh(c.mesh).complex();
  const Patch<T>& other = b.other(c.other);
  const Vec5<T> q = c.q.cast<T>(), qdot = c.qdot.cast<T>();
  const T alpha(c.alpha);
  Outcome<T> out;
  out.transition = transit_edge<T>(complex, c.body, c.face, c.edge, alpha, other, q, qdot);
  const auto& polygon = complex.patches[std::size_t(c.face)]->domain().polygon;
  out.q_A = q;
  out.q_A.template segment<2>(c.body == 1 ? 0 : 2) =
      polygon[std::size_t(c.edge)] + alpha * (polygon[std::size_t(c.edge + 1) % 3] - polygon[std::size_t(c.edge)]);
  const Patch<T>& A = *complex.patches[std::size_t(c.face)];
  const Patch<T>& B = *complex.patches[std::size_t(out.transition.to_patch)];
  out.before =
      c.body == 1 ? contact_kinematics<T>(A, other, out.q_A, qdot) : contact_kinematics<T>(other, A, out.q_A, qdot);
  out.after = c.body == 1 ? contact_kinematics<T>(B, other, out.transition.q, out.transition.qdot)
                          : contact_kinematics<T>(other, B, out.transition.q, out.transition.qdot);
  return out;
}

// The 5 x 5 matrix of Eq. 43 rebuilt here (rows 0..4 of H in the other body's
// contact frame), for the condition number that bounds the round trip of q'.
template <class T>
Eigen::Matrix<T, 5, 5> hhat(const ContactKinematics<T>& k, int body) {
  const Mat65<T> H = body == 1 ? Mat65<T>(spatial::adjoint(k.E_1c_2c) * k.H_1c) : k.H_1c;
  return H.template topRows<5>();
}
template <class T>
double condition(const Eigen::Matrix<T, 5, 5>& M) {
  const Eigen::JacobiSVD<Eigen::Matrix<double, 5, 5>> svd(M.template cast<double>());
  return svd.singularValues()(0) / svd.singularValues()(4);
}

template <class T>
class PatchTransitionTyped : public ::testing::Test {};
using test::Scalars;
TYPED_TEST_SUITE(PatchTransitionTyped, Scalars);

// The physical invariants: E_2_1 and H_1 q' are the same before and after.
TYPED_TEST(PatchTransitionTyped, PoseAndTwistAreUnchanged) {
  using T = TypeParam;
  const bool in_double = std::is_same_v<T, double>;
  const std::vector<Case> all = cases();
  double worst_pose[2] = {0, 0}, worst_twist[2] = {0, 0};
  int discriminating[2] = {0, 0};
  std::map<std::string, int> counted;
  for (const Case& c : all) {
    const Outcome<T> o = run<T>(c);
    const int b = c.body - 1;
    ++counted[c.mesh + " " +
              (c.kind == LoopPatchKind::kRegular         ? "regular"
               : c.kind == LoopPatchKind::kExtraordinary ? "extraordinary"
                                                         : "split")];
    // The neighbour is the complex's link (the only neighbour there is).
    const surfaces::EdgeLink link = bodies<T>().mesh(c.mesh).complex().links[std::size_t(c.face)][std::size_t(c.edge)];
    EXPECT_EQ(o.transition.to_patch, link.patch) << c.label();
    EXPECT_EQ(o.transition.to_edge, link.edge) << c.label();
    // The other body's coordinates are untouched.
    const Eigen::Index j = c.body == 1 ? 2 : 0;
    EXPECT_TRUE(o.transition.q.template segment<2>(j) == o.q_A.template segment<2>(j)) << c.label();

    // Pose: E_2_1 (unit-size entries) passes through the two patches' Loop
    // evaluations at the same surface point (position and normal continuous
    // across edges to 1024 eps: the Loop tests), the frames of Eq. 5 (~50
    // roundings), atan2, cos and sin of psi and two 4 x 4 products: 4096 eps.
    const T pose_bound = tolerance<T>(4096);
    EXPECT_TRUE(matrices_near(o.after.E_2_1, o.before.E_2_1, pose_bound)) << c.label();
    worst_pose[b] = std::max(worst_pose[b], double((o.after.E_2_1 - o.before.E_2_1).cwiseAbs().maxCoeff()));

    // Twist: Eq. 43 solved by a backward-stable QR leaves a residual of a few
    // eps |Hhat^B| |q'^B|; mapping both sides to frame 1 adds the pose error
    // times |phi|. So the bound scales with |H^A| |q'^A| + |H^B| |q'^B|.
    const Vec6<T> phi_before = o.before.H_1 * c.qdot.cast<T>(), phi_after = o.after.H_1 * o.transition.qdot;
    const T scale = o.before.H_1.cwiseAbs().maxCoeff() * c.qdot.cast<T>().template lpNorm<1>() +
                    o.after.H_1.cwiseAbs().maxCoeff() * o.transition.qdot.template lpNorm<1>();
    EXPECT_TRUE(matrices_near(phi_after, phi_before, tolerance<T>(4096) * scale, test::kAbsolute)) << c.label();
    worst_twist[b] = std::max(worst_twist[b], double((phi_after - phi_before).cwiseAbs().maxCoeff() / scale));

    // Eq. 42's sign: with psi^A - theta instead of psi^A + theta the pose
    // changes, wherever theta is not 0 or pi, far beyond the bound above; so
    // the pose check confirms the sign, for body 1 and for body 2.
    using std::abs;
    using std::sin;
    const T theta = o.transition.q(4) - o.q_A(4);
    if (abs(sin(theta)) > T(0.1)) {
      Vec5<T> q_wrong = o.transition.q;
      q_wrong(4) = o.q_A(4) - theta;
      const Patch<T>& B = *bodies<T>().mesh(c.mesh).complex().patches[std::size_t(o.transition.to_patch)];
      const Patch<T>& other = bodies<T>().other(c.other);
      const Mat4<T> E_wrong = (c.body == 1 ? contact_kinematics<T>(B, other, q_wrong, o.transition.qdot)
                                           : contact_kinematics<T>(other, B, q_wrong, o.transition.qdot))
                                  .E_2_1;
      EXPECT_GT((E_wrong - o.before.E_2_1).cwiseAbs().maxCoeff(), T(1e-3)) << c.label();
      ++discriminating[b];
    }
  }
  // Every kind of face is crossed: regular and extraordinary on icosphere1,
  // all three on valences_3_to_10, extraordinary and split on the bowl.
  for (const auto& [what, n] : counted) test::report("transition", "transitions from " + what, n);
  for (const char* what : {"icosphere1.obj regular", "icosphere1.obj extraordinary", "valences_3_to_10.obj regular",
                           "valences_3_to_10.obj extraordinary", "valences_3_to_10.obj split",
                           "bowl_b2.obj extraordinary", "bowl_b2.obj split"})
    EXPECT_GT(counted[what], 0) << what;
  for (int b = 0; b < 2; ++b) {
    EXPECT_GT(discriminating[b], 10) << "body " << b + 1 << ": too few transitions turn the frame to tell psi's sign";
    const std::string which = std::string(in_double ? "double" : "50 digits") + ", body " + std::to_string(b + 1);
    test::report("transition", "E_2_1 after - before, worst entry, " + which, worst_pose[b]);
    test::report("transition", "H_1 q' after - before, worst entry / (|H||q'| scale), " + which, worst_twist[b]);
    test::report("transition", "transitions whose frame turn tells psi's sign, " + which, discriminating[b]);
  }
  test::report("transition", std::string("transitions checked, ") + (in_double ? "double" : "50 digits"), double(all.size()));
}

// Crossing back across the returned edge at 1 - alpha undoes the transition.
TYPED_TEST(PatchTransitionTyped, CrossingBackRestoresPatchEdgeAndCoordinates) {
  using T = TypeParam;
  double worst_q = 0, worst_qdot = 0;
  for (const Case& c : cases()) {
    const Outcome<T> o = run<T>(c);
    const PatchTransition<T> back =
        transit_edge<T>(bodies<T>().mesh(c.mesh).complex(), c.body, o.transition.to_patch, o.transition.to_edge,
                        T(1) - T(c.alpha), bodies<T>().other(c.other), o.transition.q, o.transition.qdot);
    EXPECT_EQ(back.to_patch, c.face) << c.label();
    EXPECT_EQ(back.to_edge, c.edge) << c.label();
    // q: the edge point via 1 - (1 - alpha) (2 roundings) and psi + theta -
    // theta', theta' the same angle from the same two frames (its atan2 of
    // ~20 roundings on |psi| <= 3 + pi): 64 eps.
    EXPECT_TRUE(matrices_near(back.q, o.q_A, tolerance<T>(64))) << c.label();
    worst_q = std::max(worst_q, double((back.q - o.q_A).cwiseAbs().maxCoeff()));
    // q': two solves of Eq. 43, each exact up to backward error ~64 eps in Hhat,
    // amplified by the condition numbers of Hhat^B and Hhat^A.
    const double cond = condition(hhat(o.after, c.body)) + condition(hhat(o.before, c.body));
    const Vec5<T> qdot = c.qdot.cast<T>();
    EXPECT_TRUE(matrices_near(back.qdot, qdot, tolerance<T>(64, cond))) << c.label();
    worst_qdot = std::max(worst_qdot, double((back.qdot - qdot).cwiseAbs().maxCoeff()) / cond);
  }
  const std::string which = std::is_same_v<T, double> ? "double" : "50 digits";
  test::report("transition", "round trip, q worst entry, " + which, worst_q);
  test::report("transition", "round trip, q' worst entry / condition, " + which, worst_qdot);
}

// Eq. 43 drops the row that is zero in the contact frames: check which one.
TYPED_TEST(PatchTransitionTyped, NormalRowIsTheLinearZRowInBothContactFrames) {
  using T = TypeParam;
  using std::abs;
  const std::vector<Case> all = cases();
  for (std::size_t n = 0; n < all.size(); n += 7) {
    const Outcome<T> o = run<T>(all[n]);
    for (const ContactKinematics<T>* k : {&o.before, &o.after}) {
      const Mat65<T> H_2c = spatial::adjoint(k->E_1c_2c) * k->H_1c;
      for (const Mat65<T>* H : {&k->H_1c, &H_2c}) {
        EXPECT_TRUE(H->row(5).isZero(0)) << all[n].label();
        for (int row = 0; row < 5; ++row) EXPECT_GT(H->row(row).cwiseAbs().maxCoeff(), T(1e-3)) << all[n].label();
        EXPECT_EQ(abs((*H)(2, 4)), T(1)) << "the spin entry";
      }
    }
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
// double against the 50-digit referee: the new q and q'.
TEST(PatchTransition, DoubleAgreesWith50Digits) {
  double worst_q = 0, worst_qdot = 0;
  for (const Case& c : cases()) {
    const Outcome<double> d = run<double>(c);
    const Outcome<Real50> r = run<Real50>(c);
    // q: the parameters are exact edge-point arithmetic; psi passes through the
    // Loop evaluations (double vs 50 digits within 16 * 64 * 50 eps: Loop
    // tests) and atan2 of unit vectors.
    // psi is compared modulo 2 pi: where x^B = -x^A (theta = +-pi, e.g. two
    // faces whose x axes both run along the shared edge) the sign of the
    // round-off in (x^A x x^B) . z picks the branch.
    Vec5<Real50> difference = d.transition.q.cast<Real50>() - r.transition.q;
    const Real50 two_pi = 2 * boost::math::constants::pi<Real50>();
    difference(4) -= two_pi * round(difference(4) / two_pi);
    EXPECT_TRUE(matrices_near(difference, Vec5<Real50>::Zero().eval(), Real50(test::tolerance<double>(16 * 64 * 50)),
                              test::kAbsolute))
        << c.label();
    worst_q = std::max(worst_q, double(difference.cwiseAbs().maxCoeff()));
    // q': those errors in Hhat amplified by its condition number.
    const double cond = condition(hhat(r.after, c.body));
    EXPECT_TRUE(matrices_near(d.transition.qdot.cast<Real50>().eval(), r.transition.qdot,
                              Real50(test::tolerance<double>(16 * 64 * 50, cond))))
        << c.label();
    worst_qdot = std::max(worst_qdot,
                          double((d.transition.qdot.cast<Real50>() - r.transition.qdot).cwiseAbs().maxCoeff()) / cond);
  }
  test::report("transition", "double vs 50 digits, q worst entry", worst_q);
  test::report("transition", "double vs 50 digits, q' worst entry / condition", worst_qdot);
}
#endif  // CONTACTREF_HAS_REAL50

// ---------------------------------------------------------------------------
// Bad input.

using test::contains;
using test::error_of;

// A flat bicubic square c(s, t) = (s + offset, t, 0) over [0, 1]^2.
std::unique_ptr<surfaces::BezierPatch<double>> flat_square(double offset) {
  std::array<Vec3<double>, 16> net;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) net[std::size_t(4 * i + j)] = Vec3<double>(i / 3.0 + offset, j / 3.0, 0);
  return std::make_unique<surfaces::BezierPatch<double>>(net);
}

// A bicubic square carrying the paraboloid cup z = ((x - x0)^2 + (y - y0)^2) / 2
// over (x, y) = (s, t) + offset, curvature 1 at its apex (x0, y0), bending
// toward its normal +z: the cubic Bernstein coefficients of 1, s, s^2 are
// (1, 1, 1, 1), (0, 1/3, 2/3, 1) and (0, 0, 1/3, 1).
std::unique_ptr<surfaces::BezierPatch<double>> cup_square(const Vec2<double>& offset, const Vec2<double>& apex) {
  const double s2[4] = {0, 0, 1.0 / 3, 1};
  const auto half_square = [&](int i, double a) { return (a * a + 2 * a * i / 3.0 + s2[i]) / 2; };  // (s + a)^2 / 2
  std::array<Vec3<double>, 16> net;
  const Vec2<double> a = offset - apex;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      net[std::size_t(4 * i + j)] =
          Vec3<double>(offset.x() + i / 3.0, offset.y() + j / 3.0, half_square(i, a.x()) + half_square(j, a.y()));
  return std::make_unique<surfaces::BezierPatch<double>>(net);
}

// Eq. 43's singularity threshold against a contact that is conforming only in
// exact arithmetic (the round-off of curved surfaces, not the exact zeros of
// two planes): the cup's apex, on the shared edge of its two squares, against
// a paraboloid bending the other way with curvature -1 (K1 + K~2 = 0); and a
// paraboloid 10% flatter, which the threshold must let through (the pose and
// twist checks above then hold).
TEST(PatchTransition, ConformingContactIsDetectedAndNearConformingIsNot) {
  surfaces::PatchComplex<double> cup;
  const Vec2<double> apex(1, 0.5);
  cup.patches.push_back(cup_square(Vec2<double>(0, 0), apex));
  cup.patches.push_back(cup_square(Vec2<double>(1, 0), apex));
  cup.links = {{{-1, -1}, {1, 3}, {-1, -1}, {-1, -1}}, {{-1, -1}, {-1, -1}, {-1, -1}, {0, 1}}};
  const Vec5<double> qdot(0.1, -0.2, 0.3, 0.1, 0.4);
  for (int body = 1; body <= 2; ++body) {
    const Vec5<double> q = body == 1 ? Vec5<double>(0.3, 0.3, 0, 0, 0.7) : Vec5<double>(0, 0, 0.3, 0.3, 0.7);
    const surfaces::ParaboloidPatch<double> conforming(-1, -1), flatter(-0.9, -0.9);
    const std::string e = error_of([&] { transit_edge<double>(cup, body, 0, 1, 0.5, conforming, q, qdot); });
    EXPECT_TRUE(contains(e, "ComputationError: patch transition, body " + std::to_string(body) +
                                ", edge 1 of bezier into bezier: Eq. 43 is singular (conforming contact)"))
        << e;
    std::cerr << "[transition] conforming cup: " << e << "\n";
    const PatchTransition<double> t = transit_edge<double>(cup, body, 0, 1, 0.5, flatter, q, qdot);
    Vec5<double> q_A = q;
    q_A.segment<2>(body == 1 ? 0 : 2) = apex;
    const auto kinematics_on = [&](const Patch<double>& patch, const Vec5<double>& q_p, const Vec5<double>& qdot_p) {
      return body == 1 ? contact_kinematics<double>(patch, flatter, q_p, qdot_p)
                       : contact_kinematics<double>(flatter, patch, q_p, qdot_p);
    };
    const ContactKinematics<double> before = kinematics_on(*cup.patches[0], q_A, qdot);
    const ContactKinematics<double> after = kinematics_on(*cup.patches[1], t.q, t.qdot);
    EXPECT_TRUE(matrices_near(after.E_2_1, before.E_2_1, tolerance<double>(4096)));
    // Hhat is ill-conditioned here (|K1 + K~2| = 0.1): its condition enters the bound.
    const double cond = condition(hhat(after, body));
    EXPECT_TRUE(matrices_near(Vec6<double>(after.H_1 * t.qdot), Vec6<double>(before.H_1 * qdot),
                              tolerance<double>(4096, cond)));
    test::report("transition", "near-conforming cup, body " + std::to_string(body) + ", condition of Hhat", cond);
  }
}

TEST(PatchTransitionInput, BadArgumentsAreInputErrorsNamingTheField) {
  const LoopSurface<double>& icosphere = bodies<double>().mesh("icosphere1.obj");
  const auto& complex = icosphere.complex();
  const Patch<double>& other = bodies<double>().other(Other::kEllipsoid);
  const Vec5<double> q(0.3, 0.3, 1.1, 0.7, 0.2), qdot(0.1, -0.2, 0.3, 0.1, 0.4);
  const auto transit = [&](int body, int patch, int edge, double alpha) {
    return error_of([&] { transit_edge<double>(complex, body, patch, edge, alpha, other, q, qdot); });
  };
  for (int body : {0, 3}) {
    const std::string e = transit(body, 0, 0, 0.5);
    EXPECT_TRUE(contains(e, "InputError: patch transition: body must be 1 or 2, got " + std::to_string(body))) << e;
  }
  std::string e = transit(1, 80, 0, 0.5);
  EXPECT_TRUE(
      contains(e, "InputError: patch transition, body 1: patch 80 is out of range (the complex has 80 patches)"))
      << e;
  e = transit(1, -1, 0, 0.5);
  EXPECT_TRUE(contains(e, "InputError: patch transition, body 1: patch -1 is out of range")) << e;
  for (int edge : {-1, 3}) {
    e = transit(2, 4, edge, 0.5);
    EXPECT_TRUE(contains(e, "InputError: patch transition, body 2: edge " + std::to_string(edge) + " of " +
                                icosphere.patch(4).describe() + " is out of range (it has 3 edges)"))
        << e;
  }
  for (double alpha : {1.5, -0.25, std::numeric_limits<double>::quiet_NaN()}) {
    e = transit(1, 4, 2, alpha);
    EXPECT_TRUE(contains(e, "InputError: patch transition, body 1, edge 2 of " + icosphere.patch(4).describe() +
                                ": the fraction along the edge must be in [0, 1], got "))
        << e;
  }
  // A chart has no edges.
  surfaces::PatchComplex<double> charts;
  charts.patches.push_back(std::make_unique<surfaces::PlanePatch<double>>());
  charts.links = {{}};
  e = error_of([&] { transit_edge<double>(charts, 1, 0, 0, 0.5, other, q, qdot); });
  EXPECT_TRUE(contains(e, "InputError: patch transition, body 1: plane is a chart: it has no edges to cross")) << e;
  // A link to a patch or edge that does not exist.
  surfaces::PatchComplex<double> broken;
  broken.patches.push_back(flat_square(0));
  broken.links = {{{0, 7}, {3, 0}, {-1, -1}, {-1, -1}}};
  e = error_of([&] { transit_edge<double>(broken, 2, 0, 0, 0.5, other, q, qdot); });
  EXPECT_TRUE(contains(e,
                       "InputError: patch transition, body 2, edge 0 of bezier: the complex links it to edge 7 of "
                       "patch 0, which does not exist"))
      << e;
  e = error_of([&] { transit_edge<double>(broken, 2, 0, 1, 0.5, other, q, qdot); });
  EXPECT_TRUE(contains(e, "edge 0 of patch 3, which does not exist")) << e;
}

TEST(PatchTransitionInput, OpenEdgesAndConformingContactAreComputationErrors) {
  const surfaces::PlanePatch<double> plane;
  const Vec5<double> q(0.3, 0.3, 1.1, 0.7, 0.2), qdot(0.1, -0.2, 0.3, 0.1, 0.4);
  // One flat square, no neighbours: the contact leaves the surface, whether
  // links says patch -1 or has no entry.
  surfaces::PatchComplex<double> open;
  open.patches.push_back(flat_square(0));
  open.links = {{{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}}};
  for (int body = 1; body <= 2; ++body) {
    const std::string e = error_of([&] { transit_edge<double>(open, body, 0, 2, 0.5, plane, q, qdot); });
    EXPECT_TRUE(contains(e, "ComputationError: patch transition, body " + std::to_string(body) +
                                ": the contact left the surface at edge 2 of bezier"))
        << e;
  }
  open.links.clear();
  std::string e = error_of([&] { transit_edge<double>(open, 1, 0, 1, 0.5, plane, q, qdot); });
  EXPECT_TRUE(
      contains(e, "ComputationError: patch transition, body 1: the contact left the surface at edge 1 of bezier"))
      << e;
  // Two flat squares side by side (edge 1 of the first, x = 1, is edge 3 of the
  // second) against a plane: conforming contact, Eq. 43 is singular.
  surfaces::PatchComplex<double> flat;
  flat.patches.push_back(flat_square(0));
  flat.patches.push_back(flat_square(1));
  flat.links = {{{-1, -1}, {1, 3}, {-1, -1}, {-1, -1}}, {{-1, -1}, {-1, -1}, {-1, -1}, {0, 1}}};
  for (int body = 1; body <= 2; ++body) {
    e = error_of([&] { transit_edge<double>(flat, body, 0, 1, 0.4, plane, q, qdot); });
    EXPECT_TRUE(contains(e, "ComputationError: patch transition, body " + std::to_string(body) +
                                ", edge 1 of bezier into bezier: Eq. 43 is singular (conforming contact)"))
        << e;
  }
  // A corner at an extraordinary vertex: Loop patches are not regular there.
  const LoopSurface<double>& icosphere = bodies<double>().mesh("icosphere1.obj");
  for (int f = 0; f < icosphere.face_count(); ++f) {
    if (icosphere.kind(f) != LoopPatchKind::kExtraordinary) continue;
    for (int corner = 0; corner < 3; ++corner) {
      if (icosphere.topology().valence(icosphere.topology().face(f)[std::size_t(corner)]) == 6) continue;
      const int edge = (corner + 2) % 3;  // ends at the corner: alpha = 1
      e = error_of([&] {
        transit_edge<double>(icosphere.complex(), 2, f, edge, 1.0, bodies<double>().other(Other::kEllipsoid),
                             Vec5<double>(1.1, 0.7, 0.3, 0.3, 0.2), qdot);
      });
      EXPECT_TRUE(contains(e, "ComputationError: patch transition, body 2, edge " + std::to_string(edge) + " of " +
                                  icosphere.patch(f).describe() + ": contact kinematics, body 2: "))
          << e;
    }
    break;
  }
}

}  // namespace
}  // namespace contactref::dynamics
