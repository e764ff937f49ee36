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
// A contact whose bodies carry bilateral joints (a finger on its hinge) is
// updated together with the bilateral joints reachable from its movable
// bodies through movable bodies: those are eliminated exactly (their rows'
// equations solved for the contact's impulse, block_pgs.cpp), so that the
// contact is projected with the mobility the joints leave. Without it, a
// light body between a hinge and a contact makes Gauss-Seidel converge at a
// rate set by the mass ratio (a 20 g finger holding a 50 g ruler: thousands
// of sweeps, and a grip that slips before it converges).
// The stopping criterion is Section 6.1.8's: the 2-norm of the update vector
// (all deltas of one sweep, stacked) below the tolerance.
#include <Eigen/Core>
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
};

struct PgsResult {
  int iterations = 0;
  bool converged = false;
  std::vector<double> residuals;  // per sweep: the 2-norm of the update vector
};

// Applies each joint's starting impulse (warm start) to the velocities, then
// sweeps. velocities: (omega_w; v_w) per body, updated in place.
// InputError: bad options, a joint naming a body out of range.
PgsResult solve_block_pgs(std::vector<PgsJoint>& joints, std::vector<Vector6d>& velocities,
                          const std::vector<InverseMass>& inverse_masses, const PgsOptions& options);

}  // namespace contactref::volume_contact
