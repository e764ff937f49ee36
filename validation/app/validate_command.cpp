// `contactref validate [SUITE...|all] [--quick] [--out DIR] [--json]`
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <optional>
#include <thread>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/threads.hpp"
#include "validation/app/output_files.hpp"
#include "validation/app/provenance.hpp"
#include "validation/app/subcommands.hpp"
#include "validation/app/suite_processes.hpp"
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

// "c of n checks passed, i information rows", from a suite's JSON (to_json).
std::string count_rows(const nlohmann::ordered_json& suite) {
  int checks = 0, passed = 0, information = 0;
  for (const auto& [name, metric] : suite.at("metrics").items()) {
    if (metric.at("passed").is_null()) {
      ++information;
      continue;
    }
    ++checks;
    passed += metric.at("passed").get<bool>();
  }
  return fmt::format("{} of {} checks passed, {} information rows", passed, checks, information);
}

// A suite's process's results (its validation.json's and timings.json's
// entries), or nothing when it ended without them (an error).
struct SuiteOutputs {
  nlohmann::ordered_json suite, timing;
};
std::optional<SuiteOutputs> outputs_of(const SuiteProcess& process) {
  const std::filesystem::path results = process.dir / "validation.json";
  if ((process.exit_code != 0 && process.exit_code != 1) || !std::filesystem::exists(results)) return std::nullopt;
  const auto first = [](const std::filesystem::path& file) {
    return nlohmann::ordered_json::parse(read_input_file(file, "a suite process's results")).at("suites").at(0);
  };
  return SuiteOutputs{first(results), first(process.dir / "timings.json")};
}

// The command as parsed (provenance.json).
std::string command_line(const ValidateOptions& options) {
  std::string line = "contactref validate";
  for (const std::string& name : options.names) line += " " + name;
  if (options.quick) line += " --quick";
  if (options.json) line += " --json";
  return line + " --out " + options.out;
}

// The suites one after the other in this process.
bool run_here(const std::vector<const validation::SuiteSpec*>& chosen, const ValidateOptions& options,
              nlohmann::ordered_json& document, nlohmann::ordered_json& timings) {
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
    const nlohmann::ordered_json json = validation::to_json(result);
    std::cerr << fmt::format("[{}/{}] {} {} in {:.2f} s ({})\n", index, chosen.size(), suite->name,
                             result.passed() ? "passed" : "FAILED", result.seconds, count_rows(json));
    all_passed = all_passed && result.passed();
    document["suites"].push_back(json);
    timings["suites"].push_back(validation::timings_json(result));
    if (!options.json) validation::print_table(std::cout, result);
  }
  return all_passed;
}

// The suites in child processes (suite_processes.hpp), `jobs` at once, each
// on threads / jobs threads; their results gathered in the suites' order,
// the same documents and tables as run_here's. A suite whose process ended
// without its results (an error) fails the command as run_here's exception
// would, once all have ended: its messages printed, then InputError for a
// process that exited 2, else ComputationError, naming the suite.
bool run_in_processes(const std::vector<const validation::SuiteSpec*>& chosen, const ValidateOptions& options,
                     int jobs, int threads, nlohmann::ordered_json& document, nlohmann::ordered_json& timings) {
  const ScratchFolder scratch;
  std::vector<std::string> names;
  for (const validation::SuiteSpec* suite : chosen) names.push_back(suite->name);
  const std::size_t n = names.size();
  const std::vector<SuiteProcess> processes = run_suite_processes(
      names, options.quick, scratch.path(), jobs, std::max(1, threads / jobs),
      [&](std::size_t k) {
        std::cerr << fmt::format("[{}/{}] {}{} ...\n", k + 1, n, names[k], options.quick ? " (quick)" : "");
      },
      [&](std::size_t k, const SuiteProcess& process) {
        const std::optional<SuiteOutputs> outputs = outputs_of(process);
        if (!outputs) {
          std::cerr << fmt::format("[{}/{}] {} ended with exit code {} (its messages follow the suites)\n", k + 1, n,
                                   names[k], process.exit_code);
          return;
        }
        std::cerr << fmt::format("[{}/{}] {} {} in {:.2f} s ({})\n", k + 1, n, names[k],
                                 outputs->suite.at("passed").get<bool>() ? "passed" : "FAILED",
                                 outputs->timing.at("seconds").get<double>(), count_rows(outputs->suite));
      });
  const SuiteProcess* failed = nullptr;
  bool all_passed = true;
  for (const SuiteProcess& process : processes) {
    const std::optional<SuiteOutputs> outputs = outputs_of(process);
    if (!outputs) {
      std::cerr << "suite " << process.suite << ", its process's messages:\n"
                << read_input_file(process.dir / "stderr.txt", "a suite process's messages");
      if (!failed) failed = &process;
      continue;
    }
    all_passed = all_passed && outputs->suite.at("passed").get<bool>();
    document["suites"].push_back(outputs->suite);
    timings["suites"].push_back(outputs->timing);
    if (!options.json) std::cout << read_input_file(process.dir / "stdout.txt", "a suite process's table");
  }
  if (failed) {
    const std::string message = fmt::format("validate: suite {} ended with exit code {} without its results (its "
                                            "process's messages above)", failed->suite, failed->exit_code);
    if (failed->exit_code == 2) throw InputError(message);
    throw ComputationError(message);
  }
  return all_passed;
}

int run_validate(const ValidateOptions& options) {
  const auto chosen = select_suites(options.names);
  nlohmann::ordered_json document = {{"suites", nlohmann::ordered_json::array()}};
  nlohmann::ordered_json timings = {{"suites", nlohmann::ordered_json::array()}};
  // Several suites on several cores: a process each (CGAL is one thread's).
  const int threads = threads_from_environment().value_or(int(std::max(1u, std::thread::hardware_concurrency())));
  const int jobs = std::min(threads, int(chosen.size()));
  const bool all_passed = jobs > 1 ? run_in_processes(chosen, options, jobs, threads, document, timings)
                                   : run_here(chosen, options, document, timings);
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
