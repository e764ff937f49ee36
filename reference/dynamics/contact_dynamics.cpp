#include "reference/dynamics/contact_dynamics.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "reference/spatial/newton_euler.hpp"

namespace contactref::dynamics {

namespace {

template <class T>
void check_finite(const T* data, Eigen::Index n, const std::string& what) {
  using std::isfinite;
  for (Eigen::Index k = 0; k < n; ++k)
    if (!isfinite(data[k])) throw InputError("contact dynamics: " + what + " has a non-finite entry");
}

template <class T>
void check_state(const Vec10<T>& y) {
  using std::isfinite;
  static const char* const names[10] = {"s", "t", "u", "v", "psi", "s'", "t'", "u'", "v'", "psi'"};
  for (int k = 0; k < 10; ++k)
    if (!isfinite(y(k))) throw InputError(std::string("contact dynamics state: ") + names[k] + " is not finite");
}

}  // namespace

template <class T>
ContactDynamics<T>::ContactDynamics(const T& mass, const Mat3<T>& I_com, const surfaces::Patch<T>& patch1,
                                    const surfaces::Patch<T>& patch2, const Mat4<T>& E_w_2, const Vec3<T>& gravity_w,
                                    const Vec6<T>& extra_wrench_b)
    : mass_(mass),
      body_(mass, I_com),
      patch1_(&patch1),
      patch2_(&patch2),
      E_w_2_(E_w_2),
      gravity_w_(gravity_w),
      extra_wrench_b_(extra_wrench_b) {
  using std::abs;
  check_finite(E_w_2.data(), 16, "E_w_2");
  check_finite(gravity_w.data(), 3, "gravity");
  check_finite(extra_wrench_b.data(), 6, "extra body wrench");
  const Mat3<T> R = spatial::rotation_of(E_w_2);
  if ((R.transpose() * R - Mat3<T>::Identity()).cwiseAbs().maxCoeff() > T(1e-6) || !(R.determinant() > T(0)) ||
      E_w_2.template bottomRows<1>() != Eigen::Matrix<T, 1, 4>(T(0), T(0), T(0), T(1)))
    throw InputError("contact dynamics: E_w_2 is not a rigid pose (rotation not orthonormal or bottom row not 0 0 0 1)");
}

template <class T>
ContactDynamicsState<T> ContactDynamics<T>::evaluate(const Vec10<T>& y) const {
  using std::sqrt;
  check_state(y);
  const Vec5<T> q = y.template head<5>(), qdot = y.template tail<5>();
  ContactDynamicsState<T> r{kinematics::contact_kinematics<T>(*patch1_, *patch2_, q, qdot), {}, {}, {}, {}, {}, {},
                            {}, T(0), false, {}, T(0)};
  const kinematics::ContactKinematics<T>& k = r.kinematics;
  const Mat6<T>& M = body_.M_b;
  r.E_w_1 = E_w_2_ * k.E_2_1;
  r.phi = k.H_1 * qdot;
  r.f_ext = extra_wrench_b_;
  r.f_ext.template tail<3>() += mass_ * (spatial::rotation_of(r.E_w_1).transpose() * gravity_w_);

  // Eq. 20, Jacobi-scaled so that the pivot test does not depend on the units
  // of the contact coordinates: A = S (H^T M H) S, S = diag(A_ii)^-1/2.
  const Mat5<T> A = k.H_1.transpose() * M * k.H_1;
  const Vec5<T> b = k.H_1.transpose() *
                    (r.f_ext + spatial::spatial_cross(r.phi).transpose() * (M * r.phi) - M * (k.Hdot_1 * qdot));
  Vec5<T> S;
  for (int i = 0; i < 5; ++i) S(i) = A(i, i) > T(0) ? T(1 / sqrt(A(i, i))) : T(0);
  const Mat5<T> A_scaled = S.asDiagonal() * A * S.asDiagonal();
  const Eigen::LLT<Mat5<T>> llt(A_scaled);
  const T pivot_floor = T(64 * 5) * epsilon<T>();
  bool definite = llt.info() == Eigen::Success && S.minCoeff() > T(0);
  if (definite) {
    const Mat5<T> L = llt.matrixL();
    for (int i = 0; i < 5; ++i)
      if (!(L(i, i) * L(i, i) > pivot_floor)) definite = false;
  }
  if (!definite) {
    std::ostringstream os;
    os << "contact dynamics: H^T M H is not positive definite to working precision (conforming contact?) for "
       << patch1_->describe() << " on " << patch2_->describe() << " at q = (" << q.transpose() << ")";
    throw ComputationError(os.str());
  }
  r.qddot = S.asDiagonal() * llt.solve(Vec5<T>(S.asDiagonal() * b));

  // Eq. 19 by back-substitution.
  r.dphi = k.Hdot_1 * qdot + k.H_1 * r.qddot;
  r.f_c = spatial::newton_euler_wrench<T>(M, r.phi, r.dphi) - r.f_ext;
  r.f_c_1c = spatial::transform_wrench<T>(spatial::pose_inverse<T>(k.E_1_1c), r.f_c);
  r.f_n = -r.f_c_1c(5);
  r.separating = r.f_n < T(0);
  r.derivative << qdot, r.qddot;
  r.energy = energy_of(r.phi, r.E_w_1);
  if (!r.derivative.allFinite() || !r.f_c.allFinite()) {
    std::ostringstream os;
    os << "contact dynamics: non-finite acceleration for " << patch1_->describe() << " on " << patch2_->describe()
       << " at q = (" << q.transpose() << ")";
    throw ComputationError(os.str());
  }
  return r;
}

template <class T>
T ContactDynamics<T>::energy(const Vec10<T>& y) const {
  check_state(y);
  const Vec5<T> q = y.template head<5>(), qdot = y.template tail<5>();
  const kinematics::ContactKinematics<T> k = kinematics::contact_kinematics<T>(*patch1_, *patch2_, q, qdot);
  return energy_of(Vec6<T>(k.H_1 * qdot), Mat4<T>(E_w_2_ * k.E_2_1));
}

template <class T>
T ContactDynamics<T>::energy_of(const Vec6<T>& phi, const Mat4<T>& E_w_1) const {
  return spatial::kinetic_energy<T>(body_.M_b, phi) - mass_ * gravity_w_.dot(spatial::translation_of<T>(E_w_1));
}

#define CONTACTREF_INSTANTIATE(T) \
  template class ContactDynamics<T>;
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
