#include "robust_geometry/rigid_pose.hpp"

#include <Eigen/LU>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::robust_geometry {

void validate_rigid_pose(const Eigen::Matrix4d& pose, const std::string& name) {
  const auto bad = [&](const std::string& what) { throw InputError(name + ": " + what); };
  if (!pose.allFinite()) bad("has a non-finite entry");
  if (pose(3, 0) != 0 || pose(3, 1) != 0 || pose(3, 2) != 0 || pose(3, 3) != 1) bad("the last row is not (0, 0, 0, 1)");
  const Eigen::Matrix3d R = pose.topLeftCorner<3, 3>();
  const double orthogonality = (R.transpose() * R - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff();
  // A rotation computed in double is orthogonal to a few 1e-16; 1e-9 refuses
  // scalings and shears while accepting any honest rotation.
  if (!(orthogonality <= 1e-9)) {
    std::ostringstream out;
    out << "the 3x3 block is not a rotation: |R^T R - I|_max = " << orthogonality << " > 1e-9";
    bad(out.str());
  }
  if (!(R.determinant() > 0)) bad("the 3x3 block is a reflection (det < 0)");
}

}  // namespace contactref::robust_geometry
