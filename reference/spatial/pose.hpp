#pragma once
// Homogeneous transforms E (Kry & Pai Section 2) and the operators between
// twists and 4x4 matrices: O (Eq. 1, here `hat`) and V (Eq. 3, here `vee`).
//
// Naming: E_j_i is the pose of frame i in frame j, so that x_j = E_j_i x_i for
// homogeneous coordinates, and E_k_i = E_k_j * E_j_i.
// Twists are ordered (omega; v), as in Kry & Pai.
#include "reference/spatial/so3.hpp"

namespace contactref::spatial {

template <class T>
Mat4<T> make_pose(const Mat3<T>& Theta, const Vec3<T>& p) {
  Mat4<T> E = Mat4<T>::Identity();
  E.template topLeftCorner<3, 3>() = Theta;
  E.template topRightCorner<3, 1>() = p;
  return E;
}

template <class T>
Mat3<T> rotation_of(const Mat4<T>& E) { return E.template topLeftCorner<3, 3>(); }

template <class T>
Vec3<T> translation_of(const Mat4<T>& E) { return E.template topRightCorner<3, 1>(); }

// E_i_j from E_j_i: (Theta^T, -Theta^T p). Exact for a rigid transform, no
// general 4x4 inversion.
template <class T>
Mat4<T> pose_inverse(const Mat4<T>& E_j_i) {
  const auto Theta_T = E_j_i.template topLeftCorner<3, 3>().transpose();  // a view of E_j_i: no copy
  Mat4<T> E_i_j;
  E_i_j.template topLeftCorner<3, 3>() = Theta_T;
  E_i_j.template topRightCorner<3, 1>() = -(Theta_T * E_j_i.template topRightCorner<3, 1>());
  E_i_j.template bottomRows<1>() << T(0), T(0), T(0), T(1);
  return E_i_j;
}

// O(phi) = [[ [omega], v ], [0, 0]]  (Eq. 1)
template <class T>
Mat4<T> hat(const Vec6<T>& phi) {
  Mat4<T> X = Mat4<T>::Zero();
  X.template topLeftCorner<3, 3>() = skew<T>(phi.template head<3>());
  X.template topRightCorner<3, 1>() = phi.template tail<3>();
  return X;
}

// V(X) (Eq. 3): the twist of the se(3) part of X. The upper 3x3 block is
// projected onto so(3) (its skew-symmetric part), as Kry & Pai allow for
// non-skew input; the bottom row is ignored.
template <class T>
Vec6<T> vee(const Mat4<T>& X) {
  Vec6<T> phi;
  phi.template head<3>() = unskew<T>(X.template topLeftCorner<3, 3>());
  phi.template tail<3>() = X.template topRightCorner<3, 1>();
  return phi;
}

// exp(O(phi)) in closed form: rotation by Rodrigues, translation
// (I + (1 - cos)/theta^2 [w] + (theta - sin)/theta^3 [w]^2) v.
// A body moving with the constant body twist phi from E0 has E(t) = E0 exp(t O(phi)).
template <class T>
Mat4<T> se3_exp(const Vec6<T>& phi) {
  const Vec3<T> w = phi.template head<3>();
  const Vec3<T> v = phi.template tail<3>();
  const T theta = w.norm();
  const Mat3<T> W = skew(w);
  const Mat3<T> W2 = W * W;
  const Mat3<T> Theta = Mat3<T>::Identity() + sinc(theta) * W + one_minus_cos_over_x2(theta) * W2;
  const Mat3<T> J = Mat3<T>::Identity() + one_minus_cos_over_x2(theta) * W + x_minus_sin_over_x3(theta) * W2;
  return make_pose<T>(Theta, J * v);
}

// The body twist of a moving frame: phi = V(E^-1 dE/dt) (Eq. 4), the
// velocity of frame i relative to frame j in the coordinates of frame i.
template <class T>
Vec6<T> body_twist(const Mat4<T>& E_j_i, const Mat4<T>& dE_j_i) {
  return vee<T>(pose_inverse(E_j_i) * dE_j_i);
}

}  // namespace contactref::spatial
