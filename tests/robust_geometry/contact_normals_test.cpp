// Condition 8 (Bouma & Vanecek, Section 3) at reflex edges and non-convex
// vertices: one support plane per pair of convex pieces of the two tangent
// cones, at most three (separating_normals.hpp). Independent checks:
//   - normals worked out by hand from the faces (the groove of the L-prism,
//     the end face and the leaning wall of Fig. 5, the faces of a pit);
//   - the geometry itself, through the exact intersection: B translated by
//     2^-10 d penetrates A for no direction d that satisfies every normal of
//     every contact strictly (the constraints keep the solids apart, Theorem
//     1), tried over the 26 directions of {-1, 0, 1}^3 and 200 random ones;
//   - symmetry: the same solids listed in other vertex and face orders give
//     the same normals bit for bit, and swapping A and B negates them.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "robust_geometry/contact_analysis.hpp"
#include "tests/robust_geometry/test_solids.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Vector3d;
using namespace test_solids;

const FindContactsOptions kNoCulling{{}, false, 0};

ContactAnalysis analyse(const Polyhedron& a, const Polyhedron& b, const RigidPose<double>& pose_b) {
  const BrepIndex index = build_brep_index(a);
  return find_contacts(a, index, b, pose_b, Vector6d::Zero(), {}, kNoCulling);
}

// The contact of a region whose entity of A has the given kind, if exactly one.
const Contact& only_contact_at(const ContactAnalysis& analysis, EntityKind kind_a, EntityKind kind_b) {
  const Contact* found = nullptr;
  for (const Contact& c : analysis.contacts)
    if (c.region.entity_a.kind == kind_a && c.region.entity_b.kind == kind_b) {
      EXPECT_EQ(found, nullptr) << "two contacts of that kind";
      found = &c;
    }
  if (found == nullptr) throw std::runtime_error("no contact of that kind");
  return *found;
}

std::vector<Vector3d> sorted(std::vector<Vector3d> v) {
  std::sort(v.begin(), v.end(), [](const Vector3d& a, const Vector3d& b) {
    return std::lexicographical_compare(a.data(), a.data() + 3, b.data(), b.data() + 3);
  });
  return v;
}

void expect_directions(const std::vector<Vector3d>& got, std::vector<Vector3d> expected, const std::string& what) {
  for (Vector3d& e : expected) e.normalize();
  ASSERT_EQ(got.size(), expected.size()) << what;
  const std::vector<Vector3d> g = sorted(got), e = sorted(expected);
  for (std::size_t k = 0; k < g.size(); ++k) EXPECT_LT((g[k] - e[k]).norm(), 1e-15) << what << ": " << g[k].transpose();
}

// Theorem 1 through the exact intersection: no direction that satisfies every
// normal of every contact strictly moves B into A.
void expect_normals_keep_the_solids_apart(const Polyhedron& a, const Polyhedron& b, const RigidPose<double>& pose_b,
                                          const ContactAnalysis& analysis, const std::string& what) {
  const BrepIndex index = build_brep_index(a);
  std::vector<Vector3d> directions;
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j)
      for (int k = -1; k <= 1; ++k)
        if (i != 0 || j != 0 || k != 0) directions.emplace_back(i, j, k);
  std::mt19937 random(7);
  std::normal_distribution<double> gauss;
  for (int n = 0; n < 200; ++n) directions.emplace_back(gauss(random), gauss(random), gauss(random));
  int allowed = 0;
  for (const Vector3d& d : directions) {
    const bool satisfies = std::all_of(analysis.contacts.begin(), analysis.contacts.end(), [&](const Contact& c) {
      return std::all_of(c.normals.begin(), c.normals.end(), [&](const Vector3d& n) { return n.dot(d) > 1e-9; });
    });
    if (!satisfies) continue;
    ++allowed;
    const RigidPose<double> moved = translation(std::ldexp(1.0, -10) * d.normalized()) * pose_b;
    EXPECT_FALSE(intersect(a, index, b, moved).penetrating()) << what << ": d = " << d.transpose();
  }
  EXPECT_GT(allowed, 0) << what << ": no direction satisfies the normals";
}

