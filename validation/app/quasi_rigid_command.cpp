// `contactref quasi-rigid hertz`: a sphere pressed into a half-space with the
// quasi-rigid model (reference/quasi_rigid/sphere_press.hpp: Boussinesq
// response, elastic LCP by block pivoting (Lemke where that fails), load control) beside Hertz's closed form
// (validation/oracles/hertz.hpp). SI units throughout.
#include <cmath>
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "reference/quasi_rigid/sphere_press.hpp"
#include "validation/app/finite_output.hpp"
#include "validation/app/quasi_rigid_contact.hpp"
#include "validation/app/subcommands.hpp"
#include "validation/oracles/hertz.hpp"

namespace contactref::cli {
namespace {

struct HertzOptions {
  quasi_rigid::SpherePressOptions press;
  bool json = false;
};

int run_hertz(const HertzOptions& options) {
  const quasi_rigid::SpherePress m = quasi_rigid::press_sphere(options.press);
  const quasi_rigid::SpherePressOptions& p = options.press;
  const oracles::HertzContact h = oracles::hertz_sphere_on_half_space(
      p.radius, oracles::composite_modulus(p.E, p.nu, p.plane_E, p.plane_nu), p.load);
  const nlohmann::ordered_json out{
      {"radius", p.radius},
      {"E", p.E},
      {"nu", p.nu},
      {"plane", p.plane_E > 0 ? nlohmann::ordered_json{{"E", p.plane_E}, {"nu", p.plane_nu}} : nlohmann::ordered_json("rigid")},
      {"load", p.load},
      {"composite_modulus", m.composite_modulus},
      {"contact_radius", m.contact_radius},
      {"peak_pressure", m.peak_pressure},
      {"approach", m.approach},
      {"analytic_contact_radius", h.contact_radius},
      {"analytic_peak_pressure", h.peak_pressure},
      {"analytic_approach", h.approach},
      {"contact_ratio", h.contact_radius / p.radius},
      {"hertz_applies", h.contact_radius / p.radius <= oracles::kHertzLargestContactRatio},
      {"sampling",
       {{"nodes_per_contact_radius", p.nodes_per_radius},
        {"spacing", m.spacing},
        {"nodes", m.nodes},
        {"loaded_nodes", m.loaded_nodes},
        {"kernel_width", p.width * m.spacing},
        {"kernel_support", p.support * m.spacing},
        {"lcp_solves", m.lcp_solves},
        {"lcp_iterations", m.pivots}}}};
  require_finite(out, "quasi-rigid hertz");
  if (!out["hertz_applies"].get<bool>()) {
    std::cerr << fmt::format(
        "warning: a / R = {:.3g} is above {} (validation/oracles/hertz.hpp): Hertz's parabolic gap is short of the "
        "sphere's by {:.2g}% at the contact edge, so the differences from Hertz below measure Hertz's approximation, "
        "not the model\n",
        h.contact_radius / p.radius, oracles::kHertzLargestContactRatio,
        100 * std::pow(h.contact_radius / p.radius, 2) / 4);
  }
  if (options.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  const auto row = [](const char* name, double value, double reference, const char* unit) {
    std::cout << fmt::format("{:<16}{:>14.6g} {:<3}  Hertz {:>12.6g}  ({:+.3f}%)\n", name, value, unit, reference,
                             100 * (value / reference - 1));
  };
  row("contact radius", m.contact_radius, h.contact_radius, "m");
  row("peak pressure", m.peak_pressure, h.peak_pressure, "Pa");
  row("approach", m.approach, h.approach, "m");
  std::cout << fmt::format("sampling        {} nodes at {:.4g} m ({} per contact radius), {} loaded; {} LCP solves, "
                           "{} iterations; E* = {:.6g} Pa\n",
                           m.nodes, m.spacing, p.nodes_per_radius, m.loaded_nodes, m.lcp_solves, m.pivots,
                           m.composite_modulus);
  return 0;
}

}  // namespace

Action configure_quasi_rigid(CLI::App& app) {
  app.require_subcommand(1, 1);
  auto hertz = std::make_shared<HertzOptions>();
  CLI::App* hertz_app = app.add_subcommand(
      "hertz", "press a sphere onto a half-space (rigid unless its material is given): contact radius, peak "
               "pressure and approach beside Hertz's (SI units)");
  quasi_rigid::SpherePressOptions& p = hertz->press;
  hertz_app->add_option("--radius", p.radius, "sphere radius (m)")->required();
  hertz_app->add_option("--E", p.E, "the sphere's Young's modulus (Pa)")->required();
  hertz_app->add_option("--nu", p.nu, "the sphere's Poisson's ratio, in [0, 0.5)")->required();
  hertz_app->add_option("--load", p.load, "load (N)")->required();
  hertz_app->add_option("--plane-E", p.plane_E, "the half-space's Young's modulus (Pa; default: rigid)");
  hertz_app->add_option("--plane-nu", p.plane_nu, "the half-space's Poisson's ratio (with --plane-E)");
  hertz_app->add_option("--nodes-per-radius", p.nodes_per_radius,
                        "nodes per Hertz contact radius, 2..16 (default 6: radius within 2%, peak pressure within 4%)");
  hertz_app->add_flag("--json", hertz->json, "print one JSON document");
  auto contact = std::make_shared<QuasiRigidContactCommandOptions>();
  CLI::App* contact_app = add_quasi_rigid_contact(app, *contact);
  return [hertz, contact, contact_app]() -> int {
    if (contact_app->parsed()) return run_quasi_rigid_contact(*contact);
    return run_hertz(*hertz);
  };
}

}  // namespace contactref::cli
