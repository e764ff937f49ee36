#pragma once
// The bicubic Bezier control net of Kry's rattleback (thesis App. B.1), before
// its scene transform: a dome over [-1.5, 1.5]^2 whose outer control points
// are lowered, row index with s. Shared by the tests, the audit and the
// benchmarks.
#include <array>

#include "core/scalar.hpp"

namespace contactref::data {

template <class T>
std::array<Vec3<T>, 16> rattleback_net() {
  const double height[4][4] = {{-2, -1, -1, -2}, {-1, 0, 0, -1}, {-1, 0, 0, -1}, {-2, -1, -1, -2}};
  std::array<Vec3<T>, 16> net;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) net[std::size_t(4 * i + j)] = Vec3<T>(T(i - 1.5), T(j - 1.5), T(height[i][j]));
  return net;
}

}  // namespace contactref::data
