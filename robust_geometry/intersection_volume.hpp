#pragma once
// Intersection volumes and their moments (Bouchard et al., Section 4 and
// Appendix A, Eqs. 14-20), computed exactly with CGAL and rounded once to
// double.
//
// Given two closed triangle meshes A and B and the pose of B in A's frame, the
// intersection solid Omega = A ∩ pose_b(B) is built exactly (CGAL
// Polygon_mesh_processing::corefine_and_compute_intersection over the
// Exact_predicates_exact_constructions_kernel; non-convex solids allowed), and
// the integrals below are evaluated over its boundary triangles by the
// divergence theorem, exactly (see "Evaluation"), and each result is rounded
// once to the nearest double.
//
// Definitions (all in A's frame, SI units):
//
//   V = ∫_Ω 1 dV                                       (Eq. 14)
//   c = (1/V) ∫_Ω r dV                                 (Eq. 15; the paper's
//        text omits the 1/V but calls c "the center")
//   C = ∫_Ω (r - c)(r - c)^T dV                        covariance form
//   M = ∫_Ω (|r - c|^2 I - (r - c)(r - c)^T) dV        (Eq. 16)
//     = tr(C) I - C.
//
// Which second moment Eq. 16 means: the extracted formula reads
// "∫ (r - c)^2", which is ambiguous. The paper means the inertia-like form M
// (unit density, about the centroid): Section 4.2 calls it "much like the
// inertia tensor", Eqs. 17-19 are the principal inertias of a unit-density
// cuboid (I_x = V/12 (y^2 + z^2)), Eq. 20 inverts them, and the remark that for
// a flat volume "I_z becomes the sum of the other two" is the perpendicular-
// axis theorem, true of M and not of C. `second_moment` is therefore M; the
// covariance C is returned too (`covariance`), because the dimensions are
// better conditioned from it (I_y + I_z - I_x = 2 C_xx in principal axes, no
// cancellation).
//
// Evaluation. The solid's vertices are exact rationals (the corefinement
// constructs the points where the two surfaces cross). The integrals are
// polynomials in them; their exact values are rounded once to the nearest
// double (ties to even). To avoid the cost of canonicalised rational
// arithmetic, they are first evaluated with certified bounds: coordinates
// rounded to 192-bit fixed point about a centre, polynomials summed exactly
// in integers, the rounding's effect bounded exactly, quotients in rational
// interval arithmetic; a value is accepted only when its whole interval
// rounds to one double, which is then the exact value's rounding. Any value
// left undecided (one lying on, or within about 1e-40 relative of, the
// midpoint between two doubles) makes the whole evaluation fall back to GMP
// rationals. The returned doubles do not depend on the path.
//
// Equivalent shapes (Eqs. 17-20). In the principal axes of M (the same as
// C's), with principal covariances C_i (eigenvalues of C):
//   cuboid edge lengths   x_i = sqrt(12 C_i / V)
//                             = sqrt(12 (I_j + I_k - I_i) / (2 V))   (Eq. 20)
//   ellipsoid semi-axes   a_i = sqrt(5 C_i / V)   (the paper: "the constant
//                         changes from 1/12 to 1/5": I_x = V/5 (b^2 + c^2)
//                         for an ellipsoid of semi-axes a, b, c).
// The eigen-decomposition is done in double on the rounded C (it is not
// exact); the axes are ordered by increasing C_i (thinnest direction first:
// for a flat intersection, axis 0 is the normal of the patch).
//
// Volume gradient. B moves rigidly with twist (omega; v) (angular; linear,
// the project's order) about A's origin: a point x of B moves with velocity
// omega × x + v. Then (Reynolds transport on the part of ∂B inside A)
//   dV/dt = ∫_{∂B ∩ A} (omega × x + v) · n_B dA = gradient · (omega; v),
//   gradient = ( ∫ x × n_B dA ; ∫ n_B dA ),
// with n_B B's outward unit normal, evaluated exactly over the corefined
// triangles of ∂B that lie inside A (the faces of ∂Ω that come from B). The
// sign: moving B along its own outward normal into A increases V. Not a finite
// difference.
//
// Degenerate configurations. Where a patch of ∂B lies on ∂A (coplanar faces)
// V is not differentiable: moving B one way changes V at a rate, the other way
// not at all, so the one-sided derivative is not unique (and not linear in the
// twist). `gradient` is then the symmetric derivative, the limit of central
// differences (V(+h) - V(-h)) / 2h, which is linear:
//   gradient = gradient_interior + (gradient_touching + gradient_flush) / 2,
// where gradient_interior integrates over ∂B strictly inside A, and the other
// two over the patches of ∂B on ∂A with B's outward normal opposite to A's
// (touching: face-to-face contact, the solids on opposite sides) and equal to
// A's (flush: the solids on the same side). The parts are returned so that a
// caller can form one-sided derivatives: for a twist that moves every point
// of the touching and flush patches along n_B or not at all ((omega × x + v)
// · n_B >= 0 there), the one-sided rate is (interior + touching) · twist; for
// one that moves them all against n_B, (interior + flush) · twist.
//
// Kinds (an explicit flag; no NaN anywhere):
//   - kDisjoint: A ∩ B is empty. V = 0, gradient 0; centroid, moments and
//     shapes are undefined and set to zero.
//   - kTouching: the closed solids meet but the intersection has zero volume
//     (contact at vertices, edges or faces). V = 0; centroid, moments and
//     shapes undefined (zero); gradient as defined above (half the integral
//     over the face-to-face contact patches, zero for contact of lower
//     dimension).
//   - kOverlapping: V > 0, everything defined.
//
// Errors: InputError for bad input (a mesh that is not a closed,
// consistently oriented, outward, manifold triangle mesh without degenerate
// or self-intersecting triangles; a non-finite coordinate or one outside
// the magnitudes of coordinate_range.hpp; an index out of range), with a
// message naming the solid and the element (the pose is a RigidPose, rigid by
// its type); ComputationError if the exact computation fails (CGAL reports a
// failure, a result does not fit in a double); InternalError if an exact
// invariant of the algorithm does not hold (a bug).
//
// CGAL stays out of this header (it is heavy); see intersection_volume.cpp.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/rigid_pose.hpp"

