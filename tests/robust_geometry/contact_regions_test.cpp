// The intersection set I of two touching polyhedra (Bouma & Vanecek, Lemma 1,
// Eq. 14: Intersect through the Brep-index with SplitRegions and
// MergeRegions). The independent check is a degeneracy corpus in the style of
// CGAL's coplanar / vertex-on-edge test data, each case with its regions
// worked out by hand below (entities named by their coordinates, points exact
// binary fractions): coplanar faces, partially overlapping faces (the nine
// regions of the paper's Fig. 4 configuration), vertex on face, on edge and on
// vertex, collinear and crossing edges, two components of one pair meeting at
// a reflex corner (non-convex face), nested solids (apart, and touching at a
// vertex, an edge or a face: containers built by hand), identical solids and a
// solid against itself translated by zero; and the touch tolerance at and one
// ulp beyond its threshold, above and below, and on a pose whose rotation is
// the identity only to rounding.
#include "robust_geometry/contact_regions.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "tests/kit/errors.hpp"  // contains, message_of
#include "tests/robust_geometry/test_solids.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Vector3d;
using namespace test_solids;

struct Expected {
  Entity a, b;
  int dimension;
  std::vector<Vector3d> points;
};

std::string describe(const Entity& a, const Entity& b, int dimension, const std::vector<Vector3d>& points) {
  std::ostringstream out;
  out << "(" << to_string(a) << ", " << to_string(b) << ", " << dimension << "D:";
  for (const Vector3d& x : points) out << " [" << x.transpose() << "]";
  out << ")";
  return out.str();
}

// I must equal the expected list, in any order, points exactly (to `tol`).
void expect_regions(const IntersectionSet& got, std::vector<Expected> expected, double tol = 0) {
  std::vector<bool> used(got.regions.size(), false);
  for (const Expected& e : expected) {
    bool found = false;
    for (std::size_t k = 0; k < got.regions.size() && !found; ++k) {
      const ContactRegion& r = got.regions[k];
      if (used[k] || r.entity_a != e.a || r.entity_b != e.b || r.dimension != e.dimension ||
          r.points.size() != e.points.size())
        continue;
      bool same = true;
      for (std::size_t i = 0; i < e.points.size(); ++i) same = same && (r.points[i] - e.points[i]).norm() <= tol;
      if (same) used[k] = found = true;
    }
    EXPECT_TRUE(found) << "missing " << describe(e.a, e.b, e.dimension, e.points);
  }
  for (std::size_t k = 0; k < got.regions.size(); ++k) {
    const ContactRegion& r = got.regions[k];
    EXPECT_TRUE(used[k]) << "unexpected " << describe(r.entity_a, r.entity_b, r.dimension, r.points);
  }
}

class ContactRegions : public ::testing::Test {
 protected:
  Polyhedron cube = read_polyhedron(polyhedra_folder() / "cube.off");  // [0, 1]^3
  BrepIndex index = build_brep_index(cube);
  Polyhedron unit = box({0, 0, 0}, {1, 1, 1});  // B's shape in the box cases
  // Entities of A (the cube).
  Entity top = face_facing(cube, {0, 0, 1});
  Entity a_vertex(double x, double y, double z) { return vertex_at(cube, {x, y, z}); }
  Entity a_edge(const Vector3d& p, const Vector3d& q) { return edge_at(cube, p, q); }

