// Tests of the analytic reference validation/oracles/torque_free_euler.hpp:
// it must satisfy Euler's equations (50-digit central differences), conserve
// energy and angular momentum, be periodic, and agree in double and 50 digits.
#include <gtest/gtest.h>

#include "tests/kit/finite_difference.hpp"
#include "tests/kit/matrix_compare.hpp"
#include "tests/kit/random.hpp"
#include "validation/oracles/torque_free_euler.hpp"

namespace contactref::oracles {
namespace {

struct Case {
  Vec3<double> moments;
  Vec3<double> omega0;
};

// Rotation about the largest axis, about the smallest axis, near the
// intermediate axis (both sides of the separatrix), moments in every order
// (even and odd permutations), negative components.
const Case kCases[] = {
    {{2, 3, 4}, {0.1, 0.2, 2.0}},   {{2, 3, 4}, {2.0, 0.2, 0.1}},  {{2, 3, 4}, {0.1, 2.0, 0.1}},
    {{2, 3, 4}, {0.1, 2.0, 0.09}},  {{3, 4, 2}, {-0.3, 0.5, 1.0}}, {{4, 2, 3}, {0.7, -1.2, 0.4}},
    {{2, 4, 3}, {0.5, -0.6, -0.7}}, {{3, 2, 4}, {-1.0, 0.4, 0.3}}, {{4, 3, 2}, {0.2, 1.5, -0.4}},
};

Vec3<Real50> euler_rhs(const Vec3<Real50>& I, const Vec3<Real50>& w) {
  return Vec3<Real50>((I(1) - I(2)) * w(1) * w(2) / I(0), (I(2) - I(0)) * w(2) * w(0) / I(1),
                      (I(0) - I(1)) * w(0) * w(1) / I(2));
}

TEST(TorqueFreeEulerSolution, SatisfiesEulersEquations) {
  for (const Case& c : kCases) {
    const Vec3<Real50> I = c.moments.cast<Real50>();
    const TorqueFreeEulerSolution<Real50> solution(I, c.omega0.cast<Real50>());
    EXPECT_TRUE(test::matrices_near(solution.omega(Real50(0)), c.omega0.cast<Real50>().eval(), Real50("1e-40")));
    for (double t : {0.0, 0.37, 1.9, 7.3}) {
      const Vec3<Real50> dw = test::central_difference([&](const Real50& tau) { return solution.omega(tau); }, Real50(t));
      EXPECT_TRUE(test::matrices_near(dw, euler_rhs(I, solution.omega(Real50(t))), test::finite_difference_tolerance(10)))
          << "moments " << c.moments.transpose() << " omega0 " << c.omega0.transpose() << " t " << t;
    }
  }
}

TEST(TorqueFreeEulerSolution, IsPeriodicAndConservesEnergyAndMomentum) {
  for (const Case& c : kCases) {
    const TorqueFreeEulerSolution<double> solution(c.moments, c.omega0);
    const Vec3<double> I = c.moments;
    const double E0 = c.omega0.dot(I.asDiagonal() * c.omega0);
    const double L0 = (I.asDiagonal() * c.omega0).norm();
    for (double t : {0.5, 3.0, 11.0}) {
      const Vec3<double> w = solution.omega(t);
      // Elliptic functions in double are accurate to a few hundred ulps near k = 1.
      EXPECT_TRUE(test::scalars_near(w.dot(I.asDiagonal() * w), E0, test::tolerance<double>(1024)));
      EXPECT_TRUE(test::scalars_near((I.asDiagonal() * w).norm(), L0, test::tolerance<double>(1024)));
      EXPECT_TRUE(test::matrices_near(solution.omega(t + solution.period()), w, test::tolerance<double>(4096)));
    }
  }
}

TEST(TorqueFreeEulerSolution, DoubleAgreesWith50Digits) {
  for (const Case& c : kCases) {
    const TorqueFreeEulerSolution<double> in_double(c.moments, c.omega0);
    const TorqueFreeEulerSolution<Real50> in_50(c.moments.cast<Real50>(), c.omega0.cast<Real50>());
    for (double t : {0.0, 1.0, 20.0}) {
      // Phase error grows with lambda t: bound by 1e4 ulps over 20 s.
      EXPECT_TRUE(test::matrices_near(in_double.omega(t).cast<Real50>().eval(), in_50.omega(Real50(t)),
                                      Real50(test::tolerance<double>(1e4))));
    }
  }
}

TEST(TorqueFreeEulerSolution, RejectsDegenerateInput) {
  EXPECT_THROW(TorqueFreeEulerSolution<double>(Vec3<double>(2, 2, 4), Vec3<double>(1, 1, 1)), InputError);
  EXPECT_THROW(TorqueFreeEulerSolution<double>(Vec3<double>(2, 3, 4), Vec3<double>(0, 0, 0)), InputError);
  EXPECT_THROW(TorqueFreeEulerSolution<double>(Vec3<double>(2, 3, 4), Vec3<double>(0, 1, 0)), InputError);  // separatrix
}

}  // namespace
}  // namespace contactref::oracles
