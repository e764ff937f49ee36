#pragma once
// The intersection moments of a closed triangle mesh with a half-space, in
// double precision (Bouchard et al. Eqs. 14-20): the fast path for a body
// resting on a plane, checked in tests against the exact intersection_moments.
//
//   Omega = A ∩ H,   H = {x : n · x <= d}   (A's frame; n need not be unit,
//   u = n / |n| is H's outward unit normal; the plane is n · x = d).
//
// Derivation. Centre the coordinates at a point o of the plane, y = x - o.
// For f homogeneous of degree k in y, div(f y) = (3 + k) f, so by the
// divergence theorem
//   ∫_Ω f dV = 1/(3 + k) ∮_{∂Ω} f (y · n_Ω) dA.
// ∂Ω is (∂A ∩ H) ∪ cap, cap = A ∩ plane, and y · n_Ω = y · u = 0 on the cap:
// only ∂A ∩ H contributes. Clipping each triangle of ∂A against H (a triangle,
// a quad split in two, or nothing: O(triangles), no topology) and summing the
// exact tetrahedron moments with apex o over the pieces (the same per-triangle
// formulas as intersection_volume's MomentAccumulator: with
// D = p0 · (p1 × p2), s = p0 + p1 + p2:
//   V += D / 6 (Eq. 14),  ∫ y += D s / 24 (Eq. 15),
//   ∫ y y^T += D (Σ p_i p_i^T + s s^T) / 120 (Eq. 16)
// gives V, c and C exactly up to rounding; M = tr(C) I - C.
//
// Gradient (intersection_volume.hpp's definition, B = H moving rigidly about
// A's origin): (∫ x × u dA ; ∫ u dA) over ∂H ∩ A, the cap. ∮_{∂Ω} n dA = 0 and
// ∮_{∂Ω} x × n dA = 0 give the cap's integrals as minus those over the
// clipped triangles: with N_t the vector area and g_t the centroid of a piece,
//   ∫_cap u dA = -Σ N_t,   ∫_cap x × u dA = -Σ g_t × N_t.
// In exact arithmetic the first is parallel to u and the second orthogonal to
// it; the code keeps only those components (removing pure rounding noise).
//
// Faces of A lying in the plane (all three vertices with n · x - d == 0 in
// double) are the touching (A's normal -u) and flush (A's normal +u) patches.
// They add nothing to the volume; moving H by ±ε shows
//   interior + touching = -Σ_{S ∪ P},   interior + flush = -Σ_S
// (S the clipped triangles not in the plane, P those in it, Σ of (g × N; N)),
// hence gradient = interior + (touching + flush)/2 = -Σ_S - Σ_P / 2, and
//   gradient_touching = -Σ_{P, N·u<0},  gradient_flush = Σ_{P, N·u>0}.
//
// Kind, decided on the signed values s_i = n · x_i - d computed in double at
// the vertices of the triangles (the minimum of a linear function over a
// polyhedron is at a vertex):
//   - kDisjoint: every s_i > 0. Everything zero.
//   - kTouching: min s_i == 0 (the solid meets the plane, nothing below it);
//     V = 0, gradient from the in-plane faces as above. Also reported when
//     some s_i < 0 but the computed V is not positive (a penetration at the
//     level of rounding); V is then set to 0.
//   - kOverlapping: some s_i < 0 and the computed V > 0.
// When every s_i < 0 the cap is empty and the gradient is exactly zero.
//
// Accuracy: rounding only. o is the projection onto the plane of the mean of
// A's vertices inside H (of the bounding box's centre if there is none): near
// the clipped part, so that shifting the second moment to the centroid
// cancels little even for a shallow cut far from A's centre. The pieces are
// summed pairwise (see the .cpp). Measured against the exact path: relative
// differences of V, c, C, M and the gradient <= ~1e-15 on bumpy cubes up to
// 197k triangles (tests/robust_geometry/halfspace_moments_test.cpp,
// benchmarks/intersection_bench.cpp), <= 1.4e-14 on 1% to 60% deep tilted
// cuts (`contactref audit`, geometry.halfspace.*).
//
// Input: A must be a closed, outward-oriented, non-self-intersecting triangle
// mesh (intersection_volume.hpp's TriangleSolid). For speed this is NOT
// checked; call validate_triangle_solid once for untrusted meshes. Checked on
// every call (InputError, message naming the field): the normal is
// finite and non-zero, the offset finite, every vertex finite, every index in
// range; a clearly negative clipped volume (an inward mesh) is refused too.
// principal_axes etc. are filled as intersection_moments does (double
// eigen-decomposition of C). boundary_triangles counts the clipped pieces of
// ∂A (the cap is not triangulated); rational_evaluation and
// non_manifold_intersection are false.
#include <Eigen/Core>

#include "robust_geometry/intersection_volume.hpp"

namespace contactref::robust_geometry {

// H = {x : normal · x <= offset}, in A's frame. `normal` is H's outward normal
// (any non-zero length); the plane through a point p is offset = normal · p.
struct HalfSpace {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  double offset = 0;
};

// A ∩ H (see above). Throws InputError for bad input. keep_vertices: fill
// IntersectionMoments::vertices with the clipped pieces' corners (A's
// vertices in H and the points where A's edges cross the plane).
IntersectionMoments halfspace_intersection_moments(const TriangleSolid& a, const HalfSpace& h,
                                                   bool keep_vertices = false);

}  // namespace contactref::robust_geometry
