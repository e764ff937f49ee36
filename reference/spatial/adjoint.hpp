#pragma once
// The Adjoint transformation of twists and wrenches, its inverse and its time
// derivative, and the spatial cross product (Kry & Pai Section 2).
//
//   Ad_j_i = [[Theta, 0], [[p] Theta, Theta]]   for E_j_i = [[Theta, p], [0, 1]]
//   phi_j  = Ad_j_i phi_i                        (twists, contravariant)
//   f_j    = Ad_j_i^-T f_i                       (wrenches, covariant)
#include "reference/spatial/pose.hpp"

namespace contactref::spatial {

// Ad_j_i from E_j_i.
template <class T>
Mat6<T> adjoint(const Mat4<T>& E_j_i) {
  const Mat3<T> Theta = rotation_of(E_j_i);
  Mat6<T> Ad = Mat6<T>::Zero();
  Ad.template topLeftCorner<3, 3>() = Theta;
  Ad.template bottomLeftCorner<3, 3>() = skew<T>(translation_of(E_j_i)) * Theta;
  Ad.template bottomRightCorner<3, 3>() = Theta;
  return Ad;
}

// Ad_j_i^-1 = Ad_i_j = [[Theta^T, 0], [-Theta^T [p], Theta^T]], in closed form.
template <class T>
Mat6<T> adjoint_inverse(const Mat4<T>& E_j_i) {
  const Mat3<T> Theta_T = rotation_of(E_j_i).transpose();
  Mat6<T> Ad = Mat6<T>::Zero();
  Ad.template topLeftCorner<3, 3>() = Theta_T;
  Ad.template bottomLeftCorner<3, 3>() = -(Theta_T * skew<T>(translation_of(E_j_i)));
  Ad.template bottomRightCorner<3, 3>() = Theta_T;
  return Ad;
}

// Ad_j_i^-T = [[Theta, [p] Theta], [0, Theta]]: maps wrenches in frame i to
// frame j. Power is frame independent: (Ad^-T f) . (Ad phi) = f . phi.
template <class T>
Mat6<T> wrench_adjoint(const Mat4<T>& E_j_i) {
  const Mat3<T> Theta = rotation_of(E_j_i);
  Mat6<T> Ad = Mat6<T>::Zero();
  Ad.template topLeftCorner<3, 3>() = Theta;
  Ad.template topRightCorner<3, 3>() = skew<T>(translation_of(E_j_i)) * Theta;
  Ad.template bottomRightCorner<3, 3>() = Theta;
  return Ad;
}

// phi_j = Ad_j_i phi_i without forming Ad: (Theta w; p x Theta w + Theta v),
// for one twist or for N twists in the columns (a Jacobian such as H).
template <class T, int N>
Eigen::Matrix<T, 6, N> transform_twist(const Mat4<T>& E_j_i, const Eigen::Matrix<T, 6, N>& phi_i) {
  const auto Theta = E_j_i.template topLeftCorner<3, 3>();  // blocks of E_j_i: no copies
  const auto p = E_j_i.template topRightCorner<3, 1>();
  Eigen::Matrix<T, 6, N> phi_j;
  phi_j.template topRows<3>() = Theta * phi_i.template topRows<3>();
  phi_j.template bottomRows<3>() = Theta * phi_i.template bottomRows<3>();
  for (int c = 0; c < N; ++c)
    phi_j.col(c).template tail<3>() += p.cross(Vec3<T>(phi_j.col(c).template head<3>()));
  return phi_j;
}

// d/dt (Ad_j_i X) = dAd_j_i X + Ad_j_i dX for a moving E_j_i (dE_j_i) and
// twists X in the columns (dX their rates), without forming either matrix
// (adjoint_derivative): (dTheta X_w + Theta dX_w;
// dp x Theta X_w + p x (dTheta X_w + Theta dX_w) + dTheta X_v + Theta dX_v).
template <class T, int N>
Eigen::Matrix<T, 6, N> transform_twist_rate(const Mat4<T>& E_j_i, const Mat4<T>& dE_j_i,
                                            const Eigen::Matrix<T, 6, N>& X, const Eigen::Matrix<T, 6, N>& dX) {
  const auto Theta = E_j_i.template topLeftCorner<3, 3>(), dTheta = dE_j_i.template topLeftCorner<3, 3>();  // no copies
  const auto p = E_j_i.template topRightCorner<3, 1>(), dp = dE_j_i.template topRightCorner<3, 1>();
  const Eigen::Matrix<T, 3, N> Theta_X_w = Theta * X.template topRows<3>();
  Eigen::Matrix<T, 6, N> rate;
  rate.template topRows<3>() = dTheta * X.template topRows<3>() + Theta * dX.template topRows<3>();
  rate.template bottomRows<3>() = dTheta * X.template bottomRows<3>() + Theta * dX.template bottomRows<3>();
  for (int c = 0; c < N; ++c)
    rate.col(c).template tail<3>() += dp.cross(Vec3<T>(Theta_X_w.col(c))) + p.cross(Vec3<T>(rate.col(c).template head<3>()));
  return rate;
}

// f_j = Ad_j_i^-T f_i without forming the matrix: (Theta tau + p x Theta F; Theta F).
template <class T>
Vec6<T> transform_wrench(const Mat4<T>& E_j_i, const Vec6<T>& f_i) {
  const auto Theta = E_j_i.template topLeftCorner<3, 3>();  // a block of E_j_i: no copy
  const Vec3<T> F_j = Theta * f_i.template tail<3>();
  Vec6<T> f_j;
  f_j << Theta * f_i.template head<3>() + E_j_i.template topRightCorner<3, 1>().cross(F_j), F_j;
  return f_j;
}

// d/dt Ad_j_i for a moving E_j_i with time derivative dE_j_i (Kry's thesis
// Eq. 4.18): [[dTheta, 0], [[dp] Theta + [p] dTheta, dTheta]].
// It equals Ad_j_i [phi] with phi = V(E^-1 dE) the body twist (tested).
template <class T>
Mat6<T> adjoint_derivative(const Mat4<T>& E_j_i, const Mat4<T>& dE_j_i) {
  const Mat3<T> Theta = rotation_of(E_j_i);
  const Mat3<T> dTheta = rotation_of(dE_j_i);
  Mat6<T> dAd = Mat6<T>::Zero();
  dAd.template topLeftCorner<3, 3>() = dTheta;
  dAd.template bottomLeftCorner<3, 3>() =
      skew<T>(translation_of(dE_j_i)) * Theta + skew<T>(translation_of(E_j_i)) * dTheta;
  dAd.template bottomRightCorner<3, 3>() = dTheta;
  return dAd;
}

// [phi] = [[ [omega], 0 ], [ [v], [omega] ]], the spatial cross product of
// twists: [phi] psi is the rate of change of psi carried by the motion phi.
template <class T>
Mat6<T> spatial_cross(const Vec6<T>& phi) {
  const Mat3<T> W = skew<T>(phi.template head<3>());
  Mat6<T> X = Mat6<T>::Zero();
  X.template topLeftCorner<3, 3>() = W;
  X.template bottomLeftCorner<3, 3>() = skew<T>(phi.template tail<3>());
  X.template bottomRightCorner<3, 3>() = W;
  return X;
}

// The dual cross product acting on wrenches: [phi]* = -[phi]^T
// = [[ [omega], [v] ], [0, [omega]]]. It keeps power invariant:
// ([phi]* f) . psi + f . ([phi] psi) = 0.
template <class T>
Mat6<T> spatial_cross_dual(const Vec6<T>& phi) {
  const Mat3<T> W = skew<T>(phi.template head<3>());
  Mat6<T> X = Mat6<T>::Zero();
  X.template topLeftCorner<3, 3>() = W;
  X.template topRightCorner<3, 3>() = skew<T>(phi.template tail<3>());
  X.template bottomRightCorner<3, 3>() = W;
  return X;
}

}  // namespace contactref::spatial