  // The nine regions of B = the unit cube moved by (1/2, 1/2, 1), counted by
  // hand (B's entities named in B's frame).
  std::vector<Expected> nine_regions() {
    const Entity bottom_b = face_facing(unit, {0, 0, -1});
    const Entity b_edge_x = edge_at(unit, {0, 0, 0}, {1, 0, 0});  // world y = 1/2, z = 1
    const Entity b_edge_y = edge_at(unit, {0, 0, 0}, {0, 1, 0});  // world x = 1/2, z = 1
    return {
        {top, bottom_b, 2, {{0.5, 0.5, 1}, {1, 0.5, 1}, {1, 1, 1}, {0.5, 1, 1}}},
        {top, b_edge_x, 1, {{0.5, 0.5, 1}, {1, 0.5, 1}}},
        {top, b_edge_y, 1, {{0.5, 0.5, 1}, {0.5, 1, 1}}},
        {a_edge({1, 0, 1}, {1, 1, 1}), bottom_b, 1, {{1, 0.5, 1}, {1, 1, 1}}},
        {a_edge({0, 1, 1}, {1, 1, 1}), bottom_b, 1, {{0.5, 1, 1}, {1, 1, 1}}},
        {a_edge({1, 0, 1}, {1, 1, 1}), b_edge_x, 0, {{1, 0.5, 1}}},
        {a_edge({0, 1, 1}, {1, 1, 1}), b_edge_y, 0, {{0.5, 1, 1}}},
        {a_vertex(1, 1, 1), bottom_b, 0, {{1, 1, 1}}},
        {top, vertex_at(unit, {0, 0, 0}), 0, {{0.5, 0.5, 1}}},
    };
  }
};

// B = the unit cube on top of A, shifted by (1/2, 1/2): the paper's Fig. 4 at
// time t (a block resting on another) has nine regions; this is one such
// configuration, counted by hand.
TEST_F(ContactRegions, PartiallyOverlappingFacesGiveTheNineRegionsOfFig4) {
  const IntersectionSet got = intersect(cube, index, unit, translation({0.5, 0.5, 1}));
  EXPECT_FALSE(got.penetrating());
  expect_regions(got, nine_regions());
}

// B beside A sharing the whole face x = 1: one face-face, four collinear
// edge-edge and four vertex-vertex regions.
TEST_F(ContactRegions, CoplanarFacesGiveFaceEdgeAndVertexPairs) {
  const IntersectionSet got = intersect(cube, index, unit, translation({1, 0, 0}));
  EXPECT_FALSE(got.penetrating());
  const Entity side_a = face_facing(cube, {1, 0, 0});
  const Entity side_b = face_facing(unit, {-1, 0, 0});
  std::vector<Expected> expected{
      {side_a, side_b, 2, {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 0, 1}}}};  // counter-clockwise about +x
  const std::vector<Vector3d> corners{{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 0, 1}};
  for (std::size_t k = 0; k < 4; ++k) {
    const Vector3d& p = corners[k];
    const Vector3d& q = corners[(k + 1) % 4];
    const Vector3d lo = p.x() < q.x() || (p.x() == q.x() && (p.y() < q.y() || (p.y() == q.y() && p.z() < q.z()))) ? p : q;
    const Vector3d hi = lo == p ? q : p;
    expected.push_back({a_edge(p, q), edge_at(unit, p - Vector3d(1, 0, 0), q - Vector3d(1, 0, 0)), 1, {lo, hi}});
    expected.push_back({vertex_at(cube, p), vertex_at(unit, p - Vector3d(1, 0, 0)), 0, {p}});
  }
  expect_regions(got, expected);
}

TEST_F(ContactRegions, VertexOnFaceOnEdgeAndOnVertex) {
  const double r = 0.25;
  const struct {
    Vector3d at;
    Entity a;
  } cases[] = {{{0.5, 0.5, 1}, top}, {{0.5, 1, 1}, a_edge({0, 1, 1}, {1, 1, 1})}, {{1, 1, 1}, a_vertex(1, 1, 1)}};
  for (const auto& c : cases) {
    const Polyhedron b = octahedron({0, 0, 0}, r);
    const IntersectionSet got = intersect(cube, index, b, translation(c.at));
    EXPECT_FALSE(got.penetrating());
    expect_regions(got, {{c.a, vertex_at(b, {0, 0, 0}), 0, {c.at}}});
  }
}

