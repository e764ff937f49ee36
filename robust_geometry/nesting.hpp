#pragma once
// Whether solid A lies inside solid B when no piece of B reaches A's
// interior (issue 10, item 1: nested solids, apart or touching). Internal to
// contact_regions.cpp.
#include <array>
#include <vector>

#include "robust_geometry/exact_pieces.hpp"

namespace contactref::robust_geometry::detail {

// points_b: B's vertices in A's frame, exactly; triangles_b: B's surface
// triangles with those points; tolerance: the touch tolerance.
bool a_nested_in_b(const Polyhedron& a, const std::vector<Vec>& points_b,
                   const std::vector<std::array<Vec, 3>>& triangles_b, const FT& tolerance);

}  // namespace contactref::robust_geometry::detail