// The same solid with its vertices listed in reverse, each face starting at
// its second corner, and the faces in reverse order.
Polyhedron relisted(const Polyhedron& p) {
  const int n = p.vertex_count();
  std::vector<Vector3d> vertices(p.vertices().rbegin(), p.vertices().rend());
  std::vector<std::vector<int>> faces;
  for (auto f = p.faces().rbegin(); f != p.faces().rend(); ++f) {
    std::vector<int> face;
    for (const int v : *f) face.push_back(n - 1 - v);
    std::rotate(face.begin(), face.begin() + 1, face.end());
    faces.push_back(face);
  }
  return Polyhedron(polygon_soup(p.name() + " relisted", vertices, faces));
}

// The L-prism (reflex edge x = y = 1 along z) and a tetrahedron whose vertex
// touches the middle of that edge from inside the groove (the reproducer A3):
// the groove's faces x = 1 and y = 1, normals (1, 0, 0) and (0, 1, 0).
Polyhedron groove_tetrahedron() { return tetrahedron({1, 1, 0.5}, {2, 1.5, 0.3}, {1.5, 2, 0.3}, {1.7, 1.7, 0.8}); }

TEST(ContactNormals, AVertexInAReflexGrooveGetsTheTwoFacesOfTheGroove) {
  const Polyhedron prism = read_polyhedron(polyhedra_folder() / "l_prism.off");
  for (const Polyhedron& tet : {groove_tetrahedron(), relisted(groove_tetrahedron())}) {
    const ContactAnalysis analysis = analyse(prism, tet, RigidPose<double>());
    EXPECT_FALSE(analysis.intersection.penetrating());
    ASSERT_EQ(analysis.contacts.size(), std::size_t(1));
    const Contact& c = analysis.contacts.front();
    EXPECT_EQ(c.region.dimension, 0);
    EXPECT_EQ(c.rule, NormalRule::convex_pieces);
    expect_directions(c.normals, {{1, 0, 0}, {0, 1, 0}}, tet.name());
    expect_normals_keep_the_solids_apart(prism, tet, RigidPose<double>(), analysis, tet.name());
  }
}

// Swapping the solids: the groove is now B's, its inward normals are the
// normals from A (the tetrahedron) to B, the negated ones.
TEST(ContactNormals, SwappingTheSolidsNegatesTheNormals) {
  const Polyhedron prism = read_polyhedron(polyhedra_folder() / "l_prism.off");
  const ContactAnalysis analysis = analyse(groove_tetrahedron(), prism, RigidPose<double>());
  ASSERT_EQ(analysis.contacts.size(), std::size_t(1));
  EXPECT_EQ(analysis.contacts.front().rule, NormalRule::convex_pieces);
  expect_directions(analysis.contacts.front().normals, {{-1, 0, 0}, {0, -1, 0}}, "swapped");
}

