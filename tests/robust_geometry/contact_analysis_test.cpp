// Contact analysis (Bouma & Vanecek, Section 3: Definitions 1-2, Eqs. 3-4;
// contact normals by Conditions 6-8). The independent checks are the paper's
// own statements about its figures, on configurations built to match them, and
// normals worked out by hand:
//   - Fig. 4 at time t: a block resting on another has nine regions, "only
//     the 2D face-on-face region is needed";
//   - Fig. 4 at the collision: a block meeting a protrusion (here a ramp
//     rising from the floor) adds an edge-on-edge region on the reflex edge at
//     the ramp's foot, and "both are needed", the 1D one with the two normals
//     of the reflex edge's faces (Fig. 7a);
//   - Fig. 8: a block sliding across a two-finger support; when its bottom
//     edge reaches a finger, the new collinear edge-on-edge region gets a
//     separating normal with n . v < 0 (the spurious collision of Fig. 8c)
//     without temporal coherence, and keeps the bottom-face normal (n . v = 0)
//     with it (Eq. 7);
//   - Eq. 6: a persisting region keeps its previous normals even when they
//     are not the local ones;
//   - normals by hand: e_a x e_b for crossing edges; the bisecting direction
//     of the separating cone for a vertex on a cube's corner;
//   - the same normals at the extremes of the coordinate range (2^+-256).
#include "robust_geometry/contact_analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "tests/robust_geometry/test_solids.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Vector3d;
using namespace test_solids;

Vector6d velocity(const Vector3d& v) {
  Vector6d out;
  out << 0, 0, 0, v;
  return out;
}

TEST(ContactAnalysis, Fig4ABlockRestingOnAnotherNeedsOnlyTheFaceRegion) {
  const Polyhedron cube = read_polyhedron(polyhedra_folder() / "cube.off");
  const BrepIndex index = build_brep_index(cube);
  const RigidPose<double> pose = translation({0.5, 0.5, 1});
  const ContactAnalysis analysis = find_contacts(cube, index, cube, pose, velocity({1, 0.5, 0}));
  EXPECT_EQ(analysis.intersection.regions.size(), std::size_t(9));
  ASSERT_EQ(analysis.contacts.size(), std::size_t(1));
  const Contact& c = analysis.contacts.front();
  EXPECT_EQ(c.region.dimension, 2);
  EXPECT_EQ(c.rule, NormalRule::face);
  ASSERT_EQ(c.normals.size(), std::size_t(1));
  EXPECT_EQ(c.normals.front(), Vector3d(0, 0, 1));
}

// The floor z = 0 with a ramp rising at 45 degrees from the line x = 2 (a
// reflex edge at its foot); the block [1, 2] x [1/4, 3/4] x [0, 1] on the
// floor with its front-bottom edge on that reflex edge.
TEST(ContactAnalysis, Fig4AtTheCollisionTheEdgeRegionOnTheReflexEdgeIsNeededToo) {
  const ContactScene scene = floor_with_ramp_and_block();
  const BrepIndex index = build_brep_index(scene.a);
  const ContactAnalysis analysis = find_contacts(scene.a, index, scene.b, scene.pose_b, velocity({1, 0, 0}));
  EXPECT_FALSE(analysis.intersection.penetrating());
  // I: the face region; the block's back and side bottom edges on the floor
  // and its front-bottom edge on the reflex edge; its four bottom vertices.
  EXPECT_EQ(analysis.intersection.regions.size(), std::size_t(9));
  ASSERT_EQ(analysis.contacts.size(), std::size_t(2));
  const Contact& face = analysis.contacts[0].region.dimension == 2 ? analysis.contacts[0] : analysis.contacts[1];
  const Contact& edge = analysis.contacts[0].region.dimension == 2 ? analysis.contacts[1] : analysis.contacts[0];
  EXPECT_EQ(face.normals, std::vector<Vector3d>{Vector3d(0, 0, 1)});
  EXPECT_EQ(edge.region.dimension, 1);
  EXPECT_EQ(edge.region.entity_a.kind, EntityKind::edge);
  EXPECT_EQ(edge.rule, NormalRule::reflex_edge);
  ASSERT_EQ(edge.normals.size(), std::size_t(2));
  const Vector3d ramp = Vector3d(-1, 0, 1).normalized();
  const bool floor_then_ramp = (edge.normals[0] - Vector3d(0, 0, 1)).norm() < 1e-15;
  EXPECT_LT((edge.normals[floor_then_ramp ? 0 : 1] - Vector3d(0, 0, 1)).norm(), 1e-15);
  EXPECT_LT((edge.normals[floor_then_ramp ? 1 : 0] - ramp).norm(), 1e-15);
}

