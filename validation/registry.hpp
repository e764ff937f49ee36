#pragma once
// The registries of the `contactref` CLI: validation suites, figures and audit
// entries. A module adds a suite, a figure or an audit entry with one line in
// the matching list in registry.cpp.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "validation/suite_result.hpp"

namespace contactref::validation {

struct SuiteOptions {
  bool quick = false;  // the suite's quick variant (seconds, for ctest and --quick)
};

struct SuiteSpec {
  std::string name;
  std::string summary;
  std::function<SuiteResult(const SuiteOptions&)> run;
};

// A figure: the C++ side writes its data (CSV) into a folder, then
// paper_figures/<script>.py, run with that folder as its argument, draws the
// PNG and PDF beside the data.
struct FigureSpec {
  std::string name;    // also the folder under out/figures/
  std::string suite;   // the suite whose report shows it
  std::string script;  // file name under paper_figures/
  std::string summary;
  std::function<void(const std::filesystem::path& data_dir)> write_data;
};

// An audit entry: double against 50-digit results over seeded random inputs.
struct AuditResult {
  double max_rel_diff = 0;  // max over samples of |x_double - x_50| / |x_50| (norm-wise)
  int samples = 0;
};

struct AuditEntrySpec {
  std::string name;
  std::string summary;
  std::function<AuditResult()> run;
  // Agreeing digits the entry needs (13 unless its summary says why fewer).
  double min_digits = 13;
};

// A module that has no 50-digit instantiation, and why; reason also names
// the independent checks that hold it instead.
struct AuditDoubleOnly {
  std::string module;
  std::string reason;
};

const std::vector<SuiteSpec>& suites();
const std::vector<FigureSpec>& figures();
const std::vector<AuditEntrySpec>& audit_entries();
const std::vector<AuditDoubleOnly>& audit_double_only();  // validation/audit/double_only_modules.cpp

// The figure files (PNG) registered for a suite, relative to the output folder.
std::vector<std::string> figure_files_of(const std::string& suite);

}  // namespace contactref::validation
