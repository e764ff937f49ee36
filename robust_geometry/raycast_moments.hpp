#pragma once
// The intersection moments of two closed triangle meshes by parallel rays:
// the fast, approximate route (Bouchard et al. Section 4.1-4.2: "parallel
// rays are cast ... through the object surfaces, and for each ray, a simple
// one-dimensional intersection test" gives the volume, in three orthogonal
// directions for the gradient; "the net tensor is the sum of each ray's
// contribution"), on the CPU, with an error estimate. Same definitions and
// result as intersection_moments (intersection_volume.hpp: V, c, C, M of
// Eqs. 14-16, the shapes of Eqs. 17-20 by fill_principal_shape, the volume
// gradient for B's rigid motion about A's origin and its parts), which it is
// tested against.
//
// Method. Let Ω = A ∩ pose_b(B) and [lo, hi] the intersection of the two
// bounding boxes (Ω lies in it; disjoint boxes: kDisjoint). For each axis k
// (with (a, b, k) cyclic), rays parallel to e_k pass through the centres
// (u_i, v_j) of an N × N grid of cells of sides h_a × h_b covering the box's
// projection (N = RaycastOptions::cells on every axis, so a thin box still
// gets N cells across its thin side). Every triangle of A and of B whose
// projection meets the grid is scan-converted (the cells whose centre it
// covers: O(triangles + crossings), no ray-triangle search); a crossing
// records its depth along e_k and whether the ray enters or leaves. Per ray
// the crossings are sorted; winding numbers give the inside sets of A and B
// and their intersection, a union of intervals [z0, z1], whose exact 1D
// moments ∫ 1, ∫ z, ∫ z^2 over the ray (z from the box centre o) are the
// integrands f, g, s of the cell. Each ray stands for its cell's prism
// (f constant over the cell, the midpoint rule):
//   V     = Σ f h_a h_b                                          (Eq. 14)
//   ∫ y   = Σ (u f, v f, g) h_a h_b       (y = r - o; c = o + ∫ y / V, Eq. 15)
//   ∫ y y^T: uu (u^2 + h_a^2/12) f, vv (v^2 + h_b^2/12) f, uv u v f,
//            uk u g, vk v g, kk s, times h_a h_b
//   (h^2/12: the second moment of a cell's width, exact for a full cell),
//   C = ∫ y y^T - V (c - o)(c - o)^T, M = tr(C) I - C        (Eq. 16).
// Each axis gives V, c and C; the result takes the axis with the smallest
// volume error estimate (the rays along the thin direction of a flat
// intersection) and reports which (RaycastReport::moment_axis).
//
// Gradient ((∫ x × n_B dA ; ∫ n_B dA) over ∂B ∩ A, intersection_volume.hpp).
// Each component comes from the rays along the axis that sees it
// undistorted: ∫ n_k dA over a surface is its signed area projected along
// e_k, so ∫ n_k dA = Σ (signed count of ∂B's crossings inside A) h_a h_b on
// the rays of axis k, and ∫ x_j n_k dA (j ≠ k, x_j = u or v constant along
// the ray) = Σ x_j (signed count) h_a h_b; then
//   (∫ x × n dA)_i = ∫ x_{i+1} n_{i+2} dA - ∫ x_{i+2} n_{i+1} dA.
// Every crossing weighs ± one cell: no 1 / |n · d| factor, which would make
// faces nearly parallel to the rays noisy and lose those parallel to them
// (the side faces of a box) entirely, as a single ray direction would.
// Crossings of ∂B at the depth of a crossing of ∂A (coplanar faces, found
// when the two computed depths are equal doubles: axis-aligned or identical
// planes) are the touching (opposite normals) and flush (equal normals)
// parts, as in intersection_volume.hpp: gradient = interior + (touching +
// flush) / 2. Coplanar faces whose depths round differently fall into the
// interior or outside by the computed order (a difference of up to one
// cell's weight per such ray).
//
// Robustness. A ray passes through a triangle when its centre lies in the
// triangle's projection, decided by exact orientation predicates (a static
// floating-point filter, CGAL's exact predicate when it cannot decide) with
// simulation of simplicity: a centre on a projected edge or vertex is moved
// to centre + (ε, ε^2), so every ray crosses the surface at generic points:
// once through an edge shared by two triangles, once through a vertex, and
// never through a triangle parallel to it. Depths are clamped to the
// triangle's range. The winding number below the box's start is counted
// from the crossings there. No tolerance; every loop is bounded by the
// triangles and the crossings; non-finite values cannot arise from valid
// coordinates.
//
// Error estimate (RaycastBounds). The midpoint rule errs where the integrand
// φ (f, u f, g, ..., the signed counts) is not affine over a cell: across a
// discontinuity (a silhouette of Ω or the rim of ∂B ∩ A: φ jumps by J), a
// kink (an edge of a sheet: the slope jumps by σ), or a curvature. In 1D
// with cell [-h/2, h/2] and the second difference D^2 φ = φ(h) + φ(-h) -
// 2 φ(0) of the neighbouring samples:
//   jump at a:  |error| <= J h / 2 and |D^2 φ| >= J (one neighbour lies
//               across, the other not);
//   kink at a:  |error| <= σ h^2 / 8 and |D^2 φ| >= σ h / 2;
//   smooth:     error = h^3 φ'' / 24 and D^2 φ = h^2 φ''.
// So |error| <= (h / 2) |D^2 φ| per cell in each case, and over the grid
//   |Σ φ h_a h_b - ∫ φ| <= Σ_cells (h_a h_b / 2) (|D_a^2 φ| + |D_b^2 φ|),
// with φ = 0 outside the grid (Ω lies in the box). In 2D a straight
// discontinuity crossing a cell puts an a- or b-neighbour across it (their
// distance, h_a |m_a| or h_b |m_b| along the curve's normal m, exceeds the
// centre's, at most (h_a |m_a| + h_b |m_b|) / 2). The estimate is a bound
// when the grid resolves Ω: curves of discontinuity or of kinks more than
// two cells apart and nearly straight over a cell, no feature of Ω (a
// component, a sliver) between rays (such a feature is missed entirely,
// and a touching of lower dimension, at edges or vertices, is not seen:
// kDisjoint where intersection_moments says kTouching, with the same zero
// volume and gradient). Applied to each integrand it bounds V, ∫ y,
// ∫ y y^T and the gradient's entries; then, rigorously from those,
//   |δc_i| <= (B_{∫y,i} + |c_i - o_i| B_V) / (V - B_V)   (and <= the box's side),
//   |δC_ij| <= B_{∫yy,ij} + B_V |y_i y_j| + (V + B_V)(|y_i| δc_j + δc_i |y_j| + δc_i δc_j)
//   (y = c - o; and <= (2 V + B_V) side_i side_j / 4),
//   |δM_ij| <= |δC_ij| + [i = j] Σ_k |δC_kk|.
// It converges like the error: O(h) where Ω has silhouettes (walls along the
// rays), O(h^2) where f vanishes continuously at Ω's rim.
//
// Kinds: kOverlapping when the rays of some axis see a positive volume (the
// moments then from the best such axis); else kTouching when some ray meets
// both closed solids at a point (face-to-face contact), else kDisjoint.
// boundary_triangles = 0; rational_evaluation and non_manifold_intersection
// are false.
//
// Cost: O(triangles + N^2 + crossings log) per axis, three axes; memory
// O(N^2 + crossings). Single thread.
//
// Errors: InputError for bad input: the solids are validated with
// validate_triangle_solid (skipped with assume_valid_solids; then invalid
// solids give meaningless numbers but no crash), and always: vertices
// finite and within coordinate_range.hpp's magnitudes (B's after the pose),
// indices in range, at least one triangle, cells in [1, kMaxRaycastCells].
// ComputationError if the eigen-decomposition of C fails.
#include <cstddef>

