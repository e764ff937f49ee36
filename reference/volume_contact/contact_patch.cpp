#include "reference/volume_contact/contact_patch.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::volume_contact {

const char* to_string(PatchShape shape) {
  switch (shape) {
    case PatchShape::kSheet: return "thin sheet";
    case PatchShape::kRod: return "skinny rod";
    case PatchShape::kBulk: return "bulky volume";
  }
  return "?";
}

const char* to_string(PatchRegion region) { return region == PatchRegion::kEllipse ? "ellipse" : "support"; }

bool has_contact_normal(const robust_geometry::IntersectionMoments& moments) {
  // A closed surface's normals integrate to zero: below round-off of the
  // intersection's area scale V^(2/3), the part of B inside A closes on itself.
  return moments.gradient.tail<3>().norm() > 1e-12 * std::cbrt(moments.volume * moments.volume);
}

ContactPatch contact_patch(const robust_geometry::IntersectionMoments& moments, const PatchOptions& options) {
  if (!(options.thin > 0 && options.thin < 1)) {
    throw InputError("contact patch: thin must lie in (0, 1), got " + std::to_string(options.thin));
  }
  if (!moments.has_volume()) {
    throw InputError(std::string("contact patch: the intersection has no volume (") + robust_geometry::to_string(moments.kind) +
                     "): there is no patch");
  }
  if (!(std::isfinite(moments.volume) && moments.volume > 0 && moments.centroid.allFinite() &&
        moments.covariance.allFinite() && moments.gradient.allFinite())) {
    throw InputError("contact patch: the intersection's moments are not finite, or its volume is not positive");
  }
  const Eigen::Vector3d g_v = moments.gradient.tail<3>();  // (omega; v): the linear part last
  if (!has_contact_normal(moments)) {
    std::ostringstream os;
    os << "contact patch: the volume gradient's linear part vanishes (|dV/dv| = " << g_v.norm()
       << " m^2 against the intersection's area scale " << std::cbrt(moments.volume * moments.volume)
       << " m^2): B's boundary inside A closes on itself (B inside A?), so there is no contact normal";
    throw ComputationError(os.str());
  }
  ContactPatch patch;
  patch.centre_a = moments.centroid;
  patch.normal_a = -g_v.normalized();

  const Eigen::Matrix3d S = 5.0 / moments.volume * moments.covariance;  // the equivalent ellipsoid's shape
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> ellipsoid(S);
  if (ellipsoid.info() != Eigen::Success || ellipsoid.eigenvalues().minCoeff() < -1e-12 * ellipsoid.eigenvalues().maxCoeff()) {
    throw ComputationError("contact patch: the intersection's covariance is not positive semi-definite");
  }
  patch.ellipsoid_semi_axes = ellipsoid.eigenvalues().cwiseMax(0.0).cwiseSqrt();  // increasing

  // Any orthonormal basis of the tangent plane, then the projected ellipse's axes.
  Eigen::Matrix<double, 3, 2> T;
  T.col(0) = patch.normal_a.unitOrthogonal();
  T.col(1) = patch.normal_a.cross(T.col(0));
  const Eigen::Matrix2d S_plane = T.transpose() * S * T;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> ellipse(S_plane);
  const Eigen::Vector3d major = T * ellipse.eigenvectors().col(1);
  patch.frame_a.col(0) = major.normalized();
  patch.frame_a.col(2) = patch.normal_a;
  patch.frame_a.col(1) = patch.normal_a.cross(patch.frame_a.col(0));
  patch.ellipse_semi_axes = Eigen::Vector2d(ellipse.eigenvalues()(1), ellipse.eigenvalues()(0)).cwiseMax(0.0).cwiseSqrt();

  if (options.region == PatchRegion::kSupport) {
    if (moments.vertices.empty())
      throw InputError("contact patch: the support region needs the intersection's vertices (keep_vertices)");
    std::vector<Eigen::Vector2d> shadow;
    shadow.reserve(moments.vertices.size());
    for (const Eigen::Vector3d& x : moments.vertices)
      shadow.push_back(patch.frame_a.leftCols<2>().transpose() * (x - patch.centre_a));
    patch.support = support_region(shadow);
  }
  const Eigen::Vector3d& a = patch.ellipsoid_semi_axes;
  patch.shape = a(1) <= options.thin * a(2) ? PatchShape::kRod
                : a(0) <= options.thin * a(1) ? PatchShape::kSheet
                                              : PatchShape::kBulk;
  return patch;
}

}  // namespace contactref::volume_contact
