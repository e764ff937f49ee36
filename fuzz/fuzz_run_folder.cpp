// libFuzzer target: `view FOLDER --check` (validation/app/run_folder.hpp)
// on a folder (summary.json, shapes.json and a one-triangle shape written
// here) whose files are the fuzzed bytes: must end soundly (cli_harness.hpp).
//  - fuzz_run_folder: bodies.csv and contacts.csv, the CSV reader behind
//    the run viewer;
//  - fuzz_samples_file (CONTACTREF_FUZZ_SAMPLES): samples.bin
//    (validation/app/samples_file.hpp), beside a valid bodies.csv.
#include "fuzz/cli_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref::fuzz;
#ifdef CONTACTREF_FUZZ_SAMPLES
  static constexpr const char* kFiles = R"("bodies": "bodies.csv", "samples": "samples.bin")";
#else
  static constexpr const char* kFiles = R"("bodies": "bodies.csv", "contacts": "contacts.csv")";
#endif
  static const std::filesystem::path folder = [] {
    std::filesystem::create_directories(scratch() / "run/shapes");
    write_file("run/summary.json", std::string(R"({"status": "completed", "files": {)") + kFiles +
                                       R"(, "shapes": "shapes.json"}})");
    write_file("run/shapes.json", R"({"bodies": [{"name": "block", "fixed": false, "file": "shapes/body0.ply"}]})");
    write_file("run/shapes/body0.ply",
               "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\n"
               "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
#ifdef CONTACTREF_FUZZ_SAMPLES
    write_file("run/bodies.csv", "time,body,x,y,z,qw,qx,qy,qz\n0,block,0,0,0,1,0,0,0\n");
#endif
    return scratch() / "run";
  }();
#ifdef CONTACTREF_FUZZ_SAMPLES
  write_file("run/samples.bin", as_text(data, size));
#else
  write_file("run/bodies.csv", as_text(data, size));
  write_file("run/contacts.csv", as_text(data, size));
#endif
  check_cli({"view", folder.string(), "--check"});
  return 0;
}
