#include "reference/dynamics/flight.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::dynamics {

template <class T>
FlightDynamics<T>::FlightDynamics(const T& mass, const Mat3<T>& I_com_b, const Vec3<T>& gravity_w)
    : mass_(mass), body_(mass, I_com_b), gravity_w_(gravity_w) {
  const Eigen::SelfAdjointEigenSolver<Mat3<T>> moments(I_com_b, Eigen::EigenvaluesOnly);
  smallest_moment_ = moments.eigenvalues()(0);
}

template <class T>
typename FlightDynamics<T>::State FlightDynamics<T>::derivative(const State& y) const {
  // Gravity at the centre of mass, in body axes: no torque about it.
  const Mat3<T> R_w_b = spatial::rotation_from_quaternion<T>(spatial::quaternion_of(y));
  Vec6<T> f_b;
  f_b << Vec3<T>::Zero(), R_w_b.transpose() * (mass_ * gravity_w_);
  return spatial::free_body_derivative<T>(body_, y, f_b);
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
  const T q_norm = spatial::quaternion_of<T>(end).norm();
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
  return spatial::kinetic_energy<T>(body_.M_b, spatial::twist_of<T>(y));
}

template <class T>
T FlightDynamics<T>::energy(const State& y) const {
  return kinetic_energy(y) - mass_ * gravity_w_.dot(spatial::position_of<T>(y));
}

template <class T>
T FlightDynamics<T>::angular_speed_bound(const State& y) const {
  const Vec6<T> phi = spatial::twist_of<T>(y);
  const Vec3<T> L_b = body_.M_b.template topLeftCorner<3, 3>() * phi.template head<3>();
  return L_b.norm() / smallest_moment_;
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
