#pragma once
// A cube with sinusoidal bumps: the large closed mesh of the intersection
// benchmark (Bouchard et al. Table 1: a bumpy cube of about 197k triangles on
// a plane), shared by the tests and benchmarks/intersection_bench.cpp.
#include "robust_geometry/intersection_volume.hpp"

namespace contactref::data {

// The cube [-h, h]^3 (h = half_size), each face an n x n grid of quads split
// along one diagonal (12 n^2 triangles; n = 128 gives 196,608), each grid
// vertex moved along its face's outward normal by
//   w(u, v) = amplitude sin(bumps π u) sin(bumps π v),
// (u, v) in [0, 1]^2 the face's two other coordinates (in cyclic order after
// the normal's axis) mapped from [-h, h]. w vanishes on the cube's edges
// (set to exactly 0 there), whose vertices are shared: the mesh is closed and
// outward oriented. It is free of self-intersections when
// |amplitude| bumps π < 2 h: then |w| < the distance to the face's border,
// so every face stays inside its own pyramid from the centre (and
// |amplitude| < h / 2 keeps the inward bumps away from the centre).
// Volume: (2h)^3 + 6 (2h/n)^2 amplitude S^2, S = Σ_{i=1}^{n-1} sin(bumps π i/n)
// (= cot(bumps π / 2n) for odd bumps, 0 for even), which tends to
// (2h)^3 + 6 (2h)^2 amplitude (2 / (bumps π))^2 for odd bumps.
// Throws InputError for n < 1, half_size not positive and finite,
// amplitude not finite or |amplitude| >= h / 2 or |amplitude| bumps π >= 2h,
// bumps < 0.
robust_geometry::TriangleSolid bumpy_cube(int n, double half_size, double amplitude, int bumps);

}  // namespace contactref::data
