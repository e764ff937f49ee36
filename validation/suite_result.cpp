#include "validation/suite_result.hpp"

#include <cmath>

#include <algorithm>
#include <fmt/format.h>
#include <ostream>

namespace contactref::validation {

bool SuiteResult::passed() const {
  return !metrics.empty() && std::all_of(metrics.begin(), metrics.end(), [](const Metric& m) { return m.passed; });
}

nlohmann::ordered_json to_json(const SuiteResult& result) {
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (const Metric& m : result.metrics) {
    metrics[m.name] = {{"value", m.value},
                       {"reference", m.reference ? nlohmann::ordered_json(*m.reference) : nullptr},
                       {"criterion", m.criterion},
                       {"passed", m.passed}};
  }
  return {{"name", result.name},
          {"passed", result.passed()},
          {"seconds", result.seconds},
          {"metrics", metrics},
          {"figures", result.figures}};
}

void print_table(std::ostream& os, const SuiteResult& result) {
  os << fmt::format("suite {}: {} ({:.2f} s)\n", result.name, result.passed() ? "PASSED" : "FAILED",
                    result.seconds);
  std::size_t width = 6;
  for (const Metric& m : result.metrics) width = std::max(width, m.name.size());
  os << fmt::format("  {:<{}}  {:>13}  {:>13}  {:<6}  {}\n", "metric", width, "value", "reference", "result",
                    "criterion");
  for (const Metric& m : result.metrics) {
    const std::string reference = m.reference ? fmt::format("{:13.6g}", *m.reference) : std::string(13, '-');
    os << fmt::format("  {:<{}}  {:13.6g}  {:>13}  {:<6}  {}\n", m.name, width, m.value, reference,
                      m.passed ? "pass" : "FAIL", m.criterion);
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
