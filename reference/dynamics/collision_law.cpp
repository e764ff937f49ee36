#include "reference/dynamics/collision_law.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "reference/spatial/so3.hpp"
#include "reference/spatial/spatial_inertia.hpp"

namespace contactref::dynamics {

namespace {

[[noreturn]] void fail(const std::string& what) { throw InputError("collision response: " + what); }

template <class T>
void check_coefficient(const T& value, const char* name, bool at_most_one) {
  using std::isfinite;
  if (isfinite(value) && value >= T(0) && (!at_most_one || value <= T(1))) return;
  std::ostringstream os;
  os << name << (at_most_one ? " must be in [0, 1], got " : " must be finite and >= 0, got ") << value;
  fail(os.str());
}

template <class T>
void check_parameters(const CollisionParameters<T>& p) {
  check_coefficient(p.restitution, "the restitution e", true);
  check_coefficient(p.tangential_restitution, "the tangential restitution e_t", true);
  check_coefficient(p.mu, "the friction coefficient mu", false);
}

// K's Cholesky factor, after the checks of the header.
template <class T>
Eigen::LLT<Mat3<T>> factor_K(const Mat3<T>& K) {
  if (!K.allFinite()) fail("K has a non-finite entry");
  const T slack = 16 * epsilon<T>() * K.cwiseAbs().maxCoeff();
  if ((K - K.transpose()).cwiseAbs().maxCoeff() > slack) fail("K is not symmetric");
  Eigen::LLT<Mat3<T>> llt(Mat3<T>((K + K.transpose()) / 2));
  if (llt.info() != Eigen::Success) fail("K is not positive definite");
  return llt;
}

}  // namespace

template <class T>
Mat3<T> inverse_effective_mass(const T& mass, const Mat3<T>& I_com_w, const Vec3<T>& r_w) {
  spatial::check_rigid_inertia(mass, I_com_w, "inverse effective mass");
  if (!r_w.allFinite()) throw InputError("inverse effective mass: the contact offset r_w has a non-finite entry");
  const Mat3<T> R = spatial::skew(r_w);
  const Mat3<T> I_inv_R = Eigen::LLT<Mat3<T>>(Mat3<T>((I_com_w + I_com_w.transpose()) / 2)).solve(R);
  const Mat3<T> K = Mat3<T>::Identity() / mass - R * I_inv_R;
  return (K + K.transpose()) / 2;
}

template <class T>
CollisionResponse<T> collision_response(const Mat3<T>& K_w, const Vec3<T>& n_w, const Vec3<T>& u_w,
                                        const CollisionParameters<T>& parameters) {
  using std::abs;
  using std::isfinite;
  check_parameters(parameters);
  const T length = n_w.norm();
  if (!isfinite(length) || abs(length - T(1)) > T(1e-6)) {
    std::ostringstream os;
    os << "the normal n_w must be a finite unit vector, got (" << n_w.transpose() << ") of length " << length;
    fail(os.str());
  }
  if (!u_w.allFinite()) fail("the relative velocity u_w has a non-finite entry");
  const Eigen::LLT<Mat3<T>> llt = factor_K(K_w);
  const Mat3<T> K = (K_w + K_w.transpose()) / 2;
  const Vec3<T> n = n_w / length;
  const T e = parameters.restitution, e_t = parameters.tangential_restitution, mu = parameters.mu;

  CollisionResponse<T> r;
  r.normal_velocity_before = n.dot(u_w);
  r.tangential_velocity_before_w = u_w - r.normal_velocity_before * n;
  if (r.normal_velocity_before < T(0)) {
    const Vec3<T> Kn = K * n;
    const T a = -r.normal_velocity_before / n.dot(Kn);  // P_I = a n
    const Vec3<T> d = -llt.solve(Vec3<T>(u_w + a * Kn));  // P_II - P_I
    const T d_n = n.dot(d);
    const T w = (d - d_n * n).norm() - mu * d_n;  // |d_t| - mu d_n
    const T cone = mu * (1 + e) * a;              // the cone test's right-hand side
    r.sliding = (1 + e_t) * w > cone;
    const T kappa = r.sliding ? cone / w : 1 + e_t;
    r.impulse_w = (1 + e) * a * n + kappa * d;
  }
  const Vec3<T> KJ = K * r.impulse_w;
  const Vec3<T> u_after = u_w + KJ;
  r.normal_velocity_after = n.dot(u_after);
  r.tangential_velocity_after_w = u_after - r.normal_velocity_after * n;
  r.energy_change = r.impulse_w.dot(u_w) + r.impulse_w.dot(KJ) / 2;
  return r;
}

#define CONTACTREF_INSTANTIATE(T)                                                                   \
  template Mat3<T> inverse_effective_mass<T>(const T&, const Mat3<T>&, const Vec3<T>&);             \
  template CollisionResponse<T> collision_response<T>(const Mat3<T>&, const Vec3<T>&, const Vec3<T>&, \
                                                      const CollisionParameters<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
