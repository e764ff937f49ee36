#pragma once
// The regions of dimension 0 whose pair has a vertex (of A or of B) or two
// edges, decided by exact distances between the closures of the entities
// (contact_regions.hpp), not by the Brep-index's leaves: their answer then
// cannot depend on the tree. Internal to contact_regions.cpp.
#include <functional>
#include <vector>

#include "robust_geometry/contact_regions.hpp"
#include "robust_geometry/region_classifier.hpp"

namespace contactref::robust_geometry::detail {

struct ContactPoints {
  std::vector<ContactRegion> regions;
  std::vector<Entity> penetrating;  // vertices of B inside A beyond the tolerance
};

// The 0D regions with a vertex or two edges:
//   a vertex v of B touches the entity of A nearest in dimension, then in
//   distance, then in index among those within the tolerance (region at the
//   nearest point of that entity); a vertex w of A likewise touches an entity
//   of B (region at w); two edges that are not parallel touch where their
//   lines' closest points lie inside both edges and are within the tolerance
//   (region at the point on A's edge). A vertex of B that touches nothing is
//   penetrating if it lies inside A (exactly).
// points_b: B's vertices in A's frame, exact where `placed`; keep: B's
// entities looked at; classifier: A's Brep-index (to find A's entities near
// B, and to locate B's vertices); skip_edges(e_a, e_b): edge pairs that
// Intersect gives a 1D region.
ContactPoints contact_points(const Polyhedron& a, const Polyhedron& b, const std::vector<Vec>& points_b,
                             const std::vector<bool>& placed, const std::function<bool(const Tag&)>& keep,
                             double tolerance, const Classifier& classifier,
                             const std::function<bool(const Entity&, const Entity&)>& skip_edges);

}  // namespace contactref::robust_geometry::detail