// Fig. 8: two fingers (ridges with top edges at x = 1 and x = 3, z = 1) and a
// block [x0, x0 + 5/2] x [1/4, 3/4] x [1, 3/2] sliding left (v = -x).
class TwoFingerSupport : public ::testing::Test {
 protected:
  Polyhedron fingers = two_fingers();
  BrepIndex index = build_brep_index(fingers);
  Polyhedron block = fig8_block();
  Vector6d sliding = velocity({-1, 0, 0});
  RigidPose<double> at(double x0) const { return translation({x0, 0, 1}); }
};

TEST_F(TwoFingerSupport, Fig8TemporalCoherenceAvoidsTheSpuriousCollision) {
  // t - dt: the block lies across both fingers: two edge-on-face regions with
  // the bottom face's normal.
  const ContactAnalysis before = find_contacts(fingers, index, block, at(0.75), sliding);
  ASSERT_EQ(before.contacts.size(), std::size_t(2));
  for (const Contact& c : before.contacts) {
    EXPECT_EQ(c.region.dimension, 1);
    EXPECT_EQ(c.region.entity_b, face_facing(block, {0, 0, -1}));
    EXPECT_EQ(c.normals, std::vector<Vector3d>{Vector3d(0, 0, 1)});
  }
  // t: the block's left bottom edge has reached the left finger's edge.
  const ContactAnalysis fresh = find_contacts(fingers, index, block, at(1), sliding);
  ASSERT_EQ(fresh.contacts.size(), std::size_t(2));
  const auto on_left_finger = [](const ContactAnalysis& a) -> const Contact& {
    return a.contacts[0].region.points.front().x() < 2 ? a.contacts[0] : a.contacts[1];
  };
  const Contact& local = on_left_finger(fresh);
  EXPECT_EQ(local.region.entity_b.kind, EntityKind::edge);  // collinear edge-on-edge
  EXPECT_EQ(local.rule, NormalRule::separating);
  ASSERT_EQ(local.normals.size(), std::size_t(1));
  EXPECT_LT(local.normals.front().dot(sliding.tail<3>()), -0.1) << "the local normal opposes the sliding";
  // The bisector by hand: between +z and the finger's right flank normal
  // (0.8, 0, 0.5)/|.|, the two extreme separating directions.
  const Vector3d expected = (Vector3d(0, 0, 1) + Vector3d(0.8, 0, 0.5).normalized()).normalized();
  EXPECT_LT((local.normals.front() - expected).norm(), 1e-15);

  const ContactAnalysis coherent = find_contacts(fingers, index, block, at(1), sliding, before.contacts);
  const Contact& kept = on_left_finger(coherent);
  EXPECT_EQ(kept.rule, NormalRule::shrinking);
  EXPECT_EQ(kept.normals, std::vector<Vector3d>{Vector3d(0, 0, 1)});
  EXPECT_EQ(kept.normals.front().dot(sliding.tail<3>()), 0.0);
}

TEST_F(TwoFingerSupport, Eq6APersistingRegionKeepsItsPreviousNormals) {
  const ContactAnalysis first = find_contacts(fingers, index, block, at(0.75), sliding);
  std::vector<Contact> previous = first.contacts;
  for (Contact& c : previous) c.normals = {Vector3d(0, 0.6, 0.8)};
  const ContactAnalysis next = find_contacts(fingers, index, block, at(0.7), sliding, previous);
  ASSERT_EQ(next.contacts.size(), std::size_t(2));
  for (const Contact& c : next.contacts) {
    EXPECT_EQ(c.rule, NormalRule::persisting);
    EXPECT_EQ(c.normals, std::vector<Vector3d>{Vector3d(0, 0.6, 0.8)});
  }
}

