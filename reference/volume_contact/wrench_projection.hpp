#pragma once
// Algorithm 1 of Bouchard et al. (Sections 5.1-5.6): the projection of a 6D
// contact joint's impulse onto the wrenches its contact patch can carry, and
// the same cone projection for one point contact (the baseline of Section 6).
//
// The joint. B touches A over the patch of contact_patch.hpp; its contact
// frame c has its origin at the patch centre and axes (u, w, n). Impulses
// lambda are wrenches (torque; force) on B at c in c's axes (A receives
// -lambda); e is the relative twist (omega; v) of B with respect to A at c in
// c's axes, before this joint's impulse, and S = J M^-1 J^T (Eq. 1) maps an
// impulse on the joint to the change of e it causes (symmetric positive
// definite when one body has finite mass). The rigid joint of Eq. 1 solves
// S lambda = -e; Eq. 3's change of frame to c is the caller's (S and e are
// given in c).
//
// The steps, in the paper's order (paper_order.hpp converts once, here):
//   1. lambda = S^-1 (-e), the rigid joint (Eq. 1).
//   2. Cone (Section 5.2): if the force lies outside the Coulomb cone
//      |f_t| <= mu f_n, q is the direction of its Euclidean projection onto
//      the cone, (n + mu t)/sqrt(1 + mu^2) with t = f_t/|f_t|, and Eq. 4,
//      R S Q lambda' = -R e (Eqs. 5-6: zero normal and angular velocity, the
//      force along q), gives the force's size along q and a new torque. A force
//      in the cone's polar (projecting to zero), or a size <= 0, separates:
//      lambda = 0.
//   3. Centre of pressure (Sections 5.3-5.4, centre_of_pressure.hpp): d from
//      f_n and the tangential torque, projected onto the ellipse to p.
//   4. d outside (Section 5.5): a point contact at p: with r = p - c,
//      S_p = T S T^T and e_p = T e, T the change of the twist's point (paper
//      order: v_p = v_c + omega x r), Eq. 8 solves P S_p P^T f = -P e_p for a
//      force alone (angular motion free); then if f leaves the cone, Eq. 10
//      solves for its size along the new q from the normal row alone. f_n <= 0
//      or a size <= 0 separates. The impulse at c is f at p moved back:
//      (tau; f) = (r x f; f). The frame at p is c's translated: Fig. 5's
//      alignment with the ellipse's tangent only renames the tangent axes,
//      which does not change the solution of Eqs. 8 or 10.
//   5. d inside: the torque about n at p = d is clamped to the bound of
//      Eqs. 11-13 (spin_torque_bound). With d outside the spin torque at p is
//      zero already ("no spinning torque if the center of pressure was
//      outside the patch").
//      Departure: Algorithm 1 stops at the clamp, which changes tau_n alone.
//      Where S couples the spin with the other rows (the patch away from the
//      bodies' centres of mass), the other rows then no longer hold: in the
//      pinch grasp (Section 6.1.6) a ruler whose spin slips at both pads
//      also slid through the stuck fingers, turning about its own centre of
//      mass rather than about the pinch (validation/fixtures/scenes/
//      pinch_grasp.json; tests/validation/pinch_grasp_scene_test.cpp). So a
//      clamp is followed by a re-solve of the branch's other equations with
//      tau_n held (stuck: the five other velocity rows zero; sliding: Eq. 4
//      without its spin row), then the clamp at the new f_n and p (a second
//      order change); a re-solve that separates or leaves the cone or the
//      ellipse is not taken (Algorithm 1's clamp stands; block PGS's next
//      sweep starts again from the rigid joint). ProjectionOptions::
//      spin_resolve = false runs the paper's clamp alone.
// With ProjectionOptions::support, steps 3-5 use the support region
// (support_region.hpp) for the ellipse: d is projected onto it, and the
// clamp's bound is region_spin_torque_bound for Eqs. 11-13.
// Algorithm 1's tests "mu lambda_n <= |lambda_t|" are read as "outside the
// cone": |f_t| > mu f_n.
#include <Eigen/Core>

