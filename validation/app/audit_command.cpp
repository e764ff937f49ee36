// `contactref audit [--json] [--min-digits D]`
#include <cmath>
#include <optional>
#include <string>
#include <vector>
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

// The worst entry of a module (the entries whose names start with "MODULE.").
struct ModuleSummary {
  std::string name;
  int entries = 0;
  double worst_digits = 17;
  std::string worst_entry;
  double min_digits = 0;  // the bound the worst entry is held to
};

std::string module_of(const std::string& entry) { return entry.substr(0, entry.find('.')); }

int run_audit(const AuditOptions& options) {
  nlohmann::ordered_json document = {{"entries", nlohmann::ordered_json::array()}};
  std::vector<ModuleSummary> modules;
  bool all_passed = true;
  if (!options.json) {
    std::cout << fmt::format("{:<34} {:>12} {:>7} {:>6} {:>8}  {}\n", "entry", "max_rel_diff", "digits", "bound",
                             "samples", "result");
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
      std::cout << fmt::format("{:<34} {:>12.3e} {:>7.2f} {:>6.1f} {:>8}  {}\n", entry.name, result.max_rel_diff,
                               digits, needed, result.samples, passed ? "pass" : "FAIL");
    }
    const std::string module = module_of(entry.name);
    if (modules.empty() || modules.back().name != module) modules.push_back(ModuleSummary{module, 0, 17, "", 0});
    ModuleSummary& m = modules.back();
    ++m.entries;
    if (m.worst_entry.empty() || digits < m.worst_digits) {
      m.worst_digits = digits;
      m.worst_entry = entry.name;
      m.min_digits = needed;
    }
  }
  document["modules"] = nlohmann::ordered_json::array();
  for (const ModuleSummary& m : modules)
    document["modules"].push_back({{"name", m.name},
                                   {"entries", m.entries},
                                   {"worst_digits", m.worst_digits},
                                   {"worst_entry", m.worst_entry},
                                   {"min_digits", m.min_digits}});
  document["double_only"] = nlohmann::ordered_json::array();
  for (const validation::AuditDoubleOnly& d : validation::audit_double_only())
    document["double_only"].push_back({{"module", d.module}, {"reason", d.reason}});
  if (options.json) {
    std::cout << document.dump(2) << "\n";
  } else {
    std::cout << fmt::format("\n{:<14} {:>7} {:>12} {:>6}  {}\n", "module", "entries", "worst digits", "bound",
                             "worst entry");
    for (const ModuleSummary& m : modules)
      std::cout << fmt::format("{:<14} {:>7} {:>12.2f} {:>6.1f}  {}\n", m.name, m.entries, m.worst_digits,
                               m.min_digits, m.worst_entry);
    std::cout << "\ndouble only (no 50-digit referee):\n";
    for (const validation::AuditDoubleOnly& d : validation::audit_double_only())
      std::cout << fmt::format("  {}: {}\n", d.module, d.reason);
  }
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
