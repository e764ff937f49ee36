// libFuzzer target: `surface properties --mesh M.obj [options]` (the Loop
// mesh reader, its geometry check and the mass properties) on fuzzed meshes.
// The input is text: a first line of options, then the OBJ text. Only
// --density and --tolerance are passed on. Bounded so that one run stays
// within seconds under ASan (an octahedron at 1e-3 takes about 5 s there, a
// 16-face bipyramid at 1e-4 17 s): at most 8 face lines, and a tolerance of
// at least 1e-3 (1e-2 when not given; a value the CLI must refuse is passed
// on as written). More faces and finer tolerances add faces and rings: the
// same code, more time.
#include <charconv>

#include "fuzz/cli_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref::fuzz;
  static const std::set<std::string> with_value{"--density", "--tolerance"};
  const std::string text(as_text(data, size));
  const std::size_t line_end = text.find('\n');
  // An argument cannot hold a NUL byte (argv is C strings); such a value
  // reached the CLI as something no shell can pass (a finding: it parsed as
  // a tolerance of 0, 48 rings, 12 s under the fuzzing instrumentation).
  if (line_end == std::string::npos || text.find('\0') < line_end) return 0;
  const std::string_view obj = std::string_view(text).substr(line_end + 1);
  std::size_t faces = 0;  // lines whose first word starts with 'f'
  for (std::size_t at = 0; at < obj.size();) {
    const std::size_t word = obj.find_first_not_of(" \t", at);
    if (word != std::string_view::npos && obj[word] == 'f' && ++faces > 8) return 0;
    const std::size_t next = obj.find('\n', at);
    if (next == std::string_view::npos) break;
    at = next + 1;
  }
  const std::string mesh = write_file("mesh.obj", obj).string();
  std::vector<std::string> args{"surface", "properties", "--mesh", mesh, "--json"};
  // Pairs: an option, then its value.
  const std::vector<std::string> options = option_arguments(text.substr(0, line_end), with_value);
  bool tolerance_given = false;
  for (std::size_t k = 0; k + 1 < options.size(); k += 2) {
    std::string value = options[k + 1];
    double number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    // A finite tolerance in [0, 1e-3): more rings, not another path.
    if (options[k] == "--tolerance" && error == std::errc() && end == value.data() + value.size() && number >= 0 &&
        number < 1e-3)
      value = "1e-3";
    tolerance_given = tolerance_given || options[k] == "--tolerance";
    args.push_back(options[k]);
    args.push_back(value);
  }
  if (!tolerance_given) {
    args.push_back("--tolerance");
    args.push_back("1e-2");
  }
  check_cli(args);
  return 0;
}
