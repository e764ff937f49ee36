#pragma once
// Collision response at one point: Chatterjee & Ruina's algebraic law
// ("A new algebraic rigid-body collision law based on impulse space
// considerations", J. Appl. Mech. 65(4), 939-951, 1998), the law Kry & Pai use
// in flight (Section 4). Body 1 is free, body 2 fixed; a pure function of the
// impact's inverse effective mass K, normal n and relative velocity u.
//
// K (1/kg): the contact point's velocity change is K J for an impulse J
// applied there. For one free body of mass m and inertia I
// (about its centre of mass, world axes) struck at r (contact point minus
// centre of mass, world):
//   K = (1/m) 1 - [r] I^-1 [r],
// symmetric positive definite (for the velocity change v += J/m,
// omega += I^-1 (r x J) of the point r: K J = J/m - r x I^-1 (r x J)).
//
// The law, with u_n = n . u < 0 (approaching), e, e_t in [0, 1], mu >= 0:
//   P_I  = a n,  a = -u_n / (n^T K n)     frictionless, perfectly plastic
//                                         (brings n . u to zero);
//   P_II = -K^-1 u                        sticking, perfectly plastic
//                                         (brings u to zero);
//   d    = P_II - P_I = -K^-1 (u + a K n), computed in this form (the
//          right-hand side is the velocity left after P_I, orthogonal to n:
//          no cancellation between P_II and P_I);
//   J^   = (1 + e) P_I + (1 + e_t) d;
//   J    = J^ when it lies in the friction cone |J_t| <= mu J_n, otherwise
//   J    = (1 + e) P_I + kappa d,  kappa = mu (1 + e) a / (|d_t| - mu d_n),
// with J_n = n . J, J_t = J - J_n n, d_n = n . d, d_t = d - d_n n. kappa
// puts J on the cone: J_t = kappa d_t (P_I has no tangential part) and
// J_n = (1 + e) a + kappa d_n, so |J_t| = mu J_n is linear in kappa
// (this derives the notes' kappa, which OpenTissue's implementation also
// uses). The cone test is the same linear form,
//   (1 + e_t) (|d_t| - mu d_n) > mu (1 + e) a   (clipped: `sliding`),
// and then |d_t| - mu d_n > 0 and 0 <= kappa < 1 + e_t: the cut lies on the
// segment from (1 + e) P_I (on the cone's axis, inside) to J^. mu = 0 gives
// kappa = 0, the frictionless impulse (1 + e) P_I.
//
// Properties (derived; the tests check each):
//  - n^T K d = 0: d changes only the tangential velocity, so in every branch
//    n . u+ = -e u_n (Newton's restitution on the normal velocity). The
//    normal impulse J_n = (1 + e) a + kappa d_n equals the frictionless one
//    only where d_n = 0 (K n parallel to n, e.g. a ball); it is not a
//    projection that keeps J_n.
//  - u+ = u + K J = (1 - kappa) u + (1 + e - kappa) a K n; unclipped,
//    u+ = -e_t u + (e - e_t) a K n (e = e_t = 1: u+ = -u).
//  - P_I and d are K-orthogonal (P_I^T K d = 0), so the energy change
//    Delta E = J . u + 1/2 J^T K J = 1/2 |J - P_II|_K^2 - 1/2 |P_II|_K^2 is
//      Delta E = -1/2 (1 - e^2) a^2 n^T K n - 1/2 kappa (2 - kappa) d^T K d,
//    <= 0 for e in [0, 1] and kappa in [0, 2]. 0 <= kappa <= 1 + e_t, so the
//    law never gains energy for e_t in [-1, 1] (e_t = -1 gives the
//    frictionless impulse; the accepted range here is [0, 1]). It would gain
//    energy only outside: e_t > 1 or e_t < -1 in the unclipped branch
//    (kappa > 2 or < 0), or e > 1.
//  - J_n >= 0, and sliding ones have |J_t| = mu J_n.
//  - A sticking impulse P_II may have a negative normal part (n . P_II < 0:
//    holding the point would need a pull); then no mu keeps J^ in the cone
//    and the impact slides for every mu.
#include "core/scalar.hpp"

namespace contactref::dynamics {

template <class T>
struct CollisionParameters {
  T restitution = T(0);             // e, normal, in [0, 1]
  T tangential_restitution = T(0);  // e_t, in [0, 1]
  T mu = T(0);                      // Coulomb friction coefficient, >= 0
};

// K for one free body (mass, inertia about its centre of mass in world axes)
// struck at r_w (contact point minus centre of mass, world) against a fixed
// body: K = (1/m) 1 - [r]x I^-1 [r]x, symmetrised. InputError for a body that
// is not physical (spatial::check_rigid_inertia) or a non-finite r_w.
template <class T>
Mat3<T> inverse_effective_mass(const T& mass, const Mat3<T>& I_com_w, const Vec3<T>& r_w);

template <class T>
struct CollisionResponse {
  Vec3<T> impulse_w = Vec3<T>::Zero();  // on body 1 at the contact point (N s)
  T normal_velocity_before = T(0);      // n . u (m/s; < 0 approaching)
  T normal_velocity_after = T(0);
  Vec3<T> tangential_velocity_before_w = Vec3<T>::Zero();  // u - (n . u) n
  Vec3<T> tangential_velocity_after_w = Vec3<T>::Zero();
  T energy_change = T(0);  // J: J . u_before + 1/2 J . K J (<= 0 for this law)
  bool sliding = false;    // the friction cone clipped the impulse (kappa branch; with mu = 0 every
                           // impact with a slip to cancel: kappa = 0)
};

// n_w: unit normal from body 2 into body 1 (the direction body 1 is pushed);
// u_w: velocity of body 1's material point at the contact relative to body
// 2's, before the impact. A contact that is not approaching (n . u >= 0) gets
// a zero impulse. n_w is used normalised (its length may differ from 1 by
// round-off). InputError, naming what is wrong, for e or e_t outside [0, 1],
// mu < 0 or not finite, a non-finite n or one whose length differs from 1 by
// more than 1e-6 (a wrong vector, not round-off), a non-finite u, K with a
// non-finite entry, not symmetric (beyond 16 eps |K|) or not positive
// definite (its Cholesky factorisation fails).
template <class T>
CollisionResponse<T> collision_response(const Mat3<T>& K_w, const Vec3<T>& n_w, const Vec3<T>& u_w,
                                        const CollisionParameters<T>& parameters);

}  // namespace contactref::dynamics
