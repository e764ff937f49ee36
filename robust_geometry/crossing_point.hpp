#pragma once
// Internal to robust_geometry: the point where a segment crosses a plane,
// as lazy exact numbers built in four nodes (one for the parameter, one per
// coordinate) instead of the twenty or so that the same formula takes in
// CGAL's one-operation nodes. The Brep-index constructs ~10^5 crossings a
// build, and allocating and freeing their nodes was a fifth of it.
#include "robust_geometry/exact_pieces.hpp"

namespace contactref::robust_geometry::detail {

// The point where segment [p, q] crosses the plane (p and q strictly on
// opposite sides): exactly split_piece's crossing, p + t (q - p) with
// t = vp / (vp - vq), vp and vq the plane's values at p and q.
Vec crossing_point(const Vec& p, const Vec& q, const XPlane& plane);

}  // namespace contactref::robust_geometry::detail
