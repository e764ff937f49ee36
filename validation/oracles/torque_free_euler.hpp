#pragma once
// The closed-form angular velocity of a torque-free rigid body (Euler's
// equations I_i dw_i/dt = (I_j - I_k) w_j w_k, (i, j, k) cyclic) in Jacobi
// elliptic functions (Landau & Lifshitz, Mechanics, Sec. 37), for any initial
// body-frame angular velocity off the separatrix and any distinct principal
// moments. An analytic reference for the free-body integrator.
//
// Derivation. Relabel the principal axes so that J1 < J2 < J3 (J = sorted
// moments) and u = (w_a, sigma w_m, w_b), where sigma = -1 if the sorting is an
// odd permutation (that keeps Euler's equations in the cyclic form above).
// With 2E = sum J u^2 and L^2 = sum J^2 u^2, the body rotates about the axis
// "d" (the dn axis: 3 if L^2 > 2E J2, else 1; "c" is the other end axis):
//   u_c = B_c cn(tau),  u_2 = s B_2 sn(tau),  u_d = s B_d dn(tau),
//   tau = lambda t + tau0,  s = sign(u_d(0)),
//   B_c^2 = (2E J_d - L^2) / (J_c (J_d - J_c)),   B_2^2 = (2E J_d - L^2) / (J2 (J_d - J2)),
//   B_d^2 = (L^2 - 2E J_c) / (J_d (J_d - J_c)),   lambda^2 = (J_d - J2)(L^2 - 2E J_c) / (J1 J2 J3),
//   k^2 = (J2 - J_c)(2E J_d - L^2) / ((J_d - J2)(L^2 - 2E J_c)),
// and tau0 = F(phi0, k) with phi0 = atan2(s u_2(0) / B_2, u_c(0) / B_c).
// The angular velocity is periodic with period 4 K(k) / lambda.
// Tests check that it satisfies Euler's equations (50-digit differences).
#include <algorithm>
#include <array>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <numeric>

#include "core/errors.hpp"
#include "core/scalar.hpp"

namespace contactref::oracles {

template <class T>
class TorqueFreeEulerSolution {
 public:
  // principal_moments (kg m^2) must be distinct and positive; omega0 (rad/s) is
  // the initial angular velocity in principal axes.
  TorqueFreeEulerSolution(const Vec3<T>& principal_moments, const Vec3<T>& omega0) {
    using std::abs;
    using std::atan2;
    using std::sqrt;
    std::iota(order_.begin(), order_.end(), 0);
    std::sort(order_.begin(), order_.end(),
              [&](std::size_t i, std::size_t j) { return principal_moments(Eigen::Index(i)) < principal_moments(Eigen::Index(j)); });
    // A sorted order that is a cyclic shift of (0, 1, 2) is an even permutation.
    sigma_ = (order_[1] == (order_[0] + 1) % 3) ? T(1) : T(-1);
    for (std::size_t i = 0; i < 3; ++i) J_[i] = principal_moments(Eigen::Index(order_[i]));
    if (!(J_[0] > T(0)) || !(J_[0] < J_[1]) || !(J_[1] < J_[2]))
      throw InputError("torque-free Euler solution: principal moments must be positive and distinct");
    const Vec3<T> u = to_sorted(omega0);
    T two_E = T(0), L2 = T(0);
    for (std::size_t i = 0; i < 3; ++i) {
      const T ui = u(Eigen::Index(i));
      two_E += J_[i] * ui * ui;
      L2 += J_[i] * J_[i] * ui * ui;
    }
    if (!(two_E > T(0))) throw InputError("torque-free Euler solution: the body does not rotate");
    if (L2 == two_E * J_[1])
      throw InputError("torque-free Euler solution: the motion lies on the separatrix (L^2 = 2 E I2)");
    d_ = L2 > two_E * J_[1] ? 2 : 0;
    c_ = 2 - d_;
    const T Jc = J_[c_], Jd = J_[d_], J2 = J_[1];
    B_c_ = sqrt((two_E * Jd - L2) / (Jc * (Jd - Jc)));
    B_2_ = sqrt((two_E * Jd - L2) / (J2 * (Jd - J2)));
    B_d_ = sqrt((L2 - two_E * Jc) / (Jd * (Jd - Jc)));
    lambda_ = sqrt((Jd - J2) * (L2 - two_E * Jc) / (J_[0] * J_[1] * J_[2]));
    k_ = sqrt((J2 - Jc) * (two_E * Jd - L2) / ((Jd - J2) * (L2 - two_E * Jc)));
    s_ = u(Eigen::Index(d_)) > T(0) ? T(1) : T(-1);
    tau0_ = boost::math::ellint_1(k_, T(atan2(s_ * u(1) / B_2_, u(Eigen::Index(c_)) / B_c_)));
  }

  // The angular velocity in principal axes at time t (s).
  Vec3<T> omega(const T& t) const {
    T cn, dn;
    const T sn = boost::math::jacobi_elliptic(k_, T(lambda_ * t + tau0_), &cn, &dn);
    Vec3<T> u;
    u(Eigen::Index(c_)) = B_c_ * cn;
    u(1) = s_ * B_2_ * sn;
    u(Eigen::Index(d_)) = s_ * B_d_ * dn;
    return from_sorted(u);
  }

  // The period of the angular velocity, 4 K(k) / lambda (s).
  T period() const { return 4 * boost::math::ellint_1(k_) / lambda_; }

  // The elliptic modulus k (close to 1 near the separatrix, the
  // intermediate-axis flip).
  T modulus() const { return k_; }

 private:
  Vec3<T> to_sorted(const Vec3<T>& w) const {
    return Vec3<T>(w(Eigen::Index(order_[0])), sigma_ * w(Eigen::Index(order_[1])), w(Eigen::Index(order_[2])));
  }
  Vec3<T> from_sorted(const Vec3<T>& u) const {
    Vec3<T> w;
    w(Eigen::Index(order_[0])) = u(0);
    w(Eigen::Index(order_[1])) = sigma_ * u(1);
    w(Eigen::Index(order_[2])) = u(2);
    return w;
  }

  std::array<std::size_t, 3> order_{};
  std::array<T, 3> J_{};
  T sigma_, B_c_, B_2_, B_d_, lambda_, k_, s_, tau0_;
  std::size_t c_ = 0, d_ = 2;
};

}  // namespace contactref::oracles
