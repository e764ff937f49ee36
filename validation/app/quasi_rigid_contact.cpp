#include "validation/app/quasi_rigid_contact.hpp"

#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/mesh_io.hpp"
#include "reference/quasi_rigid/point_contact.hpp"
#include "validation/app/finite_output.hpp"
#include "validation/app/json_rows.hpp"
#include "validation/app/number_list.hpp"

namespace contactref::cli {
namespace {

namespace qr = contactref::quasi_rigid;

nlohmann::ordered_json body_json(const qr::QuasiRigidBody& body, const qr::BodyContact& c,
                                 const RigidPose<double>& E_a_body, bool samples) {
  nlohmann::ordered_json out{{"name", body.name()},
                             {"samples", body.surface().samples().points.size()},
                             {"material", body.material().E > 0
                                              ? nlohmann::ordered_json{{"E", body.material().E}, {"nu", body.material().nu}}
                                              : nlohmann::ordered_json("rigid")},
                             {"active", c.active.size()},
                             {"penetrating", c.penetrating},
                             {"load", c.load},
                             {"contact_area", c.contact_area},
                             {"force", rows(c.force_w)},
                             {"torque", rows(c.torque_w)},
                             {"lcp_pivots", c.pivots},
                             {"cg_iterations", c.cg_iterations},
                             {"lemke_solves", c.lemke_solves}};
  if (samples) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < c.active.size(); ++k) {
      const auto i = static_cast<Eigen::Index>(k);
      const Eigen::Vector3d x = E_a_body * body.surface().samples().points[static_cast<std::size_t>(c.active[k])];
      list.push_back({{"sample", c.active[k]},
                      {"position", rows(x)},
                      {"gap", c.gap(i)},
                      {"traction", c.traction(i)},
                      {"displacement", c.displacement(i)},
                      {"separation", c.separation(i)},
                      {"area", c.area(i)}});
    }
    out["active_samples"] = list;
  }
  return out;
}

}  // namespace

CLI::App* add_quasi_rigid_contact(CLI::App& quasi_rigid, QuasiRigidContactCommandOptions& options) {
  CLI::App* app = quasi_rigid.add_subcommand(
      "contact", "the contact of two quasi-rigid point-sampled bodies: active samples, tractions, displacements, "
                 "contact area, wrench, solver statistics (SI units)");
  app->add_option("A", options.a, "first body: a point cloud with normals (XYZ or PLY)")->required();
  app->add_option("B", options.b, "second body: a point cloud with normals (XYZ or PLY)")->required();
  app->add_option("--pose-b", options.pose_b, "pose of B in A's frame: translation (m), rotation vector (rad)");
  app->add_option("--E", options.E, "Young's modulus of A, and of B unless --E-b (Pa; 0: rigid; default 1e6)");
  app->add_option("--nu", options.nu, "Poisson's ratio of A, and of B unless --nu-b (default 0.45)");
  app->add_option("--E-b", options.E_b, "Young's modulus of B (Pa; 0: rigid)");
  app->add_option("--nu-b", options.nu_b, "Poisson's ratio of B");
  app->add_option("--kernel", options.kernel, "response kernel: boussinesq (default) or volume-preserving");
  app->add_option("--sigma", options.sigma, "the volume-preserving kernel's width (m)");
  app->add_option("--iterations", options.iterations, "LCP solves per body (the split scheme; default 3)");
  app->add_option("--active-range", options.active_range,
                  "active samples: within this many spacings of a penetrating one (default 3)");
  app->add_option("--operator", options.response_operator,
                  "the response beside a rigid body: exact (the sampled response, default) or fft (the FFT "
                  "half-space operator on a grid in the contact plane: beyond the paper)");
  app->add_option("--grid-spacing", options.grid_spacing, "the FFT operator's cell side (m; default: a cell per sample)");
  app->add_flag("--json", options.json, "print one JSON document, with every active sample");
  return app;
}

