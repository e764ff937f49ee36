// libFuzzer target: `simulate SCENE` on fuzzed scenes (the scene reader and
// the simulation behind it) must end soundly (cli_harness.hpp). The scene is
// written beside links to validation/fixtures/{meshes, polyhedra, points}, so
// that the repository's example scenes ("../meshes/...") work as seeds. A valid scene's duration is cut to
// at most 5 ms (absent: 1 s) and a model's fixed time step raised to at least 2.5 ms, so that each run
// is short; the simulator itself must end every run.
#include <nlohmann/json.hpp>

#include "fuzz/cli_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref::fuzz;
  static const std::filesystem::path scenes = [] {
    std::filesystem::create_directories(scratch() / "scenes");
    for (const char* folder : {"meshes", "polyhedra", "points"}) {
      const auto link = scratch() / folder;
      if (!std::filesystem::exists(link))
        std::filesystem::create_directory_symlink(source(std::string("validation/fixtures/") + folder), link);
    }
    return scratch() / "scenes";
  }();
  std::string text(as_text(data, size));
  nlohmann::json scene = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  const bool long_run = scene.is_object() && (!scene.contains("duration") || (scene["duration"].is_number() &&
                                                                              scene["duration"].get<double>() > 0.005));
  if (long_run) {
    scene["duration"] = 0.005;
    text = scene.dump();
  }
  // The quasi-rigid and volume-contact models step at a fixed model.time_step:
  // at most two steps in the 5 ms (a volume-contact mesh pair's exact step
  // takes 0.2 s, seconds under the sanitizers, against libFuzzer's 30 s).
  if (scene.is_object() && scene.contains("model") && scene["model"].is_object() &&
      scene["model"].contains("time_step") && scene["model"]["time_step"].is_number() &&
      scene["model"]["time_step"].get<double>() < 2.5e-3) {
    scene["model"]["time_step"] = 2.5e-3;
    text = scene.dump();
  }
  const std::string file = write_file("scenes/scene.json", text).string();
  check_cli({"simulate", file, "--out", (scratch() / "out").string()});
  return 0;
}