#include <Eigen/Core>

#include "core/rigid_pose.hpp"
#include "robust_geometry/intersection_volume.hpp"

namespace contactref::robust_geometry {

// The default grid: N = 192 cells across each side of the overlap box's
// projection (36,864 rays per axis): within the 50 ms target on the
// 197k-triangle bumpy cube against a plane and against a second bumpy cube
// (benchmarks/intersection_bench.cpp; 256 took ~58 ms for the second), with
// volumes there within 3.3e-3 and 2.9e-5 of the exact ones (relative).
inline constexpr int kDefaultRaycastCells = 192;
// At most 2048 (4.2M rays and some 200 MB per axis).
inline constexpr int kMaxRaycastCells = 2048;

struct RaycastOptions {
  int cells = kDefaultRaycastCells;  // N, cells across each side of the overlap box
  // Skip validate_triangle_solid (as IntersectionOptions::assume_valid_solids).
  bool assume_valid_solids = false;
};

// Error estimates (absolute; see "Error estimate"), of the result's fields.
struct RaycastBounds {
  double volume = 0;
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
  Eigen::Matrix3d second_moment = Eigen::Matrix3d::Zero();
  Vector6d gradient = Vector6d::Zero();
};

struct RaycastReport {
  int moment_axis = -1;  // the axis (0 x, 1 y, 2 z) whose rays gave V, c, C; -1 without volume
  int cells = 0;         // N
  std::size_t rays = 0;  // over the three axes
  std::size_t hits = 0;  // ray-triangle crossings within the box, over the three axes
  RaycastBounds bounds;
};

struct RaycastMoments {
  IntersectionMoments moments;
  RaycastReport report;
};

// A ∩ B placed at pose_b (B's vertices mapped to A's frame in double), by
// rays (see above). Throws InputError or ComputationError.
RaycastMoments raycast_intersection_moments(const TriangleSolid& a, const TriangleSolid& b,
                                            const RigidPose<double>& pose_b,
                                            const RaycastOptions& options = RaycastOptions());

}  // namespace contactref::robust_geometry