namespace contactref::robust_geometry {

using Vector6d = Eigen::Matrix<double, 6, 1>;

// A closed triangle mesh bounding a solid: triangles counter-clockwise seen
// from outside (outward normals), 0-based vertex indices. Every edge is shared
// by exactly two triangles that traverse it in opposite directions. Several
// disjoint (or nested, correctly oriented) components are allowed.
struct TriangleSolid {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;
};

enum class IntersectionKind { kDisjoint, kTouching, kOverlapping };

const char* to_string(IntersectionKind kind);

struct IntersectionMoments {
  IntersectionKind kind = IntersectionKind::kDisjoint;
  // True when the intersection has positive volume; the centroid, the
  // moments and the shapes are defined only then.
  bool has_volume() const { return kind == IntersectionKind::kOverlapping; }

  double volume = 0;                                        // V, Eq. 14
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();       // c, Eq. 15
  Eigen::Matrix3d second_moment = Eigen::Matrix3d::Zero();  // M, Eq. 16 (inertia-like, about c)
  Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();     // C = ∫ (r - c)(r - c)^T

  // Eigen-decomposition (double, of the rounded C): unit columns, a proper
  // rotation, ordered by increasing principal covariance.
  Eigen::Matrix3d principal_axes = Eigen::Matrix3d::Identity();
  Eigen::Vector3d principal_covariances = Eigen::Vector3d::Zero();  // C_i
  Eigen::Vector3d principal_moments = Eigen::Vector3d::Zero();      // I_i = tr C - C_i (Eqs. 17-19)
  Eigen::Vector3d cuboid_dimensions = Eigen::Vector3d::Zero();      // edge lengths x_i, Eq. 20
  Eigen::Vector3d ellipsoid_semi_axes = Eigen::Vector3d::Zero();    // a_i (constant 1/5)

