// `contactref geometry brep-index FILE [--balance] [--json]`: the Brep-index
// (Bouma & Vanecek 4.2, Fig. 10; robust_geometry/brep_index.hpp) of a
// polyhedron and its statistics: internal nodes, max and mean depth, leaves.
// `contactref geometry contacts ...`: see geometry_contacts.hpp.
// `contactref geometry intersect A B [--pose-b tx,ty,tz,rx,ry,rz] [--json]`:
// the exact intersection of two polyhedra (OFF or OBJ, validated by
// robust_geometry/polyhedron.hpp) with B placed by a translation and a
// rotation vector (rad) in A's frame, and its moments
// (robust_geometry/intersection_volume.hpp; Bouchard et al. Eqs. 14-20): the
// volume (m^3), centroid (m), second moment M about the centroid (m^5, the
// inertia-like form of Eq. 16), the equivalent cuboid and ellipsoid, and the
// gradient of the volume for a rigid motion of B (angular about A's origin;
// linear), by the exact surface integral. With `--fast [--cells N]` the same
// by parallel rays on N x N cells per axis (robust_geometry/
// raycast_moments.hpp), approximate, with its error estimate.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "robust_geometry/brep_index.hpp"
#include "robust_geometry/intersection_volume.hpp"
#include "robust_geometry/polyhedron.hpp"
#include "robust_geometry/raycast_moments.hpp"
#include "validation/app/geometry_contacts.hpp"
#include "validation/app/intersect_files.hpp"
#include "validation/app/finite_output.hpp"
#include "validation/app/json_rows.hpp"
#include "validation/app/subcommands.hpp"

