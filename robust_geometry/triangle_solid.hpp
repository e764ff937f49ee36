#pragma once
// A Polyhedron as the triangle mesh the intersection volumes read
// (intersection_volume.hpp's TriangleSolid): its vertices and its own
// triangulation of its faces (Polyhedron::triangles).
#include "robust_geometry/intersection_volume.hpp"
#include "robust_geometry/polyhedron.hpp"

namespace contactref::robust_geometry {

TriangleSolid triangle_solid(const Polyhedron& polyhedron);

}  // namespace contactref::robust_geometry
