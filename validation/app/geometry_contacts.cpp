#include "validation/app/geometry_contacts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "robust_geometry/contact_analysis.hpp"
#include "validation/app/finite_output.hpp"
#include "validation/app/json_rows.hpp"
#include "validation/app/number_list.hpp"
#include "validation/scenes/json_reader.hpp"

namespace contactref::cli {
namespace {

namespace rg = contactref::robust_geometry;

nlohmann::ordered_json entity_json(const rg::Entity& e) {
  return {{"kind", e.kind == rg::EntityKind::vertex ? "vertex" : e.kind == rg::EntityKind::edge ? "edge" : "face"},
          {"index", e.index}};
}

nlohmann::ordered_json points_json(const std::vector<Eigen::Vector3d>& points) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Eigen::Vector3d& x : points) out.push_back(rows(x));
  return out;
}

nlohmann::ordered_json region_json(const rg::ContactRegion& r) {
  nlohmann::ordered_json out;
  out["dimension"] = r.dimension;
  out["entity_a"] = entity_json(r.entity_a);
  out["entity_b"] = entity_json(r.entity_b);
  out["points"] = points_json(r.points);
  if (!r.holes.empty()) {
    out["holes"] = nlohmann::ordered_json::array();
    for (const auto& hole : r.holes) out["holes"].push_back(points_json(hole));
  }
  return out;
}

