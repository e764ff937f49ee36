// `contactref validate [SUITE...|all] [--quick] [--out DIR] [--json]`
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

#include "core/errors.hpp"
#include "validation/app/output_files.hpp"
#include "validation/app/provenance.hpp"
#include "validation/app/subcommands.hpp"
#include "validation/registry.hpp"

namespace contactref::cli {
namespace {

struct ValidateOptions {
  std::vector<std::string> names;
  bool quick = false;
  bool json = false;
  std::string out;
};

std::string list_suites() {
  std::string text;
  for (const auto& suite : validation::suites()) text += fmt::format("\n  {:<24} {}", suite.name, suite.summary);
  return text;
}

std::vector<const validation::SuiteSpec*> select_suites(const std::vector<std::string>& names) {
  if (names.empty()) throw InputError("validate: name the suites to run, or `all`; suites:" + list_suites());
  std::vector<const validation::SuiteSpec*> chosen;
  for (const std::string& name : names) {
    if (name == "all") {
      chosen.clear();
      for (const auto& suite : validation::suites()) chosen.push_back(&suite);
      return chosen;
    }
    const auto& all = validation::suites();
    const auto it = std::find_if(all.begin(), all.end(), [&](const auto& suite) { return suite.name == name; });
    if (it == all.end()) throw InputError("validate: unknown suite '" + name + "'; suites:" + list_suites());
    chosen.push_back(&*it);
  }
  return chosen;
}

// "c of n checks passed, i information rows".
std::string count_rows(const validation::SuiteResult& result) {
  int checks = 0, passed = 0, information = 0;
  for (const validation::Metric& m : result.metrics) {
    if (m.is_information()) {
      ++information;
      continue;
    }
    ++checks;
    passed += *m.passed;
  }
  return fmt::format("{} of {} checks passed, {} information rows", passed, checks, information);
}

// The command as parsed (provenance.json).
std::string command_line(const ValidateOptions& options) {
  std::string line = "contactref validate";
  for (const std::string& name : options.names) line += " " + name;
  if (options.quick) line += " --quick";
  if (options.json) line += " --json";
  return line + " --out " + options.out;
}

int run_validate(const ValidateOptions& options) {
  const auto chosen = select_suites(options.names);
  nlohmann::ordered_json document = {{"suites", nlohmann::ordered_json::array()}};
  nlohmann::ordered_json timings = {{"suites", nlohmann::ordered_json::array()}};
  bool all_passed = true;
  int index = 0;
  for (const validation::SuiteSpec* suite : chosen) {
    ++index;
    std::cerr << fmt::format("[{}/{}] {}{} ...\n", index, chosen.size(), suite->name,
                             options.quick ? " (quick)" : "");
    const auto start = std::chrono::steady_clock::now();
    validation::SuiteResult result = suite->run({options.quick});
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.name = suite->name;
    result.figures = validation::figure_files_of(suite->name);
    std::cerr << fmt::format("[{}/{}] {} {} in {:.2f} s ({})\n", index, chosen.size(), suite->name,
                             result.passed() ? "passed" : "FAILED", result.seconds, count_rows(result));
    all_passed = all_passed && result.passed();
    document["suites"].push_back(validation::to_json(result));
    timings["suites"].push_back(validation::timings_json(result));
    if (!options.json) validation::print_table(std::cout, result);
  }
  if (options.json) std::cout << document.dump(2) << "\n";
  if (!options.out.empty()) {
    const std::filesystem::path dir(options.out);
    std::filesystem::create_directories(dir);
    write_json(dir / "validation.json", document);
    write_timings(dir / "timings.json", timings);
    write_json(dir / "provenance.json", provenance_json(command_line(options)));
  }
  return all_passed ? 0 : 1;
}

}  // namespace

Action configure_validate(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  app.add_option("suites", options->names, "suites to run, or `all`");
  app.add_flag("--quick", options->quick, "run each suite's quick variant");
  app.add_option("--out", options->out,
                 "also write DIR/validation.json (the same byte for byte run to run), DIR/timings.json (the "
                 "suites' times and timing rows) and DIR/provenance.json (build, machine, date, command)");
  app.add_flag("--json", options->json, "print one JSON document on stdout instead of tables");
  app.footer("Each row is a check (pass or FAIL; its criterion says how its bound is derived) or information "
             "(info; \"passed\": null in JSON). A suite passes when it has checks and all pass.\nsuites:" +
             list_suites());
  return [options] { return run_validate(*options); };
}

}  // namespace contactref::cli
