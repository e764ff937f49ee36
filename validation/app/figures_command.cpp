// `contactref figures [--out DIR] [--only NAME]`: for each figure, the C++
// side writes CSV data under OUT/figures/NAME/, then
// paper_figures/<script>.py draws NAME.png and NAME.pdf beside it.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

#include "core/errors.hpp"
#include "validation/build_info.hpp"
#include "validation/app/subcommands.hpp"
#include "validation/registry.hpp"

namespace contactref::cli {
namespace {

struct FiguresOptions {
  std::string out = "out";
  std::string only;
};

std::string list_figures() {
  std::string text;
  for (const auto& figure : validation::figures()) text += fmt::format("\n  {:<26} {}", figure.name, figure.summary);
  return text;
}

// A POSIX shell word for any path.
std::string shell_quote(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

int run_figures(const FiguresOptions& options) {
  std::vector<const validation::FigureSpec*> chosen;
  for (const auto& figure : validation::figures()) {
    if (options.only.empty() || figure.name == options.only) chosen.push_back(&figure);
  }
  if (chosen.empty()) throw InputError("figures: unknown figure '" + options.only + "'; figures:" + list_figures());
  if (std::string(build_info::python).empty()) {
    throw ComputationError("figures: no python3 with matplotlib and numpy was found when the build was configured "
                           "(install python3-matplotlib and python3-numpy, then rerun scripts/bootstrap.sh)");
  }
  int index = 0;
  int failures = 0;
  for (const validation::FigureSpec* figure : chosen) {
    ++index;
    const auto start = std::chrono::steady_clock::now();
    const std::filesystem::path dir = std::filesystem::path(options.out) / "figures" / figure->name;
    std::filesystem::create_directories(dir);
    std::cerr << fmt::format("[{}/{}] figure {} ...\n", index, chosen.size(), figure->name);
    figure->write_data(dir);
    const std::filesystem::path script = std::filesystem::path(build_info::source_dir) / "paper_figures" / figure->script;
    const std::string command = shell_quote(build_info::python) + " " + shell_quote(script.string()) + " " +
                                shell_quote(dir.string()) + " " + shell_quote(figure->name);
    const int status = std::system(command.c_str());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status != 0) {
      ++failures;
      std::cerr << fmt::format("[{}/{}] figure {} FAILED: `{}` exited with status {}\n", index, chosen.size(),
                               figure->name, command, status);
    } else {
      std::cerr << fmt::format("[{}/{}] figure {} written to {} in {:.2f} s\n", index, chosen.size(), figure->name,
                               dir.string(), seconds);
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace

Action configure_figures(CLI::App& app) {
  auto options = std::make_shared<FiguresOptions>();
  app.add_option("--out", options->out, "output folder (default: out)");
  app.add_option("--only", options->only, "regenerate only this figure");
  app.footer("figures:" + list_figures());
  return [options] { return run_figures(*options); };
}

}  // namespace contactref::cli
