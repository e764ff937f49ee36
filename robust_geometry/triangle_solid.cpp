#include "robust_geometry/triangle_solid.hpp"

namespace contactref::robust_geometry {

TriangleSolid triangle_solid(const Polyhedron& polyhedron) {
  TriangleSolid solid;
  solid.vertices = polyhedron.vertices();
  solid.triangles.reserve(polyhedron.triangles().size());
  for (const Triangle& triangle : polyhedron.triangles()) solid.triangles.push_back(triangle.vertices);
  return solid;
}

}  // namespace contactref::robust_geometry
