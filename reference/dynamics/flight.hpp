#pragma once
// Flight (issue 30 item 1): body 1 free under gravity, away from body 2.
// Newton-Euler of reference/spatial (free_body.hpp: the pose and the body
// twist, Eq. 15 in the body frame at the centre of mass, gravity the only
// wrench) with the contact modes' integrators: one RK4 or Dormand-Prince
// 5(4) step over the 13-vector state, its quaternion renormalised after the
// step (free_body.hpp: the drift is O(h^5), so the order is kept). Its
// error estimate is scaled like the contact modes' (relative to
// 1 + |y_i|), and its energy (kinetic plus gravitational, zero at the world
// origin as in the contact modes) is what the RK4 acceptance test compares.
//
// conservative_step: the longest step in which no point of body 1 can
// travel farther than `distance` (conservative advancement): every point of
// the body is within `radius` of its centre of mass, so it moves at most at
// |v| + |omega| radius plus what gravity adds, |g| h; a step h with
// (|v| + |omega| radius) h + |g| h^2 / 2 <= distance cannot close a gap of
// `distance` (the rotation's speed bound holds for any axis: |omega x r| <=
// |omega| radius; omega is constant in magnitude only for a symmetric body,
// so |omega| is bounded by the angular momentum over the smallest principal
// moment, which the caller passes as angular_speed_bound).
#include "reference/dynamics/contact_simulation.hpp"
#include "reference/dynamics/integrators.hpp"
#include "reference/spatial/free_body.hpp"

namespace contactref::dynamics {

template <class T>
class FlightDynamics {
 public:
  using State = spatial::FreeBodyState<T>;
  FlightDynamics(const T& mass, const Mat3<T>& I_com_b, const Vec3<T>& gravity_w);

  State derivative(const State& y) const;
  // One step of h from y (derivative k1 there); error: the Dormand-Prince
  // estimate scaled by `tolerance` (0 for RK4). ComputationError when the
  // state is not finite after it.
  State step(IntegratorKind integrator, const State& y, const State& k1, const T& h, const T& tolerance,
             T& error) const;
  T energy(const State& y) const;          // J
  T kinetic_energy(const State& y) const;  // J
  // A bound on |omega| for the whole flight: |L| / the smallest principal moment.
  T angular_speed_bound(const State& y) const;
  const spatial::RigidBodyInertia<T>& inertia() const { return body_; }

 private:
  T mass_;
  spatial::RigidBodyInertia<T> body_;
  Vec3<T> gravity_w_;
  T smallest_moment_;
};

// The conservative-advancement step above (infinite when nothing moves).
template <class T>
T conservative_step(const T& distance, const T& speed, const T& gravity);

}  // namespace contactref::dynamics