// A tetrahedron whose edge lies along A's top edge y = z = 1 (its body in
// y, z >= 1): the edge pair is 1D and the two end vertices of B's edge lie on
// A's edge.
TEST_F(ContactRegions, CollinearEdgesGiveASegmentAndItsEndVertices) {
  const Vector3d p0(0.25, 1, 1), p1(0.75, 1, 1);
  const Polyhedron b = tetrahedron(p0, p1, {0.5, 1.5, 1.5}, {0.5, 1.25, 1.75});
  const IntersectionSet got = intersect(cube, index, b, RigidPose<double>());
  EXPECT_FALSE(got.penetrating());
  const Entity edge_a = a_edge({0, 1, 1}, {1, 1, 1});
  expect_regions(got, {{edge_a, edge_at(b, p0, p1), 1, {p0, p1}},
                       {edge_a, vertex_at(b, p0), 0, {p0}},
                       {edge_a, vertex_at(b, p1), 0, {p1}}});
}

// A tetrahedron in y + z >= 2 whose edge from (1/2, 1/2, 3/2) to
// (1/2, 3/2, 1/2) crosses A's edge y = z = 1 at x = 1/2: one 0D edge-edge
// region (the paper's transversal edge-on-edge contact).
TEST_F(ContactRegions, CrossingEdgesGiveOnePoint) {
  const Vector3d q0(0.5, 0.5, 1.5), q1(0.5, 1.5, 0.5);
  const Polyhedron b = tetrahedron(q0, q1, {0.25, 1.5, 1.5}, {0.75, 1.5, 1.5});
  const IntersectionSet got = intersect(cube, index, b, RigidPose<double>());
  EXPECT_FALSE(got.penetrating());
  expect_regions(got, {{a_edge({0, 1, 1}, {1, 1, 1}), edge_at(b, q0, q1), 0, {{0.5, 1, 1}}}});
}

// The L-prism's top face (an L, reflex corner at (1, 1)) under a triangle
// (3/2, 1/2), (1/2, 3/2), (5/2, 5/2) whose edge x + y = 2 passes through the
// reflex corner: face ∩ face has two components whose closures meet at the
// corner, so two 2D regions (Lemma 1: one per connected component), each
// traced separately through the pinch point.
TEST(ContactRegionsNonConvex, TwoComponentsOfOnePairMeetingAtAReflexCorner) {
  const Polyhedron l_prism = read_polyhedron(polyhedra_folder() / "l_prism.off");
  const BrepIndex index = build_brep_index(l_prism);
  const Polyhedron b = convex_polyhedron({{1.5, 0.5, 1}, {0.5, 1.5, 1}, {2.5, 2.5, 1}, {1.5, 0.5, 2}, {0.5, 1.5, 2}, {2.5, 2.5, 2}},
                              {{0, 1, 2}, {3, 4, 5}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}}, "triangular prism");
  const IntersectionSet got = intersect(l_prism, index, b, RigidPose<double>());
  EXPECT_FALSE(got.penetrating());
  IntersectionSet faces;
  for (const ContactRegion& r : got.regions)
    if (r.dimension == 2) faces.regions.push_back(r);
  const Entity top = face_facing(l_prism, {0, 0, 1});
  const Entity bottom = face_facing(b, {0, 0, -1});
  expect_regions(faces, {{top, bottom, 2, {{0.5, 1.5, 1}, {1, 1, 1}, {1, 1.75, 1}}},
                         {top, bottom, 2, {{1, 1, 1}, {1.5, 0.5, 1}, {1.75, 1, 1}}}});
  // And the reflex corner itself lies on B's bottom edge x + y = 2.
  const Entity corner{EntityKind::vertex, vertex_at(l_prism, {1, 1, 1}).index};
  EXPECT_TRUE(std::any_of(got.regions.begin(), got.regions.end(), [&](const ContactRegion& r) {
    return r.entity_a == corner && r.entity_b == edge_at(b, {1.5, 0.5, 1}, {0.5, 1.5, 1}) && r.dimension == 0;
  }));
}

