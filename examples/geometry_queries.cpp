// Geometry queries (robust_geometry, exact with CGAL): two unit cubes, one
// posed in the other's frame, and
//  - the exact intersection volume and its moments (Bouchard et al. Eqs.
//    14-20) of the cubes overlapping by half an edge along each axis;
//  - the contact analysis (Bouma & Vanecek) of one cube resting on the
//    other, shifted by half an edge and sliding.
// Checks (closed forms, exact arithmetic rounded once to double, so compared
// exactly): the overlap [0.5, 1]^3 has volume 1/8 and centroid (0.75, 0.75,
// 0.75); the resting cube has one needed contact, the face-to-face square
// [0.5, 1]^2 at z = 1 with the normal (0, 0, 1). Exit 1 if one fails.
#include <cstdio>
#include <vector>

#include "core/mesh_io.hpp"
#include "robust_geometry/brep_index.hpp"
#include "robust_geometry/contact_analysis.hpp"
#include "robust_geometry/intersection_volume.hpp"
#include "robust_geometry/polyhedron.hpp"
#include "robust_geometry/triangle_solid.hpp"

namespace {

namespace rg = contactref::robust_geometry;
using Eigen::Vector3d;

// The pose of cube B in cube A's frame: a translation (rigid by its type).
contactref::RigidPose<double> pose_b(const Vector3d& translation) {
  return contactref::RigidPose<double>::from_translation(translation);
}

// The cube [0, 1]^3: six square faces, counter-clockwise seen from outside.
// The Polyhedron constructor validates it exactly (closed, planar, simple...).
rg::Polyhedron unit_cube() {
  std::vector<Vector3d> corners;
  for (int k = 0; k < 8; ++k) corners.emplace_back(k & 1, (k >> 1) & 1, (k >> 2) & 1);  // corner k = (x, y, z) bits
  return rg::Polyhedron(contactref::polygon_soup(
      "unit cube", corners,
      {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}));
}

void print(const char* label, const Vector3d& x) { std::printf("  %-9s (%g, %g, %g)\n", label, x.x(), x.y(), x.z()); }

}  // namespace

int main() {
  bool ok = true;
  const rg::Polyhedron cube = unit_cube();
  const rg::TriangleSolid cube_triangles = rg::triangle_solid(cube);

  // Overlapping cubes: B = A + (0.5, 0.5, 0.5).
  const rg::IntersectionMoments overlap =
      rg::intersection_moments(cube_triangles, cube_triangles, pose_b({0.5, 0.5, 0.5}));
  std::printf("intersection of two unit cubes, one shifted by (0.5, 0.5, 0.5): %s\n", rg::to_string(overlap.kind));
  std::printf("  volume    %g m^3\n", overlap.volume);
  print("centroid", overlap.centroid);
  print("cuboid", overlap.cuboid_dimensions);
  ok = ok && overlap.volume == 0.125 && overlap.centroid == Vector3d(0.75, 0.75, 0.75);

  // B resting on A (B = A + (0.5, 0.5, 1)), sliding along +x relative to A:
  // the twist (omega; v) in A's frame turns on back-face culling of B's faces
  // that move away from A.
  const rg::BrepIndex index = rg::build_brep_index(cube);
  rg::Vector6d twist_b;
  twist_b << 0, 0, 0, 1, 0, 0;
  const rg::ContactAnalysis analysis = rg::find_contacts(cube, index, cube, pose_b({0.5, 0.5, 1}), twist_b);
  std::printf("cube resting on a cube, shifted by (0.5, 0.5, 1): %zu regions in the intersection set, %zu needed\n",
              analysis.intersection.regions.size(), analysis.contacts.size());
  for (const rg::Contact& contact : analysis.contacts) {
    std::printf("  %dD region, %s of A with %s of B, normal rule %s\n", contact.region.dimension,
                rg::to_string(contact.region.entity_a).c_str(), rg::to_string(contact.region.entity_b).c_str(),
                rg::to_string(contact.rule));
    for (const Vector3d& point : contact.region.points) print("corner", point);
    for (const Vector3d& normal : contact.normals) print("normal", normal);
  }
  const std::vector<Vector3d> square = {{0.5, 0.5, 1}, {1, 0.5, 1}, {1, 1, 1}, {0.5, 1, 1}};
  ok = ok && !analysis.intersection.penetrating() && analysis.contacts.size() == 1 &&
       analysis.contacts[0].region.points == square &&
       analysis.contacts[0].normals == std::vector<Vector3d>{Vector3d(0, 0, 1)};

  std::printf(ok ? "geometry queries: ok\n" : "geometry queries: FAILED\n");
  return ok ? 0 : 1;
}
