// `contactref audit [--json] [--min-digits D]`
#include <cmath>
#include <optional>
#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>

#include "validation/app/subcommands.hpp"
#include "validation/registry.hpp"

namespace contactref::cli {
namespace {

struct AuditOptions {
  bool json = false;
  std::optional<double> min_digits;  // overrides every entry's own requirement
};

// Agreeing decimal digits: -log10 of the relative difference, capped at 17
// (a difference of exactly zero means every digit of the double agrees).
double digits_of(double max_rel_diff) { return max_rel_diff > 0 ? std::min(17.0, -std::log10(max_rel_diff)) : 17.0; }

int run_audit(const AuditOptions& options) {
  nlohmann::ordered_json document = {{"entries", nlohmann::ordered_json::array()}};
  bool all_passed = true;
  if (!options.json) {
    std::cout << fmt::format("{:<34} {:>12} {:>7} {:>8}  {}\n", "entry", "max_rel_diff", "digits", "samples", "result");
  }
  for (const auto& entry : validation::audit_entries()) {
    const validation::AuditResult result = entry.run();
    const double digits = digits_of(result.max_rel_diff);
    const double needed = options.min_digits.value_or(entry.min_digits);
    const bool passed = digits >= needed;
    all_passed = all_passed && passed;
    document["entries"].push_back({{"name", entry.name},
                                   {"summary", entry.summary},
                                   {"max_rel_diff", result.max_rel_diff},
                                   {"digits", digits},
                                   {"samples", result.samples},
                                   {"min_digits", needed},
                                   {"passed", passed}});
    if (!options.json) {
      std::cout << fmt::format("{:<34} {:>12.3e} {:>7.2f} {:>8}  {}\n", entry.name, result.max_rel_diff, digits,
                               result.samples, passed ? "pass" : "FAIL");
    }
  }
  if (options.json) std::cout << document.dump(2) << "\n";
  return all_passed ? 0 : 1;
}

}  // namespace

Action configure_audit(CLI::App& app) {
  auto options = std::make_shared<AuditOptions>();
  app.add_flag("--json", options->json, "print one JSON document on stdout");
  app.add_option("--min-digits", options->min_digits, "agreeing digits every entry needs (default: each entry's own, 13 for most)")
      ->check(CLI::Range(0.0, 17.0));
  return [options] { return run_audit(*options); };
}

}  // namespace contactref::cli
