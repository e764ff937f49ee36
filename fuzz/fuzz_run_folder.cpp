// libFuzzer target: `view FOLDER --check` (validation/app/run_folder.hpp),
// the CSV reader behind the run viewer, on a folder whose bodies.csv and
// contacts.csv are the fuzzed bytes (summary.json, shapes.json and a
// one-triangle shape written here) must end soundly (cli_harness.hpp).
#include "fuzz/cli_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref::fuzz;
  static const std::filesystem::path folder = [] {
    std::filesystem::create_directories(scratch() / "run/shapes");
    write_file("run/summary.json",
               R"({"status": "completed", "files": {"bodies": "bodies.csv", "contacts": "contacts.csv", "shapes": "shapes.json"}})");
    write_file("run/shapes.json", R"({"bodies": [{"name": "block", "fixed": false, "file": "shapes/body0.ply"}]})");
    write_file("run/shapes/body0.ply",
               "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\n"
               "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
    return scratch() / "run";
  }();
  write_file("run/bodies.csv", as_text(data, size));
  write_file("run/contacts.csv", as_text(data, size));
  check_cli({"view", folder.string(), "--check"});
  return 0;
}
