#pragma once
// `contactref validate` on several cores. CGAL is built without thread
// support (README, "Threads"): two suites cannot share a process, so each
// runs in a child process of its own, `contactref validate SUITE [--quick]
// --out DIR` (this executable, /proc/self/exe), its standard output and
// error to DIR/stdout.txt and DIR/stderr.txt, at most `jobs` at once.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace contactref::cli {

struct SuiteProcess {
  std::string suite;
  std::filesystem::path dir;  // its --out folder, with stdout.txt and stderr.txt
  int exit_code = -1;         // the child's; 128 + the signal that ended it
};

// The children's folder, $TMPDIR/contactref-validate-PID (PID this
// process's), empty at the start and removed when the object ends (the run
// returning or throwing). Folders of the same pattern whose process no
// longer runs (a run killed before it could remove its own) are removed
// first.
class ScratchFolder {
 public:
  ScratchFolder();
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Runs the suites' processes, each child with CONTACTREF_THREADS=threads
// (>= 1), at most `jobs` (>= 1) at once, the next started as one ends;
// `started(k)` and `ended(k)` are called as suite k starts and ends.
// ComputationError when a process cannot be started.
std::vector<SuiteProcess> run_suite_processes(const std::vector<std::string>& suites, bool quick,
                                              const std::filesystem::path& scratch, int jobs, int threads,
                                              const std::function<void(std::size_t)>& started,
                                              const std::function<void(std::size_t, const SuiteProcess&)>& ended);

}  // namespace contactref::cli
