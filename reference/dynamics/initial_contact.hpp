#pragma once
// The check that a simulation starts in contact without interpenetration
// (the reduced coordinates, Kry & Pai Section 3.1, put the two surfaces
// tangent at one point; nothing in them keeps the rest of the bodies apart):
//  - locally: the relative curvature K1 + R K2 R^T of the two surfaces at the
//    contact (contact_frame.hpp curvature, each about its outward normal;
//    R the 2c-to-1c tangent rotation of Eq. 7) must have no negative
//    eigenvalue beyond its round-off: a negative one means the surfaces cross
//    along that direction next to the contact point (a torus's inner saddle
//    on a floor, a body inside a tighter concave surface);
//  - over body 1, when body 2's patch is a plane (surfaces::PlanePatch): no
//    sample of body 1's surfaces (a grid on each patch's domain) lies below
//    the plane by more than 1e-9 of body 1's size (the surfaces' round-off
//    is far below, any physical overlap far above). Over general surfaces
//    this needs a proximity query (the collision detection of contact
//    transitions).
#include "reference/dynamics/contact_simulation.hpp"

namespace contactref::dynamics {

// InputError naming the contact (patches, q) and what overlaps.
template <class T>
void check_initial_contact(const ContactSystem<T>& system, const ContactState<T>& state);

}  // namespace contactref::dynamics
