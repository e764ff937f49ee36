#include <fmt/format.h>
#include <iostream>
#include <optional>

#include "core/errors.hpp"
#include "core/threads.hpp"
#include "validation/build_info.hpp"
#include "validation/app/subcommands.hpp"

namespace contactref::cli {

const std::vector<SubcommandSpec>& subcommands() {
  static const std::vector<SubcommandSpec> list = {
      {"validate", "run validation suites and report measured numbers against references", configure_validate},
      {"figures", "regenerate figures (CSV data, then PNG and PDF) under OUT/figures/", configure_figures},
      {"audit", "compare double results with 50-digit results over seeded random inputs", configure_audit},
      {"surface", "evaluate surface patches to third order; mass properties of closed surfaces", configure_surface},
      {"simulate", "simulate a scene (one contact, with friction when the scene gives it); writes trajectory.csv, events.csv, summary.json",
       configure_simulate},
      {"kinematics", "contact kinematics of a scene's contact at q, q': E_2_1, H and Hdot", configure_kinematics},
      {"geometry", "exact polyhedral geometry: intersection volumes and their moments, the Brep-index, contact regions and normals", configure_geometry},
      {"quasi-rigid", "Pauly et al.'s quasi-rigid contact: a sphere pressed into a half-space beside Hertz", configure_quasi_rigid},
      {"volume-contact", "Bouchard et al.'s 6D contact: the contact patch (normal, frame, ellipse) of two polyhedra",
       configure_volume_contact},
      {"view", "the run viewer: serves a simulate --out folder and the viewer page on localhost", configure_view},
  };
  return list;
}

namespace {

std::string names_of_subcommands() {
  std::string names;
  for (const SubcommandSpec& spec : subcommands()) names += (names.empty() ? "" : ", ") + spec.name;
  return names;
}

bool is_subcommand(const std::string& word) {
  for (const SubcommandSpec& spec : subcommands())
    if (spec.name == word) return true;
  return false;
}

}  // namespace

int run(int argc, const char* const* argv) {
  CLI::App app{"contactref: reference implementation of rigid-body contact models", "contactref"};
  app.set_version_flag("--version", fmt::format("contactref {} (git {}, {} build)", build_info::version,
                                                build_info::git_revision, build_info::build_type));
  app.require_subcommand(1, 1);
  std::vector<std::pair<CLI::App*, Action>> actions;
  for (const SubcommandSpec& spec : subcommands()) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
    actions.emplace_back(sub, spec.configure(*sub));
  }
  if (argc > 1 && argv[1][0] != '-' && !is_subcommand(argv[1])) {
    std::cerr << "contactref: unknown subcommand '" << argv[1] << "'\nsubcommands: " << names_of_subcommands() << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "contactref: " << e.what() << "\n";
    if (app.get_subcommands().empty()) std::cerr << "subcommands: " << names_of_subcommands() << "\n";
    std::cerr << "run `contactref --help` for usage\n";
    return 2;
  }
  try {
    std::optional<ThreadLimit> limit;  // CONTACTREF_THREADS (core/threads.hpp)
    if (const std::optional<int> threads = threads_from_environment()) limit.emplace(*threads);
    for (auto& [sub, action] : actions) {
      if (sub->parsed()) return action();
    }
    return 2;  // unreachable: require_subcommand(1, 1)
  } catch (const InputError& e) {
    std::cerr << "contactref: bad input: " << e.what() << "\n";
    return 2;
  } catch (const ComputationError& e) {
    std::cerr << "contactref: computation failed: " << e.what() << "\n";
    return 1;
  } catch (const InternalError& e) {
    std::cerr << "contactref: internal error: " << e.what() << " (a bug in contactref: please report it with the command)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "contactref: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace contactref::cli
