#pragma once
// Back-face culling by relative velocity (Bouma & Vanecek, Section 4.1,
// Eqs. 9-13): before B is classified through A's Brep-index, the faces of B
// that move away from their own outward normal everywhere are dropped, and
// with them the edges and vertices all of whose faces are dropped ("although
// contact may exist at time t, it cannot exist instantly after t").
//
// B moves relative to A with the twist (omega; v) (the project's order:
// angular, then linear), both in A's frame, v being the velocity of the point
// of B at A's origin: a point p of B moves at p' = v + omega x p relative to
// A. This is Eq. 12, p'_ij = a_ij + p x omega_ji, with i = B, j = A,
// a_ij = v and omega_ji = -omega. A face f with outward unit normal n_f is
// culled iff (Eq. 13) p' . n_f < 0 at every point p of f; p' . n_f is affine
// in p, so it suffices that it be negative at f's vertices, and culling
// requires it to be certainly below -margin there (interval arithmetic on the
// inputs as given, with B's exact support planes): a face in resting or
// sliding contact has p' . n_f = 0 exactly and is never culled, whatever the
// rounding. A false cull would lose a contact; a false keep only costs time.
//
// With a pose whose rotation is computed in floating point, a face in contact
// within the touch tolerance is tilted by ~1e-16 and gets a normal velocity of
// ~1e-16 |v|: give a margin above that (it plays the touch tolerance's role
// for velocities).
//
// Units: margin in the unit of the velocities (m/s in the project's scenes).
#include <Eigen/Core>
#include <array>

#include "core/rigid_pose.hpp"
#include "robust_geometry/contact_regions.hpp"
#include "robust_geometry/polyhedron.hpp"

namespace contactref::robust_geometry {

using Vector6d = Eigen::Matrix<double, 6, 1>;

// The entities of B to keep (EntityMask, every vector filled). pose_b as for
// intersect() (rigid by its type). InputError for a non-finite twist, or a
// margin that is negative or not finite.
EntityMask cull_back_faces(const Polyhedron& b, const RigidPose<double>& pose_b, const Vector6d& twist_b,
                           double margin = 0);

// How many entities a mask keeps: {vertices, edges, faces}.
std::array<int, 3> kept_counts(const EntityMask& mask);

}  // namespace contactref::robust_geometry
