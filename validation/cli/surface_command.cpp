// `contactref surface eval|properties`: evaluate Loop or bicubic Bezier
// patches to third order, and (with reference/surfaces/mass_properties.hpp)
// the mass properties of a closed Loop surface.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reference/spatial/errors.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/mass_properties.hpp"
#include "validation/cli/subcommands.hpp"

namespace contactref::cli {
namespace {

namespace su = contactref::surfaces;

struct EvalOptions {
  std::string mesh, bezier, points;
  int face = -1;
  double u = 0, v = 0;
  bool have_u = false, have_v = false;
};

// The surface to evaluate: a Loop surface (one patch per face) or one Bezier patch.
class Evaluator {
 public:
  explicit Evaluator(const EvalOptions& options) {
    if (options.mesh.empty() == options.bezier.empty())
      throw InputError("surface eval: give exactly one of --mesh FILE or --bezier FILE");
    if (!options.mesh.empty()) {
      loop_ = std::make_unique<su::LoopSurface<double>>(su::read_triangle_mesh(options.mesh), options.mesh);
    } else {
      bezier_ = std::make_unique<su::BezierPatch<double>>(su::read_bezier_net(options.bezier));
    }
  }

  int patch_count() const { return loop_ ? loop_->face_count() : 1; }

  const su::Patch<double>& patch(int face, const std::string& where) const {
    if (face < 0 || face >= patch_count())
      throw InputError(where + "face " + std::to_string(face) + " does not exist (faces 0.." +
                       std::to_string(patch_count() - 1) + ")");
    return loop_ ? loop_->patch(face) : *bezier_;
  }

 private:
  std::unique_ptr<su::LoopSurface<double>> loop_;
  std::unique_ptr<su::BezierPatch<double>> bezier_;
};

nlohmann::ordered_json jet_json(const su::PatchJet<double>& jet) {
  static const char* const names[su::kJetSize] = {"point", "du", "dv", "duu", "duv", "dvv", "duuu", "duuv", "duvv", "dvvv"};
  nlohmann::ordered_json out;
  for (int k = 0; k < su::kJetSize; ++k) out[names[k]] = {jet.d(0, k), jet.d(1, k), jet.d(2, k)};
  return out;
}

void evaluate_one(const Evaluator& evaluator, int face, double u, double v, const std::string& where) {
  const su::Patch<double>& patch = evaluator.patch(face, where);
  if (!std::isfinite(u) || !std::isfinite(v) || !patch.domain().contains(u, v)) {
    throw InputError(where + fmt::format("(u, v) = ({}, {}) is outside the domain of {}", u, v, patch.describe()));
  }
  std::cout << jet_json(patch.evaluate(u, v)).dump() << "\n";
}

int run_eval(const EvalOptions& options) {
  const Evaluator evaluator(options);
  const bool single = options.face >= 0 || options.have_u || options.have_v;
  if (single == !options.points.empty())
    throw InputError("surface eval: give either --points FILE or --face F --u U --v V");
  if (single) {
    if (!options.mesh.empty() && options.face < 0) throw InputError("surface eval: --face is missing");
    if (!options.have_u || !options.have_v) throw InputError("surface eval: --u and --v are both needed");
    evaluate_one(evaluator, std::max(options.face, 0), options.u, options.v, "");
    return 0;
  }
  std::ifstream file(options.points);
  if (!file) throw InputError(options.points + ": cannot open the points file");
  std::string text;
  for (int line = 1; std::getline(file, text); ++line) {
    std::istringstream words(text.substr(0, text.find('#')));
    std::string first;
    if (!(words >> first)) continue;
    words.clear();
    words.seekg(0);
    int face = 0;
    double u = 0, v = 0;
    std::string extra;
    if (!(words >> face >> u >> v) || (words >> extra))
      throw InputError(options.points + ":" + std::to_string(line) + ": expected \"face u v\"");
    evaluate_one(evaluator, face, u, v, options.points + ":" + std::to_string(line) + ": ");
  }
  return 0;
}

struct PropertiesOptions {
  std::string mesh;
  double density = 1000;  // kg/m^3
  bool json = false;
};

int run_properties(const PropertiesOptions& options) {
  const su::LoopSurface<double> surface(su::read_triangle_mesh(options.mesh), options.mesh);
  const su::MassProperties<double> p = su::mass_properties(surface, options.density);
  const auto vec = [](const Vec3<double>& x) { return nlohmann::ordered_json{x.x(), x.y(), x.z()}; };
  nlohmann::ordered_json inertia = nlohmann::ordered_json::array();
  for (int i = 0; i < 3; ++i) inertia.push_back(vec(p.inertia_com.row(i).transpose()));
  if (options.json) {
    std::cout << nlohmann::ordered_json{{"mesh", options.mesh},
                                        {"density", options.density},
                                        {"volume", p.volume},
                                        {"mass", p.mass},
                                        {"centre_of_mass", vec(p.centre_of_mass)},
                                        {"inertia", inertia},
                                        {"volume_error_bound", p.error_bound}}
                     .dump(2)
              << "\n";
    return 0;
  }
  std::cout << fmt::format("mesh            {}\ndensity         {} kg/m^3\nvolume          {:.15g} m^3 (error <= {:.3g})\n"
                           "mass            {:.15g} kg\ncentre of mass  {:.15g} {:.15g} {:.15g} m\n",
                           options.mesh, options.density, p.volume, p.error_bound, p.mass, p.centre_of_mass.x(),
                           p.centre_of_mass.y(), p.centre_of_mass.z());
  for (int i = 0; i < 3; ++i) {
    std::cout << fmt::format("{}{:22.15g} {:22.15g} {:22.15g}\n", i == 0 ? "inertia (com)   " : "                ",
                             p.inertia_com(i, 0), p.inertia_com(i, 1), p.inertia_com(i, 2));
  }
  return 0;
}

}  // namespace

Action configure_surface(CLI::App& app) {
  app.require_subcommand(1, 1);
  auto eval = std::make_shared<EvalOptions>();
  CLI::App* eval_app = app.add_subcommand("eval", "point and partial derivatives to third order, one JSON object per line");
  eval_app->add_option("--mesh", eval->mesh, "closed triangle mesh (OBJ or OFF): its Loop subdivision surface");
  eval_app->add_option("--bezier", eval->bezier, "bicubic Bezier net: 16 lines \"x y z\", row index with u");
  eval_app->add_option("--points", eval->points, "file of lines \"face u v\"");
  eval_app->add_option("--face", eval->face, "face (patch) index")->check(CLI::NonNegativeNumber);
  eval_app->add_option_function<double>("--u", [eval](double x) { eval->u = x, eval->have_u = true; }, "parameter u");
  eval_app->add_option_function<double>("--v", [eval](double x) { eval->v = x, eval->have_v = true; }, "parameter v");
  auto properties = std::make_shared<PropertiesOptions>();
  CLI::App* properties_app = app.add_subcommand(
      "properties", "volume, centre of mass and inertia (about the centre of mass) of a closed Loop surface");
  properties_app->add_option("--mesh", properties->mesh, "closed triangle mesh (OBJ or OFF)")->required();
  properties_app->add_option("--density", properties->density, "uniform density in kg/m^3 (default 1000)");
  properties_app->add_flag("--json", properties->json, "print one JSON document");
  return [eval, eval_app, properties] {
    if (eval_app->parsed()) return run_eval(*eval);
    return run_properties(*properties);
  };
}

}  // namespace contactref::cli