TEST_F(ContactRegions, NestedSolidsAreReportedAsPenetration) {
  const Polyhedron small = box({0.25, 0.25, 0.25}, {0.75, 0.75, 0.75});
  const IntersectionSet inside = intersect(cube, index, small, RigidPose<double>());
  EXPECT_TRUE(inside.regions.empty());
  EXPECT_EQ(inside.penetrating_b.size(), std::size_t(small.vertex_count() + small.edge_count() + small.face_count()));
  EXPECT_FALSE(inside.a_inside_b);

  const Polyhedron big = box({-1, -1, -1}, {2, 2, 2});
  const IntersectionSet around = intersect(cube, index, big, RigidPose<double>());
  EXPECT_TRUE(around.regions.empty());
  EXPECT_TRUE(around.penetrating_b.empty());
  EXPECT_TRUE(around.a_inside_b);
  EXPECT_TRUE(around.penetrating());

  const IntersectionSet apart = intersect(cube, index, unit, translation({0, 0, 2}));
  EXPECT_TRUE(apart.regions.empty());
  EXPECT_FALSE(apart.penetrating());
}

// Issue 10, item 1: a solid nested in another while their boundaries touch
// is penetration, whichever is indexed, touching at a vertex, along an edge
// or over a face. The containers are built by hand around the unit cube: the
// tetrahedron x + y + z >= 0, x, y, z <= 2 through the cube's vertex 0 (A's
// first nesting candidate, on B's surface, so the test must go on to
// another); the prism x + z >= 0, x, z <= 2 (y in [-1, 2]) through the cube's
// edge x = z = 0; the box [0, 2]^3 around three of its faces. With A = the
// cube no piece of B enters A (only the nesting test can see it); with A =
// the container every piece of the cube inside it is penetration. Also a
// non-convex solid nested while touching, and a pair touching from outside.
TEST_F(ContactRegions, NestedSolidsTouchingAtAVertexAnEdgeOrAFacePenetrate) {
  const std::vector<std::pair<std::string, Polyhedron>> containers = {
      {"vertex", tetrahedron({-4, 2, 2}, {2, -4, 2}, {2, 2, -4}, {2, 2, 2})},
      {"edge", prism_xz({{2, -2}, {2, 2}, {-2, 2}}, -1, 2, "prism")},
      {"face", box({0, 0, 0}, {2, 2, 2})},
  };
  for (const auto& [touching, container] : containers) {
    const IntersectionSet cube_in_b = intersect(cube, index, container, RigidPose<double>());
    EXPECT_FALSE(cube_in_b.regions.empty()) << touching;
    EXPECT_TRUE(cube_in_b.penetrating_b.empty()) << touching;
    EXPECT_TRUE(cube_in_b.penetrating()) << touching;
    const IntersectionSet b_in_cube =
        intersect(container, build_brep_index(container), cube, RigidPose<double>());
    EXPECT_FALSE(b_in_cube.penetrating_b.empty()) << touching;
    EXPECT_TRUE(b_in_cube.penetrating()) << touching;
  }
  // Only the vertex and the edge leave the faces apart: the nesting test
  // itself decides them (the face case is flush as well).
  for (std::size_t k = 0; k < 2; ++k)
    EXPECT_TRUE(intersect(cube, index, containers[k].second, RigidPose<double>()).a_inside_b)
        << containers[k].first;
  // A non-convex solid: the L-prism (l_prism.off: [0,2]x[0,1]x[0,1] and
  // [0,1]x[1,2]x[0,1]) inside the tetrahedron x + y + z <= 4, x, y, z >= -1,
  // touching it at its two outer corners (2,1,1) and (1,2,1).
  const Polyhedron l_prism = read_polyhedron(polyhedra_folder() / "l_prism.off");
  const IntersectionSet l_in_tet = intersect(l_prism, build_brep_index(l_prism),
                                             tetrahedron({-1, -1, -1}, {6, -1, -1}, {-1, 6, -1}, {-1, -1, 6}),
                                             RigidPose<double>());
  EXPECT_EQ(l_in_tet.regions.size(), std::size_t(2));
  EXPECT_TRUE(l_in_tet.penetrating_b.empty());
  EXPECT_TRUE(l_in_tet.a_inside_b);
  // A tetrahedron on the other side of the plane x + y + z = 0 touches the
  // cube at the same vertex from outside: not nested, not penetrating.
  const IntersectionSet outside =
      intersect(cube, index, tetrahedron({-4, 2, 2}, {2, -4, 2}, {2, 2, -4}, {-4, -4, -4}), RigidPose<double>());
  EXPECT_FALSE(outside.regions.empty());
  EXPECT_FALSE(outside.penetrating());
}

