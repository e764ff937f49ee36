#pragma once
// The Jacobians and Schur complement of a contact joint (Bouchard et al.
// Eq. 1, S = J M^-1 J^T, expressed in the contact frame as Eq. 3 does).
//
// A body's velocity is (omega_w; v_w): its angular velocity and the velocity
// of its centre of mass, in world axes. At a frame c (origin x_c, axes the
// columns of R_w_c) the body's twist in c's axes is
//   omega_c = R_w_c^T omega_w,   v_c = R_w_c^T (v_w + omega_w x (x_c - x_com)),
// that is J = [R^T, 0; -R^T [r], R^T] with r = x_c - x_com. An impulse
// (tau; f) at c in c's axes acts on the body as J^T (tau; f) =
// (R tau + r x R f; R f): the torque about its centre of mass and the force,
// in world axes. The joint's relative twist is J_B v_B - J_A v_A and its
// impulse acts +lambda on B, -lambda on A, so
//   S = J_B M_B^-1 J_B^T + J_A M_A^-1 J_A^T.
#include <Eigen/Core>

#include "reference/volume_contact/paper_order.hpp"

namespace contactref::volume_contact {

// A body's inverse mass matrix in world axes; zero for a fixed body.
struct InverseMass {
  double inverse_mass = 0;                                      // 1/kg
  Eigen::Matrix3d inverse_inertia_w = Eigen::Matrix3d::Zero();  // 1/(kg m^2), about the centre of mass
  Vector6d apply(const Vector6d& impulse_w) const {             // M^-1 (tau; f)
    Vector6d out;
    out << inverse_inertia_w * impulse_w.head<3>(), inverse_mass * impulse_w.tail<3>();
    return out;
  }
};

// J of a body with centre of mass com_w at the frame (R_w_c, x_c_w).
Matrix6d frame_jacobian(const Eigen::Matrix3d& R_w_c, const Eigen::Vector3d& x_c_w, const Eigen::Vector3d& com_w);

// S = J_B M_B^-1 J_B^T + J_A M_A^-1 J_A^T.
Matrix6d schur_complement(const Matrix6d& J_a, const InverseMass& mass_a, const Matrix6d& J_b,
                          const InverseMass& mass_b);

}  // namespace contactref::volume_contact
