#pragma once
// Polyhedra built in code for the contact analysis (Bouma & Vanecek): small
// builders (convex solids from their faces, boxes, tetrahedra, octahedra,
// prisms over a profile), rigid translations, entities named by their
// coordinates, and the configurations of the paper's figures as we
// reconstruct them (the paper gives no coordinates; each one is described
// where it is built). Shared by tests/robust_geometry/ and the brep-contact
// suite.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/rigid_pose.hpp"
#include "robust_geometry/contact_regions.hpp"

namespace contactref::data {

using robust_geometry::Entity;
using robust_geometry::Polyhedron;

// A convex polyhedron from its vertices and faces; each face's vertices are
// reordered if needed to run counter-clockwise seen from outside (against the
// centroid of the vertices).
Polyhedron convex_polyhedron(const std::vector<Eigen::Vector3d>& vertices, std::vector<std::vector<int>> faces,
                             const std::string& name);
Polyhedron box(const Eigen::Vector3d& lo, const Eigen::Vector3d& hi);
Polyhedron tetrahedron(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                       const Eigen::Vector3d& d);
// The octahedron with vertices at distance r on the axes, its lowest vertex at
// `bottom`.
Polyhedron octahedron(const Eigen::Vector3d& bottom, double r);
// The prism over a simple polygon `profile` in the (x, z) plane (counter-
// clockwise with x to the right and z up), extruded over y in [y0, y1].
Polyhedron prism_xz(const std::vector<Eigen::Vector2d>& profile, double y0, double y1, const std::string& name);

RigidPose<double> translation(const Eigen::Vector3d& t);

// Entities named by geometry, in the polyhedron's own frame;
// InputError if there is none.
Entity vertex_at(const Polyhedron& p, const Eigen::Vector3d& x);
Entity edge_at(const Polyhedron& p, const Eigen::Vector3d& x, const Eigen::Vector3d& y);
Entity face_facing(const Polyhedron& p, const Eigen::Vector3d& normal);

// Two solids in contact: A (indexed) and B posed in A's frame.
struct ContactScene {
  std::string name;
  Polyhedron a, b;
  RigidPose<double> pose_b;
};

// Fig. 4 at the collision: the floor z = 0 with a ramp rising at 45 degrees
// from the line x = 2 (a reflex edge at its foot), and the block
// [1, 2] x [1/4, 3/4] x [0, 1] on the floor, its front-bottom edge on that
// reflex edge.
ContactScene floor_with_ramp_and_block();

// Fig. 8: two fingers (a prism whose profile has two peaks, top edges at
// x = 1 and x = 3, z = 1) and the block [x0, x0 + 5/2] x [1/4, 3/4] x [1, 3/2]
// lying on them.
Polyhedron two_fingers();
Polyhedron fig8_block();  // the block at x0 = 0, z from 0: pose it with translation({x0, 0, 1})

// Figs. 5-6 as we read them: a floor (z = 0, y >= 0) meeting a wall along the
// x axis; for x < 0 the wall is the plane y = 0 (f_2), for x > 0 it leans over
// the floor at angle beta (its face f_3 through the x axis, cot beta = 1/2),
// an end face f_4 in x = 0 joining the two. A tetrahedron (B) rests on the
// floor (a 2D region) with its edge from (-1, 0, 0) to p = (0, 0, 0) in the
// corner (a 1D region on the reflex edge), its back face through that edge at
// angle alpha from the floor (cot alpha given), not touching f_2; p lies on
// A's vertex where f_1, f_2, f_3 and f_4 meet. Moving B along +x (allowed by
// the floor's and the wall's normals) makes B's neighbourhood of p penetrate
// A iff alpha > beta.
ContactScene corner_and_tetrahedron(double cot_alpha);
inline constexpr double kCornerCotBeta = 0.5;

}  // namespace contactref::data
