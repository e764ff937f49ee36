// The Dormand-Prince 5(4) pair against the harmonic oscillator's closed form:
// the fifth-order solution converges at order 5 and the error estimate (the
// difference from the embedded fourth-order solution) at order 5 per step
// (local error of the fourth-order member). RK4 through the same interface
// shape: order 4.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/dynamics/integrators.hpp"
#include "core/scalar.hpp"

namespace contactref::dynamics {
namespace {

using State = Eigen::Vector2d;

// x'' = -x from (1, 0): x = cos t.
State oscillator(const State& y) { return State(y(1), -y(0)); }

template <class Step>
double global_error(const Step& step, int n) {
  const double h = 2.0 / n;
  State y(1, 0);
  for (int k = 0; k < n; ++k) y = step(y, oscillator(y), h);
  return (y - State(std::cos(2.0), -std::sin(2.0))).norm();
}

TEST(Integrators, DormandPrinceIsFifthOrderAgainstTheClosedForm) {
  const auto step = [](const State& y, const State& k1, double h) {
    return dormand_prince_step(oscillator, y, k1, h).y;
  };
  const double coarse = global_error(step, 20), fine = global_error(step, 40);
  EXPECT_NEAR(std::log2(coarse / fine), 5.0, 0.3) << coarse << " " << fine;
}

TEST(Integrators, DormandPrinceErrorEstimateIsTheFourthOrderLocalError) {
  const State y(1, 0);
  std::vector<double> estimates;
  for (double h : {0.2, 0.1}) {
    const EmbeddedStep<State> step = dormand_prince_step(oscillator, y, oscillator(y), h);
    estimates.push_back(step.error.norm());
    // The estimate bounds the true error of the embedded fourth-order solution.
    const State exact(std::cos(h), -std::sin(h));
    EXPECT_NEAR((step.y - step.error - exact).norm(), step.error.norm(), 0.1 * step.error.norm());
  }
  EXPECT_NEAR(std::log2(estimates[0] / estimates[1]), 5.0, 0.3);
}

TEST(Integrators, Rk4IsFourthOrderAgainstTheClosedForm) {
  const auto step = [](const State& y, const State& k1, double h) {
    return spatial::rk4_step_autonomous(oscillator, y, k1, h);
  };
  const double coarse = global_error(step, 20), fine = global_error(step, 40);
  EXPECT_NEAR(std::log2(coarse / fine), 4.0, 0.2) << coarse << " " << fine;
}

}  // namespace
}  // namespace contactref::dynamics
