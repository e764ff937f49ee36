// `contactref volume-contact patch A B [--pose-b tx,ty,tz,rx,ry,rz] [--thin R] [--json]`:
// Bouchard et al.'s contact patch (reference/volume_contact/contact_patch.hpp,
// Section 4 and Appendix A) of two polyhedra (OFF or OBJ) with B placed in
// A's frame: the exact intersection volume (m^3) and centroid (m), the
// contact normal (from A into B, the volume gradient's linear part), the
// contact frame (columns: the ellipse's major and minor axes, the normal), the
// ellipse's and the equivalent ellipsoid's semi-axes (m) and the limiting
// case (thin sheet, skinny rod, bulky volume; --thin is the ratio of
// semi-axes below which an axis is thin, default 0.1). Exit 2 for bad input,
// and for a contact without volume or without a normal (B inside A).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "reference/volume_contact/contact_patch.hpp"
#include "validation/app/finite_output.hpp"
#include "validation/app/intersect_files.hpp"
#include "validation/app/json_rows.hpp"
#include "validation/app/subcommands.hpp"

namespace contactref::cli {
namespace {

namespace vc = contactref::volume_contact;

struct PatchCommandOptions {
  std::string a, b, pose_b;
  double thin = 0.1;
  bool json = false;
};

int run_patch(const PatchCommandOptions& options) {
  const robust_geometry::IntersectionMoments m = intersect_files(options.a, options.b, options.pose_b);
  vc::ContactPatch patch;
  try {
    patch = vc::contact_patch(m, {options.thin});
  } catch (const ComputationError& e) {  // no normal: the input's geometry, reported as bad input
    throw InputError(std::string("volume-contact patch of ") + options.a + " and " + options.b + ": " + e.what());
  }
  nlohmann::ordered_json out;
  out["volume"] = m.volume;
  out["centroid"] = rows(patch.centre_a);
  out["normal"] = rows(patch.normal_a);
  out["frame"] = rows(patch.frame_a);
  out["ellipse_semi_axes"] = rows(patch.ellipse_semi_axes);
  out["ellipsoid_semi_axes"] = rows(patch.ellipsoid_semi_axes);
  out["limiting_case"] = vc::to_string(patch.shape);
  require_finite(out, "volume-contact patch of " + options.a + " and " + options.b);
  if (options.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  const auto vector = [](const auto& v) {
    std::string text;
    for (Eigen::Index k = 0; k < v.size(); ++k) text += fmt::format("{}{:.17g}", k ? " " : "", v(k));
    return text;
  };
  std::cout << fmt::format("volume         {:.17g} m^3\n", m.volume)
            << fmt::format("centroid       {} m\n", vector(patch.centre_a))
            << fmt::format("normal         {} (from A into B)\n", vector(patch.normal_a))
            << fmt::format("major axis     {}\n", vector(Eigen::Vector3d(patch.frame_a.col(0))))
            << fmt::format("minor axis     {}\n", vector(Eigen::Vector3d(patch.frame_a.col(1))))
            << fmt::format("ellipse        {} m (semi-axes)\n", vector(patch.ellipse_semi_axes))
            << fmt::format("ellipsoid      {} m (semi-axes)\n", vector(patch.ellipsoid_semi_axes))
            << fmt::format("limiting case  {}\n", vc::to_string(patch.shape));
  return 0;
}

}  // namespace

Action configure_volume_contact(CLI::App& app) {
  app.require_subcommand(1, 1);
  auto options = std::make_shared<PatchCommandOptions>();
  CLI::App* patch = app.add_subcommand("patch", "the contact patch of two polyhedra: normal, frame, ellipse, limiting case");
  patch->add_option("A", options->a, "first polyhedron (OFF or OBJ)")->required();
  patch->add_option("B", options->b, "second polyhedron (OFF or OBJ)")->required();
  patch->add_option("--pose-b", options->pose_b, "pose of B in A's frame: translation (m), rotation vector (rad)");
  patch->add_option("--thin", options->thin, "ratio of semi-axes below which an axis is thin, in (0, 1)");
  patch->add_flag("--json", options->json, "print one JSON document");
  return [options, patch]() -> int {
    if (patch->parsed()) return run_patch(*options);
    return 2;
  };
}

}  // namespace contactref::cli
