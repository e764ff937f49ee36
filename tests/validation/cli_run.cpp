#include "tests/validation/cli_run.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace contactref::test {

namespace {
// A shell command's stdout and exit code (popen).
CliRun run_command(const std::string& command) {
  CliRun result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}
}  // namespace

CliRun run(const std::string& arguments, bool merge_stderr, const std::string& environment) {
  CliRun result = run_command(environment + (environment.empty() ? "'" : " '") + CONTACTREF_BINARY + "' " + arguments +
                              (merge_stderr ? " 2>&1" : " 2>/dev/null"));
  if (merge_stderr) result.all = result.output;
  return result;
}

CliRun run_shell(const std::string& script) {
  CliRun result = run_command("{ " + script + "; } 2>&1");
  result.all = result.output;
  return result;
}

std::string file_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace contactref::test
