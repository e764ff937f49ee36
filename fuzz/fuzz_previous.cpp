// libFuzzer target: `geometry contacts --previous FILE` (the previous-contacts
// JSON reader, validated against the two solids) must end soundly
// (cli_harness.hpp). The solids: two unit cubes, B resting on A.
#include "fuzz/cli_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref::fuzz;
  static const std::string cube = source("validation/fixtures/polyhedra/cube.off").string();
  const std::string previous = write_file("previous.json", as_text(data, size)).string();
  check_cli({"geometry", "contacts", cube, cube, "--pose-b", "0,0,1,0,0,0", "--previous", previous});
  return 0;
}
