#pragma once
// The `contactref` subcommand registry. A subcommand configures its CLI11
// sub-app (options, help) and returns the action to run when it was chosen;
// the action returns the exit code (0 success, 1 a failed check, 2 bad input).
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace contactref::cli {

using Action = std::function<int()>;

struct SubcommandSpec {
  std::string name;
  std::string summary;
  std::function<Action(CLI::App&)> configure;
};

const std::vector<SubcommandSpec>& subcommands();

Action configure_validate(CLI::App& app);
Action configure_figures(CLI::App& app);
Action configure_audit(CLI::App& app);
Action configure_surface(CLI::App& app);
Action configure_simulate(CLI::App& app);
Action configure_kinematics(CLI::App& app);
Action configure_geometry(CLI::App& app);
Action configure_quasi_rigid(CLI::App& app);
Action configure_volume_contact(CLI::App& app);
Action configure_view(CLI::App& app);

// Parses argv and runs the chosen subcommand; returns the process exit code.
int run(int argc, const char* const* argv);

}  // namespace contactref::cli
