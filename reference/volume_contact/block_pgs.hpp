#pragma once
// Projected block Gauss-Seidel at the velocity level (Bouchard et al.
// Section 3 and 6.1.8), over 6D contact joints (Algorithm 1) or point
// contacts (a 3D Coulomb cone each), with warm starting.
//
// Each joint j couples bodies a and b through frame Jacobians J_a, J_b
// (contact_jacobian.hpp) at its frame; its accumulated impulse lambda_j acts
// +lambda on b, -lambda on a. One sweep visits the joints in order; at joint
// j, with e = J_b v_b - J_a v_a the current relative twist (which includes
// lambda_j's own effect), the twist without it is e_free = e - S lambda_j; a
// 6D joint's new total lambda' is Algorithm 1's projection for (S + C,
// e_free) (C the compliance), a point's is one update of project_point from
// lambda_j, a bilateral joint's solves its rows of (S + C) lambda' = -e_free;
// the bodies receive delta = lambda' - lambda_j.
//
// The answer. A converged sweep leaves every joint at its own projection:
// each impulse equals what its update gives for the twist it sees without
// it (a contact: Algorithm 1 with its own S; a bilateral joint: its rows
// solved). That is the paper's block Gauss-Seidel's fixed point, and
// projection_residual measures how far a result is from it.
//
// Joint elimination (a departure from the paper's solver, not from its
// answer; PgsOptions::eliminate_joints, on by default). A light body between
// a bilateral joint and a contact (a 20 g finger on its hinge holding a
// 50 g ruler) makes plain Gauss-Seidel converge at a rate set by the mass
// ratio: thousands of sweeps, and a grip that slips before it converges. So
// a contact is updated together with the bilateral joints reachable from its
// movable bodies through movable bodies (their stacked rows: K = S_gg, B =
// S_gc, with compliance): for a contact impulse x the joints hold their rows
// with lambda_g(x) = -K^+ (e_g + B x), and the contact then sees the free
// twist e(x) = e_eff - D x (e_eff = e_c - B^T K^+ e_g, D = B^T K^+ B). Its
// update is the fixed point of G(x) = Algorithm 1 (its own S, e(x)): one
// plain Gauss-Seidel round of the contact and its joints, so the fixed points
// are plain Gauss-Seidel's, found by Anderson-accelerated iteration of G
// (Walker & Ni, SIAM J. Numer. Anal. 49(4), 2011: the slow linear mode the
// mass ratio sets is a secant direction it removes in a few iterations).
// A stuck contact's fixed point is the linear solve (S - D) x = -e_eff,
// tried first. (Before, every contact was projected once with that reduced
// S - D and e_eff: exact for a stuck contact, but Algorithm 1's cone
// direction and branches then followed the reduced rigid impulse instead of
// the contact's own. On a 10 g finger hinged against a 2 kg block, sliding
// at mu 0.5, its answers lay up to 2e-2 N s from their own projections, and
// it separated 21 of 36 contacts that plain Gauss-Seidel keeps:
// tests/reference/volume_contact/bilateral_joints_test.cpp.)
//
// The stopping criterion is Section 6.1.8's: the 2-norm of the update vector
// (all deltas of one sweep, stacked) below the tolerance.
#include <Eigen/Core>
#include <memory>
#include <vector>

#include "reference/volume_contact/contact_jacobian.hpp"
#include "reference/volume_contact/wrench_projection.hpp"

namespace contactref::volume_contact {

// Contacts (6D, point) are unilateral and projected; the bilateral joints of
// the pinch grasp (Section 6.1.6) have no bounds: a spherical joint holds the
// frame's origin together (the force rows), a hinge also the rotation about
// the frame's u and w axes (its axis is n), and their impulse solves the
// rows' equations exactly.
enum class JointKind { kVolume6d, kPoint, kSpherical, kHinge };

struct PgsJoint {
  JointKind kind = JointKind::kVolume6d;
  int a = -1, b = -1;                      // body indices
  Eigen::Matrix3d R_w_c = Eigen::Matrix3d::Identity();  // the joint's frame: axes (u, w, n), world
  Eigen::Vector3d x_w_c = Eigen::Vector3d::Zero();      // and origin (6D: the patch's centre; point: the point)
  Eigen::Vector3d x_b = Eigen::Vector3d::Zero();        // that origin in b's body frame (to match points across steps)
  Matrix6d J_a, J_b;                       // frame_jacobian at (R_w_c, x_w_c)
  Matrix6d S;                              // J_b M_b^-1 J_b^T + J_a M_a^-1 J_a^T
  Vector6d compliance = Vector6d::Zero();  // added to S's diagonal (6D joints; zero for the others)
  Eigen::Vector2d semi_axes = Eigen::Vector2d::Zero();  // 6D: the ellipse (a, b)
  std::shared_ptr<const SupportRegion> support;         // 6D, the support patch: used for the ellipse
  double mu = 0;
  // m/s, point joints: the normal row holds v_n >= -approach_speed (gap / h:
  // the bodies may close a point's gap within the step); 0 for the others.
  double approach_speed = 0;
  Vector6d impulse = Vector6d::Zero();     // accumulated (torque; force); zero in the rows a joint leaves free
  JointState state = JointState::kSeparating;
};

// The rows a bilateral joint constrains (indices into (torque; force)).
std::vector<int> bilateral_rows(JointKind kind);

struct PgsOptions {
  double tolerance = 1e-15;  // N s (mixed with N m s for 6D joints, as in the paper)
  int max_iterations = 1000;
  bool eliminate_joints = true;  // joint elimination (above); false: plain block Gauss-Seidel
  bool spin_resolve = true;      // Algorithm 1's departure (wrench_projection.hpp)
};

struct PgsResult {
  int iterations = 0;
  bool converged = false;
  std::vector<double> residuals;  // per sweep: the 2-norm of the update vector
  double projection_residual = 0;  // at the end (projection_residual below)
};

// The largest |P_j - lambda_j| over the joints (N s, N m s): P_j the joint's
// own update for the twist it sees without its impulse (above), lambda_j its
// impulse. Zero at a fixed point of the paper's block Gauss-Seidel.
// InputError: a joint naming a body out of range.
double projection_residual(const std::vector<PgsJoint>& joints, const std::vector<Vector6d>& velocities,
                           const PgsOptions& options);

// Applies each joint's starting impulse (warm start) to the velocities, then
// sweeps. velocities: (omega_w; v_w) per body, updated in place.
// InputError: bad options, a joint naming a body out of range.
PgsResult solve_block_pgs(std::vector<PgsJoint>& joints, std::vector<Vector6d>& velocities,
                          const std::vector<InverseMass>& inverse_masses, const PgsOptions& options);

}  // namespace contactref::volume_contact
