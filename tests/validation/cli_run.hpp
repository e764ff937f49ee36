#pragma once
// Runs the `contactref` binary of this build (CONTACTREF_BINARY, set by
// tests/CMakeLists.txt) with a shell command line, for the tests of its
// subcommands.
#include <filesystem>
#include <string>

namespace contactref::test {

struct CliRun {
  int exit_code = -1;
  std::string output;  // stdout
  std::string all;     // stdout and stderr
};

// arguments: as on a shell command line; merge_stderr: stderr joins stdout
// (in both fields), else it is dropped. environment: assignments for the
// command ("NAME=value ..."), or empty.
CliRun run(const std::string& arguments, bool merge_stderr, const std::string& environment = "");
inline CliRun run_all(const std::string& arguments) { return run(arguments, true); }
// A shell script (sh -c), its stdout and stderr merged.
CliRun run_shell(const std::string& script);

// The bytes of a file a command wrote (empty when it cannot be read).
std::string file_bytes(const std::filesystem::path& file);

}  // namespace contactref::test
