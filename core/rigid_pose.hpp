#pragma once
// A rigid transform that is rigid by construction: the pose of one frame in
// another, checked once where it enters (a file, an option, a caller's
// matrix) and trusted everywhere after.
//
// Naming (shared/DESIGN.md): a RigidPose named E_j_i is the pose of frame i in
// frame j, so that x_j = E_j_i * x_i and E_k_i = E_k_j * E_j_i; its rotation
// is Theta_j_i (the axes of i in j) and its translation p_j_i (the origin of
// i in j), as in Kry & Pai Section 2.
#include <cmath>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/scalar.hpp"

namespace contactref {

template <class T>
class RigidPose {
 public:
  // The identity (frame i is frame j).
  RigidPose() : E_(Mat4<T>::Identity()) {}

  // A 4x4 matrix given by a caller. InputError ("NAME: why") unless every
  // entry is finite, the last row is (0, 0, 0, 1) exactly and the 3x3 block R
  // is a rotation: |R^T R - I|_max <= 1e-9 and det R > 0. A rotation computed
  // in double is orthogonal to a few 1e-16: 1e-9 refuses scalings and shears
  // and accepts any honest rotation. The entries are kept as given, not
  // re-orthogonalised (exact geometry applies them exactly).
  static RigidPose from_matrix(const Mat4<T>& E, const std::string& name) {
    const auto bad = [&](const std::string& what) { throw InputError(name + ": " + what); };
    if (!E.allFinite()) bad("has a non-finite entry");
    if (E(3, 0) != 0 || E(3, 1) != 0 || E(3, 2) != 0 || E(3, 3) != 1) bad("the last row is not (0, 0, 0, 1)");
    const Mat3<T> R = E.template topLeftCorner<3, 3>();
    const T orthogonality = (R.transpose() * R - Mat3<T>::Identity()).cwiseAbs().maxCoeff();
    if (!(orthogonality <= T(1e-9)))
      bad("the 3x3 block is not a rotation: |R^T R - I|_max = " + to_text(orthogonality) + " > 1e-9");
    if (!(R.determinant() > 0)) bad("the 3x3 block is a reflection (det < 0)");
    return RigidPose(E);
  }

  // The rotation by `angle` (rad, right-handed) about `axis` (any length but
  // zero), then the translation. InputError naming `name` for a non-finite
  // number or a zero axis.
  static RigidPose from_axis_angle(const T& angle, const Vec3<T>& axis, const Vec3<T>& translation,
                                   const std::string& name) {
    if (!(axis.allFinite() && translation.allFinite() && isfinite_(angle)))
      throw InputError(name + ": has a non-finite number");
    const T largest = axis.cwiseAbs().maxCoeff();
    if (!(largest > 0)) throw InputError(name + ": the rotation axis is zero");
    const Vec3<T> scaled = axis / largest;  // no overflow or underflow in the norm
    return from_parts(Eigen::AngleAxis<T>(angle, scaled.normalized()).toRotationMatrix(), translation);
  }

  // The rotation by the rotation vector r (angle |r| about r / |r|), then the
  // translation. InputError naming `name` for a non-finite number. |r| is
  // computed without overflow, so any finite r gives a rotation.
  static RigidPose from_rotation_vector(const Vec3<T>& r, const Vec3<T>& translation, const std::string& name) {
    if (!(r.allFinite() && translation.allFinite())) throw InputError(name + ": has a non-finite number");
    const T largest = r.cwiseAbs().maxCoeff();
    if (largest == 0) return from_parts(Mat3<T>::Identity(), translation);
    const Vec3<T> scaled = r / largest;
    return from_parts(Eigen::AngleAxis<T>(largest * scaled.norm(), scaled.normalized()).toRotationMatrix(), translation);
  }

  // A pure translation (exact). InputError naming `name` for a non-finite
  // entry.
  static RigidPose from_translation(const Vec3<T>& translation, const std::string& name = "translation") {
    if (!translation.allFinite()) throw InputError(name + ": has a non-finite number");
    return from_parts(Mat3<T>::Identity(), translation);
  }

  const Mat4<T>& matrix() const { return E_; }
  Mat3<T> rotation() const { return E_.template topLeftCorner<3, 3>(); }
  Vec3<T> translation() const { return E_.template topRightCorner<3, 1>(); }

  // E_i_j from E_j_i: (Theta^T, -Theta^T p), no general 4x4 inversion.
  RigidPose inverse() const {
    const Mat3<T> Theta_T = rotation().transpose();
    return from_parts(Theta_T, -(Theta_T * translation()));
  }
  // E_k_i = E_k_j * E_j_i. The product of two rotations is a rotation to
  // round-off (a few epsilon per product).
  RigidPose operator*(const RigidPose& E_j_i) const { return RigidPose(E_ * E_j_i.E_); }
  // x_j = E_j_i * x_i for a point x_i.
  Vec3<T> operator*(const Vec3<T>& x_i) const { return rotation() * x_i + translation(); }

 private:
  Mat4<T> E_;
  explicit RigidPose(const Mat4<T>& E) : E_(E) {}

  static RigidPose from_parts(const Mat3<T>& Theta, const Vec3<T>& p) {
    Mat4<T> E = Mat4<T>::Identity();
    E.template topLeftCorner<3, 3>() = Theta;
    E.template topRightCorner<3, 1>() = p;
    return RigidPose(E);
  }
  static bool isfinite_(const T& x) {  // std::isfinite or Boost's, by argument lookup
    using std::isfinite;
    return isfinite(x);
  }
  static std::string to_text(const T& x) {
    std::ostringstream out;
    out.precision(3);
    out << x;
    return out.str();
  }
};

}  // namespace contactref
