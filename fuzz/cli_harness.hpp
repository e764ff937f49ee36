#pragma once
// Shared by the libFuzzer targets: run the `contactref` CLI in-process on a
// fuzzed file and abort (a finding) unless the run ends soundly.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace contactref::fuzz {

struct CliRun {
  int exit_code = 0;
  std::string out, err;
};

// A per-process scratch folder under the system's temporary directory.
const std::filesystem::path& scratch();

// Writes bytes to scratch()/name and returns its path.
std::filesystem::path write_file(const std::string& name, std::string_view bytes);

// The repository's source folder (CONTACTREF_SOURCE_DIR at build time).
std::filesystem::path source(const std::string& relative);

// Runs `contactref args...` with std::cout and std::cerr captured.
CliRun run_cli(const std::vector<std::string>& args);

// Aborts, printing the run, unless: the exit code is 0 (done), 1 (computation
// failed) or 2 (bad input); an error is one of the project's own (not a raw
// library message, "contactref: error:"); and no number printed is NaN or
// infinite (text "nan", "inf"; JSON null, except as the whole value of one of
// `null_keys`, e.g. a derivative that is not defined at a point).
void expect_sound(const CliRun& run, const std::vector<std::string>& args,
                  const std::vector<std::string>& null_keys = {});

// run_cli then expect_sound.
CliRun check_cli(const std::vector<std::string>& args, const std::vector<std::string>& null_keys = {});

// The options of a fuzzed first line, as arguments: each word of
// `with_value` with the word after it, each word of `flags`; other words are
// dropped, so that a run never writes files.
std::vector<std::string> option_arguments(const std::string& line, const std::set<std::string>& with_value,
                                          const std::set<std::string>& flags = {});

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace contactref::fuzz
