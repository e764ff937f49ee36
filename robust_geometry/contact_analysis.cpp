#include "robust_geometry/contact_analysis.hpp"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

#include "robust_geometry/local_cones.hpp"
#include "robust_geometry/separating_normals.hpp"

namespace contactref::robust_geometry {

using namespace detail;

const char* to_string(NormalRule rule) {
  switch (rule) {
    case NormalRule::face: return "face";
    case NormalRule::edge_cross: return "edge_cross";
    case NormalRule::reflex_edge: return "reflex_edge";
    case NormalRule::separating: return "separating";
    case NormalRule::persisting: return "persisting";
    case NormalRule::shrinking: return "shrinking";
    case NormalRule::convex_pieces: return "convex_pieces";
    case NormalRule::overlapping: return "overlapping";
  }
  return "?";
}

namespace {

// A union of convex cones, each {d : m . d <= 0 for every m in the list}.
using Cone = std::vector<std::vector<Vec>>;

Cone facets_of(const std::vector<ConvexCone>& pieces) {
  Cone out;
  for (const ConvexCone& piece : pieces) out.push_back(piece.facets);
  return out;
}

// Whether some open set of directions lies in cone k and outside every
// (closed) cone of `removed`: N_{a_i}(p) != ∅ of Eq. 3 (see the header).
bool material_left(const Cone& k, const std::vector<Cone>& removed) {
  // The convex pieces of the removed cones; outside piece D = union over its
  // rows m of {m . d > 0}: one row chosen per piece.
  std::vector<const std::vector<Vec>*> pieces;
  for (const Cone& cone : removed)
    for (const auto& piece : cone) pieces.push_back(&piece);
  for (const auto& convex : k) {
    std::vector<std::size_t> choice(pieces.size(), 0);
    while (true) {
      std::vector<Vec> rows;
      for (const Vec& m : convex) rows.push_back(neg(m));  // interior of K: m . d < 0
      for (std::size_t j = 0; j < pieces.size(); ++j) rows.push_back((*pieces[j])[choice[j]]);
      if (!zero_in_hull(rows)) return true;
      std::size_t j = 0;  // next choice (odometer)
      while (j < pieces.size() && ++choice[j] == pieces[j]->size()) choice[j++] = 0;
      if (j == pieces.size()) break;
    }
  }
  return false;
}

bool adjacent_region(const ContactRegion& r, const ContactRegion& higher, const LocalGeometry& a,
                     const LocalGeometry& b) {
  const auto related = [](const LocalGeometry& g, const Entity& x, const Entity& y) {
    return x == y || g.in_boundary(x, y);
  };
  return related(a, r.entity_a, higher.entity_a) && related(b, r.entity_b, higher.entity_b);
}

// The unit vector along v, at any magnitude of v (exact_pieces.hpp).
Eigen::Vector3d unit(const Vec& v) { return unit_vector(v); }

// New normals (Condition 8; separating_normals.hpp).
Contact new_contact(const ContactRegion& r, const LocalGeometry& a, const LocalGeometry& b) {
  Contact out{r, {}, NormalRule::face};
  const Entity &x = r.entity_a, &y = r.entity_b;
  if (x.kind == EntityKind::face) {
    out.normals = {unit(a.normal(x.index))};
    return out;
  }
  if (y.kind == EntityKind::face) {
    out.normals = {unit(neg(b.normal(y.index)))};
    return out;
  }
  if (x.kind == EntityKind::edge && y.kind == EntityKind::edge) {
    const Vec c = cross(a.edge_direction(x.index), b.edge_direction(y.index));
    if (!is_zero(c)) {  // transversal: e_a x e_b, in the cone of A's face normals (from A to B)
      out.normals = {unit(in_polar(c, halfspaces(a.face_normals(x))) ? c : neg(c))};
      out.rule = NormalRule::edge_cross;
      return out;
    }
    for (const auto& [g, e, flip] : {std::tuple{&a, x, false}, std::tuple{&b, y, true}})
      if (g->convexity(e.index) > 0) {  // a reflex edge: its two faces (Fig. 7a, b)
        for (const int f : g->polyhedron().edge(e.index).faces)
          out.normals.push_back(unit(flip ? neg(g->normal(f)) : g->normal(f)));
        out.rule = NormalRule::reflex_edge;
        return out;
      }
  }
  const std::vector<ConvexCone> pieces_a = a.convex_pieces(x), pieces_b = b.convex_pieces(y);
  if (pieces_a.size() == 1 && pieces_b.size() == 1)
    if (const auto n = separating_bisector(pieces_a.front(), pieces_b.front())) {
      out.normals = {*n};
      out.rule = NormalRule::separating;
      return out;
    }
  PieceNormals normals = piece_normals(pieces_a, pieces_b, a.face_normals(x), std::size_t(3 - r.dimension));
  out.normals = std::move(normals.normals);
  out.rule = normals.overlapping ? NormalRule::overlapping : NormalRule::convex_pieces;
  return out;
}

Eigen::Vector3d centroid(const ContactRegion& r) {
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& x : r.points) c += x;
  return c / double(r.points.size());
}

std::vector<ContactRegion> select(const LocalGeometry& ga, const LocalGeometry& gb,
                                  const std::vector<ContactRegion>& intersection) {
  std::vector<bool> keep(intersection.size(), false);
  for (int d = 2; d >= 0; --d)
    for (std::size_t k = 0; k < intersection.size(); ++k) {
      const ContactRegion& r = intersection[k];
      if (r.dimension != d) continue;
      std::vector<Cone> removed_a, removed_b;
      for (std::size_t j = 0; j < intersection.size(); ++j) {
        const ContactRegion& h = intersection[j];
        if (!keep[j] || h.dimension <= d || !adjacent_region(r, h, ga, gb)) continue;
        // Definition 1's H_i(h) is the tangent cone at h's entity: h_0 at a
        // face, h_1 ∩ h_2 at a convex edge, h_1 ∪ h_2 at a reflex one (h has
        // dimension 1 or 2, so its entities are not vertices).
        removed_a.push_back(facets_of(ga.convex_pieces(h.entity_a)));
        removed_b.push_back(facets_of(gb.convex_pieces(h.entity_b)));
      }
      keep[k] = material_left(facets_of(ga.convex_pieces(r.entity_a)), removed_a) ||
                material_left(facets_of(gb.convex_pieces(r.entity_b)), removed_b);
    }
  std::vector<ContactRegion> out;
  for (std::size_t k = 0; k < intersection.size(); ++k)
    if (keep[k]) out.push_back(intersection[k]);
  return out;
}

std::vector<Contact> normals(const LocalGeometry& ga, const LocalGeometry& gb, const std::vector<ContactRegion>& needed,
                             const std::vector<Contact>& previous) {
  const auto adjacent = [](const LocalGeometry& g, const Entity& x, const Entity& y) {
    return g.in_boundary(x, y) || g.in_boundary(y, x);
  };
  std::vector<Contact> out;
  for (const ContactRegion& r : needed) {
    const Contact* match = nullptr;
    NormalRule rule = NormalRule::persisting;
    double best = 0;
    for (const Contact& c : previous) {
      const Entity &x = r.entity_a, &y = r.entity_b, &px = c.region.entity_a, &py = c.region.entity_b;
      NormalRule kind;
      if (x == px && y == py) {
        kind = NormalRule::persisting;  // Eq. 6
      } else if (((adjacent(ga, x, px) && y == py) || (x == px && adjacent(gb, y, py)) ||
                  (adjacent(ga, x, px) && adjacent(gb, y, py))) &&
                 ga.convex(px) && gb.convex(py)) {
        kind = NormalRule::shrinking;  // Eq. 7
      } else {
        continue;
      }
      const double distance = (centroid(c.region) - centroid(r)).norm();
      const bool better = match == nullptr || (kind == NormalRule::persisting && rule == NormalRule::shrinking) ||
                          (kind == rule && distance < best);
      if (better) {
        match = &c;
        rule = kind;
        best = distance;
      }
    }
    if (match != nullptr) {
      out.push_back({r, match->normals, rule});
    } else {
      out.push_back(new_contact(r, ga, gb));
    }
  }
  return out;
}

}  // namespace