namespace contactref::cli {
namespace {

namespace rg = contactref::robust_geometry;

struct IntersectOptions {
  std::string a, b, pose_b;
  bool json = false, fast = false;
  int cells = rg::kDefaultRaycastCells;
};

struct BrepIndexCommandOptions {
  std::string file;
  bool balance = false, json = false;
};

int run_brep_index(const BrepIndexCommandOptions& options) {
  rg::BrepIndexOptions index_options;
  index_options.balance = options.balance;
  const rg::BrepIndex index = rg::build_brep_index(rg::read_polyhedron(options.file), index_options);
  const rg::BrepIndexStatistics& s = index.statistics();
  nlohmann::ordered_json out;
  out["internal_nodes"] = s.internal_nodes;
  out["max_depth"] = s.max_depth;
  out["mean_depth"] = s.mean_depth;  // over the leaves
  out["mean_node_depth"] = s.mean_node_depth;
  out["cuts"] = {{"support", s.support_cuts}, {"auxiliary", s.auxiliary_cuts}, {"balancing", s.balancing_cuts}};
  nlohmann::ordered_json leaves;
  leaves["total"] = s.leaves;
  for (int r = 0; r < rg::kRegionCount; ++r) leaves[rg::to_string(rg::Region(r))] = s.leaves_by_region[std::size_t(r)];
  out["leaves"] = leaves;
  require_finite(out, "geometry brep-index of " + options.file);
  if (options.json) {
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << fmt::format("internal nodes {}\nmax depth      {}\nmean depth     {:.4f} (over the leaves)\nleaves         {}\n",
                             s.internal_nodes, s.max_depth, s.mean_depth, leaves.dump());
  }
  return 0;
}

int run_intersect(const IntersectOptions& options) {
  rg::IntersectionMoments m;
  rg::RaycastReport report;
  if (options.fast) {
    const rg::RaycastMoments r = intersect_files_fast(options.a, options.b, options.pose_b, options.cells);
    m = r.moments;
    report = r.report;
  } else {
    m = intersect_files(options.a, options.b, options.pose_b);
  }
  nlohmann::ordered_json out;
  out["kind"] = rg::to_string(m.kind);
  out["volume"] = m.volume;
  // Without volume the centroid and the moments are undefined: null, not NaN.
  out["centroid"] = m.has_volume() ? rows(m.centroid) : nlohmann::ordered_json();
  out["second_moment"] = m.has_volume() ? rows(m.second_moment) : nlohmann::ordered_json();
  out["cuboid_dimensions"] = m.has_volume() ? rows(m.cuboid_dimensions) : nlohmann::ordered_json();
  out["ellipsoid_semi_axes"] = m.has_volume() ? rows(m.ellipsoid_semi_axes) : nlohmann::ordered_json();
  out["gradient"] = rows(m.gradient);
  if (options.fast) {
    const rg::RaycastBounds& b = report.bounds;
    nlohmann::ordered_json estimate;
    estimate["cells"] = report.cells;
    estimate["volume"] = b.volume;
    estimate["centroid"] = m.has_volume() ? rows(b.centroid) : nlohmann::ordered_json();
    estimate["second_moment"] = m.has_volume() ? rows(b.second_moment) : nlohmann::ordered_json();
    estimate["gradient"] = rows(b.gradient);
    out["error_estimate"] = estimate;
  }
  require_finite(out, "geometry intersect of " + options.a + " and " + options.b);
  if (options.json) {
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << fmt::format("intersection  {}\nvolume        {:.17g} m^3\n", out["kind"].get<std::string>(), m.volume);
    if (m.has_volume()) {
      std::cout << fmt::format("centroid      {:.17g} {:.17g} {:.17g} m\n", m.centroid.x(), m.centroid.y(), m.centroid.z());
      std::cout << fmt::format("cuboid        {:.17g} {:.17g} {:.17g} m\n", m.cuboid_dimensions.x(),
                               m.cuboid_dimensions.y(), m.cuboid_dimensions.z());
    }
    std::cout << fmt::format("gradient      {:.17g} {:.17g} {:.17g} | {:.17g} {:.17g} {:.17g}  (angular m^3/rad; linear m^2)\n",
                             m.gradient(0), m.gradient(1), m.gradient(2), m.gradient(3), m.gradient(4), m.gradient(5));
    if (options.fast) {
      const rg::RaycastBounds& b = report.bounds;
      std::cout << fmt::format("rays          {} x {} cells per axis; error estimates:\n", report.cells, report.cells);
      std::cout << fmt::format("  volume      {:.3g} m^3\n", b.volume);
      if (m.has_volume())
        std::cout << fmt::format("  centroid    {:.3g} {:.3g} {:.3g} m\n", b.centroid.x(), b.centroid.y(), b.centroid.z());
      std::cout << fmt::format("  gradient    {:.3g} {:.3g} {:.3g} | {:.3g} {:.3g} {:.3g}\n", b.gradient(0), b.gradient(1),
                               b.gradient(2), b.gradient(3), b.gradient(4), b.gradient(5));
    }
  }
  return 0;
}

}  // namespace

Action configure_geometry(CLI::App& app) {
  app.require_subcommand(1, 1);
  auto options = std::make_shared<IntersectOptions>();
  CLI::App* intersect = app.add_subcommand("intersect", "exact intersection volume, centroid, second moment and gradient");
  intersect->add_option("A", options->a, "first polyhedron (OFF or OBJ)")->required();
  intersect->add_option("B", options->b, "second polyhedron (OFF or OBJ)")->required();
  intersect->add_option("--pose-b", options->pose_b, "pose of B in A's frame: translation (m), rotation vector (rad)");
  intersect->add_flag("--json", options->json, "print one JSON document");
  CLI::Option* fast = intersect->add_flag("--fast", options->fast,
                                          "approximate, by parallel rays, with an error estimate (not exact)");
  intersect->add_option("--cells", options->cells, "with --fast: cells across each side of the overlap box")
      ->needs(fast)
      ->check(CLI::Range(1, rg::kMaxRaycastCells));
  auto index_options = std::make_shared<BrepIndexCommandOptions>();
  CLI::App* brep_index = app.add_subcommand("brep-index", "the Brep-index (ternary MSP tree) of a polyhedron: statistics");
  brep_index->add_option("FILE", index_options->file, "polyhedron (OFF or OBJ)")->required();
  brep_index->add_flag("--balance", index_options->balance, "initial balancing cuts (not support planes)");
  brep_index->add_flag("--json", index_options->json, "print one JSON document");
  auto contacts_options = std::make_shared<ContactsCommandOptions>();
  CLI::App* contacts = add_contacts_subcommand(app, *contacts_options);
  return [options, intersect, index_options, brep_index, contacts_options, contacts]() -> int {
    if (intersect->parsed()) return run_intersect(*options);
    if (brep_index->parsed()) return run_brep_index(*index_options);
    if (contacts->parsed()) return run_contacts(*contacts_options);
    return 2;
  };
}

}  // namespace contactref::cli
