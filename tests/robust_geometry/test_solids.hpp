#pragma once
// The contact tests' solids: the builders, entity look-ups and figure
// configurations of validation/fixtures/contact_scenes.hpp, and the folder of the
// polyhedron files.
#include <filesystem>

#include "validation/fixtures/contact_scenes.hpp"

namespace contactref::robust_geometry::test_solids {

using namespace contactref::fixtures;

inline const std::filesystem::path kPolyhedra =
    std::filesystem::path(CONTACTREF_SOURCE_DIR) / "validation/fixtures/polyhedra";

}  // namespace contactref::robust_geometry::test_solids
