// Reproducible outputs (README, "Reproducible outputs"): the same command on
// the same build writes the same files byte for byte, except timings.json and
// step_times.csv, which hold the wall times and nothing else, and
// provenance.json (the date, the machine, the command line). Each command
// runs twice into two folders; the folders must hold the same files, equal
// but for those two. A wall time, a pointer, an unordered container's order
// or an uninitialised value in any other file fails it.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/kit/scratch_dir.hpp"
#include "tests/kit/source_dir.hpp"
#include "tests/validation/cli_run.hpp"

namespace {

namespace fs = std::filesystem;
// The files of the run itself (clocks, date, machine): their existence and
// layout are checked, not their bytes.
bool run_specific(const fs::path& file) {
  return file.filename() == "timings.json" || file.filename() == "step_times.csv" ||
         file.filename() == "provenance.json";
}

std::set<fs::path> files_under(const fs::path& dir) {
  std::set<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files.insert(fs::relative(entry.path(), dir));
  return files;
}

// Runs `arguments --out DIR` twice (exit 0 both times; each run with its
// environment, assignments such as "CONTACTREF_THREADS=1", or none) and
// compares the two folders; returns the first run's timings.json.
nlohmann::json expect_reproducible(const std::string& name, const std::string& arguments,
                                   const std::array<std::string, 2>& environments = {}) {
  const std::array<fs::path, 2> dirs = {contactref::test::scratch_dir() / ("reproducible-" + name + "-1"),
                                        contactref::test::scratch_dir() / ("reproducible-" + name + "-2")};
  for (std::size_t k = 0; k < 2; ++k) {
    fs::remove_all(dirs[k]);
    const auto r = contactref::test::run(arguments + " --out '" + dirs[k].string() + "'", true, environments[k]);
    EXPECT_EQ(r.exit_code, 0) << environments[k] << " " << arguments << "\n" << r.all;
  }
  const fs::path& first = dirs[0];
  const fs::path& second = dirs[1];
  const std::set<fs::path> files = files_under(first);
  EXPECT_EQ(files, files_under(second)) << name;
  EXPECT_TRUE(files.count("timings.json")) << name;
  int compared = 0;
  for (const fs::path& file : files) {
    if (run_specific(file)) continue;
    EXPECT_EQ(contactref::test::file_bytes(first / file), contactref::test::file_bytes(second / file)) << name << ": " << file << " differs between two runs";
    ++compared;
  }
  EXPECT_GE(compared, 1) << name;
  return nlohmann::json::parse(contactref::test::file_bytes(first / "timings.json"));
}

std::string scene(const std::string& file) {
  return "simulate '" + (contactref::test::source_dir() / "validation/fixtures/scenes" / file).string() + "'";
}

// Two suites with timing rows and figures-free quick variants, one after
// the other in one process and in two processes at once
// (suite_processes.hpp): validation.json is equal; timings.json has each
// suite's seconds and its timing rows.
TEST(ReproducibleOutputs, ValidateWritesTheSameValidationJsonTwice) {
  const nlohmann::json timings = expect_reproducible("validate", "validate brep-contact torque-free-body --quick",
                                                     {"CONTACTREF_THREADS=1", "CONTACTREF_THREADS=2"});
  ASSERT_EQ(timings.at("suites").size(), 2u);
  EXPECT_GT(timings["suites"][0].at("seconds").get<double>(), 0.0);
  EXPECT_TRUE(timings["suites"][0]["metrics"].contains("culling.time_ratio"));
  EXPECT_TRUE(timings.contains("note"));
  EXPECT_TRUE(fs::exists(contactref::test::scratch_dir() / "reproducible-validate-1" / "provenance.json"));
}

// The smooth model (trajectory.csv, events.csv), the 6D volume model (whose
// step_times.csv is apart from steps.csv) and the quasi-rigid model.
TEST(ReproducibleOutputs, SimulateWritesTheSameFilesTwiceInEveryModel) {
  for (const char* file : {"rattleback_tap.json", "octagon_sliding.json", "quasi_rigid_spinning_ball.json"}) {
    const nlohmann::json timings = expect_reproducible(fs::path(file).stem().string(), scene(file));
    EXPECT_GT(timings.at("wall_seconds").get<double>(), 0.0) << file;
  }
}

// The quasi-rigid model's parallel loops sum in a fixed order, and the 6D
// model's detection computes each pair on one thread (core/threads.hpp):
// one thread and two give the same files.
TEST(ReproducibleOutputs, ThreadedRunsAreTheSameOnOneThreadAndOnTwo) {
  for (const char* file : {"quasi_rigid_spinning_ball.json", "cube_stack.json"})
    expect_reproducible("threads-" + fs::path(file).stem().string(), scene(file),
                        {"CONTACTREF_THREADS=1", "CONTACTREF_THREADS=2"});
}

}  // namespace
