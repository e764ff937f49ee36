#include "reference/dynamics/flight.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/errors.hpp"
#include "reference/spatial/spatial_inertia.hpp"

namespace contactref::dynamics {

template <class T>
FlightDynamics<T>::FlightDynamics(const T& mass, const Mat3<T>& I_com_b, const Vec3<T>& gravity_w)
    : mass_(mass), I_com_b_(I_com_b), I_com_b_inverse_(I_com_b.inverse()), gravity_w_(gravity_w) {
  spatial::check_rigid_inertia(mass, I_com_b, "flight dynamics");
  const Eigen::SelfAdjointEigenSolver<Mat3<T>> moments(I_com_b, Eigen::EigenvaluesOnly);
  smallest_moment_ = moments.eigenvalues()(0);
}

template <class T>
typename FlightDynamics<T>::State FlightDynamics<T>::state_of(const spatial::RigidBodyState<T>& body) {
  const Eigen::Quaternion<T> q = body.q_w_b.normalized();
  State y;
  y << q.w(), q.x(), q.y(), q.z(), body.x_w, q.toRotationMatrix().transpose() * body.omega_w, body.v_w;
  return y;
}

template <class T>
spatial::RigidBodyState<T> FlightDynamics<T>::body_of(const State& y) {
  spatial::RigidBodyState<T> body;
  body.q_w_b = Eigen::Quaternion<T>(y(0), y(1), y(2), y(3)).normalized();
  body.x_w = y.template segment<3>(4);
  body.omega_w = body.q_w_b.toRotationMatrix() * y.template segment<3>(7);
  body.v_w = y.template segment<3>(10);
  return body;
}

template <class T>
Mat4<T> FlightDynamics<T>::pose_of(const State& y) {
  return spatial::make_pose<T>(spatial::rotation_from_quaternion<T>(y.template head<4>()), y.template segment<3>(4));
}

template <class T>
typename FlightDynamics<T>::State FlightDynamics<T>::derivative(const State& y) const {
  const Vec3<T> omega_b = y.template segment<3>(7);
  State dy;
  dy.template head<4>() = spatial::quaternion_derivative<T>(y.template head<4>(), omega_b);
  dy.template segment<3>(4) = y.template segment<3>(10);
  dy.template segment<3>(7) = I_com_b_inverse_ * Vec3<T>(-omega_b.cross(I_com_b_ * omega_b));  // Euler
  dy.template segment<3>(10) = gravity_w_;                                                     // Newton
  return dy;
}

template <class T>
typename FlightDynamics<T>::State FlightDynamics<T>::step(IntegratorKind integrator, const State& y, const State& k1,
                                                          const T& h, const T& tolerance, T& error) const {
  const auto f = [&](const State& x) { return derivative(x); };
  State end;
  error = T(0);
  if (integrator == IntegratorKind::kRk4) {
    end = spatial::rk4_step_autonomous(f, y, k1, h);
  } else {
    const EmbeddedStep<State> result = dormand_prince_step(f, y, k1, h);
    end = result.y;
    for (Eigen::Index i = 0; i < y.size(); ++i) {
      using std::abs;
      error = std::max(error, T(abs(result.error(i)) / (tolerance * (T(1) + abs(y(i))))));
    }
  }
  using std::isfinite;
  const T q_norm = end.template head<4>().norm();
  if (!isfinite(q_norm) || !end.allFinite()) {
    std::ostringstream os;
    os << "a flight step of " << h << " s produced a non-finite state (it overflows)";
    throw ComputationError(os.str());
  }
  end.template segment<4>(0) /= q_norm;
  return end;
}

template <class T>
T FlightDynamics<T>::kinetic_energy(const State& y) const {
  const Vec3<T> omega_b = y.template segment<3>(7);
  return (mass_ * y.template segment<3>(10).squaredNorm() + omega_b.dot(I_com_b_ * omega_b)) / 2;
}

template <class T>
T FlightDynamics<T>::energy(const State& y) const {
  return kinetic_energy(y) - mass_ * gravity_w_.dot(y.template segment<3>(4));
}

template <class T>
T FlightDynamics<T>::angular_speed_bound(const State& y) const {
  // I_min |omega|^2 <= omega . I omega, twice the rotational energy, which a
  // flight keeps (no torque about the centre of mass). Never above |L| / I_min
  // (|I omega|^2 >= I_min omega . I omega), and sqrt(I_max / I_min) times
  // below it for a spin about the major axis: a needle spinning end over end
  // takes steps of sqrt(I_min / I_max) of a radian of its spin, not
  // I_min / I_max.
  using std::sqrt;
  const Vec3<T> omega_b = y.template segment<3>(7);
  return sqrt(T(omega_b.dot(I_com_b_ * omega_b) / smallest_moment_));
}

template <class T>
T conservative_step(const T& distance, const T& speed, const T& gravity) {
  using std::sqrt;
  if (!(distance > T(0))) return T(0);
  if (gravity > T(0)) return T(2) * distance / (speed + sqrt(speed * speed + T(2) * gravity * distance));
  if (speed > T(0)) return distance / speed;
  return T(std::numeric_limits<double>::infinity());
}

#define CONTACTREF_INSTANTIATE(T) \
  template class FlightDynamics<T>; \
  template T conservative_step(const T&, const T&, const T&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
