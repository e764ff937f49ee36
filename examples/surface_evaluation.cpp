// Surface evaluation (reference/surfaces): a Loop subdivision surface over a
// closed triangle mesh built in code, and an analytic patch, each evaluated
// with its derivatives to third order (a PatchJet: c, c_s, c_t, c_ss, ...).
//
// Checks, each from a symmetry or a closed form: the rotation by 120 degrees
// about the axis (1, 1, 1) maps the octahedron, hence its limit surface, to
// itself and face 0 to itself with its corners permuted; the patch does not
// depend on which corner is called v0, so the face's centre (u, v) = (1/3,
// 1/3) maps to itself: the point lies on that axis and the normal is along
// it. A sphere's point is at distance r from its centre, with the normal
// c / r. Exit 1 if one fails.
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/mesh_io.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/unit_normal.hpp"

namespace {

namespace su = contactref::surfaces;
using Vec3 = contactref::Vec3<double>;

// Every quantity below is a few hundred operations on numbers of order 1:
// round-off is ~1e-14, so 1e-12 separates it from any real error.
constexpr double kRoundOff = 1e-12;

void print(const char* label, const Vec3& x) {
  std::printf("  %-7s (% .15f, % .15f, % .15f)\n", label, x.x(), x.y(), x.z());
}

void print_jet(const su::PatchJet<double>& jet, const Vec3& normal) {
  print("c", jet.c());
  print("normal", normal);
  print("c_s", jet.c_s());
  print("c_t", jet.c_t());
  print("c_ss", jet.c_ss());
  print("c_sst", jet.c_sst());
}

}  // namespace

int main() {
  bool ok = true;

  // The octahedron with vertices at +-1 on the axes, faces counter-clockwise
  // seen from outside (core's soup, then the triangle mesh of surfaces).
  const contactref::PolygonSoup soup = contactref::polygon_soup(
      "octahedron",
      {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1)},
      {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}});
  // Validates the mesh (closed, manifold, oriented) and builds one patch per
  // face; every vertex has valence 4, so each face is split into four
  // sub-patches with one extraordinary vertex each (loop_surface.hpp).
  const su::LoopSurface<double> loop(su::triangle_mesh(soup), soup.name);
  const su::Patch<double>& face = loop.patch(0);
  const double third = 1.0 / 3.0;
  const su::PatchJet<double> jet = face.evaluate(third, third);
  const Vec3 normal = su::unit_normal<double>(jet.c_s(), jet.c_t()).value();
  std::printf("Loop surface of the octahedron, %s at (u, v) = (1/3, 1/3):\n", face.describe().c_str());
  print_jet(jet, normal);
  const Vec3 axis = Vec3(1, 1, 1).normalized();
  const double off_axis = (jet.c() - jet.c().dot(axis) * axis).norm();
  const double normal_error = (normal - axis).norm();
  std::printf("  distance of c from the axis %.1e, |normal - axis| %.1e\n", off_axis, normal_error);
  ok = ok && off_axis < kRoundOff && normal_error < kRoundOff;

  // An analytic patch: the sphere of radius 0.1 m as an ellipsoid chart.
  const double r = 0.1;
  const su::EllipsoidPatch<double> sphere(Vec3(r, r, r));
  const su::PatchJet<double> sphere_jet = sphere.evaluate(1.0, 0.5);
  const Vec3 sphere_normal = su::unit_normal<double>(sphere_jet.c_s(), sphere_jet.c_t()).value();
  std::printf("sphere of radius %g m at (s, t) = (1, 0.5):\n", r);
  print_jet(sphere_jet, sphere_normal);
  const double radius_error = std::abs(sphere_jet.c().norm() - r);
  const double sphere_normal_error = (sphere_normal - sphere_jet.c() / r).norm();
  std::printf("  ||c| - r| %.1e m, |normal - c / r| %.1e\n", radius_error, sphere_normal_error);
  ok = ok && radius_error < kRoundOff * r && sphere_normal_error < kRoundOff;

  std::printf(ok ? "surface evaluation: ok\n" : "surface evaluation: FAILED\n");
  return ok ? 0 : 1;
}
