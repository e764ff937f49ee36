#pragma once
// Flight (issue 30 item 1): body 1 free under gravity, away from body 2,
// by Newton-Euler (Kry & Pai Eq. 15 with gravity the only force, through
// the centre of mass) split the way a free body allows: Newton's law for
// the centre of mass in world coordinates, x' = v, v' = g, and Euler's
// equations in body axes, I omega' = -omega x I omega with
// q' = q (x) (0, omega) / 2 (spatial/free_body.hpp quaternion_derivative).
// The state (13 entries) is (q_w_b as (w, x, y, z), x_w, omega_b, v_w). The
// split keeps the ballistic flight exact under RK4 and Dormand-Prince (both
// integrate a quadratic exactly), where the body-frame twist of
// spatial/free_body.hpp turns v with the body at each stage: a ball spinning
// at 30 rad/s lost 2e-4 m/s of its horizontal velocity per 16 ms step that
// way. The contact modes' integrators and step control: one RK4 or
// Dormand-Prince 5(4) step, the quaternion renormalised after it
// (free_body.hpp: its drift is O(h^5), so the order is kept), the error
// estimate scaled like the contact modes' (relative to 1 + |y_i|), and the
// energy (kinetic plus gravitational, zero at the world origin as in the
// contact modes) for the RK4 acceptance test.
//
// conservative_step: the longest step in which no point of body 1 can
// travel farther than `distance` (conservative advancement): every point of
// the body is within a radius of its centre of mass, so it moves at most at
// |v| + |omega| radius plus what gravity adds, |g| h; a step h with
// (|v| + |omega| radius) h + |g| h^2 / 2 <= distance cannot close a gap of
// `distance`. |omega| changes during a flight for an asymmetric body; the
// caller bounds it by sqrt(omega . I omega / I_min) (angular_speed_bound:
// the rotational energy, which no flight changes, over the smallest
// principal moment). Against a half-space only the components of v and g
// along its normal count (the caller's).
#include "reference/dynamics/contact_simulation.hpp"
#include "reference/dynamics/integrators.hpp"
#include "reference/spatial/free_body.hpp"

namespace contactref::dynamics {

template <class T>
class FlightDynamics {
 public:
  using State = Eigen::Matrix<T, 13, 1>;
  // InputError unless (mass, I_com_b) is a rigid body's (spatial_inertia.hpp
  // check_rigid_inertia).
  FlightDynamics(const T& mass, const Mat3<T>& I_com_b, const Vec3<T>& gravity_w);

  // The state of a body and back (the quaternion normalised).
  static State state_of(const spatial::RigidBodyState<T>& body);
  static spatial::RigidBodyState<T> body_of(const State& y);
  static Mat4<T> pose_of(const State& y);

  State derivative(const State& y) const;
  // One step of h from y (derivative k1 there); error: the Dormand-Prince
  // estimate scaled by `tolerance` (0 for RK4). ComputationError when the
  // state is not finite after it.
  State step(IntegratorKind integrator, const State& y, const State& k1, const T& h, const T& tolerance,
             T& error) const;
  T energy(const State& y) const;          // J
  T kinetic_energy(const State& y) const;  // J
  // A bound on |omega| for the whole flight: sqrt(omega . I omega / I_min),
  // the rotational energy over the smallest principal moment.
  T angular_speed_bound(const State& y) const;

 private:
  T mass_;
  Mat3<T> I_com_b_, I_com_b_inverse_;
  Vec3<T> gravity_w_;
  T smallest_moment_;
};

// The conservative-advancement step above (infinite when nothing moves).
template <class T>
T conservative_step(const T& distance, const T& speed, const T& gravity);

}  // namespace contactref::dynamics
