// The bumpy cube of the intersection benchmark; see bumpy_cube.hpp.
#include "validation/data/bumpy_cube.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <stdexcept>

#include "core/errors.hpp"
#include <string>
#include <unordered_map>
#include <vector>

namespace contactref::data {

robust_geometry::TriangleSolid bumpy_cube(int n, double half_size, double amplitude, int bumps) {
  const auto refuse = [](const std::string& what) { throw InputError("bumpy_cube: " + what); };
  // 12 n^2 triangles and 6 n^2 + 2 vertices must fit int indices.
  if (n < 1 || n > 4096) refuse("n = " + std::to_string(n) + " is outside [1, 4096]");
  if (!(half_size > 0) || !std::isfinite(half_size)) refuse("half_size must be positive and finite");
  if (bumps < 0) refuse("bumps = " + std::to_string(bumps) + " is negative");
  if (!std::isfinite(amplitude) || !(std::abs(amplitude) < half_size / 2)) {
    refuse("|amplitude| must be finite and below half_size / 2");
  }
  if (!(std::abs(amplitude) * bumps * std::numbers::pi < 2 * half_size)) {
    refuse("|amplitude| bumps pi must be below 2 half_size (steeper bumps make adjacent faces cross)");
  }
  const double h = half_size;
  const auto nn = static_cast<std::size_t>(n);
  std::vector<double> coordinate(nn + 1), wave(nn + 1, 0.0);
  for (std::size_t i = 0; i <= nn; ++i) {
    // -h and h exactly at the ends (the formula can miss them by an ulp, which
    // would fold the cube's edges).
    coordinate[i] = i == 0 ? -h : i == nn ? h : h * (2.0 * double(i) - double(n)) / double(n);
    if (i > 0 && i < nn) wave[i] = std::sin(std::numbers::pi * double(bumps) * double(i) / double(n));
  }

  robust_geometry::TriangleSolid solid;
  solid.vertices.reserve(6 * nn * nn + 2);
  solid.triangles.reserve(12 * nn * nn);
  // Vertices on the cube's edges are shared between faces: keyed by their
  // lattice point (I_x, I_y, I_z) in [0, n]^3.
  std::unordered_map<std::int64_t, int> edge_vertex;
  std::vector<int> grid((nn + 1) * (nn + 1));
  for (int k = 0; k < 3; ++k) {
    const int a = (k + 1) % 3, b = (k + 2) % 3;  // e_a x e_b = e_k
    for (const int side : {-1, 1}) {
      for (std::size_t i = 0; i <= nn; ++i) {
        for (std::size_t j = 0; j <= nn; ++j) {
          const bool border = i == 0 || j == 0 || i == nn || j == nn;
          std::array<std::int64_t, 3> lattice{};
          lattice[std::size_t(k)] = side > 0 ? n : 0;
          lattice[std::size_t(a)] = std::int64_t(i);
          lattice[std::size_t(b)] = std::int64_t(j);
          const std::int64_t key = (lattice[0] * (n + 1) + lattice[1]) * (n + 1) + lattice[2];
          int& index = grid[i * (nn + 1) + j];
          if (border) {
            const auto found = edge_vertex.find(key);
            if (found != edge_vertex.end()) {
              index = found->second;
              continue;
            }
          }
          Eigen::Vector3d x;
          x(a) = coordinate[i];
          x(b) = coordinate[j];
          x(k) = side * (h + amplitude * wave[i] * wave[j]);  // wave = 0 on the border
          index = int(solid.vertices.size());
          solid.vertices.push_back(x);
          if (border) edge_vertex.emplace(key, index);
        }
      }
      for (std::size_t i = 0; i < nn; ++i) {
        for (std::size_t j = 0; j < nn; ++j) {
          const int p00 = grid[i * (nn + 1) + j], p10 = grid[(i + 1) * (nn + 1) + j];
          const int p11 = grid[(i + 1) * (nn + 1) + j + 1], p01 = grid[i * (nn + 1) + j + 1];
          if (side > 0) {  // counter-clockwise seen from +e_k
            solid.triangles.push_back({p00, p10, p11});
            solid.triangles.push_back({p00, p11, p01});
          } else {
            solid.triangles.push_back({p00, p11, p10});
            solid.triangles.push_back({p00, p01, p11});
          }
        }
      }
    }
  }
  return solid;
}

}  // namespace contactref::data
