#pragma once
// The repository's source folder, where tests read their meshes, scenes and
// scripts. It is compiled into one unit of the test kit (source_dir.cpp)
// rather than into every test: a path on every test's command line would
// keep a clone at another path from reusing any cached test object.
#include <filesystem>

namespace contactref::test {

const std::filesystem::path& source_dir();

}  // namespace contactref::test
