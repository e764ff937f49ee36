#pragma once
// What a validation suite reports: named rows, each a measured value beside
// its reference (a paper's or an analytic number, if any), in the JSON layout
// of `contactref validate --json`:
//   {"name", "passed", "metrics": {NAME: {"value", "reference", "criterion",
//    "passed"}}, "figures": [paths]}
// A row is a check (a criterion a wrong implementation would fail, whose text
// says how its bound is derived; "passed": true or false) or information (no
// verdict; "passed": null, printed `info`). A suite's verdict depends on its
// checks only (shared/DESIGN.md, "Suites: checks and information").
// Timings (information rows made by timing(), and the suite's seconds)
// differ from run to run, so they stay out of that layout, which is the same
// byte for byte for the same command on the same build; they go to their own
// document (timings_json, `validate --out`'s timings.json):
//   {"name", "seconds", "metrics": {NAME: {"value", "reference", "criterion"}}}
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace contactref::validation {

struct Metric {
  std::string name;
  double value = 0;
  std::optional<double> reference;  // null in JSON when there is none
  std::string criterion;            // a check's pass rule and its bound's derivation; what information measures
  std::optional<bool> passed;       // a check's verdict; empty for information
  bool timing = false;              // information read from a clock: a wall or CPU time, or a ratio of two

  bool is_information() const { return !passed.has_value(); }
};

// A check: `passed` is the verdict of `criterion` on `value`.
Metric check(std::string name, double value, std::optional<double> reference, std::string criterion, bool passed);
// Information: a measured number without a verdict.
Metric information(std::string name, double value, std::optional<double> reference, std::string description);
// Information read from a clock (a wall or CPU time, or a ratio of two).
Metric timing(std::string name, double value, std::optional<double> reference, std::string description);

struct SuiteResult {
  std::string name;
  std::vector<Metric> metrics;
  double seconds = 0;                // wall time of the run that measured the metrics
  std::vector<std::string> figures;  // figure files, relative to the output folder

  // A suite passes when it has at least one check and every check passed;
  // information rows do not count.
  bool passed() const;
  void add(Metric metric) { metrics.push_back(std::move(metric)); }
};

// The layout above without the timings; timings_json: the timings.
nlohmann::ordered_json to_json(const SuiteResult& result);
nlohmann::ordered_json timings_json(const SuiteResult& result);

// The observed order of convergence: the least-squares slope of log(error)
// against log(h).
double observed_order(const std::vector<double>& h, const std::vector<double>& error);

// The human-readable table: the checks (value, reference, verdict, criterion),
// then the information rows (verdict `info`).
void print_table(std::ostream& os, const SuiteResult& result);

}  // namespace contactref::validation
