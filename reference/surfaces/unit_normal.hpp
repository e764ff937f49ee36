#pragma once
// The unit normal of a tangent plane given by two tangents, safe at any scale.
#include <optional>

#include "core/scalar.hpp"

namespace contactref::surfaces {

// a x b / |a x b| (for c_s and c_t: the outward normal), from a / |a|_inf and
// b / |b|_inf so that no product overflows or underflows whatever the size
// of the tangents; nullopt when a x b vanishes to round-off, |a x b| <= 64
// eps |a| |b| (the criterion of check_regular in patch.hpp).
template <class T>
std::optional<Vec3<T>> unit_normal(const Vec3<T>& a, const Vec3<T>& b) {
  const T a_scale = a.cwiseAbs().maxCoeff(), b_scale = b.cwiseAbs().maxCoeff();
  if (!(a_scale > T(0)) || !(b_scale > T(0))) return std::nullopt;
  const Vec3<T> a_unit = a / a_scale, b_unit = b / b_scale;
  const Vec3<T> n = a_unit.cross(b_unit);
  const T length = n.norm();
  if (!(length > T(64) * epsilon<T>() * a_unit.norm() * b_unit.norm())) return std::nullopt;
  return Vec3<T>(n / length);
}

}  // namespace contactref::surfaces