// Issue 10, item 7: the nesting test's bounding box is exact. B = the box
// [1e10, 1e10 + 1]^2 x [0, 1] turned a quarter about z by a rotation whose
// cosine entry is c = 2^-54 and moved back near the origin: exactly,
// R x + t spans x in [c 1e10, 1 + c (1e10 + 1)] (c 1e10 = 5.55e-7), but in
// double c x is lost in -y + c x (below half an ulp of 1e10), so a box of B
// computed in double ends at x = 1, and a margin of 1e-9 times its diagonal
// (the old test) does not cover 5.55e-7. A = a small box in x in
// [1 + 1e-7, 1 + 3e-7] lies inside B, apart from its boundary: nested. The
// independent check is the hand computation above (exact rationals).
TEST_F(ContactRegions, NestingIsDecidedOnTheExactBoxNotARoundedOne) {
  // box() orients its faces in double, which fails at 1e10: faces by hand.
  const auto axis_box = [](const Vector3d& lo, const Vector3d& hi) {
    PolygonSoup soup;
    for (const double z : {lo.z(), hi.z()})
      for (const double y : {lo.y(), hi.y()})
        for (const double x : {lo.x(), hi.x()}) soup.vertices.emplace_back(x, y, z);
    soup.faces = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    return Polyhedron(soup);
  };
  const double c = std::ldexp(1.0, -54);
  Eigen::Matrix4d pose = Eigen::Matrix4d::Identity();
  pose.topLeftCorner<3, 3>() << c, -1, 0, 1, c, 0, 0, 0, 1;
  pose.topRightCorner<3, 1>() = Vector3d(1e10 + 1, -1e10, 0);
  const Polyhedron b = axis_box({1e10, 1e10, 0}, {1e10 + 1, 1e10 + 1, 1});
  const Vector3d rounded_corner = (pose * Eigen::Vector4d(1e10 + 1, 1e10, 1, 1)).head<3>();
  ASSERT_EQ(rounded_corner.x(), 1.0) << "c x must be lost to rounding for this test";
  const Polyhedron a = axis_box({1 + 1e-7, 0.25, 0.25}, {1 + 3e-7, 0.75, 0.75});
  const IntersectionSet got = intersect(a, build_brep_index(a), b, RigidPose<double>::from_matrix(pose, "pose"));
  EXPECT_TRUE(got.regions.empty());
  EXPECT_TRUE(got.penetrating_b.empty());
  EXPECT_TRUE(got.a_inside_b);
}

// B = A (and A translated by zero, +0 and -0): every entity meets its copy:
// 6 face, 12 edge and 8 vertex pairs; the faces are flush (equal normals),
// which is overlap, not touching.
TEST_F(ContactRegions, IdenticalSolidsAndZeroTranslationPairEveryEntityWithItsCopy) {
  for (const Vector3d& t : {Vector3d(0, 0, 0), Vector3d(-0.0, -0.0, -0.0)}) {
    const IntersectionSet got = intersect(cube, index, cube, translation(t));
    ASSERT_EQ(got.regions.size(), std::size_t(26));
    for (const ContactRegion& r : got.regions) {
      EXPECT_EQ(r.entity_a, r.entity_b);
      EXPECT_EQ(r.dimension, dimension(r.entity_a.kind));
    }
    EXPECT_EQ(got.flush_faces.size(), std::size_t(6));
    EXPECT_TRUE(got.penetrating_b.empty());
    EXPECT_TRUE(got.penetrating());
  }
}

