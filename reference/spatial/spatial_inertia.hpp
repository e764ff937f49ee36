#pragma once
// Spatial inertia (Kry & Pai Eq. 15's M): blockdiag(I, m 1) at the centre of
// mass, and its expression in any other body-fixed frame.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <sstream>
#include <string>

#include "reference/spatial/adjoint.hpp"
#include "core/errors.hpp"

namespace contactref::spatial {

// Throws InputError naming `what` unless (mass, I_com) is a physical rigid
// body: finite, m > 0, I symmetric positive definite and its principal
// moments obey the triangle inequality (lambda_i + lambda_j >= lambda_k).
// Symmetry, positivity and the triangle inequality are tested with a slack
// of 16 eps |I|, the round-off of an inertia computed by summation.
template <class T>
void check_rigid_inertia(const T& mass, const Mat3<T>& I_com, const std::string& what) {
  using std::abs;
  using std::isfinite;
  const auto fail = [&](const std::string& why) {
    std::ostringstream os;
    os << what << ": " << why;
    throw InputError(os.str());
  };
  if (!isfinite(mass) || !(mass > T(0))) fail("mass must be a finite positive number");
  for (Eigen::Index k = 0; k < 9; ++k)
    if (!isfinite(I_com.data()[k])) fail("inertia has a non-finite entry");
  const T scale = I_com.cwiseAbs().maxCoeff();
  const T slack = 16 * epsilon<T>() * scale;
  if ((I_com - I_com.transpose()).cwiseAbs().maxCoeff() > slack) fail("inertia is not symmetric");
  // Closed-form 3x3 eigenvalues (the iterative solver needs NumTraits that
  // Boost.Multiprecision does not provide); accurate to ~eps |I|, ample here.
  Eigen::SelfAdjointEigenSolver<Mat3<T>> eig;
  eig.computeDirect(Mat3<T>((I_com + I_com.transpose()) / 2), Eigen::EigenvaluesOnly);
  const Vec3<T> lambda = eig.eigenvalues();  // ascending
  // The closed form's round-off is ~eps |I|: a moment within the slack of 0
  // is 0 (a rod's diag(0, 0.004, 0.004) in rotated axes gave 4.3e-19).
  if (!(lambda(0) > slack)) fail("inertia is not positive definite");
  if (lambda(0) + lambda(1) < lambda(2) - slack)
    fail("principal moments violate the triangle inequality I1 + I2 >= I3 (no rigid body has them)");
}

// M at the centre of mass, body axes: [[I_com, 0], [0, m 1]]. Validated.
template <class T>
Mat6<T> spatial_inertia_at_com(const T& mass, const Mat3<T>& I_com) {
  check_rigid_inertia(mass, I_com, "spatial inertia");
  Mat6<T> M = Mat6<T>::Zero();
  M.template topLeftCorner<3, 3>() = (I_com + I_com.transpose()) / 2;
  M.template bottomRightCorner<3, 3>() = mass * Mat3<T>::Identity();
  return M;
}

// The spatial inertia in frame j, M_j = Ad_c_j^T M_c Ad_c_j, from the inertia
// M_c in frame c and the pose E_c_j of frame j in frame c. Kinetic energy is
// then frame independent: phi_j^T M_j phi_j = phi_c^T M_c phi_c for
// phi_c = Ad_c_j phi_j.
template <class T>
Mat6<T> transform_inertia(const Mat4<T>& E_c_j, const Mat6<T>& M_c) {
  const Mat6<T> Ad_c_j = adjoint(E_c_j);
  return Ad_c_j.transpose() * M_c * Ad_c_j;
}

}  // namespace contactref::spatial
