#pragma once
// The contact tests' solids: the builders, entity look-ups and figure
// configurations of validation/data/contact_scenes.hpp, and the folder of the
// polyhedron files.
#include <filesystem>

#include "validation/data/contact_scenes.hpp"

namespace contactref::robust_geometry::test_solids {

using namespace contactref::data;

inline const std::filesystem::path kPolyhedra =
    std::filesystem::path(CONTACTREF_SOURCE_DIR) / "validation/data/polyhedra";

}  // namespace contactref::robust_geometry::test_solids
