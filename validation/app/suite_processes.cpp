#include "validation/app/suite_processes.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <system_error>

#include "core/errors.hpp"

extern char** environ;

namespace contactref::cli {
namespace {

// The parent's environment with CONTACTREF_THREADS set to `threads`.
std::vector<std::string> child_environment(int threads) {
  std::vector<std::string> variables;
  for (char** entry = environ; *entry; ++entry)
    if (std::strncmp(*entry, "CONTACTREF_THREADS=", 19) != 0) variables.emplace_back(*entry);
  variables.push_back("CONTACTREF_THREADS=" + std::to_string(threads));
  return variables;
}

std::vector<char*> pointers(std::vector<std::string>& texts) {
  std::vector<char*> out;
  for (std::string& text : texts) out.push_back(text.data());
  out.push_back(nullptr);
  return out;
}

// `executable validate SUITE --out DIR [--quick]` in environment `envp`.
pid_t spawn(const SuiteProcess& process, bool quick, const std::string& executable, char* const* envp) {
  std::vector<std::string> arguments{executable, "validate", process.suite, "--out", process.dir.string()};
  if (quick) arguments.push_back("--quick");
  std::filesystem::create_directories(process.dir);
  const std::string out = (process.dir / "stdout.txt").string(), err = (process.dir / "stderr.txt").string();
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const std::vector<char*> argv = pointers(arguments);
  const int error = posix_spawn(&pid, executable.c_str(), &files, nullptr, argv.data(), envp);
  posix_spawn_file_actions_destroy(&files);
  if (error != 0)
    throw ComputationError("validate: could not start a process for suite " + process.suite + ": " + std::strerror(error));
  return pid;
}

}  // namespace

std::vector<SuiteProcess> run_suite_processes(const std::vector<std::string>& suites, bool quick,
                                              const std::filesystem::path& scratch, int jobs, int threads,
                                              const std::function<void(std::size_t)>& started,
                                              const std::function<void(std::size_t, const SuiteProcess&)>& ended) {
  std::vector<SuiteProcess> processes;
  for (std::size_t k = 0; k < suites.size(); ++k) processes.push_back({suites[k], scratch / std::to_string(k), -1});
  const std::string executable = std::filesystem::read_symlink("/proc/self/exe").string();
  std::vector<std::string> environment = child_environment(threads);
  const std::vector<char*> envp = pointers(environment);
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  while (next < processes.size() || !running.empty()) {
    while (next < processes.size() && int(running.size()) < jobs) {
      try {
        running[spawn(processes[next], quick, executable, envp.data())] = next;
      } catch (const ComputationError&) {
        for (const auto& [pid, k] : running) waitpid(pid, nullptr, 0);  // no child outlives the command
        throw;
      }
      started(next++);
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw ComputationError(std::string("validate: waiting for the suites' processes failed: ") + std::strerror(errno));
    }
    const auto found = running.find(pid);
    if (found == running.end()) continue;  // not a suite's
    SuiteProcess& process = processes[found->second];
    process.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    ended(found->second, process);
    running.erase(found);
  }
  return processes;
}

ScratchFolder::ScratchFolder() {
  const std::string prefix = "contactref-validate-";
  const std::filesystem::path temp = std::filesystem::temp_directory_path();
  std::error_code ignored;  // another process may remove a stale folder first
  for (const auto& entry : std::filesystem::directory_iterator(temp, ignored)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto pid = static_cast<pid_t>(std::stol(digits));
    if (kill(pid, 0) == -1 && errno == ESRCH) std::filesystem::remove_all(entry.path(), ignored);
  }
  path_ = temp / (prefix + std::to_string(getpid()));
  std::filesystem::remove_all(path_);
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace contactref::cli
