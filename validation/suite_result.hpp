#pragma once
// What a validation suite reports: named rows, each a measured value beside
// its reference (a paper's or an analytic number, if any), in the JSON layout
// of `contactref validate --json`:
//   {"name", "passed", "seconds", "metrics": {NAME: {"value", "reference",
//    "criterion", "passed"}}, "figures": [paths]}
// A row is a check (a criterion a wrong implementation would fail, whose text
// says how its bound is derived; "passed": true or false) or information (no
// verdict; "passed": null, printed `info`). A suite's verdict depends on its
// checks only (shared/DESIGN.md, "Suites: checks and information").
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

  bool is_information() const { return !passed.has_value(); }
};

// A check: `passed` is the verdict of `criterion` on `value`.
Metric check(std::string name, double value, std::optional<double> reference, std::string criterion, bool passed);
// Information: a measured number without a verdict.
Metric information(std::string name, double value, std::optional<double> reference, std::string description);

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

nlohmann::ordered_json to_json(const SuiteResult& result);

// The observed order of convergence: the least-squares slope of log(error)
// against log(h).
double observed_order(const std::vector<double>& h, const std::vector<double>& error);

// The human-readable table: the checks (value, reference, verdict, criterion),
// then the information rows (verdict `info`).
void print_table(std::ostream& os, const SuiteResult& result);

}  // namespace contactref::validation
