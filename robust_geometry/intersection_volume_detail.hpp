#pragma once
// Internal to intersection_volume.cpp and intersection_volume_nef.cpp (the two
// translation units of intersection_volume.hpp): the exact meshes and the
// exact moment integrals they share. Includes CGAL's exact kernel and
// Surface_mesh; nothing outside robust_geometry/ should include it.
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Surface_mesh.h>

#include "robust_geometry/intersection_volume.hpp"

namespace contactref::robust_geometry::detail {

using Kernel = CGAL::Epeck;
using Point = Kernel::Point_3;
using Mesh = CGAL::Surface_mesh<Point>;
// The exact kernel behind Epeck's lazy numbers: rationals (GMP).
using ExactKernel = Kernel::Exact_kernel;
using ExactFT = ExactKernel::FT;
using ExactPoint = ExactKernel::Point_3;

// The exact mesh of a validated solid; with pose, each vertex x becomes
// R x + t evaluated in exact arithmetic from the double entries.
Mesh to_exact_mesh(const TriangleSolid& solid, const RigidPose<double>* pose);

// The nearest double to x (ties to even); ComputationError if x overflows.
double round_nearest(const ExactFT& x);

// A sum of many rationals, added pairwise (a binary counter of partial sums)
// so that the denominators of the partial sums stay balanced: adding n terms
// with unrelated denominators one by one costs O(n^2) in the size of the
// running denominator, pairwise O(n log n).
class ExactSum {
 public:
  void add(ExactFT x);
  ExactFT total() const;

 private:
  std::vector<std::pair<ExactFT, int>> partial_;  // (sum, level); levels decrease upward
};

// Which part of the volume gradient a triangle of ∂B contributes to
// (intersection_volume.hpp: gradient = interior + (touching + flush) / 2).
enum class GradientPart { kInterior = 0, kTouching = 1, kFlush = 2 };

// The exact integrals over the boundary triangles of an intersection solid
// (outward, counter-clockwise), and over the triangles of ∂B for the gradient.
// The triangles are kept by address: their points must outlive finish().
//
// Per triangle, with s = p0 + p1 + p2:
//   boundary: its tetrahedron with the origin contributes
//     d = p0 · (p1 × p2),  V += d / 6,  ∫ r += d s / 24,
//     ∫ r r^T += d (Σ_i p_i p_i^T + s s^T) / 120
//   (the exact moments of a tetrahedron with one vertex at the origin; the
//   divergence theorem turns the sum over ∂Ω into the integral over Ω);
//   gradient: with N = (p1 - p0) × (p2 - p0) / 2 its vector area,
//     ∫ n_B dA = N,  ∫ x × n_B dA = (s / 3) × N
//   (x × n is linear in x: its integral is the centroid's value times the area).
//
// Two evaluations give the same doubles, the exact values rounded to nearest:
//   - certified (default): the coordinates, relative to a dyadic centre o,
//     are rounded to integers at scale 2^k (about 192 bits), every
//     polynomial above is summed exactly in integers, the error those
//     roundings can cause is bounded exactly (see finish_certified), and the
//     final quotients are evaluated in rational interval arithmetic; a result
//     is accepted only when both ends of its interval round to the same
//     double. No gcd in the loop: fast.
//   - rational: every operation in GMP rationals (canonicalised at each step,
//     costly when the corefinement's constructed points have large
//     denominators). Used when the certified interval does not decide a
//     rounding, when asked (rational_only), and by the Nef oracle.
class MomentAccumulator {
 public:
  void add_boundary_triangle(const ExactPoint& p0, const ExactPoint& p1, const ExactPoint& p2);
  void add_gradient_triangle(GradientPart part, const ExactPoint& p0, const ExactPoint& p1, const ExactPoint& p2);

  // The results rounded once to double, and the double eigen-analysis. The
  // kind: kOverlapping if V > 0; otherwise kTouching if solids_meet, else
  // kDisjoint. ComputationError if V < 0 (an orientation error).
  IntersectionMoments finish(bool solids_meet, bool rational_only) const;

 private:
  using Triangle = std::array<const ExactPoint*, 3>;
  // false where the certified bound leaves a rounding undecided.
  bool finish_certified(IntersectionMoments& result) const;
  void finish_rational(IntersectionMoments& result) const;

  std::vector<Triangle> boundary_;
  std::array<std::vector<Triangle>, 3> gradient_;  // by GradientPart
};

}  // namespace contactref::robust_geometry::detail
