#pragma once
// Checking a 4x4 rigid transform given in double (the pose of one solid in
// another's frame).
#include <Eigen/Core>
#include <string>

namespace contactref::robust_geometry {

// Throws InputError ("NAME: why") unless pose is finite, its last row
// is (0, 0, 0, 1) exactly, and its 3x3 block R is a rotation to 1e-9:
// |R^T R - I|_max <= 1e-9 and det R > 0.
void validate_rigid_pose(const Eigen::Matrix4d& pose, const std::string& name);

}  // namespace contactref::robust_geometry
