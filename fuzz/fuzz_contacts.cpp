// libFuzzer target: `geometry contacts A B [options]` on fuzzed solid pairs
// and options. The input is text: a first line of options, then A's OFF text,
// a line "%%", then B's OFF text. Only the options below are passed on (each
// with the word after it as its value), so the run never writes files.
#include "fuzz/cli_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref::fuzz;
  static const std::set<std::string> with_value{"--pose-b", "--velocity-b", "--touch-tolerance", "--cull-margin"};
  static const std::set<std::string> flags{"--balance", "--all", "--json"};
  const std::string text(as_text(data, size));
  const std::size_t line_end = text.find('\n');
  // An argument cannot hold a NUL byte (argv is C strings).
  if (line_end == std::string::npos || text.find('\0') < line_end) return 0;
  const std::size_t split = text.find("\n%%\n", line_end);
  if (split == std::string::npos) return 0;
  const std::string a = write_file("a.off", std::string_view(text).substr(line_end + 1, split - line_end)).string();
  const std::string b = write_file("b.off", std::string_view(text).substr(split + 4)).string();
  std::vector<std::string> args{"geometry", "contacts", a, b};
  for (std::string& option : option_arguments(text.substr(0, line_end), with_value, flags)) args.push_back(std::move(option));
  check_cli(args);
  return 0;
}
