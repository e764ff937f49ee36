#pragma once
// MergeRegions (Bouma & Vanecek, Section 4.3): the pieces of B that reached
// A's entity a and carry B's entity b, merged into the regions of a ∩ b.
// Internal to contact_regions.cpp.
#include <vector>

#include "robust_geometry/contact_regions.hpp"
#include "robust_geometry/exact_pieces.hpp"

namespace contactref::robust_geometry::detail {

// Polygons in the plane of A's face a (normal: its exact normal), merged into
// their union's connected components with holes.
std::vector<ContactRegion> merge_polygons(const Entity& a, const Entity& b, const std::vector<const Piece*>& pieces,
                                          const Vec& normal);
// Segments on one line (and points on it), merged where they overlap or meet
// at a point piece.
std::vector<ContactRegion> merge_segments(const Entity& a, const Entity& b, const std::vector<const Piece*>& pieces);
// Points: one region each.
std::vector<ContactRegion> merge_points(const Entity& a, const Entity& b, const std::vector<const Piece*>& pieces);

}  // namespace contactref::robust_geometry::detail
