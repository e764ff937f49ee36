#pragma once
// The simulator's bounds on its own steps (contact_simulation.hpp), each a
// small rule with its derivation:
//  - min_resolvable_step: the smallest h_min whose steps still move the clock;
//  - energy_step_bound: the RK4 acceptance test on the energy balance (the
//    energy less the law's work, which the step should keep);
//  - resolved_step: the longest step that resolves the body's rotation, and
//    unresolved_rotation: why a rotation h_min cannot resolve ends a run;
//  - stalled_pass_limit: the watchdog, the most loop passes that can follow
//    each other without a step of at least h_min.
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "core/scalar.hpp"

namespace contactref::dynamics {

// t + h rounds with an error of at most ulp(t) / 2 <= eps |t| / 2. A step of
// at least 2^10 eps max(|t_start|, |t_end|) therefore advances the clock with
// a relative error below 2^-11 everywhere in the run; a smaller h_min may
// leave the time where it is (h = 1e-300: for ever).
template <class T>
T min_resolvable_step(const T& start_time, const T& duration) {
  using std::abs;
  return T(1024) * epsilon<T>() * std::max(abs(start_time), T(abs(start_time + duration)));
}

// RK4 on the harmonic oscillator y'' = -w^2 y multiplies its energy per step
// by |R(i w h)|^2 = 1 - (w h)^6 / 72 + (w h)^8 / 576: a step that resolves
// the motion (w h <= 1, at least 2 pi steps per period) changes the energy by
// at most 1/72 of the oscillation's energy, which the largest kinetic energy
// seen bounds from below after a quarter period. A step whose energy balance
// (the change of the energy less the law's work over the step, by the
// method's own quadrature: zero for an exact step in every mode) is off by
// more than 1/72 of the kinetic scale (the largest of the kinetic energies
// at its ends and of the accepted states so far) does not resolve the
// motion: it is retried with a smaller step. The round-off of the energies
// (64 eps of the magnitudes of their terms) is added.
template <class T>
T energy_step_bound(const T& kinetic_scale, const T& magnitude) {
  return kinetic_scale / T(72) + T(64) * epsilon<T>() * magnitude;
}

// The longest step that resolves a body turning at angular_speed (rad/s,
// relative to body 2): the bound above assumes w h <= 1 (a radian per step),
// and the contact coordinates turn with the body (psi with the spin, the
// contact points with the rolling), so that the right-hand side varies at
// that rate whatever the energies say (a spin of 1e6 rad/s hides an energy
// error of 1e7 J per step below 1/72 of its kinetic energy). Infinite at
// rest.
template <class T>
T resolved_step(const T& angular_speed) {
  return angular_speed > T(0) ? T(T(1) / angular_speed) : T(std::numeric_limits<double>::infinity());
}

// Empty when a body turning at angular_speed (rad/s, relative to body 2) is
// resolved by steps of h_min, else the reason the run ends: in contact and
// in flight alike, a faster rotation would be stepped below h_min for ever.
template <class T>
std::string unresolved_rotation(const T& angular_speed, const T& h_min) {
  const T h_resolved = resolved_step(angular_speed);
  if (!(h_resolved < h_min)) return "";
  std::ostringstream os;
  os << "the body turns at " << angular_speed << " rad/s relative to body 2: a step resolves at most a radian of it "
     << "(step_acceptance.hpp resolved_step), " << h_resolved << " s, below h_min = " << h_min
     << " s; the motion cannot be resolved";
  return os.str();
}

// Passes without a step of at least h_min: the halvings from h_max down to
// h_min (ceil(log2(h_max / h_min)) + 1), then one pass per located crossing,
// piece change or transition before the next full step. Those lie within one
// minimum step: at most kMaxCornerTransitions at a corner, and about an
// extraordinary vertex three pieces in each of Stam's rings down to the last
// one a T resolves (digits + 8 levels), each crossed at most twice (located,
// then stepped over unpinned). More passes than that is a livelock.
template <class T>
long stalled_pass_limit(const T& h_max, const T& h_min, int max_corner_transitions) {
  using std::ceil;
  using std::log2;
  const long halvings = long(ceil(double(log2(h_max) - log2(h_min)))) + 1;  // no overflow of h_max / h_min
  return halvings + max_corner_transitions + 2 * 3 * (std::numeric_limits<T>::digits + 8);
}

}  // namespace contactref::dynamics
