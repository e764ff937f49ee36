// Back-face culling by relative velocity (Bouma & Vanecek, Section 4.1,
// Eqs. 9-13), each test with its independent check:
//   - a centrally symmetric solid under a generic translation: every face has
//     an antipodal face with the opposite normal and p' . n is constant on a
//     face, so exactly half the faces are culled, and they are the ones whose
//     normal has a negative component along the velocity (the paper's
//     "roughly half of each object is always facing in the opposite
//     direction of motion");
//   - a cube moving along -(1, 1, 1), counted by hand: its three faces at
//     the corner (1, 1, 1), the three edges between them and that vertex;
//   - resting, sliding and spinning contact (p' . n = 0 on the contact face,
//     exactly) never culls the contact face, also under a rotation that is
//     the identity only to rounding (with a margin), and intersect() with the mask finds the
//     same regions as without; lifting B culls exactly its bottom face;
//   - a face whose vertices move both ways (a rotation about an axis through
//     it) is kept: the cull needs every vertex to move away;
//   - bad input refused by name.
#include "robust_geometry/back_face_culling.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <random>

#include "tests/kit/errors.hpp"  // contains, message_of
#include "tests/kit/source_dir.hpp"
#include "tests/robust_geometry/test_solids.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Vector3d;

using test_solids::polyhedra_folder;

RigidPose<double> translation(const Vector3d& t) { return RigidPose<double>::from_translation(t); }

Vector6d twist(const Vector3d& omega, const Vector3d& v) {
  Vector6d out;
  out << omega, v;
  return out;
}

TEST(BackFaceCulling, GenericTranslationCullsExactlyHalfOfACentrallySymmetricSphere) {
  const Polyhedron sphere = read_polyhedron(polyhedra_folder() / "uv_sphere_128.off");
  std::mt19937 random(7);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 20; ++trial) {
    const Vector3d v(normal(random), normal(random), normal(random));
    const RigidPose<double> pose = translation({normal(random), normal(random), normal(random)});
    const EntityMask keep = cull_back_faces(sphere, pose, twist(Vector3d::Zero(), v));
    EXPECT_EQ(kept_counts(keep)[2], sphere.face_count() / 2);
    for (int f = 0; f < sphere.face_count(); ++f) EXPECT_EQ(keep.faces[std::size_t(f)], sphere.plane(f).normal.dot(v) > 0);
  }
}

TEST(BackFaceCulling, DiagonalMotionCullsThreeFacesThreeEdgesAndOneVertexOfACube) {
  const Polyhedron cube = read_polyhedron(polyhedra_folder() / "cube.off");
  const EntityMask keep = cull_back_faces(cube, RigidPose<double>(), twist(Vector3d::Zero(), {-1, -1, -1}));
  EXPECT_EQ(kept_counts(keep), (std::array<int, 3>{7, 9, 3}));
  for (int f = 0; f < 6; ++f) EXPECT_EQ(keep.faces[std::size_t(f)], cube.plane(f).normal.sum() < 0);
  for (int v = 0; v < 8; ++v) EXPECT_EQ(keep.vertices[std::size_t(v)], cube.vertex(v) != Vector3d(1, 1, 1));
}

