#pragma once
// Seeded random inputs for tests, the audit and the benchmarks: rotations,
// poses, twists and physical rigid-body inertias. All are drawn in double, so
// the same draw cast to Real50 gives the 50-digit referee exactly the same
// input (double -> Real50 is exact).
#include <random>
#include <utility>

#include "reference/spatial/pose.hpp"

namespace contactref::sampling {

using Rng = std::mt19937_64;

// A double input in scalar T (exact for T = double and T = Real50).
template <class T>
T to_scalar(double x) { return T(x); }

template <class T, class Derived>
auto to_scalar(const Eigen::MatrixBase<Derived>& m) { return m.template cast<T>().eval(); }

inline double uniform(Rng& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

inline Vec3<double> random_vector3(Rng& rng, double scale = 1.0) {
  return Vec3<double>(uniform(rng, -scale, scale), uniform(rng, -scale, scale), uniform(rng, -scale, scale));
}

// Uniformly distributed (Haar) rotation: a normalised 4D Gaussian quaternion.
inline Vec4<double> random_unit_quaternion(Rng& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Vec4<double> q(normal(rng), normal(rng), normal(rng), normal(rng));
  return q / q.norm();
}

inline Mat3<double> random_rotation(Rng& rng) {
  const Vec4<double> q = random_unit_quaternion(rng);
  const Mat3<double> U = spatial::skew<double>(q.tail<3>());
  return Mat3<double>::Identity() + 2.0 * (q(0) * U + U * U);
}

inline Mat4<double> random_pose(Rng& rng, double translation_scale = 1.0) {
  return spatial::make_pose<double>(random_rotation(rng), random_vector3(rng, translation_scale));
}

inline Vec6<double> random_twist(Rng& rng, double scale = 1.0) {
  Vec6<double> phi;
  phi << random_vector3(rng, scale), random_vector3(rng, scale);
  return phi;
}

// A solid box of random sides in [0.2, 2] m and mass in [0.5, 5] kg, in
// randomly rotated body axes: (mass, inertia about the centre of mass).
inline std::pair<double, Mat3<double>> random_inertia(Rng& rng) {
  const double a = uniform(rng, 0.2, 2.0), b = uniform(rng, 0.2, 2.0), c = uniform(rng, 0.2, 2.0);
  const double m = uniform(rng, 0.5, 5.0);
  const Vec3<double> principal(b * b + c * c, a * a + c * c, a * a + b * b);
  const Mat3<double> R = random_rotation(rng);
  const Mat3<double> I = R * (m / 12.0 * principal).asDiagonal() * R.transpose();
  return {m, (I + I.transpose()) / 2.0};
}

}  // namespace contactref::sampling
