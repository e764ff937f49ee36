#pragma once
// One step of an explicit Runge-Kutta method for an autonomous ODE y' = f(y)
// over any Eigen vector state, with the derivative at the start supplied by
// the caller (the simulator has it from the previous step's checks).
//  - spatial::rk4_step_autonomous: the classical fourth-order method (Kry &
//    Pai Section 3.7).
//  - dormand_prince_step: the Dormand-Prince 5(4) pair (Dormand & Prince
//    1980; Hairer, Norsett & Wanner, Solving ODEs I, Table 5.2): the
//    fifth-order solution (local extrapolation) and the difference from the
//    embedded fourth-order one as the error estimate.
#include <cmath>

#include "core/scalar.hpp"
#include "reference/spatial/rk4.hpp"

namespace contactref::dynamics {

template <class State>
struct EmbeddedStep {
  State y;      // fifth order
  State error;  // fifth- minus fourth-order solution
};

// The fifth-order quadrature of the stage values a1, a3..a6 over a step h
// (the weights b; a2 and the seventh stage have none): the step's
// increment, or any quantity integrated alongside it.
template <class T, class V>
V dormand_prince_combine(const T& h, const V& a1, const V& a3, const V& a4, const V& a5, const V& a6) {
  return h * ((T(35) / 384) * a1 + (T(500) / 1113) * a3 + (T(125) / 192) * a4 - (T(2187) / 6784) * a5 +
              (T(11) / 84) * a6);
}

template <class State, class T, class Derivative>
EmbeddedStep<State> dormand_prince_step(const Derivative& f, const State& y, const State& k1, const T& h) {
  const State k2 = f(State(y + h * (T(1) / 5) * k1));
  const State k3 = f(State(y + h * ((T(3) / 40) * k1 + (T(9) / 40) * k2)));
  const State k4 = f(State(y + h * ((T(44) / 45) * k1 - (T(56) / 15) * k2 + (T(32) / 9) * k3)));
  const State k5 = f(State(y + h * ((T(19372) / 6561) * k1 - (T(25360) / 2187) * k2 + (T(64448) / 6561) * k3 -
                                    (T(212) / 729) * k4)));
  const State k6 = f(State(y + h * ((T(9017) / 3168) * k1 - (T(355) / 33) * k2 + (T(46732) / 5247) * k3 +
                                    (T(49) / 176) * k4 - (T(5103) / 18656) * k5)));
  const State y5 = y + dormand_prince_combine(h, k1, k3, k4, k5, k6);
  const State k7 = f(y5);
  // b - b*: the fifth-order weights less the fourth-order ones.
  const State error = h * ((T(71) / 57600) * k1 - (T(71) / 16695) * k3 + (T(71) / 1920) * k4 -
                           (T(17253) / 339200) * k5 + (T(22) / 525) * k6 - (T(1) / 40) * k7);
  return {y5, error};
}

// The root of an event function along a step: g(h) for the state after a
// step of length h, given g(a) = ga >= 0 > gb = g(b) with a < b, by Illinois
// (modified regula falsi, which keeps superlinear convergence where plain
// regula falsi stalls at one end). Stops when |g| <= slack or the bracket
// is below 4 eps b; returns the length at the last evaluation (g's caller
// keeps the state it evaluated there).
template <class T, class G>
T illinois_root(const G& g, T a, T ga, T b, T gb, const T& slack) {
  using std::abs;
  T c = b;
  for (int iteration = 0; iteration < 100; ++iteration) {
    c = (a * gb - b * ga) / (gb - ga);
    const T gc = g(c);
    if (abs(gc) <= slack || abs(b - a) <= T(4) * epsilon<T>() * abs(b)) break;
    if ((gc < T(0)) == (gb < T(0))) {
      ga /= 2;
    } else {
      a = b, ga = gb;
    }
    b = c, gb = gc;
  }
  return c;
}

}  // namespace contactref::dynamics