// The contacts of an earlier --json output, for temporal coherence. Every
// field is checked against the two solids (an entity index out of range would
// be read out of bounds); errors name the file and the JSON path.
std::vector<rg::Contact> read_previous(const std::string& path, const rg::Polyhedron& a, const rg::Polyhedron& b) {
  const nlohmann::json doc = scenes::parse_json(read_input_file(path, "the previous contacts file"), path);
  const scenes::Reader reader(path);
  if (!doc.is_object())
    reader.fail("", "expected {\"regions\": [...]} (the --json output of geometry contacts), got " + scenes::show(doc));
  const nlohmann::json& regions = reader.required(doc, "", "regions");
  if (!regions.is_array()) reader.fail("regions", "expected an array of regions, got " + scenes::show(regions));
  const auto entity = [&](const nlohmann::json& j, const std::string& where, const rg::Polyhedron& solid,
                          const char* which) {
    reader.fields(j, where, {"kind", "index"});
    const std::string kind = reader.string(reader.required(j, where, "kind"), where + ".kind");
    rg::EntityKind k = rg::EntityKind::face;
    if (kind == "vertex") {
      k = rg::EntityKind::vertex;
    } else if (kind == "edge") {
      k = rg::EntityKind::edge;
    } else if (kind != "face") {
      reader.fail(where + ".kind", "expected \"vertex\", \"edge\" or \"face\", got \"" + kind + "\"");
    }
    const int count = k == rg::EntityKind::vertex ? solid.vertex_count()
                      : k == rg::EntityKind::edge ? solid.edge_count()
                                                  : solid.face_count();
    const int index = reader.integer(reader.required(j, where, "index"), where + ".index");
    if (index >= count)
      reader.fail(where + ".index", fmt::format("{} {} does not exist: {} ({}) has {} {}s", kind, index, which,
                                                solid.name(), count, kind));
    return rg::Entity{k, index};
  };
  const auto points = [&](const nlohmann::json& j, const std::string& where) {
    if (!j.is_array()) reader.fail(where, "expected an array of points [x, y, z], got " + scenes::show(j));
    std::vector<Eigen::Vector3d> out;
    for (std::size_t k = 0; k < j.size(); ++k) {
      // Within the solids' coordinate range (polyhedron.hpp), so that the
      // centroids that match regions (contact_analysis.hpp) stay finite.
      const std::string at = scenes::Reader::index(where, k);
      out.push_back(reader.vec3(j[k], at));
      if (!(out.back().cwiseAbs().maxCoeff() <= std::ldexp(1.0, 256)))
        reader.fail(at, "a coordinate is outside the supported magnitudes (at most 2^256)");
    }
    return out;
  };
  std::vector<rg::Contact> out;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const nlohmann::json& r = regions[i];
    const std::string at = scenes::Reader::index("regions", i);
    reader.fields(r, at, {"dimension", "entity_a", "entity_b", "points", "holes", "normal", "normals", "normal_rule"});
    rg::Contact c;
    c.region.entity_a = entity(reader.required(r, at, "entity_a"), at + ".entity_a", a, "A");
    c.region.entity_b = entity(reader.required(r, at, "entity_b"), at + ".entity_b", b, "B");
    // A region lies in the closure of both its entities (Lemma 1): its
    // dimension is at most theirs.
    const int most = std::min(rg::dimension(c.region.entity_a.kind), rg::dimension(c.region.entity_b.kind));
    const nlohmann::json& dimension = reader.required(r, at, "dimension");
    if (!dimension.is_number_integer() || dimension.get<long long>() < 0 || dimension.get<long long>() > most)
      reader.fail(at + ".dimension", fmt::format("expected an integer from 0 to {} (at most the dimension of both "
                                                 "entities), got {}", most, scenes::show(dimension)));
    c.region.dimension = dimension.get<int>();
    c.region.points = points(reader.required(r, at, "points"), at + ".points");
    // One point (0D), two end points (1D), a polygon of at least 3 corners (2D).
    const std::size_t n = c.region.points.size();
    if (c.region.dimension == 0 ? n != 1 : c.region.dimension == 1 ? n != 2 : n < 3)
      reader.fail(at + ".points", fmt::format("a {}D region has {} points, got {}", c.region.dimension,
                                              c.region.dimension == 0 ? "1" : c.region.dimension == 1 ? "2" : "at least 3", n));
    if (const nlohmann::json* holes = scenes::Reader::optional(r, "holes")) {
      if (c.region.dimension != 2 || !holes->is_array())
        reader.fail(at + ".holes", "expected an array of polygons, in a 2D region only");
      for (std::size_t k = 0; k < holes->size(); ++k)
        c.region.holes.push_back(points((*holes)[k], scenes::Reader::index(at + ".holes", k)));
    }
    // Condition 8: at most 3 - k normals for a k-D region; each a unit vector
    // (the output prints 17 digits; 1e-6 admits a hand-written one with 7
    // significant digits), renormalised here so that it is printed unit again.
    const nlohmann::json& normals = reader.required(r, at, "normals");
    if (!normals.is_array() || normals.empty() || normals.size() > std::size_t(3 - c.region.dimension))
      reader.fail(at + ".normals", fmt::format("expected 1 to {} unit vectors [x, y, z] for a {}D region, got {}",
                                               3 - c.region.dimension, c.region.dimension, scenes::show(normals)));
    for (std::size_t k = 0; k < normals.size(); ++k) {
      const std::string where = scenes::Reader::index(at + ".normals", k);
      const Eigen::Vector3d normal = reader.vec3(normals[k], where);
      const double length = normal.stableNorm();
      if (!(std::abs(length - 1) <= 1e-6)) reader.fail(where, fmt::format("must be a unit vector, its length is {:.17g}", length));
      c.normals.push_back(normal / length);
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

CLI::App* add_contacts_subcommand(CLI::App& geometry, ContactsCommandOptions& options) {
  CLI::App* app = geometry.add_subcommand(
      "contacts", "contact regions and normals of two touching polyhedra (Bouma & Vanecek, FindContacts)");
  app->add_option("A", options.a, "polyhedron A, indexed (OFF or OBJ)")->required();
  app->add_option("B", options.b, "polyhedron B, classified (OFF or OBJ)")->required();
  app->add_option("--pose-b", options.pose_b, "pose of B in A's frame: translation (m), rotation vector (rad)");
  app->add_option("--velocity-b", options.velocity_b,
                  "B's twist relative to A in A's frame: angular (rad/s), linear (m/s); turns on culling");
  app->add_option("--touch-tolerance", options.touch_tolerance, "distance (m) within which points touch (default 0)");
  app->add_option("--cull-margin", options.cull_margin, "normal speed (m/s) below -margin culls a face (default 0)");
  app->add_option("--previous", options.previous, "the previous step's --json output (temporal coherence)");
  app->add_flag("--balance", options.balance, "balancing cuts in A's Brep-index (faster to build for large meshes)");
  app->add_flag("--all", options.all, "print the whole intersection set I (no selection, no normals)");
  app->add_flag("--json", options.json, "print one JSON document");
  return app;
}

int run_contacts(const ContactsCommandOptions& options) {
  const rg::Polyhedron a = rg::read_polyhedron(options.a), b = rg::read_polyhedron(options.b);
  rg::check_touch_tolerance(options.touch_tolerance, a, b, "--touch-tolerance");
  const RigidPose<double> pose_b = options.pose_b.empty() ? RigidPose<double>() : parse_pose(options.pose_b, "--pose-b");
  rg::Vector6d twist = rg::Vector6d::Zero();
  if (!options.velocity_b.empty()) {
    const std::vector<double> w = parse_number_list(options.velocity_b, "--velocity-b", "wx,wy,wz,vx,vy,vz", 6);
    twist = Eigen::Map<const rg::Vector6d>(w.data());
  }
  rg::FindContactsOptions find_options;
  find_options.intersect.touch_tolerance = options.touch_tolerance;
  find_options.cull = !options.velocity_b.empty();
  find_options.cull_margin = options.cull_margin;
  const std::vector<rg::Contact> previous = options.previous.empty() ? std::vector<rg::Contact>{} : read_previous(options.previous, a, b);
  rg::BrepIndexOptions index_options;
  index_options.balance = options.balance;
  const rg::BrepIndex index = rg::build_brep_index(a, index_options);
  const rg::ContactAnalysis analysis = rg::find_contacts(a, index, b, pose_b, twist, previous, find_options);

  nlohmann::ordered_json out;
  const rg::IntersectionSet& set = analysis.intersection;
  out["penetrating"] = set.penetrating();
  out["intersection_regions"] = set.regions.size();
  out["needed_regions"] = analysis.contacts.size();
  out["classified_b"] = {{"vertices", analysis.kept_after_culling[0]},
                         {"edges", analysis.kept_after_culling[1]},
                         {"faces", analysis.kept_after_culling[2]}};
  if (set.penetrating()) {
    out["penetrating_b"] = nlohmann::ordered_json::array();
    for (const rg::Entity& e : set.penetrating_b) out["penetrating_b"].push_back(entity_json(e));
    out["flush_faces"] = set.flush_faces.size();
    out["a_inside_b"] = set.a_inside_b;
  }
  out["regions"] = nlohmann::ordered_json::array();
  if (options.all) {
    for (const rg::ContactRegion& r : set.regions) out["regions"].push_back(region_json(r));
  } else {
    for (const rg::Contact& c : analysis.contacts) {
      nlohmann::ordered_json r = region_json(c.region);
      r["normal"] = rows(c.normals.front());
      r["normals"] = points_json(c.normals);
      r["normal_rule"] = rg::to_string(c.rule);
      out["regions"].push_back(r);
    }
  }
  require_finite(out, "geometry contacts of " + options.a + " and " + options.b);
  if (options.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << fmt::format("{} regions in I, {} needed{}\n", set.regions.size(), analysis.contacts.size(),
                           set.penetrating() ? "; the solids PENETRATE (not a touching contact)" : "");
  for (const auto& r : out["regions"]) {
    std::cout << fmt::format("{}D  A {} {}  B {} {}  points {}", r["dimension"].get<int>(),
                             r["entity_a"]["kind"].get<std::string>(), r["entity_a"]["index"].get<int>(),
                             r["entity_b"]["kind"].get<std::string>(), r["entity_b"]["index"].get<int>(),
                             r["points"].dump());
    if (r.contains("normals")) std::cout << fmt::format("  normals {} ({})", r["normals"].dump(), r["normal_rule"].get<std::string>());
    std::cout << "\n";
  }
  return 0;
}

}  // namespace contactref::cli
