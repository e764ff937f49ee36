#include "validation/audit/dynamics_audit.hpp"

#include "reference/dynamics/collision_law.hpp"
#include "reference/dynamics/contact_dynamics.hpp"
#include "reference/dynamics/contact_modes.hpp"
#include "reference/spatial/rk4.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "validation/audit/precision_comparison.hpp"
#include "validation/build_info.hpp"

namespace contactref::audit {
#if CONTACTREF_HAS_REAL50  // double against 50 digits: release build only (core/scalar.hpp)
namespace {

namespace su = contactref::surfaces;
using fixtures::Rng;
using dynamics::Vec10;
using dynamics::Vec5;

constexpr int kDynamicsSamples = 50;

// Body 1: the B.2 bowl (0.0872 m per unit); body 2: an ellipsoid (curved
// differently, so the contact is never conforming).
template <class T>
const su::LoopSurface<T>& bowl() {
  static const su::LoopSurface<T> surface = [] {
    su::TriangleMesh mesh =
        su::read_triangle_mesh(std::string(build_info::source_dir) + "/validation/fixtures/meshes/bowl_b2.obj");
    for (auto& x : mesh.vertices) x *= 0.0872;
    return su::LoopSurface<T>(mesh, "bowl");
  }();
  return surface;
}

template <class T>
const su::EllipsoidPatch<T>& ellipsoid() {
  static const su::EllipsoidPatch<T> patch(Vec3<T>(T(0.5), T(0.4), T(0.3)));
  return patch;
}

// A contact state: a point of bowl face `face` (split face 0 or a Stam face),
// a point of the ellipsoid away from its poles, psi, and q'.
auto draw_state = [](Rng& rng) {
  const double s = fixtures::uniform(rng, 0.02, 0.96);
  Vec5<double> q;
  q << s, fixtures::uniform(rng, 0.02, 0.97 - s), fixtures::uniform(rng, 2.0, 2.8), fixtures::uniform(rng, 0.0, 6.28),
      fixtures::uniform(rng, -3.1, 3.1);
  Vec5<double> qdot;
  for (int k = 0; k < 5; ++k) qdot(k) = fixtures::uniform(rng, -1, 1);
  return std::make_tuple(q, qdot);
};

template <class T>
kinematics::ContactKinematics<T> kinematics_at(int face, const Vec5<T>& q, const Vec5<T>& qdot) {
  return kinematics::contact_kinematics<T>(bowl<T>().patch(face), ellipsoid<T>(), q, qdot);
}

template <class T>
dynamics::ContactDynamics<T> dynamics_on(int face) {
  const Vec3<T> moments(T(1.5e-3), T(1.5e-3), T(1.8e-3));
  return dynamics::ContactDynamics<T>(T(0.81), Mat3<T>(moments.asDiagonal()), bowl<T>().patch(face), ellipsoid<T>(),
                                      Mat4<T>::Identity(), Vec3<T>(T(0), T(0), T(-9.81)));
}

// The matrix select(kinematics) on faces 0 and 1, side by side.
template <class Select>
auto on_both_faces(Select select) {
  return [select](const auto& q, const auto& qdot) {
    using T = typename std::decay_t<decltype(q)>::Scalar;
    Eigen::Matrix<T, 6, 10> both;
    both << select(kinematics_at<T>(0, q, qdot)), select(kinematics_at<T>(1, q, qdot));
    return both;
  };
}

template <class Op>
validation::AuditEntrySpec entry(std::string name, std::string summary, std::uint64_t seed, Op op, double min_digits = 13) {
  return {std::move(name), std::move(summary),
          [seed, op] { return compare_double_with_50_digits(kDynamicsSamples, seed, draw_state, op); }, min_digits};
}

// The friction modes (contact_modes.hpp) on face 0 of the bowl: the state
// (q, r') of `mode` with r' taken from q' (reduced_velocities), and a law with
// Coulomb friction and rolling, spinning and viscous resistance (thesis Eqs.
// 4.27-4.29), so that every term of each mode's r'' is exercised.
using dynamics::ContactMode;

template <class T>
dynamics::StateVector<T> mode_state(ContactMode mode, const Vec5<T>& q, const Vec5<T>& qdot) {
  const auto configuration = kinematics::contact_configuration<T>(bowl<T>().patch(0), ellipsoid<T>(), q);
  const dynamics::ReducedVector<T> rdot = dynamics::reduced_velocities<T>(mode, configuration.H_1c, qdot);
  dynamics::StateVector<T> y(5 + rdot.size());
  y << q, rdot;
  return y;
}

// (q', r'') of `mode` at the drawn state.
auto in_mode(ContactMode mode) {
  return [mode](const auto& q, const auto& qdot) {
    using T = typename std::decay_t<decltype(q)>::Scalar;
    const dynamics::FrictionLaw<T> law{T(0.3), T(2e-3), T(3e-3), T(1e-4)};
    return dynamics::StateVector<T>(dynamics_on<T>(0).evaluate(mode, mode_state<T>(mode, q, qdot), law).derivative);
  };
}

// An impact: a random box (mass, inertia) struck at r (up to 1 m from its
// centre of mass) along a random unit normal n with an approaching velocity
// u, and e, e_t in [0, 1] and mu in [0, 2] (sticking and sliding impacts).
auto draw_impact = [](Rng& rng) {
  const auto [m, I] = fixtures::random_inertia(rng);
  const Vec3<double> r = fixtures::random_vector3(rng);
  Vec3<double> n = fixtures::random_vector3(rng);
  n /= n.norm();
  Vec3<double> u = fixtures::random_vector3(rng, 3.0);
  if (n.dot(u) > 0) u -= 2 * n.dot(u) * n;
  return std::make_tuple(m, I, r, n, u, fixtures::uniform(rng, 0, 1), fixtures::uniform(rng, 0, 1),
                         fixtures::uniform(rng, 0, 2));
};

}  // namespace

std::vector<validation::AuditEntrySpec> dynamics_audit_entries() {
  // Face 0 is split (three extraordinary vertices), face 1 has one (Stam).
  return {
      entry("kinematics.H_1c", "H in frame 1c (Eqs. 44-56), bowl on ellipsoid, split and Stam faces", 501,
            on_both_faces([](const auto& k) { return k.H_1c; })),
      entry("kinematics.Hdot_1c", "Hdot in frame 1c (Eq. 57), bowl on ellipsoid", 502,
            on_both_faces([](const auto& k) { return k.Hdot_1c; })),
      entry("dynamics.qddot", "q'' of Eq. 20 (Cholesky of H^T M H), bowl on ellipsoid under gravity", 503,
            [](const auto& q, const auto& qdot) {
              using T = typename std::decay_t<decltype(q)>::Scalar;
              return dynamics_on<T>(0).evaluate(dynamics::make_state<T>(q, qdot)).qddot;
            }),
      entry("dynamics.rk4_step", "one 1 ms RK4 step of the reduced-coordinate ODE", 504,
            [](const auto& q, const auto& qdot) {
              using T = typename std::decay_t<decltype(q)>::Scalar;
              const dynamics::ContactDynamics<T> dyn = dynamics_on<T>(1);
              const Vec10<T> y = dynamics::make_state<T>(q, qdot);
              const auto f = [&](const Vec10<T>& x) { return dyn.derivative(x); };
              return spatial::rk4_step_autonomous<T>(f, y, Vec10<T>(f(y)), T(1e-3));
            }),
      // 12 digits for sliding and no-roll, from the conditioning of r''
      // (measured per sample with the terms of Eqs. 24-28): the error stays
      // within about eps times the condition of F M H_r times the
      // cancellation in F b (|F_i| |b| / |F_i b|). Sliding: the non-symmetric
      // solve's condition reaches 52 and, on that sample, the cancellation
      // 55: 2.9e3 eps = 6.4e-13 (12.2 digits; measured 3.3e-13). No-roll: its
      // one row is the torque about the contact normal, where gravity's
      // moment cancels by up to 2.8e3 (a normal close to the line through
      // the centre of mass); measured within 1.6 eps of that factor: 12.35.
      entry("dynamics.sliding", "(q', q'') while sliding: Coulomb friction (Eq. 21) with rolling, spinning and "
            "viscous resistance; needs 12 digits (the solve's condition times its right side's cancellation)", 506,
            in_mode(ContactMode::kSliding), 12),
      entry("dynamics.no_slip", "(q', r'') of no-slip (Eqs. 29-34, r' = (u', v', psi')) with rolling and spinning "
            "resistance", 507, in_mode(ContactMode::kNoSlip)),
      entry("dynamics.no_spin", "(q', r'') of no-spin (Eqs. 36-39, r' = (u', v')) with rolling resistance", 508,
            in_mode(ContactMode::kNoSpin)),
      entry("dynamics.no_roll", "(q', r'') of no-roll (r' = psi': slip and rolling held) with spinning resistance; "
            "needs 12 digits (the torque about the normal cancels)", 509, in_mode(ContactMode::kNoRoll), 12),
      entry("dynamics.sliding_no_roll_no_spin", "(q', r'') of a sliding mode that holds rolling and spin (r' the "
            "free rows of phi_1c, q' = H5^-1 E r')", 510, in_mode(ContactMode::kSlidingNoRollNoSpin)),
      entry("dynamics.mode_jacobians", "P, H_r, Pdot r' and Hdot_r r' of no-slip and no-spin (Hdot_r r' = Hdot_1 q' + "
            "H_1 Pdot r', Ddot and Gdot derived in contact_modes.hpp)", 511,
            [](const auto& q, const auto& qdot) {
              using T = typename std::decay_t<decltype(q)>::Scalar;
              const auto configuration = kinematics::contact_configuration<T>(bowl<T>().patch(0), ellipsoid<T>(), q);
              Eigen::Matrix<T, 11, 7> all;  // per mode: (P; H_r) and (Pdot r'; Hdot_r r')
              int column = 0;
              for (const ContactMode mode : {ContactMode::kNoSlip, ContactMode::kNoSpin}) {
                const dynamics::ReducedVector<T> rdot = dynamics::reduced_velocities<T>(mode, configuration.H_1c, qdot);
                kinematics::ContactRates<T> k{configuration, {}, {}};
                const auto m = dynamics::mode_kinematics<T>(mode, k, rdot);
                const auto n = Eigen::Index(rdot.size());
                all.block(0, column, 11, n + 1) << m.P, m.Pdot_rdot, m.H_r, m.Hdot_r_rdot;
                column += int(n) + 1;
              }
              return all;
            }),
      entry("dynamics.mode_projection", "the plastic projection onto no-slip's and no-spin's velocities (r' = "
            "(H_r^T M H_r)^-1 H_r^T M phi)", 512,
            [](const auto& q, const auto& qdot) {
              using T = typename std::decay_t<decltype(q)>::Scalar;
              const dynamics::ContactDynamics<T> dyn = dynamics_on<T>(0);
              Vec5<T> both;
              both << dyn.project(ContactMode::kNoSlip, q, qdot), dyn.project(ContactMode::kNoSpin, q, qdot);
              return both;
            }),
      {"dynamics.collision_impulse", "Chatterjee-Ruina impulse with the struck box's K (collision_law.hpp)",
       [] {
         return compare_double_with_50_digits(
             kDynamicsSamples, 505, draw_impact,
             [](const auto& m, const auto& I, const auto& r, const auto& n, const auto& u, const auto& e,
                const auto& e_t, const auto& mu) {
               using T = std::decay_t<decltype(m)>;
               return dynamics::collision_response<T>(dynamics::inverse_effective_mass<T>(m, I, r), n, u, {e, e_t, mu})
                   .impulse_w;
             });
       }},
  };
}

#else

std::vector<validation::AuditEntrySpec> dynamics_audit_entries() { return {}; }

#endif  // CONTACTREF_HAS_REAL50

}  // namespace contactref::audit
