#pragma once
// Seeded random rotations, poses, twists and inertias for tests, drawn in
// double and cast exactly to the scalar under test (see
// validation/fixtures/random_spatial.hpp, shared with the audit and benchmarks).
#include "validation/fixtures/random_spatial.hpp"

namespace contactref::test {

using fixtures::Rng;
using fixtures::to_scalar;

// The seed of every test's generator, so that a failure reproduces.
inline constexpr std::uint64_t kSeed = 20261122;

// Typed draws: the double draw cast to T. Rotations are built in T from the
// drawn quaternion, normalised in T, so that they are orthogonal to T's
// precision (a double rotation cast to Real50 is orthogonal only to 1e-16).
template <class T>
Mat3<T> random_rotation(Rng& rng) {
  Vec4<T> q = to_scalar<T>(fixtures::random_unit_quaternion(rng));
  q /= q.norm();
  const Mat3<T> U = spatial::skew<T>(q.template tail<3>());
  return Mat3<T>::Identity() + T(2) * (q(0) * U + U * U);
}
template <class T>
Mat4<T> random_pose(Rng& rng, double scale = 1.0) {
  const Mat3<T> R = random_rotation<T>(rng);
  return spatial::make_pose<T>(R, to_scalar<T>(fixtures::random_vector3(rng, scale)));
}
template <class T> Vec6<T> random_twist(Rng& rng, double scale = 1.0) { return to_scalar<T>(fixtures::random_twist(rng, scale)); }
template <class T> Vec3<T> random_vector3(Rng& rng, double scale = 1.0) { return to_scalar<T>(fixtures::random_vector3(rng, scale)); }

// The inertia of a random box (exactly symmetric in double, so also in T).
template <class T>
std::pair<T, Mat3<T>> random_inertia(Rng& rng) {
  const auto [m, I] = fixtures::random_inertia(rng);
  return {T(m), to_scalar<T>(I)};
}

}  // namespace contactref::test
