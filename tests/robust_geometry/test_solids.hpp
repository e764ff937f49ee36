#pragma once
// The contact tests' solids: the builders, entity look-ups and figure
// configurations of validation/fixtures/contact_scenes.hpp, and the folder of the
// polyhedron files.
#include <filesystem>

#include "validation/fixtures/contact_scenes.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref::robust_geometry::test_solids {

using namespace contactref::fixtures;

inline const std::filesystem::path kPolyhedra =
    contactref::test::source_dir() / "validation/fixtures/polyhedra";

}  // namespace contactref::robust_geometry::test_solids
