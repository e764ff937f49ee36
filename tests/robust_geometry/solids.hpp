#pragma once
// What several robust-geometry tests share: the polyhedra of
// validation/fixtures, the tests' own data, and the unit cube [0, 1]^3. The
// folders are functions, not constants: another unit's constant initialised
// from an inline constant of a header may be initialised first (clang did).
#include <Eigen/Core>
#include <filesystem>

#include "robust_geometry/triangle_solid.hpp"
#include "tests/kit/source_dir.hpp"
#include "validation/fixtures/halfspace_box.hpp"

namespace contactref::test {

inline std::filesystem::path polyhedra_folder() { return source_dir() / "validation/fixtures/polyhedra"; }
inline std::filesystem::path geometry_data_folder() { return source_dir() / "tests/robust_geometry/data"; }

inline robust_geometry::TriangleSolid unit_cube() {
  return fixtures::box_solid(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones());
}

}  // namespace contactref::test
