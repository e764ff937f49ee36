#include "robust_geometry/contact_analysis.hpp"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

#include "robust_geometry/exact_pieces.hpp"

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
  }
  return "?";
}

namespace {

// A union of convex cones, each {d : m . d <= 0 for every m in the list}.
using Cone = std::vector<std::vector<Vec>>;

// The local geometry of one solid in A's frame: exact outward face normals
// (rotated by the pose's R for B), vertices, edge convexity and vertex
// convexity, each computed when first asked for (a contact touches a few
// entities of a large solid).
class LocalGeometry {
 public:
  LocalGeometry(const Polyhedron& p, const Eigen::Matrix4d& pose)
      : p_(p),
        pose_(pose),
        normals_(std::size_t(p.face_count())),
        points_(std::size_t(p.vertex_count())),
        convexity_(std::size_t(p.edge_count())) {}

  const Vec& normal(int f) const {
    auto& n = normals_[std::size_t(f)];
    if (!n) {
      const auto& plane = p_.exact_plane(f);
      n = rotate({plane.a(), plane.b(), plane.c()});
    }
    return *n;
  }
  const Vec& point(int v) const {
    auto& x = points_[std::size_t(v)];
    if (!x) {
      const auto& e = p_.exact_vertex(v);
      Vec moved = rotate({e.x(), e.y(), e.z()});
      for (std::size_t r = 0; r < 3; ++r) moved[r] += FT(pose_(int(r), 3));
      x = moved;
    }
    return *x;
  }
  // sign(n_1 . w_2), w_2 pointing from the edge into face 2: < 0 convex,
  // > 0 reflex, 0 flat.
  int convexity(int e) const {
    auto& c = convexity_[std::size_t(e)];
    if (!c) {
      const Edge& edge = p_.edge(e);
      const Vec w2 = cross(normal(edge.faces[1]), sub(point(edge.vertices[0]), point(edge.vertices[1])));
      c = sign(dot(normal(edge.faces[0]), w2));
    }
    return *c;
  }
  const Polyhedron& polyhedron() const { return p_; }
  bool convex_vertex(int v) const {
    const auto& edges = p_.vertex_edges(v);
    return std::all_of(edges.begin(), edges.end(), [&](int e) { return convexity(e) <= 0; });
  }
  // Convex neighbourhood (Eq. 7): a face, a convex or flat edge, a convex vertex.
  bool convex(const Entity& x) const {
    switch (x.kind) {
      case EntityKind::face: return true;
      case EntityKind::edge: return convexity(x.index) <= 0;
      case EntityKind::vertex: return convex_vertex(x.index);
    }
    return false;
  }

  // The tangent cone at a point of entity x; nullopt at a non-convex vertex.
  std::optional<Cone> tangent_cone(const Entity& x) const {
    switch (x.kind) {
      case EntityKind::face: return Cone{{normal(x.index)}};
      case EntityKind::edge: return edge_wedge(x.index);
      case EntityKind::vertex: {
        if (!convex_vertex(x.index)) return std::nullopt;
        std::vector<Vec> all;
        for (const int f : p_.vertex_faces(x.index)) all.push_back(normal(f));
        return Cone{all};
      }
    }
    return std::nullopt;
  }

  // The outward normals of the faces at x (the generators of the normal cone
  // when x is convex).
  std::vector<Vec> face_normals(const Entity& x) const {
    std::vector<Vec> out;
    switch (x.kind) {
      case EntityKind::face: out.push_back(normal(x.index)); break;
      case EntityKind::edge:
        for (const int f : p_.edge(x.index).faces) out.push_back(normal(f));
        break;
      case EntityKind::vertex:
        for (const int f : p_.vertex_faces(x.index)) out.push_back(normal(f));
        break;
    }
    return out;
  }

  Vec edge_direction(int e) const {
    const auto& ends = p_.edge(e).vertices;
    return sub(point(ends[1]), point(ends[0]));
  }

  // Whether entity x lies in the boundary of entity y (x a vertex of edge or
  // face y, or an edge of face y).
  bool in_boundary(const Entity& x, const Entity& y) const {
    if (int(x.kind) >= int(y.kind)) return false;
    if (y.kind == EntityKind::edge) {
      const auto& ends = p_.edge(y.index).vertices;
      return ends[0] == x.index || ends[1] == x.index;
    }
    const auto& ids = x.kind == EntityKind::vertex ? p_.face(y.index) : p_.face_edges(y.index);
    return std::find(ids.begin(), ids.end(), x.index) != ids.end();
  }