int run_quasi_rigid_contact(const QuasiRigidContactCommandOptions& options) {
  qr::ContactOptions contact_options;
  if (options.kernel == "volume-preserving") {
    contact_options.kernel = qr::ResponseKernel::Kind::kVolumePreserving;
  } else if (options.kernel != "boussinesq") {
    throw InputError("--kernel: must be boussinesq or volume-preserving, got '" + options.kernel + "'");
  }
  if (options.sigma && contact_options.kernel != qr::ResponseKernel::Kind::kVolumePreserving)
    throw InputError("--sigma: only the volume-preserving kernel has a width (give --kernel volume-preserving)");
  contact_options.sigma = options.sigma.value_or(0.0);
  if (options.response_operator == "fft") {
    contact_options.response_operator = qr::ResponseOperator::kFftHalfSpace;
  } else if (options.response_operator != "exact") {
    throw InputError("--operator: must be exact or fft, got '" + options.response_operator + "'");
  }
  if (options.grid_spacing && contact_options.response_operator != qr::ResponseOperator::kFftHalfSpace)
    throw InputError("--grid-spacing: only the FFT operator has a grid (give --operator fft)");
  contact_options.grid_spacing = options.grid_spacing.value_or(0.0);
  contact_options.iterations = options.iterations;
  contact_options.active_range = options.active_range;
  const qr::Material material_a{options.E, options.nu};
  material_a.check("--E / --nu");
  const qr::Material material_b{options.E_b.value_or(options.E), options.nu_b.value_or(options.nu)};
  material_b.check("--E-b / --nu-b");
  const qr::QuasiRigidBody A(qr::surface_samples(read_point_cloud(options.a)), material_a);
  const qr::QuasiRigidBody B(qr::surface_samples(read_point_cloud(options.b)), material_b);
  const RigidPose<double> E_a_b = options.pose_b.empty() ? RigidPose<double>() : parse_pose(options.pose_b, "--pose-b");
  const qr::QuasiRigidContact contact = qr::resolve_contact(A, RigidPose<double>(), B, E_a_b, contact_options);
  if (!contact.settled) {
    throw ComputationError(fmt::format(
        "quasi-rigid contact: the split iterations did not settle: the last of {} changed a body's load by {:.3g}% "
        "and the bodies' loads differ by {:.3g}% (each at most {:.3g}%): the bodies' surfaces disagree about the "
        "contact; sample them more finely, or raise --iterations",
        contact.iterations.size(), 100 * contact.load_change.value_or(0.0), 100 * contact.load_mismatch.value_or(0.0),
        100 * contact_options.load_tolerance));
  }

  nlohmann::ordered_json iterations = nlohmann::ordered_json::array();
  // Not measured in an iteration (ContactIteration): null.
  const auto measured = [](const std::optional<double>& x) { return x ? nlohmann::ordered_json(*x) : nullptr; };
  for (const qr::ContactIteration& it : contact.iterations) {
    iterations.push_back({{"min_separation_a", measured(it.min_separation_a)},
                          {"min_separation_b", measured(it.min_separation_b)},
                          {"load_a", measured(it.load_a)},
                          {"load_b", measured(it.load_b)}});
  }
  const nlohmann::ordered_json out{
      {"kernel", options.kernel},
      {"operator", options.response_operator},
      {"composite_compliance", contact.composite_compliance},
      {"a", body_json(A, contact.a, RigidPose<double>(), options.json)},
      {"b", body_json(B, contact.b, E_a_b, options.json)},
      {"newton_third_law_residual", (contact.a.force_w + contact.b.force_w).norm()},
      {"load_change", measured(contact.load_change)},
      {"load_mismatch", measured(contact.load_mismatch)},
      {"iterations", iterations}};
  require_finite(out, "quasi-rigid contact");
  if (options.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  if (contact.iterations.empty()) {
    std::cout << "no contact: no sample of either body lies inside the other\n";
    return 0;
  }
  for (const auto& [label, body, c] : {std::tuple{"A", &A, &contact.a}, std::tuple{"B", &B, &contact.b}}) {
    std::cout << fmt::format(
        "{} {}: {} samples, {} active ({} penetrating); load {:.6g} N on {:.6g} m^2; force ({:.6g}, {:.6g}, {:.6g}) N, "
        "torque ({:.6g}, {:.6g}, {:.6g}) N m; {}\n",
        label, body->name(), body->surface().samples().points.size(), c->active.size(), c->penetrating, c->load,
        c->contact_area, c->force_w.x(), c->force_w.y(), c->force_w.z(), c->torque_w.x(), c->torque_w.y(),
        c->torque_w.z(),
        contact_options.response_operator == qr::ResponseOperator::kFftHalfSpace
            ? fmt::format("{} conjugate-gradient iterations (FFT operator)", c->cg_iterations)
            : fmt::format("{} LCP pivots, {} Lemke solves", c->pivots, c->lemke_solves));
  }
  for (std::size_t k = 0; k < contact.iterations.size(); ++k) {
    const qr::ContactIteration& it = contact.iterations[k];
    const auto shown = [](const std::optional<double>& x, const char* format) {
      return x ? fmt::format(fmt::runtime(format), *x) : std::string("-");
    };
    std::cout << fmt::format("iteration {}: min separation {} m (A) {} m (B); load {} N (A) {} N (B)\n", k + 1,
                             shown(it.min_separation_a, "{:.3e}"), shown(it.min_separation_b, "{:.3e}"),
                             shown(it.load_a, "{:.6g}"), shown(it.load_b, "{:.6g}"));
  }
  return 0;
}

}  // namespace contactref::cli
