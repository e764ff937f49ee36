#pragma once
// The rigid motion of a quasi-rigid body between contact solves (Pauly et
// al. Section 5: "we use a fixed inertia tensor for each body during the
// whole simulation"): the one rigid body of every model
// (spatial/rigid_body.hpp), its state, mass properties, impulses and exact
// free flight under uniform gravity.
#include "reference/spatial/rigid_body.hpp"

namespace contactref::quasi_rigid {

using BodyState = spatial::RigidBodyState<double>;
using MassProperties = spatial::MassProperties<double>;
using spatial::apply_impulse;
using spatial::free_flight;

}  // namespace contactref::quasi_rigid