// Figs. 5-6 (validation/fixtures/contact_scenes.hpp): R has "a 2D region on face
// f_1, a 1D region on the edge between f_1 and f_2, and a 0D region at point
// p", whatever alpha; whether the 0D region is really needed depends on alpha
// against beta ("the need for a 0D region does not depend on the 0D region
// itself but on ... its adjacent edges and faces"). The independent check is
// the geometry itself: B moved by 2^-10 along +x (allowed by the normals of
// the floor and the wall) penetrates A iff alpha > beta. Eq. 3 keeps the 0D
// region in all three cases (A's vertex at p is not convex, and the material
// of A there outside the floor's and the wall's halfspaces is not empty): safe
// (Theorem 1), and more than needed when alpha <= beta, which is the paper's
// remark that Definition 1 does not resolve this case.
TEST(ContactAnalysis, Fig5TheZeroDimensionalRegionAtTheCornerDependsOnAlphaAgainstBeta) {
  for (const double cot_alpha : {0.25, kCornerCotBeta, 1.0}) {
    const ContactScene scene = corner_and_tetrahedron(cot_alpha);
    const BrepIndex index = build_brep_index(scene.a);
    const ContactAnalysis analysis = find_contacts(scene.a, index, scene.b, scene.pose_b, Vector6d::Zero(), {}, {{}, false, 0});
    EXPECT_FALSE(analysis.intersection.penetrating());
    EXPECT_EQ(analysis.intersection.regions.size(), std::size_t(7)) << "cot alpha " << cot_alpha;
    ASSERT_EQ(analysis.contacts.size(), std::size_t(3)) << "cot alpha " << cot_alpha;
    const Entity p = vertex_at(scene.b, {0, 0, 0});
    const Entity corner = edge_at(scene.a, {-2, 0, 0}, {0, 0, 0});
    int found = 0;
    for (const Contact& c : analysis.contacts) {
      if (c.region.dimension == 2) {
        EXPECT_EQ(c.region.entity_a, face_facing(scene.a, {0, 0, 1}));
        ++found;
      } else if (c.region.dimension == 1) {
        EXPECT_EQ(c.region.entity_a, corner);
        EXPECT_EQ(c.rule, NormalRule::reflex_edge);  // Fig. 6: the floor's and the wall's normals
        ASSERT_EQ(c.normals.size(), std::size_t(2));
        EXPECT_EQ(c.normals[0] + c.normals[1], Vector3d(0, 1, 1));
        ++found;
      } else {
        EXPECT_EQ(c.region.entity_a, vertex_at(scene.a, {0, 0, 0}));
        EXPECT_EQ(c.region.entity_b, p);
        ++found;
      }
    }
    EXPECT_EQ(found, 3);
    const IntersectionSet moved = intersect(scene.a, index, scene.b, translation({std::ldexp(1.0, -10), 0, 0}));
    EXPECT_EQ(moved.penetrating(), cot_alpha < kCornerCotBeta) << "cot alpha " << cot_alpha;
  }
}

// The crossing edges of contact_regions_test: e_a = x, e_b = (0, 1, -1):
// e_a x e_b = (0, 1, 1), from the cube toward B.
TEST(ContactAnalysis, CrossingEdgesGetTheCrossProductNormal) {
  const Polyhedron cube = read_polyhedron(polyhedra_folder() / "cube.off");
  const BrepIndex index = build_brep_index(cube);
  const Polyhedron b =
      tetrahedron({0.5, 0.5, 1.5}, {0.5, 1.5, 0.5}, {0.25, 1.5, 1.5}, {0.75, 1.5, 1.5});
  const ContactAnalysis analysis =
      find_contacts(cube, index, b, RigidPose<double>(), Vector6d::Zero(), {}, {{}, false, 0});
  ASSERT_EQ(analysis.contacts.size(), std::size_t(1));
  EXPECT_EQ(analysis.contacts[0].rule, NormalRule::edge_cross);
  EXPECT_LT((analysis.contacts[0].normals.front() - Vector3d(0, 1, 1).normalized()).norm(), 1e-15);
}

