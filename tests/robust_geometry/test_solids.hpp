#pragma once
// The robust-geometry tests' solids: the builders, entity look-ups and figure
// configurations of validation/fixtures/contact_scenes.hpp, the unit cube
// [0, 1]^3, and the folders of the polyhedron files and of the tests' own
// data. The folders are functions, not constants: another unit's constant
// initialised from an inline constant of a header may be initialised first
// (clang's sanitized build did).
#include <Eigen/Core>
#include <filesystem>

#include "robust_geometry/triangle_solid.hpp"
#include "tests/kit/source_dir.hpp"
#include "validation/fixtures/contact_scenes.hpp"
#include "validation/fixtures/halfspace_box.hpp"

namespace contactref::robust_geometry::test_solids {

using namespace contactref::fixtures;

inline std::filesystem::path polyhedra_folder() {
  return contactref::test::source_dir() / "validation/fixtures/polyhedra";
}
inline std::filesystem::path geometry_data_folder() {
  return contactref::test::source_dir() / "tests/robust_geometry/data";
}

inline TriangleSolid unit_cube() { return box_solid(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()); }

}  // namespace contactref::robust_geometry::test_solids
