// `contactref surface eval|properties`: evaluate Loop or bicubic Bezier
// patches to third order (with the unit normal), and (with reference/surfaces/mass_properties.hpp)
// the mass properties of a closed Loop surface.
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/number_text.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/mass_properties.hpp"
#include "reference/surfaces/unit_normal.hpp"
#include "validation/app/finite_output.hpp"
#include "validation/app/subcommands.hpp"

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

  // The evaluation at (u, v) of face `face` as printed: point, unit normal
  // (null where c_u x c_v vanishes) and the nine derivatives. At an
  // extraordinary vertex of a Loop surface the patch's derivatives are not
  // defined (null), but the limit position and normal are (limit masks).
  nlohmann::ordered_json evaluate(int face, double u, double v, const std::string& where) const {
    if (face < 0 || face >= patch_count())
      throw InputError(where + "face " + std::to_string(face) + " does not exist (faces 0.." +
                       std::to_string(patch_count() - 1) + ")");
    const su::Patch<double>& patch = loop_ ? loop_->patch(face) : *bezier_;
    if (!std::isfinite(u) || !std::isfinite(v) || !patch.domain().contains(u, v))
      throw InputError(where + fmt::format("(u, v) = ({}, {}) is outside the domain of {}", u, v, patch.describe()));
    const int vertex = loop_ ? loop_->extraordinary_vertex_at(face, u, v) : -1;
    if (vertex >= 0) {
      const auto [t1, t2] = loop_->limit_tangents(vertex);
      nlohmann::ordered_json out{{"point", vec(loop_->limit_position(vertex))}, {"normal", normal(t1, t2)}};
      for (int k = 1; k < su::kJetSize; ++k) out[kJetNames[k]] = nullptr;
      return out;
    }
    const su::PatchJet<double> jet = patch.evaluate(u, v);
    nlohmann::ordered_json out{{"point", vec(jet.c())}, {"normal", normal(jet.c_s(), jet.c_t())}};
    for (int k = 1; k < su::kJetSize; ++k) out[kJetNames[k]] = vec(jet.d.col(k));
    return out;
  }

 private:
  static constexpr const char* kJetNames[su::kJetSize] = {"point", "du",   "dv",   "duu",  "duv",
                                                          "dvv",   "duuu", "duuv", "duvv", "dvvv"};
  static nlohmann::ordered_json vec(const Vec3<double>& x) { return {x.x(), x.y(), x.z()}; }
  static nlohmann::ordered_json normal(const Vec3<double>& a, const Vec3<double>& b) {
    const std::optional<Vec3<double>> n = su::unit_normal(a, b);
    return n ? vec(*n) : nlohmann::ordered_json(nullptr);
  }

  std::unique_ptr<su::LoopSurface<double>> loop_;
  std::unique_ptr<su::BezierPatch<double>> bezier_;
};

void evaluate_one(const Evaluator& evaluator, int face, double u, double v, const std::string& where,
                  const std::string& source) {
  const nlohmann::ordered_json out = evaluator.evaluate(face, u, v, where);
  require_finite(out, fmt::format("surface eval of {} at face {}, (u, v) = ({}, {})", source, face, u, v));
  std::cout << out.dump() << "\n";
}

int run_eval(const EvalOptions& options) {
  const Evaluator evaluator(options);
  const std::string source = options.mesh.empty() ? options.bezier : options.mesh;
  const bool single = options.face >= 0 || options.have_u || options.have_v;
  if (single == !options.points.empty())
    throw InputError("surface eval: give either --points FILE or --face F --u U --v V");
  if (single) {
    if (!options.mesh.empty() && options.face < 0) throw InputError("surface eval: --face is missing");
    if (!options.have_u || !options.have_v) throw InputError("surface eval: --u and --v are both needed");
    evaluate_one(evaluator, std::max(options.face, 0), options.u, options.v, "", source);
    return 0;
  }
  std::istringstream file(read_input_file(options.points, "the points file"));
  std::string text;
  for (int line = 1; std::getline(file, text); ++line) {
    std::istringstream words(text.substr(0, text.find('#')));
    std::vector<std::string> fields;
    for (std::string word; words >> word;) fields.push_back(word);
    if (fields.empty()) continue;
    const std::string where = options.points + ":" + std::to_string(line) + ": ";
    const std::optional<double> face = fields.size() == 3 ? parse_double(fields[0]) : std::nullopt;
    const std::optional<double> u = fields.size() == 3 ? parse_double(fields[1]) : std::nullopt;
    const std::optional<double> v = fields.size() == 3 ? parse_double(fields[2]) : std::nullopt;
    if (!face || !u || !v || *face != std::floor(*face) || std::abs(*face) > 1e9)
      throw InputError(where + "expected \"face u v\" (an integer face and two numbers)");
    evaluate_one(evaluator, int(*face), *u, *v, where, source);
  }
  return 0;
}

struct PropertiesOptions {
  std::string mesh;
  double density = 1000;  // kg/m^3
  double tolerance = su::MassPropertiesOptions<double>{}.tolerance;
  bool json = false;
};

int run_properties(const PropertiesOptions& options) {
  if (!(std::isfinite(options.density) && options.density > 0))
    throw InputError(fmt::format("--density: must be finite and positive (got {})", options.density));
  const su::LoopSurface<double> surface(su::read_triangle_mesh(options.mesh), options.mesh);
  su::MassPropertiesOptions<double> mass_options;
  mass_options.tolerance = options.tolerance;
  const su::MassProperties<double> p = su::mass_properties(surface, options.density, mass_options);
  const auto vec = [](const Vec3<double>& x) { return nlohmann::ordered_json{x.x(), x.y(), x.z()}; };
  nlohmann::ordered_json inertia = nlohmann::ordered_json::array();
  for (int i = 0; i < 3; ++i) inertia.push_back(vec(p.inertia_com.row(i).transpose()));
  const nlohmann::ordered_json out{{"mesh", options.mesh},
                                   {"density", options.density},
                                   {"tolerance", options.tolerance},
                                   {"volume", p.volume},
                                   {"mass", p.mass},
                                   {"centre_of_mass", vec(p.centre_of_mass)},
                                   {"inertia", inertia},
                                   {"volume_error_bound", p.error_bound}};
  require_finite(out, "surface properties of " + options.mesh);
  if (options.json) {
    std::cout << out.dump(2) << "\n";
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
  CLI::App* eval_app = app.add_subcommand(
      "eval", "point, unit normal and partial derivatives to third order, one JSON object per line (at an "
              "extraordinary vertex: the limit point and normal, null derivatives)");
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
  properties_app->add_option("--tolerance", properties->tolerance,
                             "truncation of the sums about extraordinary vertices, relative to R A / 3 "
                             "(A the area, R the extent; default 1e-14), in [0, 1)");
  properties_app->add_flag("--json", properties->json, "print one JSON document");
  return [eval, eval_app, properties] {
    if (eval_app->parsed()) return run_eval(*eval);
    return run_properties(*properties);
  };
}

}  // namespace contactref::cli
