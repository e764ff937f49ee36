// The independent oracle for intersection_moments: the intersection through
// CGAL's Nef_polyhedron_3 (a different algorithm from corefinement: selective
// Nef complexes with exact arithmetic), the same exact moment integrals.
// In its own translation unit because Nef's headers are heavy to compile.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"

#include <CGAL/Nef_polyhedron_3.h>
#include <CGAL/Side_of_triangle_mesh.h>
#include <CGAL/boost/graph/convert_nef_polyhedron_to_polygon_mesh.h>

#include "robust_geometry/intersection_volume.hpp"
#include "robust_geometry/intersection_volume_detail.hpp"

namespace contactref::robust_geometry {

IntersectionMoments intersection_moments_nef(const TriangleSolid& a, const TriangleSolid& b,
                                             const RigidPose<double>& pose_b) {
  using namespace detail;
  using Nef = CGAL::Nef_polyhedron_3<Kernel>;
  validate_triangle_solid(a, "intersection_moments_nef: solid A");
  validate_triangle_solid(b, "intersection_moments_nef: solid B");
  const Mesh mesh_a = to_exact_mesh(a, nullptr);
  const Mesh mesh_b = to_exact_mesh(b, &pose_b);

  const Nef nef_a(mesh_a);
  const Nef nef_b(mesh_b);
  const Nef meet = nef_a * nef_b;  // the closed sets' intersection, lower-dimensional parts included
  const Nef solid = meet.regularization();

  MomentAccumulator acc;
  if (!solid.is_empty()) {
    std::vector<Point> points;
    std::vector<std::vector<std::size_t>> polygons;
    CGAL::convert_nef_polyhedron_to_polygon_soup(solid, points, polygons, /*triangulate_all_faces=*/true);
    // The gradient's triangles of ∂B: those of ∂Ω on ∂B and not on ∂A
    // (interior), or on both (flush; a regularised intersection keeps no
    // face-to-face touching patch). A triangle of ∂Ω lies in one face of each
    // solid's corefined boundary, so its centroid classifies it.
    CGAL::Side_of_triangle_mesh<Mesh, Kernel> side_a(mesh_a);
    CGAL::Side_of_triangle_mesh<Mesh, Kernel> side_b(mesh_b);
    for (const std::vector<std::size_t>& polygon : polygons) {
      if (polygon.size() != 3) {
        throw InternalError("intersection_moments_nef: the Nef conversion returned a face of " +
                            std::to_string(polygon.size()) + " vertices");
      }
      const Point& p0 = points[polygon[0]];
      const Point& p1 = points[polygon[1]];
      const Point& p2 = points[polygon[2]];
      acc.add_boundary_triangle(CGAL::exact(p0), CGAL::exact(p1), CGAL::exact(p2));
      const Point q = CGAL::centroid(p0, p1, p2);
      const bool on_b = side_b(q) == CGAL::ON_BOUNDARY;
      if (!on_b) continue;
      const bool on_a = side_a(q) == CGAL::ON_BOUNDARY;
      acc.add_gradient_triangle(on_a ? GradientPart::kFlush : GradientPart::kInterior, CGAL::exact(p0),
                                CGAL::exact(p1), CGAL::exact(p2));
    }
  }
  // The rational evaluation: independent of the certified one as well.
  return acc.finish(!meet.is_empty(), /*rational_only=*/true);
}

}  // namespace contactref::robust_geometry
