// libFuzzer target: `surface eval --bezier NET` (the Bezier control-net
// reader and the evaluation behind it) must end soundly (cli_harness.hpp).
#include "fuzz/cli_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref::fuzz;
  const std::string net = write_file("net.txt", as_text(data, size)).string();
  // The normal is undefined (null) where the tangents are parallel.
  check_cli({"surface", "eval", "--bezier", net, "--u", "0.25", "--v", "0.5"}, {"normal"});
  return 0;
}
