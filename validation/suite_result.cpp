#include "validation/suite_result.hpp"

#include <cmath>

#include <algorithm>
#include <fmt/format.h>
#include <ostream>

namespace contactref::validation {

Metric check(std::string name, double value, std::optional<double> reference, std::string criterion, bool passed) {
  return {std::move(name), value, reference, std::move(criterion), passed};
}

Metric information(std::string name, double value, std::optional<double> reference, std::string description) {
  return {std::move(name), value, reference, std::move(description), std::nullopt};
}

Metric timing(std::string name, double value, std::optional<double> reference, std::string description) {
  return {std::move(name), value, reference, std::move(description), std::nullopt, true};
}

bool SuiteResult::passed() const {
  bool any_check = false;
  for (const Metric& m : metrics) {
    if (m.is_information()) continue;
    if (!*m.passed) return false;
    any_check = true;
  }
  return any_check;
}

namespace {

nlohmann::ordered_json optional_json(const std::optional<double>& x) { return x ? nlohmann::ordered_json(*x) : nullptr; }

const char* verdict_of(const Metric& m) {
  if (m.timing) return "time";
  if (m.is_information()) return "info";
  return *m.passed ? "pass" : "FAIL";
}

}  // namespace

nlohmann::ordered_json to_json(const SuiteResult& result) {
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (const Metric& m : result.metrics) {
    if (m.timing) continue;
    metrics[m.name] = {{"value", m.value},
                       {"reference", optional_json(m.reference)},
                       {"criterion", m.criterion},
                       {"passed", m.passed ? nlohmann::ordered_json(*m.passed) : nullptr}};
  }
  return {{"name", result.name}, {"passed", result.passed()}, {"metrics", metrics}, {"figures", result.figures}};
}

nlohmann::ordered_json timings_json(const SuiteResult& result) {
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (const Metric& m : result.metrics)
    if (m.timing)
      metrics[m.name] = {{"value", m.value}, {"reference", optional_json(m.reference)}, {"criterion", m.criterion}};
  return {{"name", result.name}, {"seconds", result.seconds}, {"metrics", metrics}};
}

void print_table(std::ostream& os, const SuiteResult& result) {
  os << fmt::format("suite {}: {} ({:.2f} s)\n", result.name, result.passed() ? "PASSED" : "FAILED",
                    result.seconds);
  std::size_t width = 6;
  for (const Metric& m : result.metrics) width = std::max(width, m.name.size());
  os << fmt::format("  {:<{}}  {:>13}  {:>13}  {:<6}  {}\n", "metric", width, "value", "reference", "result",
                    "criterion");
  // Checks first, then information, each in the suite's order.
  for (const bool information_rows : {false, true}) {
    for (const Metric& m : result.metrics) {
      if (m.is_information() != information_rows) continue;
      const std::string reference = m.reference ? fmt::format("{:13.6g}", *m.reference) : std::string(13, '-');
      os << fmt::format("  {:<{}}  {:13.6g}  {:>13}  {:<6}  {}\n", m.name, width, m.value, reference, verdict_of(m),
                        m.criterion);
    }
  }
  for (const std::string& figure : result.figures) os << "  figure: " << figure << "\n";
}

double observed_order(const std::vector<double>& h, const std::vector<double>& error) {
  const std::size_t n = h.size();
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mean_x += std::log(h[i]) / double(n);
    mean_y += std::log(error[i]) / double(n);
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = std::log(h[i]) - mean_x;
    sxy += dx * (std::log(error[i]) - mean_y);
    sxx += dx * dx;
  }
  return sxy / sxx;
}

}  // namespace contactref::validation
