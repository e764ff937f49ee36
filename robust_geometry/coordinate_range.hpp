#pragma once
// The coordinates robust_geometry accepts: finite, and zero or of magnitude
// in [2^-256, 2^256], so that the products of coordinate differences in
// planes, volumes and centroids (degree <= 4) neither overflow nor underflow
// when rounded to double (second moments, degree 5, are checked where they
// are computed). Polyhedron and TriangleSolid input are both held to it.
#include <cmath>

namespace contactref::robust_geometry {

inline constexpr const char* kSupportedMagnitudes = "[2^-256, 2^256] (or 0)";

inline bool supported_coordinate(double x) {
  const double a = std::abs(x);
  return std::isfinite(x) && (a == 0 || (a >= std::ldexp(1.0, -256) && a <= std::ldexp(1.0, 256)));
}

}  // namespace contactref::robust_geometry
