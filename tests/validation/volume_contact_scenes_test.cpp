// The volume-contact scenes (validation/fixtures/volume_contact_scenes.hpp):
// each body's soup is a valid closed polyhedron (robust_geometry::Polyhedron
// refuses anything else, exactly), and its mass properties, computed by the
// fixture from the prism's polygon moments, agree with the polyhedral moments
// of the soup itself (the divergence theorem over its triangles:
// robust_geometry/halfspace_moments.hpp) and with the closed form of a
// regular polygon; the initial states are the documented ones.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "robust_geometry/halfspace_moments.hpp"
#include "robust_geometry/polyhedron.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/tolerance.hpp"
#include "validation/fixtures/volume_contact_scenes.hpp"

namespace contactref::fixtures {
namespace {

namespace rg = robust_geometry;

// Volume, centroid and unit-density inertia of the soup's solid: its
// intersection with the half-space z <= 2 top, which holds all of it (top > 0:
// the body frame is at the centre). The moments are summed about a point of
// that plane; keeping it close (top above the top face) keeps the shift to the
// centroid from cancelling digits.
rg::IntersectionMoments solid_moments(const PolygonSoup& soup) {
  const rg::Polyhedron polyhedron(soup);  // validates the soup exactly
  rg::TriangleSolid solid;
  solid.vertices = polyhedron.vertices();
  for (const rg::Triangle& t : polyhedron.triangles()) solid.triangles.push_back(t.vertices);
  double top = 0;
  for (const Eigen::Vector3d& v : solid.vertices) top = std::max(top, v.z());
  return rg::halfspace_intersection_moments(solid, rg::HalfSpace{Eigen::Vector3d::UnitZ(), 2 * top});
}

// The fixture's inertia against the soup's polyhedral moments. Both sum
// O(faces) products of coordinates of size `extent`; 64 roundings relative
// to the largest moment covers either sum (halfspace_moments.hpp measures
// its own at ~1e-15 relative).
void expect_mass_properties(const VolumeContactBody& body, double extent) {
  const rg::IntersectionMoments m = solid_moments(body.surface_b);
  ASSERT_TRUE(m.has_volume());
  const double density = body.mass / m.volume;
  EXPECT_TRUE(test::matrices_near(m.centroid, Eigen::Vector3d::Zero().eval(), test::tolerance<double>(64) * extent,
                                  test::kAbsolute))
      << "the body frame is at the centre of mass";
  EXPECT_TRUE(test::matrices_near(body.inertia_b, Eigen::Matrix3d(density * m.second_moment),
                                  test::tolerance<double>(64) * body.inertia_b.norm(), test::kAbsolute));
}

TEST(VolumeContactScenes, OctagonIsTheDocumentedPrismWithItsExactInertia) {
  const VolumeContactScene scene = sliding_octagon();
  ASSERT_EQ(scene.bodies.size(), 1u);
  const VolumeContactBody& octagon = scene.bodies[0];
  const double R = 0.1, H = 0.05, m = 1;
  ASSERT_EQ(octagon.surface_b.vertices.size(), 16u);
  ASSERT_EQ(octagon.surface_b.faces.size(), 10u);  // two 8-gons, eight quads
  EXPECT_EQ(octagon.surface_b.faces[0].size(), 8u);
  EXPECT_EQ(octagon.surface_b.faces[1].size(), 8u);
  for (const Eigen::Vector3d& v : octagon.surface_b.vertices) {
    // On the circumcircle (cos^2 + sin^2 rounds within 4 ulps) at a height +-H/2.
    EXPECT_NEAR(v.head<2>().norm(), R, test::tolerance<double>(4) * R);
    EXPECT_EQ(std::abs(v.z()), H / 2);
    // At 22.5 + 45 k degrees: the angle's distance from 22.5 modulo 45 is
    // round-off (atan2 of rounded coordinates).
    const double degrees = std::atan2(v.y(), v.x()) * 180 / std::numbers::pi;
    const double offset = std::remainder(degrees - 22.5, 45.0);
    EXPECT_NEAR(offset, 0, 1e-12);
  }
  expect_mass_properties(octagon, R);
  // The regular n-gon's polar moment is A R^2 (1 + 2 cos^2(pi/n)) / 6, isotropic
  // in the plane: for n = 8, Sxx = Syy = A R^2 (4 + sqrt 2) / 24 (A the area);
  // Ixx = Iyy = m (Sxx / A + H^2 / 12), Izz = 2 m Sxx / A.
  const double planar = m * R * R * (4 + std::numbers::sqrt2) / 24;
  const Eigen::Matrix3d expected = Eigen::Vector3d(planar + m * H * H / 12, planar + m * H * H / 12, 2 * planar).asDiagonal();
  // Two dozen roundings of the Green sums against a handful in the formula.
  EXPECT_TRUE(test::matrices_near(octagon.inertia_b, expected, test::tolerance<double>(64) * expected.norm(), test::kAbsolute));

  EXPECT_EQ(octagon.mass, 1.0);
  EXPECT_TRUE(test::matrices_near(octagon.com_w, Eigen::Vector3d(0, 0, H / 2), 0, test::kAbsolute));
  EXPECT_TRUE(test::matrices_near(octagon.velocity_w, Eigen::Vector3d(2, 0, 0), 0, test::kAbsolute));
  EXPECT_TRUE(octagon.R_w_b.isIdentity(0));
  EXPECT_TRUE(octagon.omega_w.isZero(0));
  EXPECT_EQ(scene.mu, 0.3);
  EXPECT_TRUE(test::matrices_near(scene.gravity_w, Eigen::Vector3d(0, 0, -9.81), 0, test::kAbsolute));
}

TEST(VolumeContactScenes, StackIsFiveFlushCubesAtRest) {
  const VolumeContactScene scene = cube_stack();
  ASSERT_EQ(scene.bodies.size(), 5u);
  const double s = 0.1, m = 1;
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    SCOPED_TRACE("cube " + std::to_string(k));
    const VolumeContactBody& cube = scene.bodies[k];
    ASSERT_EQ(cube.surface_b.vertices.size(), 8u);
    ASSERT_EQ(cube.surface_b.faces.size(), 6u);
    for (const Eigen::Vector3d& v : cube.surface_b.vertices) EXPECT_TRUE(v.cwiseAbs().isApproxToConstant(s / 2, 0));
    expect_mass_properties(cube, s);
    // A cube's inertia m s^2 / 6 about any axis through its centre.
    EXPECT_TRUE(test::matrices_near(cube.inertia_b, Eigen::Matrix3d(m * s * s / 6 * Eigen::Matrix3d::Identity()),
                                    test::tolerance<double>(16) * m * s * s, test::kAbsolute));
    // Flush: the bottom face of cube k on the top face of cube k - 1 (or the
    // plane), to the rounding of s / 2 + s k.
    EXPECT_NEAR(cube.com_w.z(), s / 2 + s * double(k), test::tolerance<double>(2) * s * double(k + 1));
    EXPECT_TRUE(cube.com_w.head<2>().isZero(0));
    EXPECT_TRUE(cube.velocity_w.isZero(0));
    EXPECT_TRUE(cube.omega_w.isZero(0));
  }
  EXPECT_EQ(scene.mu, 0.5);
}

}  // namespace
}  // namespace contactref::fixtures
