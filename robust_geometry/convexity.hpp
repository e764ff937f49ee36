#pragma once
// Whether a Polyhedron bounds a convex solid, decided exactly (CGAL's exact
// predicates on the input coordinates, no tolerance): every face is a convex
// polygon (its consecutive corners all turn one way in its plane, or go
// straight) and every edge is convex (the neighbouring face's vertices lie on
// or below the face's plane: a dihedral angle of at most pi). A Polyhedron is
// a connected, closed, embedded surface (polyhedron.hpp); such a surface that
// is locally convex at every edge bounds a convex solid (a closed connected
// locally convex set is convex: Tietze-Nakajima), so the local test decides
// the global property in O(edges) predicates. Coplanar neighbours (a box's
// faces split into triangles) are convex.
#include "robust_geometry/polyhedron.hpp"

namespace contactref::robust_geometry {

bool is_convex(const Polyhedron& polyhedron);

}  // namespace contactref::robust_geometry
