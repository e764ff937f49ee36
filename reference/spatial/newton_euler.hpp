#pragma once
// Newton-Euler equations in the body frame (Kry & Pai Eq. 15):
//   f = M dphi/dt - [phi]^T M phi,
// with phi the body twist relative to the inertial frame, in body coordinates,
// M the spatial inertia in the same body frame, f the total applied wrench.
// At the centre of mass this is I dw/dt + w x I w = tau, m (dv/dt + w x v) = F.
#include <Eigen/Cholesky>

#include "reference/spatial/adjoint.hpp"

namespace contactref::spatial {

// The wrench that produces acceleration dphi for twist phi (Eq. 15 read
// left to right; its inverse dynamics).
// -[phi]^T h = (w x L + v x p; w x p) for phi = (w; v) and h = M phi = (L; p),
// by cross products rather than a 6x6 [phi].
template <class T>
Vec6<T> newton_euler_wrench(const Mat6<T>& M, const Vec6<T>& phi, const Vec6<T>& dphi) {
  const Vec6<T> h = M * phi;
  const Vec3<T> w = phi.template head<3>(), v = phi.template tail<3>(), L = h.template head<3>(), p = h.template tail<3>();
  Vec6<T> f = M * dphi;
  f.template head<3>() += w.cross(L) + v.cross(p);
  f.template tail<3>() += w.cross(p);
  return f;
}

// dphi/dt from Eq. 15, solved with the Cholesky factor of M (never an inverse).
template <class T>
Vec6<T> body_acceleration(const Eigen::LLT<Mat6<T>>& M_factor, const Mat6<T>& M, const Vec6<T>& phi,
                          const Vec6<T>& f) {
  return M_factor.solve(f + spatial_cross(phi).transpose() * (M * phi));
}

// Kinetic energy 1/2 phi^T M phi.
template <class T>
T kinetic_energy(const Mat6<T>& M, const Vec6<T>& phi) {
  return phi.dot(M * phi) / 2;
}

// Spatial momentum (angular about the frame-j origin; linear) of a body with
// pose E_j_b, body twist phi_b and body inertia M_b, expressed in frame j. A
// momentum is a wrench-like covector: h_j = Ad_j_b^-T M_b phi_b. Conserved
// when no wrench acts and frame j is inertial.
template <class T>
Vec6<T> spatial_momentum(const Mat4<T>& E_j_b, const Mat6<T>& M_b, const Vec6<T>& phi_b) {
  return transform_wrench<T>(E_j_b, M_b * phi_b);
}

}  // namespace contactref::spatial