TEST(BackFaceCulling, RestingSlidingAndSpinningContactFacesAreKept) {
  const Polyhedron cube = read_polyhedron(polyhedra_folder() / "cube.off");
  const BrepIndex index = build_brep_index(cube);
  const Eigen::Matrix3d q = Eigen::AngleAxisd(0.3, Vector3d(1, -2, 2).normalized()).toRotationMatrix();
  Eigen::Matrix4d rounded = translation({0.5, 0.5, 1}).matrix();
  rounded.topLeftCorner<3, 3>() = q * q.transpose();  // the identity to rounding
  const Vector3d centre(1, 1, 1);                       // B's bottom centre in A's frame
  for (const RigidPose<double>& pose :
       {translation({0.5, 0.5, 1}), RigidPose<double>::from_matrix(rounded, "rounded")}) {
    const IntersectionSet all = intersect(cube, index, cube, pose, IntersectOptions{1e-12});
    ASSERT_EQ(all.regions.size(), std::size_t(9));
    for (const Vector6d& w : {twist({0, 0, 0}, {0, 0, 0}), twist({0, 0, 0}, {1, 0.25, 0}),
                              twist({0, 0, 2}, -Vector3d(0, 0, 2).cross(centre))}) {
      // The rounded rotation tilts the contact face by ~1e-16, which gives it a
      // normal velocity ~1e-16 |v|: the margin keeps such faces, as the touch
      // tolerance keeps them in contact.
      const EntityMask keep = cull_back_faces(cube, pose, w, 1e-9);
      const IntersectionSet culled = intersect(cube, index, cube, pose, IntersectOptions{1e-12}, keep);
      ASSERT_EQ(culled.regions.size(), all.regions.size()) << w.transpose();
      for (std::size_t k = 0; k < all.regions.size(); ++k) EXPECT_EQ(culled.regions[k].points, all.regions[k].points);
    }
    // Lifting B off culls its bottom face (it recedes from A): the four
    // regions with that face go, the five with B's edges and vertex stay.
    const EntityMask lifting = cull_back_faces(cube, pose, twist({0, 0, 0}, {0, 0, 1}), 1e-9);
    EXPECT_EQ(kept_counts(lifting), (std::array<int, 3>{8, 12, 5}));
    const IntersectionSet culled = intersect(cube, index, cube, pose, IntersectOptions{1e-12}, lifting);
    EXPECT_EQ(culled.regions.size(), std::size_t(5));
    for (const ContactRegion& r : culled.regions) EXPECT_NE(r.entity_b.kind, EntityKind::face);
  }
}

TEST(BackFaceCulling, AFaceMovingBothWaysIsKept) {
  // Rotation about the z axis through the cube's centre: on each side face
  // p' . n changes sign across the face; the top and bottom have p' . n = 0.
  const Polyhedron cube = read_polyhedron(polyhedra_folder() / "cube.off");
  const Vector3d centre(0.5, 0.5, 0.5), omega(0, 0, 1);
  const EntityMask keep = cull_back_faces(cube, RigidPose<double>(), twist(omega, -omega.cross(centre)));
  EXPECT_EQ(kept_counts(keep), (std::array<int, 3>{8, 12, 6}));
  // Moving the axis to the corner edge x = y = 1 makes the faces x = 1 and
  // y = 1 move one way only... and -x, -y faces: the face y = 0 (normal -y)
  // moves along +x... p' = omega x (p - c) with c = (1, 1, 0): on y = 0,
  // p' . (0, -1, 0) = -(p - c)_x = 1 - x >= 0: kept; on x = 0, p' . (-1, 0, 0)
  // = (p - c)_y = y - 1 <= 0, zero on the edge x = 0, y = 1: kept (not
  // certainly negative at every vertex).
  const Vector3d corner(1, 1, 0);
  const EntityMask around_edge = cull_back_faces(cube, RigidPose<double>(), twist(omega, -omega.cross(corner)));
  EXPECT_EQ(kept_counts(around_edge)[2], 6);
  // Shifted so that the face x = 0 moves strictly inward everywhere: culled.
  const Vector3d beyond(1, 2, 0);
  const EntityMask shifted = cull_back_faces(cube, RigidPose<double>(), twist(omega, -omega.cross(beyond)));
  for (int f = 0; f < 6; ++f)
    EXPECT_EQ(shifted.faces[std::size_t(f)], cube.plane(f).normal != Vector3d(-1, 0, 0)) << "face " << f;
}

TEST(BackFaceCulling, BadInputIsRefusedByName) {
  const Polyhedron cube = read_polyhedron(polyhedra_folder() / "cube.off");
  const auto message = [&](const Vector6d& w, double margin) {
    return test::message_of<InputError>([&] { cull_back_faces(cube, RigidPose<double>(), w, margin); });
  };
  Vector6d bad = Vector6d::Zero();
  bad[4] = std::nan("");
  EXPECT_TRUE(test::contains(message(bad, 0), "twist_b: has a non-finite entry"));
  EXPECT_TRUE(test::contains(message(Vector6d::Zero(), -1), "culling margin"));
}

}  // namespace
}  // namespace contactref::robust_geometry
