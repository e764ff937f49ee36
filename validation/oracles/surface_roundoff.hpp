#pragma once
// The round-off model of comparisons between surface evaluations, shared by
// the surface-separation oracle and the loop-evaluation suite: a surface
// point (or derivative) is a sum of some 256 roundings of terms of the size L
// of the patch's control points, so two evaluations of the same quantity
// differ by at most 2 x 256 eps L. A unit normal n = d_s x d_t / |d_s x d_t|
// whose factors carry an absolute error e moves by at most
// e / (min(|d_s|, |d_t|) sin(d_s, d_t)): the factors' error relative to their
// length over the sine of their angle.
#include <algorithm>

#include "core/scalar.hpp"

namespace contactref::oracles {

inline constexpr double kEvaluationRoundings = 256;

// 2 x 256 eps L.
inline double evaluation_roundoff(double size) { return 2 * kEvaluationRoundings * epsilon<double>() * size; }

// 1 / (min(|d_s|, |d_t|) sin(d_s, d_t)).
inline double normal_sensitivity(const Vec3<double>& d_s, const Vec3<double>& d_t) {
  const double sine = d_s.cross(d_t).norm() / (d_s.norm() * d_t.norm());
  return 1 / (std::min(d_s.norm(), d_t.norm()) * sine);
}

}  // namespace contactref::oracles
