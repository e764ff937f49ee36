#pragma once
// What a validation suite reports: named metrics, each a measured value beside
// its reference (a paper's or an analytic number, if any) and its pass
// criterion, in the JSON layout of `contactref validate --json`:
//   {"name", "passed", "seconds", "metrics": {NAME: {"value", "reference",
//    "criterion", "passed"}}, "figures": [paths]}
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
  std::string criterion;            // the pass rule, in words and numbers
  bool passed = false;
};

struct SuiteResult {
  std::string name;
  std::vector<Metric> metrics;
  double seconds = 0;                // wall time of the run that measured the metrics
  std::vector<std::string> figures;  // figure files, relative to the output folder

  // A suite passes when it has metrics and every one passed.
  bool passed() const;
  void add(Metric metric) { metrics.push_back(std::move(metric)); }
};

nlohmann::ordered_json to_json(const SuiteResult& result);

// The observed order of convergence: the least-squares slope of log(error)
// against log(h).
double observed_order(const std::vector<double>& h, const std::vector<double>& error);

// The human-readable table: one line per metric (value, reference, criterion,
// verdict).
void print_table(std::ostream& os, const SuiteResult& result);

}  // namespace contactref::validation
