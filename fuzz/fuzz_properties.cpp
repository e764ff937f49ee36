// libFuzzer target: `surface properties --mesh M.obj [options]` (the Loop
// mesh reader, its geometry check and the mass properties) on fuzzed meshes.
// The input is text: a first line of options, then the OBJ text. Only
// --density and --tolerance are passed on; without --tolerance the run uses
// 1e-3 (fewer rings about the extraordinary vertices: a faster run, the same
// code).
#include <set>
#include <sstream>

#include "fuzz/cli_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref::fuzz;
  static const std::set<std::string> with_value{"--density", "--tolerance"};
  const std::string text(as_text(data, size));
  const std::size_t line_end = text.find('\n');
  if (line_end == std::string::npos) return 0;
  const std::string mesh = write_file("mesh.obj", std::string_view(text).substr(line_end + 1)).string();
  std::vector<std::string> args{"surface", "properties", "--mesh", mesh, "--json"};
  std::set<std::string> given;
  std::istringstream options(text.substr(0, line_end));
  for (std::string word; options >> word;) {
    if (std::string value; with_value.count(word) && !given.count(word) && options >> value) {
      args.push_back(word);
      args.push_back(value);
      given.insert(word);
    }
  }
  if (!given.count("--tolerance")) {
    args.push_back("--tolerance");
    args.push_back("1e-3");
  }
  check_cli(args);
  return 0;
}