 private:
  Vec rotate(const Vec& x) const {
    Vec out;
    for (int r = 0; r < 3; ++r)
      out[std::size_t(r)] = FT(pose_(r, 0)) * x[0] + FT(pose_(r, 1)) * x[1] + FT(pose_(r, 2)) * x[2];
    return out;
  }
  Cone edge_wedge(int e) const {
    const auto& faces = p_.edge(e).faces;
    const Vec& n1 = normal(faces[0]);
    const Vec& n2 = normal(faces[1]);
    const int c = convexity(e);
    if (c < 0) return Cone{{n1, n2}};
    if (c > 0) return Cone{{n1}, {n2}};
    return Cone{{n1}};
  }

  const Polyhedron& p_;
  Eigen::Matrix4d pose_;
  mutable std::vector<std::optional<Vec>> normals_;
  mutable std::vector<std::optional<Vec>> points_;
  mutable std::vector<std::optional<int>> convexity_;
};

int orient(const Vec& a, const Vec& b, const Vec& c) { return sign(dot(a, cross(b, c))); }

// Whether 0 lies in the convex hull of the rows (Caratheodory: of 1 to 4 of
// them), exactly.
bool zero_in_hull(const std::vector<Vec>& rows) {
  const std::size_t n = rows.size();
  for (const Vec& r : rows)
    if (is_zero(r)) return true;
  // Two: opposite directions.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (is_zero(cross(rows[i], rows[j])) && sign(dot(rows[i], rows[j])) < 0) return true;
  // Three coplanar with 0, 0 inside their triangle (not collinear).
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        const Vec &a = rows[i], &b = rows[j], &c = rows[k];
        if (orient(a, b, c) != 0) continue;
        const Vec normal = cross(sub(b, a), sub(c, a));
        if (is_zero(normal)) continue;  // collinear: covered by the pairs
        const int s1 = sign(dot(normal, cross(a, b))), s2 = sign(dot(normal, cross(b, c))),
                  s3 = sign(dot(normal, cross(c, a)));
        if ((s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)) return true;
      }
  // Four: 0 in the closed tetrahedron.
  const Vec zero{FT(0), FT(0), FT(0)};
  const auto orient4 = [](const Vec& p, const Vec& q, const Vec& r, const Vec& s) {
    return sign(dot(cross(sub(q, p), sub(r, p)), sub(s, p)));
  };
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k)
        for (std::size_t l = k + 1; l < n; ++l) {
          const std::array<const Vec*, 4> t{&rows[i], &rows[j], &rows[k], &rows[l]};
          const int volume = orient4(*t[0], *t[1], *t[2], *t[3]);
          if (volume == 0) continue;  // flat: covered by the triples
          bool inside = true;
          for (std::size_t f = 0; f < 4 && inside; ++f) {
            std::array<const Vec*, 4> u = t;
            u[f] = &zero;
            inside = orient4(*u[0], *u[1], *u[2], *u[3]) * volume >= 0;
          }
          if (inside) return true;
        }
  return false;
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

// Whether n is in the closed cone generated by `generators`, exactly
// (Caratheodory: in the cone of one generator, or of two or three linearly
// independent ones).
bool in_cone(const Vec& n, const std::vector<Vec>& generators) {
  if (is_zero(n)) return true;
  const std::size_t m = generators.size();
  for (const Vec& g : generators)
    if (is_zero(cross(g, n)) && sign(dot(g, n)) > 0) return true;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j) {
      const Vec &g1 = generators[i], &g2 = generators[j];
      const Vec c = cross(g1, g2);
      if (is_zero(c) || sign(dot(c, n)) != 0) continue;  // parallel, or n off their plane
      if (sign(dot(cross(g1, n), c)) >= 0 && sign(dot(cross(n, g2), c)) >= 0) return true;
    }
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j)
      for (std::size_t k = j + 1; k < m; ++k) {
        const Vec &g1 = generators[i], &g2 = generators[j], &g3 = generators[k];
        const int det = orient(g1, g2, g3);
        if (det == 0) continue;
        // Cramer: lambda_1 = det(n, g2, g3) / det(g1, g2, g3), ...
        if (orient(n, g2, g3) * det >= 0 && orient(g1, n, g3) * det >= 0 && orient(g1, g2, n) * det >= 0) return true;
      }
  return false;
}