// An octahedron's lowest vertex on the cube's corner (1, 1, 1): the separating
// directions are the cone {0 <= d_x <= d_z, 0 <= d_y <= d_z} (the cube's
// normal cone, the positive octant, within the octahedron's inward normal
// cone |d_x|, |d_y| <= d_z), with extreme rays z, x + z, y + z and x + y + z.
TEST(ContactAnalysis, VertexOnVertexGetsTheBisectorOfTheSeparatingCone) {
  const Polyhedron cube = read_polyhedron(polyhedra_folder() / "cube.off");
  const BrepIndex index = build_brep_index(cube);
  const Polyhedron b = octahedron({1, 1, 1}, 0.25);
  const ContactAnalysis analysis =
      find_contacts(cube, index, b, RigidPose<double>(), Vector6d::Zero(), {}, {{}, false, 0});
  ASSERT_EQ(analysis.contacts.size(), std::size_t(1));
  const Contact& c = analysis.contacts[0];
  EXPECT_EQ(c.rule, NormalRule::separating);
  const Vector3d expected = (Vector3d(0, 0, 1) + Vector3d(1, 0, 1).normalized() + Vector3d(0, 1, 1).normalized() +
                             Vector3d(1, 1, 1).normalized())
                                .normalized();
  EXPECT_LT((c.normals.front() - expected).norm(), 1e-15);
}

// Issue 10, item 5: the normals at the extremes of the accepted coordinates
// (magnitudes in [2^-256, 2^256]). The cube [c, c + e]^3 with the octahedron
// of radius e / 4 on its corner and a copy of the cube resting on it: the
// exact cross products and plane coefficients scale as powers of e (near
// 2^1028 or 2^-1120 for the separating cone's rays: outside double's range),
// the unit normals must not. The independent check is the unit-size
// configuration: e is a power of two and every coordinate is exact, so each
// exact direction differs from the unit configuration's by a power-of-two
// factor and is the same rational once scaled to the unit box: the normals
// must agree bit for bit. Each has unit length within 4 eps (half an ulp for
// each rounding: the scaled components, the sum of squares, the square root,
// the division), and so have the faces' double planes (Polyhedron::plane).
TEST(ContactAnalysis, NormalsAtTheExtremesOfTheCoordinateRangeAreUnitAndScaleFree) {
  const auto normals_at_scale = [](double c, double e) {
    const Polyhedron cube = box({c, c, c}, {c + e, c + e, c + e});
    const BrepIndex index = build_brep_index(cube);
    const FindContactsOptions no_culling{{}, false, 0};
    const Polyhedron b = octahedron({c + e, c + e, c + e}, e / 4);
    const ContactAnalysis corner = find_contacts(cube, index, b, RigidPose<double>(), Vector6d::Zero(), {}, no_culling);
    const ContactAnalysis stacked =
        find_contacts(cube, index, cube, translation({0, 0, e}), Vector6d::Zero(), {}, no_culling);
    EXPECT_EQ(corner.contacts.size(), std::size_t(1)) << "e = " << e;
    EXPECT_EQ(stacked.contacts.size(), std::size_t(1)) << "e = " << e;
    std::vector<Vector3d> out;
    for (const ContactAnalysis* analysis : {&corner, &stacked})
      for (const Contact& contact : analysis->contacts)
        for (const Vector3d& n : contact.normals) out.push_back(n);
    for (std::size_t k = 0; k < 3; ++k) {
      const Plane& plane = cube.plane(int(k));
      EXPECT_NEAR(plane.normal.norm(), 1, 4 * std::numeric_limits<double>::epsilon()) << "e = " << e;
      EXPECT_EQ(plane.normal.cwiseAbs().maxCoeff(), 1) << "e = " << e;  // an axis: exactly
    }
    return out;
  };
  const std::vector<Vector3d> reference = normals_at_scale(0, 1);
  ASSERT_EQ(reference.size(), std::size_t(2));
  for (const auto& [c, e] : {std::pair{0.0, std::ldexp(1.0, 255)}, std::pair{-std::ldexp(1.0, 256), std::ldexp(1.0, 256)},
                             std::pair{std::ldexp(1.0, -250), std::ldexp(1.0, -280)}}) {
    const std::vector<Vector3d> got = normals_at_scale(c, e);
    ASSERT_EQ(got.size(), reference.size()) << "e = " << e;
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_NEAR(got[k].norm(), 1, 4 * std::numeric_limits<double>::epsilon()) << "e = " << e;
      EXPECT_EQ(got[k], reference[k]) << "e = " << e;
    }
  }
}

}  // namespace
}  // namespace contactref::robust_geometry
