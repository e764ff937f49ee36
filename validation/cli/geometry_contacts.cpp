#include "validation/cli/geometry_contacts.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "reference/spatial/errors.hpp"
#include "robust_geometry/contact_analysis.hpp"
#include "validation/cli/finite_output.hpp"
#include "validation/cli/json_rows.hpp"
#include "validation/cli/number_list.hpp"

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

// The contacts of an earlier --json output, for temporal coherence.
std::vector<rg::Contact> read_previous(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the previous contacts");
  const auto bad = [&](const std::string& what) -> InputError { return InputError(path + ": " + what); };
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw bad(std::string("not JSON: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("regions") || !doc["regions"].is_array())
    throw bad("expected {\"regions\": [...]} (the --json output of geometry contacts)");
  const auto entity = [&](const nlohmann::json& j, const std::string& where) {
    if (!j.is_object() || !j.contains("kind") || !j.contains("index") || !j["index"].is_number_integer())
      throw bad(where + ": expected {\"kind\": ..., \"index\": n}");
    const std::string kind = j["kind"].get<std::string>();
    const rg::EntityKind k = kind == "vertex" ? rg::EntityKind::vertex
                             : kind == "edge" ? rg::EntityKind::edge
                             : kind == "face" ? rg::EntityKind::face
                                              : throw bad(where + ": unknown kind \"" + kind + "\"");
    return rg::Entity{k, j["index"].get<int>()};
  };
  const auto vector3 = [&](const nlohmann::json& j, const std::string& where) {
    if (!j.is_array() || j.size() != 3) throw bad(where + ": expected [x, y, z]");
    Eigen::Vector3d x;
    for (std::size_t k = 0; k < 3; ++k) {
      if (!j[k].is_number()) throw bad(where + ": expected numbers");
      x[Eigen::Index(k)] = j[k].get<double>();
    }
    if (!x.allFinite()) throw bad(where + ": not finite");
    return x;
  };
  std::vector<rg::Contact> out;
  for (std::size_t i = 0; i < doc["regions"].size(); ++i) {
    const auto& r = doc["regions"][i];
    const std::string at = "regions[" + std::to_string(i) + "]";
    rg::Contact c;
    c.region.entity_a = entity(r.value("entity_a", nlohmann::json()), at + ".entity_a");
    c.region.entity_b = entity(r.value("entity_b", nlohmann::json()), at + ".entity_b");
    c.region.dimension = r.value("dimension", 0);
    for (const auto& p : r.value("points", nlohmann::json::array())) c.region.points.push_back(vector3(p, at + ".points"));
    for (const auto& n : r.value("normals", nlohmann::json::array())) c.normals.push_back(vector3(n, at + ".normals"));
    if (c.region.points.empty() || c.normals.empty()) throw bad(at + ": needs points and normals");
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
  const Eigen::Matrix4d pose_b = options.pose_b.empty() ? Eigen::Matrix4d::Identity() : parse_pose(options.pose_b, "--pose-b");
  rg::Vector6d twist = rg::Vector6d::Zero();
  if (!options.velocity_b.empty()) {
    const std::vector<double> w = parse_number_list(options.velocity_b, "--velocity-b", "wx,wy,wz,vx,vy,vz", 6);
    twist = Eigen::Map<const rg::Vector6d>(w.data());
  }
  rg::FindContactsOptions find_options;
  find_options.intersect.touch_tolerance = options.touch_tolerance;
  find_options.cull = !options.velocity_b.empty();
  find_options.cull_margin = options.cull_margin;
  const std::vector<rg::Contact> previous = options.previous.empty() ? std::vector<rg::Contact>{} : read_previous(options.previous);
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