// The separating normal of two convex local cones: S = cone(A's outward
// normals) ∩ cone(B's inward normals) is the set of directions n with A's
// cone in {n . d <= 0} and B's in {n . d >= 0}. Candidates for its extreme
// rays: the generators, and the lines where a plane spanned by two of A's
// generators meets one spanned by two of B's (both signs); the result is the
// normalised sum of the unit candidates that lie in S (exact membership),
// each direction once. For two wedges along one line (1D regions) this is the
// bisector of the two extreme separating directions.
std::optional<Eigen::Vector3d> separating_normal(const std::vector<Vec>& a_normals, const std::vector<Vec>& b_normals) {
  std::vector<Vec> b_inward;
  for (const Vec& n : b_normals) b_inward.push_back(neg(n));
  const auto planes = [](const std::vector<Vec>& g) {
    std::vector<Vec> out;
    for (std::size_t i = 0; i < g.size(); ++i)
      for (std::size_t j = i + 1; j < g.size(); ++j)
        if (const Vec c = cross(g[i], g[j]); !is_zero(c)) out.push_back(c);
    return out;
  };
  std::vector<Vec> candidates = a_normals;
  candidates.insert(candidates.end(), b_inward.begin(), b_inward.end());
  for (const Vec& f : planes(a_normals))
    for (const Vec& h : planes(b_inward))
      if (const Vec c = cross(f, h); !is_zero(c)) {
        candidates.push_back(c);
        candidates.push_back(neg(c));
      }
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  std::vector<Vec> kept;
  for (const Vec& c : candidates) {
    if (!in_cone(c, a_normals) || !in_cone(c, b_inward)) continue;
    if (std::any_of(kept.begin(), kept.end(),
                    [&](const Vec& k) { return is_zero(cross(k, c)) && sign(dot(k, c)) > 0; }))
      continue;
    kept.push_back(c);
    sum += unit(c);
  }
  if (kept.empty() || sum.norm() == 0) return std::nullopt;
  return sum.normalized();
}

// New normals (Condition 8).
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
    if (!is_zero(c)) {  // transversal: e_a x e_b, in A's normal cone (from A to B)
      out.normals = {unit(in_cone(c, a.face_normals(x)) ? c : neg(c))};
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
  out.rule = NormalRule::separating;
  if (a.convex(x) && b.convex(y))
    if (auto n = separating_normal(a.face_normals(x), b.face_normals(y))) {
      out.normals = {*n};
      return out;
    }
  // A non-convex vertex: the faces of the other entity if it is convex, else
  // A's first face (no separating direction is defined by the local cones).
  if (b.convex(y) && !a.convex(x)) {
    out.normals = {unit(neg(b.face_normals(y).front()))};
  } else {
    out.normals = {unit(a.face_normals(x).front())};
  }
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
        removed_a.push_back(*ga.tangent_cone(h.entity_a));
        removed_b.push_back(*gb.tangent_cone(h.entity_b));
      }
      const auto cone_a = ga.tangent_cone(r.entity_a);
      const auto cone_b = gb.tangent_cone(r.entity_b);
      keep[k] = !cone_a || !cone_b || material_left(*cone_a, removed_a) || material_left(*cone_b, removed_b);
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

std::vector<ContactRegion> needed_regions(const Polyhedron& a, const Polyhedron& b, const Eigen::Matrix4d& pose_b,
                                          const std::vector<ContactRegion>& intersection) {
  return select(LocalGeometry(a, Eigen::Matrix4d::Identity()), LocalGeometry(b, pose_b), intersection);
}

std::vector<Contact> contact_normals(const Polyhedron& a, const Polyhedron& b, const Eigen::Matrix4d& pose_b,
                                     const std::vector<ContactRegion>& needed, const std::vector<Contact>& previous) {
  return normals(LocalGeometry(a, Eigen::Matrix4d::Identity()), LocalGeometry(b, pose_b), needed, previous);
}

ContactAnalysis find_contacts(const Polyhedron& a, const BrepIndex& index_a, const Polyhedron& b,
                              const Eigen::Matrix4d& pose_b, const Vector6d& twist_b,
                              const std::vector<Contact>& previous, const FindContactsOptions& options) {
  ContactAnalysis out;
  EntityMask mask;
  if (options.cull) mask = cull_back_faces(b, pose_b, twist_b, options.cull_margin);
  out.kept_after_culling = options.cull ? kept_counts(mask)
                                        : std::array<int, 3>{b.vertex_count(), b.edge_count(), b.face_count()};
  out.intersection = intersect(a, index_a, b, pose_b, options.intersect, mask);
  const LocalGeometry ga(a, Eigen::Matrix4d::Identity()), gb(b, pose_b);
  out.contacts = normals(ga, gb, select(ga, gb, out.intersection.regions), previous);
  return out;
}

}  // namespace contactref::robust_geometry