// Fig. 5 (validation/fixtures/contact_scenes.hpp): B's vertex p on A's
// non-convex vertex where the floor f_1 (0, 0, 1), the wall f_2 (0, 1, 0),
// the leaning wall f_3 (0, 1, -1/2) and the end face f_4 (-1, 0, 0) meet.
// When alpha <= beta, f_3 separates B's cone from A's overhang and with the
// floor covers every piece: {f_1, f_3}; B may slide along +x. When alpha >
// beta, B's back face crosses f_3's plane, the overhang needs f_4 and the
// cells under the wall f_2: {f_1, f_2, f_4}, and +x is blocked - the moved
// solids penetrate exactly then (the geometry, checked here too).
TEST(ContactNormals, Fig5TheCornerRegionGetsTheLeaningWallOrTheEndFace) {
  for (const double cot_alpha : {0.25, kCornerCotBeta, 1.0}) {
    const ContactScene scene = corner_and_tetrahedron(cot_alpha);
    const ContactAnalysis analysis = analyse(scene.a, scene.b, scene.pose_b);
    const Contact& corner = only_contact_at(analysis, EntityKind::vertex, EntityKind::vertex);
    const std::string what = "cot alpha " + std::to_string(cot_alpha);
    EXPECT_EQ(corner.rule, NormalRule::convex_pieces) << what;
    if (cot_alpha < kCornerCotBeta) {
      expect_directions(corner.normals, {{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}, what);
    } else {
      expect_directions(corner.normals, {{0, 0, 1}, {0, 1, -kCornerCotBeta}}, what);
    }
    expect_normals_keep_the_solids_apart(scene.a, scene.b, scene.pose_b, analysis, what);
    const Polyhedron a2 = relisted(scene.a), b2 = relisted(scene.b);
    const ContactAnalysis again = analyse(a2, b2, scene.pose_b);
    const Contact& corner2 = only_contact_at(again, EntityKind::vertex, EntityKind::vertex);
    EXPECT_EQ(corner2.normals, corner.normals) << what << " (relisted)";
  }
}

// A block [-2, 2]^2 x [-3, 0] with a pit: an irregular quadrilateral
// opening in its top face and four triangular faces down to an apex. A thin
// tetrahedron stands on its tip at the apex, inside the pit. Each of the
// four pit faces is the only separating plane of the piece of A beyond it,
// so four normals are needed; Condition 8 keeps "the three maximally
// transversal planes": the three pit faces' normals whose unit vectors have
// the largest |det|, found here by trying the four triples.
TEST(ContactNormals, AVertexAtTheBottomOfAPitKeepsTheThreeMaximallyTransversalFaces) {
  const std::vector<Vector3d> q{{-1, -0.8, 0}, {1.2, -1, 0}, {0.9, 1.1, 0}, {-1, 1, 0}};
  const Vector3d apex(0.1, -0.2, -1.5);
  std::vector<Vector3d> v{{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}};  // 0-3: top square
  v.insert(v.end(), q.begin(), q.end());                                    // 4-7: the opening
  v.push_back(apex);                                                        // 8
  for (int i = 0; i < 4; ++i) v.push_back(v[std::size_t(i)] - Vector3d(0, 0, 3));  // 9-12: bottom
  std::vector<std::vector<int>> faces;
  for (int i = 0; i < 4; ++i) {
    const int j = (i + 1) % 4;
    faces.push_back({i, j, 4 + j, 4 + i});        // top, around the opening
    faces.push_back({4 + i, 4 + j, 8});           // pit
    faces.push_back({i, 9 + i, 9 + j, j});        // side
  }
  faces.push_back({9, 12, 11, 10});  // bottom
  const Polyhedron pit(polygon_soup("block with a pit", v, faces));
  const Vector3d up = (Vector3d(0.025, 0.075, 0) - apex).normalized();
  const Polyhedron needle = tetrahedron(apex, apex + 0.5 * up + Vector3d(0.05, 0, 0), apex + 0.5 * up + Vector3d(-0.03, 0.04, 0),
                                        apex + 0.5 * up + Vector3d(-0.02, -0.05, 0.01));
  const ContactAnalysis analysis = analyse(pit, needle, RigidPose<double>());
  EXPECT_FALSE(analysis.intersection.penetrating());
  ASSERT_EQ(analysis.contacts.size(), std::size_t(1));
  const Contact& c = analysis.contacts.front();
  EXPECT_EQ(c.rule, NormalRule::convex_pieces);
  std::vector<Vector3d> pit_normals;  // outward of A: into the pit
  for (int i = 0; i < 4; ++i)
    pit_normals.push_back((q[std::size_t((i + 1) % 4)] - q[std::size_t(i)]).cross(apex - q[std::size_t(i)]).normalized());
  double best = -1;
  std::vector<Vector3d> expected;
  for (int skip = 0; skip < 4; ++skip) {
    std::vector<Vector3d> triple;
    for (int i = 0; i < 4; ++i)
      if (i != skip) triple.push_back(pit_normals[std::size_t(i)]);
    const double det = std::abs(triple[0].dot(triple[1].cross(triple[2])));
    if (det > best) {
      best = det;
      expected = triple;
    }
  }
  expect_directions(c.normals, expected, "pit");
}

}  // namespace
}  // namespace contactref::robust_geometry
