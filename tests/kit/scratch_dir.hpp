#pragma once
// A scratch folder for the files a test writes (scenes, meshes, output
// folders): one per test process, under the system's temporary folder and
// named by the process id, removed when the process ends. Two test runs at
// once (a release and a sanitizer build, say) then never write each other's
// files; with fixed names under the temporary folder they did.
#include <filesystem>

namespace contactref::test {

const std::filesystem::path& scratch_dir();

}  // namespace contactref::test