  // dV/d(omega; v) for B's rigid motion about A's origin (see above).
  Vector6d gradient = Vector6d::Zero();
  Vector6d gradient_interior = Vector6d::Zero();  // ∂B strictly inside A
  Vector6d gradient_touching = Vector6d::Zero();  // ∂B on ∂A, opposite normals
  Vector6d gradient_flush = Vector6d::Zero();     // ∂B on ∂A, equal normals

  // The number of boundary triangles of the intersection the integrals ran
  // over (0 unless kOverlapping).
  std::size_t boundary_triangles = 0;
  // How the exact values were evaluated (the doubles are the same either
  // way): false for the certified fixed-point evaluation, true for GMP
  // rationals (asked for, the Nef oracle, or the certified bound left a
  // rounding undecided). See "Evaluation" above.
  bool rational_evaluation = false;
  // With IntersectionOptions::keep_vertices (or halfspace_intersection_moments'
  // keep_vertices): the corners of ∂Ω (each rounded to the nearest double;
  // some may repeat), for a caller that needs Ω's extent rather than its
  // moments (volume_contact's support region). Empty otherwise, and from the
  // Nef oracle.
  std::vector<Eigen::Vector3d> vertices;
  // The intersection is not a 2-manifold (pieces sharing only edges or
  // vertices), which CGAL's corefinement output refuses: ∂Ω was assembled
  // from the corefined faces of A and B classified against the other solid
  // (faces of A inside B, of B inside A, coplanar patches with equal normals
  // once). The results are exact all the same. Always false from the Nef
  // oracle.
  bool non_manifold_intersection = false;
};

struct IntersectionOptions {
  // Evaluate every integral in GMP rationals instead of the certified
  // fixed-point evaluation (same results, much slower where the intersection
  // has many constructed vertices). For tests and audits.
  bool rational_only = false;
  // Skip validate_triangle_solid on A and B: for callers that validated the
  // same solids once and call again every step.
  // Invalid solids then give undefined results (CGAL's preconditions).
  bool assume_valid_solids = false;
  // Fill IntersectionMoments::vertices.
  bool keep_vertices = false;
};

// The intersection of A with B placed at pose_b (the rigid transform taking
// B's coordinates into A's frame). The pose is applied in exact arithmetic to
// B's vertices with the double entries as given: the result is exact for the
// affine map those entries define (rigid only to the entries' rounding).
// Throws InputError (bad input) or ComputationError (see above).
IntersectionMoments intersection_moments(const TriangleSolid& a, const TriangleSolid& b,
                                         const RigidPose<double>& pose_b);
IntersectionMoments intersection_moments(const TriangleSolid& a, const TriangleSolid& b,
                                         const RigidPose<double>& pose_b, const IntersectionOptions& options);

// The same quantities through CGAL's Nef_polyhedron_3 (the regularised
// intersection of the two Nef polyhedra, converted back to triangles), used
// as an independent oracle for intersection_moments in tests; much slower.
// Its gradient comes from classifying each boundary triangle of the result
// against ∂A and ∂B (CGAL::Side_of_triangle_mesh); face-to-face touching
// patches vanish from a regularised intersection, so gradient_touching is
// always zero here and a touching configuration reports kTouching with a zero
// gradient.
IntersectionMoments intersection_moments_nef(const TriangleSolid& a, const TriangleSolid& b,
                                             const RigidPose<double>& pose_b);

// Eqs. 17-20 from result.covariance and result.volume (> 0): the principal
// axes (eigenvectors of C in double, ordered by increasing C_i, the first two
// with their largest component positive, the third their cross product; the
// sign is ambiguous where two components are equal in magnitude), the
// principal covariances and moments, the cuboid and ellipsoid dimensions.
// For every producer of IntersectionMoments (exact or fast paths).
// ComputationError if the eigen-decomposition fails.
void fill_principal_shape(IntersectionMoments& result);

// Throws InputError naming `name` and the offending element unless
// `solid` is valid input for the functions above (see "Errors").
void validate_triangle_solid(const TriangleSolid& solid, const std::string& name);

}  // namespace contactref::robust_geometry
