#pragma once
// The contact patch of Bouchard et al. Section 4 and Appendix A: from the
// moments of the intersection volume Omega of A and B (robust_geometry's
// IntersectionMoments, in A's frame), the contact normal, frame and ellipse.
//
//  - Normal (Section 4.1: "it is always the linear component of the
//    intersection volume gradient that we use as the normal"): the linear part
//    g_v = integral of n_B over the part of B's boundary inside A is dV/dv for
//    B's translation v; the pressure pushes B against it, so
//    n = -g_v / |g_v|, pointing from A into B (the force on B is along +n).
//  - The equivalent ellipsoid (Appendix A, the constant 1/5 of Eqs. 17-20):
//    the solid ellipsoid with Omega's volume and covariance C, that is
//    x^T S^-1 x <= 1 about the centroid with S = 5 C / V (its semi-axes are
//    sqrt(5 C_i / V)).
//  - The ellipse (Section 4.2: "we project the ellipsoid to a flat ellipse in
//    the tangent plane defined by the contact normal"): the orthogonal
//    projection of that ellipsoid onto the plane through the centroid
//    normal to n, the ellipse y^T (T^T S T)^-1 y <= 1 in any orthonormal
//    basis T of the plane; its semi-axes are the square roots of T^T S T's
//    eigenvalues.
//  - The frame: origin at the centroid, axes (major, minor, n), right-handed.
//  - The limiting cases of the ellipsoid (semi-axes a_0 <= a_1 <= a_2), with
//    the ratio `thin` (default 0.1): a skinny rod when a_1 <= thin a_2 (an
//    edge crossing an edge or a face: the patch is nearly a segment, and the
//    torque limits about its axis nearly vanish); else a thin sheet when
//    a_0 <= thin a_1 (a flat patch, the regular face contact); else a bulky
//    volume (a deep or corner penetration, where the flat-patch model is
//    coarse).
//  - The support region (PatchOptions::region = kSupport, support_region.hpp):
//    the convex hull of the intersection's corners projected onto the
//    tangent plane, in the frame's (u, w) about the centroid, for the centre
//    of pressure and the spin torque bound in place of the ellipse (which
//    reaches sqrt(5/12) of the region's width from its centre, past it). The
//    paper's ellipse (kEllipse) is the default; the ellipse is computed
//    either way (the frame's axes, the shape).
#include <Eigen/Core>
#include <string>

#include "reference/volume_contact/support_region.hpp"
#include "robust_geometry/intersection_volume.hpp"

namespace contactref::volume_contact {

enum class PatchShape { kSheet, kRod, kBulk };
const char* to_string(PatchShape shape);

// Where the centre of pressure may go and what bounds the spin torque:
// Appendix A's ellipse with Eqs. 11-13, or the support region.
enum class PatchRegion { kEllipse, kSupport };
const char* to_string(PatchRegion region);

struct PatchOptions {
  double thin = 0.1;  // in (0, 1): the ratio of semi-axes below which an axis counts as thin
  PatchRegion region = PatchRegion::kEllipse;
};

struct ContactPatch {
  Eigen::Vector3d centre_a = Eigen::Vector3d::Zero();    // m: the centroid c (Eq. 15), A's frame
  Eigen::Vector3d normal_a = Eigen::Vector3d::UnitZ();   // unit, from A into B
  // Columns: the ellipse's major axis, its minor axis, the normal (a
  // rotation from the contact frame to A's).
  Eigen::Matrix3d frame_a = Eigen::Matrix3d::Identity();
  Eigen::Vector2d ellipse_semi_axes = Eigen::Vector2d::Zero();  // m: major, minor
  Eigen::Vector3d ellipsoid_semi_axes = Eigen::Vector3d::Zero();  // m: a_0 <= a_1 <= a_2
  PatchShape shape = PatchShape::kSheet;
  SupportRegion support;  // kSupport only: (u, w) about centre_a
};

// InputError: an intersection without volume (disjoint or touching), a
// non-finite moment, thin outside (0, 1). ComputationError: the gradient's
// linear part vanishes against the intersection's size (B's boundary inside
// A closes on itself, as when B lies wholly inside A: no normal), or a
// covariance that is not positive semi-definite. kSupport: InputError
// without the intersection's vertices (IntersectionOptions::keep_vertices)
// or when their shadow has no area.
ContactPatch contact_patch(const robust_geometry::IntersectionMoments& moments, const PatchOptions& options = {});

// Whether the gradient's linear part stands above the round-off of the
// intersection's area scale V^(2/3) (1e-12 of it): where it does not, B's
// boundary inside A closes on itself and there is no contact normal
// (contact_patch refuses it). For a result with volume.
bool has_contact_normal(const robust_geometry::IntersectionMoments& moments);

}  // namespace contactref::volume_contact