std::vector<ContactRegion> needed_regions(const Polyhedron& a, const Polyhedron& b, const RigidPose<double>& pose_b,
                                          const std::vector<ContactRegion>& intersection) {
  return select(LocalGeometry(a, RigidPose<double>()), LocalGeometry(b, pose_b), intersection);
}

std::vector<Contact> contact_normals(const Polyhedron& a, const Polyhedron& b, const RigidPose<double>& pose_b,
                                     const std::vector<ContactRegion>& needed, const std::vector<Contact>& previous) {
  return normals(LocalGeometry(a, RigidPose<double>()), LocalGeometry(b, pose_b), needed, previous);
}

ContactAnalysis find_contacts(const Polyhedron& a, const BrepIndex& index_a, const Polyhedron& b,
                              const RigidPose<double>& pose_b, const Vector6d& twist_b,
                              const std::vector<Contact>& previous, const FindContactsOptions& options) {
  ContactAnalysis out;
  EntityMask mask;
  if (options.cull) mask = cull_back_faces(b, pose_b, twist_b, options.cull_margin);
  out.kept_after_culling = options.cull ? kept_counts(mask)
                                        : std::array<int, 3>{b.vertex_count(), b.edge_count(), b.face_count()};
  out.intersection = intersect(a, index_a, b, pose_b, options.intersect, mask);
  const LocalGeometry ga(a, RigidPose<double>()), gb(b, pose_b);
  out.contacts = normals(ga, gb, select(ga, gb, out.intersection.regions), previous);
  return out;
}

}  // namespace contactref::robust_geometry
