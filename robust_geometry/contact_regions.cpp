#include "robust_geometry/contact_regions.hpp"

// Intersect (Bouma & Vanecek, Section 4.3) over the Brep-index of A
// (region_classifier), with the tolerance policy of contact_regions.hpp;
// MergeRegions (region_merge); the point contacts by exact distances
// (contact_points); and the nesting test (nesting).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "robust_geometry/contact_points.hpp"
#include "robust_geometry/exact_pieces.hpp"
#include "robust_geometry/nesting.hpp"
#include "robust_geometry/region_classifier.hpp"
#include "robust_geometry/region_merge.hpp"

namespace contactref::robust_geometry {

using namespace detail;

std::string to_string(const Entity& entity) {
  return std::string(kind_name(Kind(int(entity.kind)))) + " " + std::to_string(entity.index);
}

int dimension(EntityKind kind) { return int(kind); }

namespace {

// Under a tolerance, a piece that reaches an edge leaf is clipped to the
// closed edge: a snapped piece is the projection of its original onto the
// cell's line, and where the cell is bounded by a cut that is not a surface
// (balancing, auxiliary) or by another face's plane, that projection can reach
// past the edge's end vertex by up to eps; the part beyond, and a piece left
// with no length, are not on the edge (what touches the vertex is
// contact_points' to find). A piece clipped away is left with no points.
void clip_to_closed_edges(const Polyhedron& a, std::vector<LeafPiece>& leaves) {
  for (LeafPiece& leaf : leaves) {
    if (leaf.entity_a.kind != EntityKind::edge) continue;
    const auto& ends = a.edge(leaf.entity_a.index).vertices;
    const Vec p = exact_vertex(a, ends[0]), q = exact_vertex(a, ends[1]);
    const Vec u = sub(q, p);
    const FT uu = dot(u, u);
    std::vector<FT> ts;
    for (const Vec& x : leaf.piece.points) ts.push_back(dot(sub(x, p), u) / uu);
    if (leaf.piece.dim == 0) {
      if (!(sign(ts[0]) > 0 && ts[0] < FT(1))) leaf.piece.points.clear();
      continue;
    }
    FT lo = ts[0], hi = ts[1];
    Vec plo = leaf.piece.points[0], phi = leaf.piece.points[1];
    if (hi < lo) {
      std::swap(lo, hi);
      std::swap(plo, phi);
    }
    if (sign(lo) < 0) {
      lo = FT(0);
      plo = p;
    }
    if (FT(1) < hi) {
      hi = FT(1);
      phi = q;
    }
    if (!(lo < hi))
      leaf.piece.points.clear();
    else
      leaf.piece.points = {plo, phi};
  }
}

// Likewise a piece at a face leaf is clipped to the closed face (to each of
// its triangles, exactly: the parts within a triangle's three inward
// half-planes, or all of a piece lying on a triangle's side line).
void clip_to_closed_faces(const Polyhedron& a, std::vector<LeafPiece>& leaves) {
  std::map<int, std::vector<std::array<int, 3>>> face_triangles;
  for (const LeafPiece& leaf : leaves)
    if (leaf.entity_a.kind == EntityKind::face) face_triangles[leaf.entity_a.index];
  if (!face_triangles.empty())
    for (const Triangle& t : a.triangles())
      if (const auto it = face_triangles.find(t.face); it != face_triangles.end()) it->second.push_back(t.vertices);
  const auto point_a = [&](int v) { return exact_vertex(a, v); };
  std::vector<LeafPiece> clipped;
  for (LeafPiece& leaf : leaves) {
    if (leaf.entity_a.kind != EntityKind::face) {
      clipped.push_back(std::move(leaf));
      continue;
    }
    const auto& plane = a.exact_plane(leaf.entity_a.index);
    const Vec n{plane.a(), plane.b(), plane.c()};
    for (const auto& corners : face_triangles[leaf.entity_a.index]) {
      std::optional<Piece> part = leaf.piece;
      for (std::size_t i = 0; i < 3 && part; ++i) {
        const Vec p = point_a(corners[i]);
        const XPlane inward = plane_through(cross(n, sub(point_a(corners[(i + 1) % 3]), p)), p);
        std::vector<int> signs;
        for (const Vec& x : part->points) signs.push_back(side(inward, x));
        if (std::all_of(signs.begin(), signs.end(), [](int sg) { return sg == 0; })) continue;
        std::vector<Piece> above, on, below;
        split_piece(*part, inward, signs, part->points, above, on, below);
        if (above.empty())
          part.reset();
        else
          part = std::move(above.front());
      }
      if (part) clipped.push_back({leaf.entity_a, std::move(*part)});
    }
  }
  leaves = std::move(clipped);
}

}  // namespace

void check_touch_tolerance(double touch_tolerance, const Polyhedron& a, const Polyhedron& b, const std::string& name) {
  if (!(touch_tolerance >= 0) || !std::isfinite(touch_tolerance))
    throw InputError(name + " must be finite and >= 0 (it is " + std::to_string(touch_tolerance) + ")");
  if (touch_tolerance == 0) return;  // exact: every edge is longer than 0
  const Polyhedron* shortest_in = &a;
  Vec shortest;  // the shortest edge, exactly
  FT shortest2 = -1;
  for (const Polyhedron* p : {&a, &b})
    for (const Edge& e : p->edges()) {
      const Vec d = sub(exact_vertex(*p, e.vertices[0]), exact_vertex(*p, e.vertices[1]));
      if (const FT d2 = dot(d, d); sign(shortest2) < 0 || d2 < shortest2) {
        shortest = d;
        shortest2 = d2;
        shortest_in = p;
      }
    }
  const FT eps(touch_tolerance);
  if (FT(4) * eps * eps < shortest2) return;
  // |d| = max|d_k| |d / max|d_k||, each factor within double's range.
  const double half_length = CGAL::to_double(max_abs(shortest)) * to_double(scaled_to_unit_box(shortest)).norm() / 2;
  const auto shortest_text = [](double x) {  // the shortest decimal that reads back as x
    std::array<char, 32> text{};
    return std::string(text.data(), std::to_chars(text.data(), text.data() + text.size(), x).ptr);
  };
  throw InputError(name + " " + shortest_text(touch_tolerance) +
                           " is not below half the shortest edge of the solids (" +
                           shortest_text(half_length) + ", in " + shortest_in->name() +
                           "): which entity a point touches is then undefined");
}

IntersectionSet intersect(const Polyhedron& a, const BrepIndex& index_a, const Polyhedron& b,
                          const RigidPose<double>& pose_b, const IntersectOptions& options, const EntityMask& mask_b) {
  check_touch_tolerance(options.touch_tolerance, a, b, "touch_tolerance");
  const auto check_mask = [](const std::vector<bool>& mask, int count, const char* what) {
    if (!mask.empty() && int(mask.size()) != count)
      throw InputError(std::string("mask of B's ") + what + " has " + std::to_string(mask.size()) +
                               " entries; B has " + std::to_string(count));
  };
  check_mask(mask_b.vertices, b.vertex_count(), "vertices");
  check_mask(mask_b.edges, b.edge_count(), "edges");
  check_mask(mask_b.faces, b.face_count(), "faces");

  // B's vertices in A's frame, exactly: R x + t from the double entries;
  // only those of the entities kept (the nesting test below may ask for
  // the others).
  const Eigen::Matrix4d& E = pose_b.matrix();
  const auto keep = [&](const Tag& tag) {
    const auto& mask = tag.kind == Kind::vertex ? mask_b.vertices : tag.kind == Kind::edge ? mask_b.edges : mask_b.faces;
    return mask.empty() || mask[std::size_t(tag.index)];
  };
  std::vector<Vec> points_b(std::size_t(b.vertex_count()));
  std::vector<bool> placed(std::size_t(b.vertex_count()), false);
  const auto place = [&](int v) {
    if (placed[std::size_t(v)]) return;
    const Eigen::Vector3d& x = b.vertex(v);
    for (int r = 0; r < 3; ++r)
      points_b[std::size_t(v)][std::size_t(r)] = FT(E(r, 0)) * FT(x.x()) + FT(E(r, 1)) * FT(x.y()) +
                                                 FT(E(r, 2)) * FT(x.z()) + FT(E(r, 3));
    placed[std::size_t(v)] = true;
  };
  for (int v = 0; v < b.vertex_count(); ++v)
    if (keep({Kind::vertex, v})) place(v);
  for (int e = 0; e < b.edge_count(); ++e)
    if (keep({Kind::edge, e}))
      for (const int v : b.edge(e).vertices) place(v);
  for (int f = 0; f < b.face_count(); ++f)
    if (keep({Kind::face, f}))
      for (const int v : b.face(f)) place(v);
  // B's edges and faces go through A's Brep-index; B's vertices do not (see
  // contact_points).
  std::vector<Piece> pieces = atoms(b, points_b, [&](const Tag& tag) { return tag.kind != Kind::vertex && keep(tag); });

  IntersectionSet out;
  out.pieces = long(pieces.size());
  Classifier classifier(index_a, options.touch_tolerance);
  classifier.run(std::move(pieces));
  out.plane_tests = classifier.plane_tests;

  // The pieces at A's vertices, and edge-edge pairs met only in points, are
  // left to contact_points.
  if (options.touch_tolerance > 0) {
    clip_to_closed_edges(a, classifier.leaves);
    clip_to_closed_faces(a, classifier.leaves);
  }
  std::map<std::pair<Entity, Entity>, std::vector<const Piece*>> groups;
  for (const LeafPiece& leaf : classifier.leaves)
    if (leaf.entity_a.kind != EntityKind::vertex && !leaf.piece.points.empty())
      groups[{leaf.entity_a, entity_of(leaf.piece.tag)}].push_back(&leaf.piece);
  std::set<std::pair<Entity, Entity>> segments_on_edges;  // (edge of A, edge of B) with a 1D region
  for (const auto& [pair, group] : groups) {
    int dim = 0;
    for (const Piece* p : group) dim = std::max(dim, p->dim);
    const bool edges = pair.first.kind == EntityKind::edge && pair.second.kind == EntityKind::edge;
    // Point contacts are contact_points'. Under a tolerance the tree's other
    // point pieces (an edge crossing a face: penetration) are left out too:
    // short pieces cut near a point contact snap onto neighbouring planes
    // and lines and would report it again, at points off A.
    if (dim == 0 && (edges || options.touch_tolerance > 0)) continue;
    if (edges) segments_on_edges.insert(pair);
    std::vector<ContactRegion> regions;
    if (dim == 2) {
      const auto& plane = a.exact_plane(pair.first.index);
      const Vec normal_a{plane.a(), plane.b(), plane.c()};
      regions = merge_polygons(pair.first, pair.second, group, normal_a);
      const auto& plane_b = b.exact_plane(pair.second.index);
      Vec normal_b;  // R n_b, exactly
      for (int r = 0; r < 3; ++r)
        normal_b[std::size_t(r)] = FT(E(r, 0)) * plane_b.a() + FT(E(r, 1)) * plane_b.b() + FT(E(r, 2)) * plane_b.c();
      if (!regions.empty() && sign(dot(normal_a, normal_b)) > 0) out.flush_faces.push_back(pair);
    } else if (dim == 1) {
      regions = merge_segments(pair.first, pair.second, group);
    } else {
      regions = merge_points(pair.first, pair.second, group);
    }
    for (ContactRegion& r : regions) out.regions.push_back(std::move(r));
  }
  const ContactPoints points = contact_points(a, b, points_b, placed, keep, options.touch_tolerance, classifier,
                                              [&](const Entity& edge_a, const Entity& edge_b) {
                                                return segments_on_edges.count({edge_a, edge_b}) > 0;
                                              });
  out.regions.insert(out.regions.end(), points.regions.begin(), points.regions.end());
  std::set<Entity> penetrating = classifier.penetrating;
  penetrating.insert(points.penetrating.begin(), points.penetrating.end());
  out.penetrating_b.assign(penetrating.begin(), penetrating.end());
  std::stable_sort(out.regions.begin(), out.regions.end(), [](const ContactRegion& x, const ContactRegion& y) {
    if (x.entity_a != y.entity_a) return x.entity_a < y.entity_a;
    if (x.entity_b != y.entity_b) return x.entity_b < y.entity_b;
    if (x.dimension != y.dimension) return x.dimension < y.dimension;
    return std::lexicographical_compare(x.points.front().data(), x.points.front().data() + 3,
                                        y.points.front().data(), y.points.front().data() + 3);
  });

  // Nested: A inside B, apart or touching (no piece of B reaches A's interior).
  if (!out.penetrating()) {
    for (int v = 0; v < b.vertex_count(); ++v) place(v);
    std::vector<std::array<Vec, 3>> triangles;
    for (const Triangle& t : b.triangles())
      triangles.push_back({points_b[std::size_t(t.vertices[0])], points_b[std::size_t(t.vertices[1])],
                           points_b[std::size_t(t.vertices[2])]});
    out.a_inside_b = a_nested_in_b(a, points_b, triangles, FT(options.touch_tolerance));
  }
  return out;
}

}  // namespace contactref::robust_geometry
