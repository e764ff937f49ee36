// libFuzzer target: `surface eval --mesh icosahedron.obj --points FILE` (the
// "face u v" points reader, including points at extraordinary vertices) must
// end soundly (cli_harness.hpp).
#include "fuzz/cli_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref::fuzz;
  static const std::string mesh = source("validation/fixtures/meshes/icosahedron.obj").string();
  const std::string points = write_file("points.txt", as_text(data, size)).string();
  // Derivatives are undefined at an extraordinary vertex, the normal where
  // the tangents are parallel (null there).
  check_cli({"surface", "eval", "--mesh", mesh, "--points", points},
            {"normal", "du", "dv", "duu", "duv", "dvv", "duuu", "duuv", "duvv", "dvvv"});
  return 0;
}
