#pragma once
// The classical fourth-order Runge-Kutta step, over any Eigen vector state.
namespace contactref::spatial {

// One step of y' = f(t, y) from (t, y) with step h, given the derivative
// k1 = f(t, y) at the start (a caller that already has it saves one
// evaluation).
// RK4's quadrature of four stage values a1..a4 over a step h:
// h/6 (a1 + 2 a2 + 2 a3 + a4) (the step's increment, or any quantity
// integrated alongside it).
template <class T, class V>
V rk4_combine(const T& h, const V& a1, const V& a2, const V& a3, const V& a4) {
  return (h / 6) * (a1 + T(2) * a2 + T(2) * a3 + a4);
}

template <class T, class State, class Derivative>
State rk4_step_from(const Derivative& f, const T& t, const State& y, const State& k1, const T& h) {
  const State k2 = f(t + h / 2, State(y + (h / 2) * k1));
  const State k3 = f(t + h / 2, State(y + (h / 2) * k2));
  const State k4 = f(t + h, State(y + h * k3));
  return y + rk4_combine(h, k1, k2, k3, k4);
}

// One step of y' = f(t, y) from (t, y) with step h.
template <class T, class State, class Derivative>
State rk4_step(const Derivative& f, const T& t, const State& y, const T& h) {
  return rk4_step_from(f, t, y, State(f(t, y)), h);
}

// One step of the autonomous y' = f(y), given k1 = f(y).
template <class T, class State, class Derivative>
State rk4_step_autonomous(const Derivative& f, const State& y, const State& k1, const T& h) {
  return rk4_step_from([&](const T&, const State& x) { return State(f(x)); }, T(0), y, k1, h);
}

}  // namespace contactref::spatial