#include "reference/volume_contact/paper_order.hpp"
#include "reference/volume_contact/support_region.hpp"

namespace contactref::volume_contact {

// Which steps changed the rigid joint's impulse.
enum class JointState {
  kSeparating,  // no compressive impulse: lambda = 0
  kStuck,       // the rigid joint's impulse is feasible (spin clamp aside)
  kSliding,     // projected onto the cone and re-solved (Eq. 4)
  kRolling,     // point contact at the ellipse's edge (Eq. 8)
  kRollingSliding  // and its force projected onto the cone (Eq. 10)
};
const char* to_string(JointState state);

struct WrenchProjection {
  Vector6d impulse_c = Vector6d::Zero();  // N s, N m s: (torque; force) on B at c, c's axes
  JointState state = JointState::kSeparating;
  Eigen::Vector2d pressure_point = Eigen::Vector2d::Zero();  // m: p in (u, w) (d when inside)
  bool spin_clamped = false;  // step 5 reduced the spin torque
  bool spin_resolved = false;  // and re-solved the branch's other equations with it
};

// Eqs. 11-13: the spin torque bound mu f_n sum_i w_i |c_i - p| for the force
// f_n at p, shared over the corners c_i = (+-a, +-b) of the rectangle around
// the ellipse by the bilinear coordinates w_i of p (1/2 along an axis of zero
// length). InputError: p outside that rectangle, negative or non-finite
// arguments.
double spin_torque_bound(const Eigen::Vector2d& p, const Eigen::Vector2d& semi_axes, double f_n, double mu);

struct ProjectionOptions {
  // The support region (support_region.hpp), in c's (u, w): steps 3-5 use it
  // in place of the ellipse; null or empty: the ellipse.
  const SupportRegion* support = nullptr;
  // Step 5's re-solve after a clamp (the departure above); false stops at
  // Algorithm 1's clamp.
  bool spin_resolve = true;
};

// Algorithm 1. semi_axes: the ellipse's (a, b), a >= b >= 0 (m); mu >= 0.
// InputError: non-finite S or e, bad mu or semi-axes. ComputationError: S
// not positive definite.
WrenchProjection project_joint(const Matrix6d& S_c, const Vector6d& e_c, const Eigen::Vector2d& semi_axes, double mu,
                               const ProjectionOptions& options = {});

// The point-contact baseline: one Gauss-Seidel update of a point contact's
// impulse in its 3D Coulomb cone, as the paper's point-based method in SOFA
// resolves it (its UnilateralConstraintResolutionWithFriction): with
// u = e + S lambda the point's relative velocity,
//   1. normal: lambda_n <- lambda_n - u_n / S_nn; below zero the contact
//      separates (lambda = 0);
//   2. tangential, with u recomputed: lambda_t <- lambda_t - alpha u_t,
//      alpha = 2 / (S_uu + S_ww) (one scalar for both directions), then
//      clamped to the disk |lambda_t| <= mu lambda_n.
// A fixed point of these updates is a Coulomb contact: u_n = 0 <= lambda_n or
// lambda = 0; sticking (u_t = 0) inside the disk; or sliding on its rim with
// lambda_t = -mu lambda_n u_t / |u_t| (the scalar step keeps the friction
// opposite the slip). Frame (u, w, n) at the point; impulse
// (f_u, f_w, f_n) on B; S: 3x3 for forces alone; e: B's relative velocity at
// the point without this contact's impulse; lambda: its impulse so far.
struct PointProjection {
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();  // N s
  JointState state = JointState::kSeparating;        // kSeparating, kStuck or kSliding
};
PointProjection project_point(const Eigen::Matrix3d& S, const Eigen::Vector3d& e, const Eigen::Vector3d& lambda,
                              double mu);

}  // namespace contactref::volume_contact
