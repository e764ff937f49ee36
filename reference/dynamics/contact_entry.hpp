#pragma once
// The maps between the free body and a contact (Kry & Pai Section 3.6,
// "establishing contact"; shared/notes/smooth-contact.md Section 3.5):
//  - contact_entry: a free body touching body 2 at the parameters (s, t) of
//    its patch1 and (u, v) of body 2's patch2 (the closest points) becomes a
//    contact state. psi from the tangent frames: x_2c = R_psi e_x in frame 1c
//    (kinematics::frame_alignment, Eq. 7) reads
//      cos psi = x_2c . x_1c,  sin psi = -x_2c . y_1c;
//    the pose snaps to Eq. 9's E_w_2 E_2_1(q) (the points coincide, the
//    normals oppose), keeping the orientation about the normal; and q' is the
//    projection of the body's twist onto the contact's: phi_1c = Ad_1c_1 phi
//    (body 1's twist relative to the fixed body 2, Eq. 10) less its normal
//    velocity, solved from the five rows H5 q' = phi_1c[0..4] (H_1c's sixth
//    row is zero; H5 is regular wherever the contact is not conforming:
//    Montana's equations). The normal velocity is discarded.
//  - free_state: the free body of an evaluated contact state: its pose and
//    twist in the world (spatial/rigid_body.hpp).
#include "reference/dynamics/contact_dynamics.hpp"
#include "reference/dynamics/contact_simulation.hpp"
#include "reference/spatial/rigid_body.hpp"

namespace contactref::dynamics {

template <class T>
struct ContactEntry {
  ContactState<T> state;   // mode: frictionless (the simulator chooses the mode)
  T snap_distance;         // m: how far the centre of mass moved to the constraint
  T snap_rotation;         // rad: how far the body turned to it
  T normal_velocity;       // m/s: the discarded velocity of body 1's contact point along body 2's normal (< 0 approaching)
};

// ComputationError naming the patches when a point is not regular or the
// contact is conforming (H5 singular).
template <class T>
ContactEntry<T> contact_entry(const ContactSystem<T>& system, const spatial::RigidBodyState<T>& body, const T& time,
                              int patch1, const surfaces::Vec2<T>& st, int patch2, const surfaces::Vec2<T>& uv);

template <class T>
spatial::RigidBodyState<T> free_state(const ContactDynamicsState<T>& at);

}  // namespace contactref::dynamics
