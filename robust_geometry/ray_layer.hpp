#pragma once
// Internal to raycast_moments.cpp: the rays of one axis through two closed
// triangle meshes (both in A's frame), by scan conversion, and what each ray
// sees of A ∩ B. The method and its robustness are documented in
// raycast_moments.hpp ("Method", "Robustness").
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

namespace contactref::robust_geometry::detail {

// A closed triangle mesh with its vertices in A's frame (indices checked).
struct PlacedMesh {
  const std::vector<Eigen::Vector3d>* vertices = nullptr;
  const std::vector<std::array<int, 3>>* triangles = nullptr;
};

// The grid of one axis k: rays parallel to e_k, pointing along +e_k, through
// the centres of cells × cells cells covering the overlap box's projection
// onto the (a, b) plane, (a, b, k) a cyclic permutation of (x, y, z).
// Ray (i, j) has index i + cells j and passes through
// (centre_a[i], centre_b[j]).
struct RayLayer {
  int axis = 0;
  int cells = 0;
  double width_a = 0, width_b = 0;  // the cell's sides h_a, h_b
  std::vector<double> centre_a, centre_b;
  // Per ray, over the ray's inside set of Ω = A ∩ B, z the coordinate along
  // e_k minus `origin_k` (cast_rays' argument):
  //   length = ∫ 1 dz,  first = ∫ z dz,  second = ∫ z^2 dz;
  // and the signed count of ∂B's crossings (sign of n_B · e_k) strictly
  // inside A (interior), on ∂A with the opposite normal (touching) or the
  // same normal (flush): the integrands of ∫ n_k dA over those parts.
  std::vector<double> length, first, second;
  std::vector<std::int32_t> interior, touching, flush;
  // Some ray met both closed solids at a common point.
  bool solids_meet = false;
  std::size_t hits = 0;  // ray-triangle crossings recorded (inside the box's k range)
};

// The rays of `axis` (0, 1, 2) through A and B, restricted to the box
// [lo, hi] (lo <= hi; a layer without rays when the box is flat across the
// rays: there the projected integrals vanish), cells per side.
RayLayer cast_rays(const PlacedMesh& a, const PlacedMesh& b, const Eigen::Vector3d& lo, const Eigen::Vector3d& hi,
                   int axis, int cells, double origin_k);

}  // namespace contactref::robust_geometry::detail