// The touch tolerance eps = 2^-20: B's bottom face at distance eps above or
// below A's top face touches (the nine regions, points projected exactly onto
// z = 1); one ulp further it is apart (no region) or penetrating.
TEST_F(ContactRegions, TouchToleranceAtAndJustBeyondItsThreshold) {
  const double eps = std::ldexp(1.0, -20);
  const IntersectOptions options{eps};
  const IntersectionSet reference = intersect(cube, index, unit, translation({0.5, 0.5, 1}));
  const auto same_as_reference = [&](const IntersectionSet& got) {
    ASSERT_EQ(got.regions.size(), reference.regions.size());
    for (std::size_t k = 0; k < got.regions.size(); ++k) {
      EXPECT_EQ(got.regions[k].entity_a, reference.regions[k].entity_a);
      EXPECT_EQ(got.regions[k].entity_b, reference.regions[k].entity_b);
      EXPECT_EQ(got.regions[k].points, reference.regions[k].points);
    }
  };
  const double above = 1 + eps, below = 1 - eps;
  const IntersectionSet at_above = intersect(cube, index, unit, translation({0.5, 0.5, above}), options);
  EXPECT_FALSE(at_above.penetrating());
  same_as_reference(at_above);
  const IntersectionSet at_below = intersect(cube, index, unit, translation({0.5, 0.5, below}), options);
  EXPECT_FALSE(at_below.penetrating());
  same_as_reference(at_below);

  const IntersectionSet beyond_above =
      intersect(cube, index, unit, translation({0.5, 0.5, std::nextafter(above, 2.0)}), options);
  EXPECT_TRUE(beyond_above.regions.empty());
  EXPECT_FALSE(beyond_above.penetrating());
  const IntersectionSet beyond_below =
      intersect(cube, index, unit, translation({0.5, 0.5, std::nextafter(below, 0.0)}), options);
  EXPECT_TRUE(beyond_below.penetrating());
}

// A rotation that is the identity only to rounding (Q Q^T for a generic Q)
// tilts B's bottom face by ~1e-16: without a tolerance the exact descent sees
// the tilt; with a tolerance of 1e-12 the nine regions come back, their points
// within the tolerance of the exact configuration's.
TEST_F(ContactRegions, ToleranceRestoresContactAfterARoundedRotation) {
  const Eigen::Matrix3d q = Eigen::AngleAxisd(0.7, Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  Eigen::Matrix4d E = translation({0.5, 0.5, 1}).matrix();
  E.topLeftCorner<3, 3>() = q * q.transpose();
  const RigidPose<double> pose = RigidPose<double>::from_matrix(E, "pose");
  const Eigen::Matrix3d rounded_identity = pose.rotation();
  ASSERT_TRUE(rounded_identity(2, 0) != 0 || rounded_identity(2, 1) != 0) << "the rounding must tilt B";
  const IntersectionSet exact = intersect(cube, index, unit, pose);
  EXPECT_TRUE(exact.penetrating() || exact.regions.size() != 9);
  const IntersectionSet tolerant = intersect(cube, index, unit, pose, IntersectOptions{1e-12});
  EXPECT_FALSE(tolerant.penetrating());
  expect_regions(tolerant, nine_regions(), 1e-12);
}

TEST_F(ContactRegions, BadInputIsRefusedByName) {
  for (const double bad : {-1.0, std::nan("")})
    EXPECT_TRUE(test::contains(
        test::message_of<InputError>([&] { intersect(cube, index, unit, translation({0, 0, 1}), {bad}); }),
        "touch_tolerance must be finite and >= 0"));
  // Issue 10, item 18: half the shortest edge (1/2 for unit cubes) and
  // beyond is refused, naming the caller's option; one ulp below is accepted.
  for (const double beyond : {0.5, 1.0})
    EXPECT_TRUE(test::contains(test::message_of<InputError>([&] {
                                 intersect(cube, index, unit, translation({0, 0, 1}), {beyond});
                               }),
                               "is not below half the shortest edge of the solids (0.5"));
  EXPECT_NO_THROW(intersect(cube, index, unit, translation({0, 0, 1}), {std::nextafter(0.5, 0.0)}));
  EXPECT_TRUE(test::contains(test::message_of<InputError>([&] { check_touch_tolerance(0.5, cube, unit, "--eps"); }),
                             "--eps 0.5 is not below"));
  EntityMask mask;
  mask.faces.assign(3, true);
  EXPECT_TRUE(test::contains(test::message_of<InputError>([&] {
                               intersect(cube, index, unit, translation({0, 0, 1}), {}, mask);
                             }),
                             "mask of B's faces has 3 entries; B has 6"));
}

}  // namespace
}  // namespace contactref::robust_geometry
