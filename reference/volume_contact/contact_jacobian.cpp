#include "reference/volume_contact/contact_jacobian.hpp"

#include "reference/spatial/adjoint.hpp"

namespace contactref::volume_contact {
namespace {

Matrix6d inverse_mass_matrix(const InverseMass& mass) {
  Matrix6d M_inv = Matrix6d::Zero();
  M_inv.topLeftCorner<3, 3>() = mass.inverse_inertia_w;
  M_inv.bottomRightCorner<3, 3>() = mass.inverse_mass * Eigen::Matrix3d::Identity();
  return M_inv;
}

}  // namespace

Matrix6d frame_jacobian(const Eigen::Matrix3d& R_w_c, const Eigen::Vector3d& x_w_c, const Eigen::Vector3d& com_w) {
  // Ad_c_g for the frame g at the centre of mass with world axes: E_c_g =
  // (R^T, R^T (com - x_c)), so [p] Theta = -R^T [x_c - com] (the header's J).
  return spatial::adjoint<double>(spatial::make_pose<double>(R_w_c.transpose(), R_w_c.transpose() * (com_w - x_w_c)));
}

Matrix6d schur_complement(const Matrix6d& J_a, const InverseMass& mass_a, const Matrix6d& J_b,
                          const InverseMass& mass_b) {
  return J_b * inverse_mass_matrix(mass_b) * J_b.transpose() + J_a * inverse_mass_matrix(mass_a) * J_a.transpose();
}

}  // namespace contactref::volume_contact
