// `contactref kinematics SCENE.json [--q s,t,u,v,psi] [--qdot ...] [--json]`:
// the contact kinematics (reference/kinematics/contact_kinematics.hpp) of a
// scene's contact patches at (q, q'): E_2_1 (the pose of body frame 1 in body
// frame 2, Eq. 9), H_1c and H_1 (6x5, Eqs. 13-14, 44-56) and Hdot_1c, Hdot_1
// (Eq. 57), rows as nested arrays, spatial vectors (angular; linear).
// q and q' default to the scene's contact.q and contact.qdot.
#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "reference/kinematics/contact_kinematics.hpp"
#include "core/errors.hpp"
#include "validation/app/finite_output.hpp"
#include "validation/app/json_rows.hpp"
#include "validation/app/number_list.hpp"
#include "validation/app/subcommands.hpp"
#include "validation/scenes/scene.hpp"

namespace contactref::cli {
namespace {

struct KinematicsOptions {
  std::string scene;
  std::string q, qdot;
  int patch1 = -1, patch2 = -1;
  bool json = false;
};

// Five comma-separated finite numbers, or InputError naming the option.
kinematics::Vec5<double> parse_five(const std::string& text, const std::string& option, const char* names) {
  const std::vector<double> values = parse_number_list(text, option, names, 5);
  return Eigen::Map<const kinematics::Vec5<double>>(values.data());
}

template <class Matrix>
void print_matrix(const std::string& name, const std::string& meaning, const Matrix& m) {
  std::cout << fmt::format("{}  ({})\n", name, meaning);
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    std::string line = "  ";
    for (Eigen::Index j = 0; j < m.cols(); ++j) line += fmt::format("{:>25.17g}", m(i, j));
    std::cout << line << "\n";
  }
}

int run_kinematics(const KinematicsOptions& options) {
  scenes::LoadOptions load;
  load.check_initial_dynamics = false;  // only the geometry is used here
  const scenes::Scene scene = scenes::load_scene(options.scene, load);
  scenes::require_model(scene, scenes::ModelType::kSmooth, "kinematics");
  const scenes::SceneBody& body1 = scene.free_body();
  const scenes::SceneBody& body2 = scene.fixed_body();
  const int patch1 = options.patch1 >= 0 ? options.patch1 : scene.initial.patch1;
  const int patch2 = options.patch2 >= 0 ? options.patch2 : scene.initial.patch2;
  if (patch1 >= body1.patch_count())
    throw InputError(fmt::format("--patch1: patch {} does not exist: body \"{}\" has patches 0..{}", patch1, body1.name,
                                 body1.patch_count() - 1));
  if (patch2 >= body2.patch_count())
    throw InputError(fmt::format("--patch2: patch {} does not exist: body \"{}\" has patches 0..{}", patch2, body2.name,
                                 body2.patch_count() - 1));
  const bool own_q = !options.q.empty();
  const kinematics::Vec5<double> q = own_q ? parse_five(options.q, "--q", "s,t,u,v,psi") : scene.initial.q;
  const kinematics::Vec5<double> qdot =
      options.qdot.empty() ? scene.initial.qdot : parse_five(options.qdot, "--qdot", "sdot,tdot,udot,vdot,psidot");
  scenes::check_contact_point(scene, patch1, patch2, q,
                              own_q ? std::string("--q") : fmt::format("{}: contact.q", options.scene));
  const kinematics::ContactKinematics<double> k = [&] {
    try {
      return kinematics::contact_kinematics(body1.patch(patch1), body2.patch(patch2), q, qdot);
    } catch (const ComputationError& e) {
      throw ComputationError(fmt::format("kinematics of {}: {}", options.scene, e.what()));
    }
  }();

  const auto vec = [](const kinematics::Vec5<double>& x) {
    return nlohmann::ordered_json{x(0), x(1), x(2), x(3), x(4)};
  };
  nlohmann::ordered_json out;
  out["scene"] = options.scene;
  out["body1"] = body1.name;
  out["body2"] = body2.name;
  out["patch1"] = patch1;
  out["patch2"] = patch2;
  out["q"] = vec(q);
  out["qdot"] = vec(qdot);
  out["E_2_1"] = rows(k.E_2_1);
  out["H_1c"] = rows(k.H_1c);
  out["H_1"] = rows(k.H_1);
  out["Hdot_1c"] = rows(k.Hdot_1c);
  out["Hdot_1"] = rows(k.Hdot_1);
  out["E_1_1c"] = rows(k.E_1_1c);
  out["E_2_2c"] = rows(k.E_2_2c);
  require_finite(out, "kinematics of " + options.scene);
  if (options.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << fmt::format("scene   {}\nbody 1  \"{}\" patch {} ({})\nbody 2  \"{}\" patch {} ({})\n", options.scene,
                           body1.name, patch1, body1.patch(patch1).describe(), body2.name, patch2,
                           body2.patch(patch2).describe());
  std::cout << fmt::format("q       {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}   (s, t, u, v, psi)\n", q(0), q(1), q(2),
                           q(3), q(4));
  std::cout << fmt::format("qdot    {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}\n\n", qdot(0), qdot(1), qdot(2), qdot(3),
                           qdot(4));
  print_matrix("E_2_1", "pose of body frame 1 in body frame 2, Eq. 9", k.E_2_1);
  print_matrix("H_1c", "phi = H q' in contact frame 1c; rows (omega; v)", k.H_1c);
  print_matrix("H_1", "phi = H q' in body frame 1", k.H_1);
  print_matrix("Hdot_1c", "dH/dt along q', frame 1c, Eq. 57", k.Hdot_1c);
  print_matrix("Hdot_1", "dH/dt along q', frame 1", k.Hdot_1);
  return 0;
}

}  // namespace

Action configure_kinematics(CLI::App& app) {
  auto options = std::make_shared<KinematicsOptions>();
  app.add_option("SCENE", options->scene, "scene file (JSON, validation/scenes/scene.hpp)")->required();
  app.add_option("--q", options->q, "contact coordinates s,t,u,v,psi (default: the scene's contact.q)");
  app.add_option("--qdot", options->qdot, "their rates (default: the scene's contact.qdot)");
  app.add_option("--patch1", options->patch1, "patch of body 1 (default: the scene's contact.patch1)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--patch2", options->patch2, "patch of body 2 (default: the scene's contact.patch2)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--json", options->json, "print one JSON document");
  return [options] { return run_kinematics(*options); };
}

}  // namespace contactref::cli
