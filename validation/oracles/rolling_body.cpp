#include "validation/oracles/rolling_body.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "reference/spatial/so3.hpp"

namespace contactref::oracles {
namespace {

using spatial::skew;
using State = std::array<double, 14>;  // q (w, x, y, z), p, v, omega, W

const Vec3<double> kUp(0, 0, 1);

bool finite(const Eigen::MatrixXd& m) { return m.allFinite(); }

void check_body(const RollingBody& body) {
  if (!(std::isfinite(body.mass) && body.mass > 0))
    throw InputError(fmt::format("rolling body: mass must be positive and finite, got {}", body.mass));
  const Mat3<double>& I = body.inertia_b;
  if (!finite(I) || (I - I.transpose()).cwiseAbs().maxCoeff() > 1e-12 * I.cwiseAbs().maxCoeff() ||
      I.llt().info() != Eigen::Success)
    throw InputError("rolling body: inertia_b must be symmetric positive definite and finite");
  if (!finite(body.gravity_w)) throw InputError("rolling body: gravity_w must be finite");
  if (!body.shape) throw InputError("rolling body: shape is missing");
  const std::array<std::pair<const char*, double>, 3> coefficients{
      {{"mu_roll", body.law.mu_roll}, {"mu_spin", body.law.mu_spin}, {"damping", body.law.damping}}};
  for (const auto& [name, value] : coefficients)
    if (!(std::isfinite(value) && value >= 0))
      throw InputError(fmt::format("rolling body: law.{} must be finite and >= 0, got {}", name, value));
}

void check_state(const RollingState& state) {
  if (!finite(state.R_w_b) || !finite(state.com_w) || !finite(state.com_velocity_w) || !finite(state.omega_w))
    throw InputError("rolling body: the state must be finite");
  if ((state.R_w_b.transpose() * state.R_w_b - Mat3<double>::Identity()).cwiseAbs().maxCoeff() > 1e-9 ||
      state.R_w_b.determinant() < 0)
    throw InputError("rolling body: R_w_b must be a rotation (orthonormal to 1e-9, determinant +1)");
}

State pack(const RollingState& s, double work) {
  const Eigen::Quaterniond q = Eigen::Quaterniond(s.R_w_b).normalized();
  return {q.w(), q.x(), q.y(), q.z(), s.com_w.x(), s.com_w.y(), s.com_w.z(), s.com_velocity_w.x(),
          s.com_velocity_w.y(), s.com_velocity_w.z(), s.omega_w.x(), s.omega_w.y(), s.omega_w.z(), work};
}

RollingState unpack(const State& y) {
  RollingState s;
  s.R_w_b = Eigen::Quaterniond(y[0], y[1], y[2], y[3]).normalized().toRotationMatrix();
  s.com_w = Vec3<double>(y[4], y[5], y[6]);
  s.com_velocity_w = Vec3<double>(y[7], y[8], y[9]);
  s.omega_w = Vec3<double>(y[10], y[11], y[12]);
  return s;
}

// Eq. 5 for the resistance direction a; returns omega'.
Vec3<double> angular_acceleration(const RollingBody& body, const Mat3<double>& I, const Vec3<double>& r,
                                  const Vec3<double>& omega, const Vec3<double>& r_dot, const Vec3<double>& a) {
  const double m = body.mass;
  const Mat3<double> R_x = skew(r);
  const Vec3<double> drive = omega.cross(r_dot) + body.gravity_w;  // omega x r' + g
  const Mat3<double> A = I - m * R_x * R_x + m * a * (kUp.transpose() * R_x);
  const Vec3<double> b =
      -omega.cross(I * omega) - body.law.damping * omega - m * r.cross(drive) + m * a * kUp.dot(drive);
  const Eigen::PartialPivLU<Mat3<double>> lu(A);
  // A is the contact point's inertia (positive definite) plus a rank-one
  // term of size mu |r| m: singular only for resistance lengths of the order
  // of the body's radius of gyration about the contact.
  if (!(std::abs(lu.determinant()) > 64 * epsilon<double>() * std::pow(A.cwiseAbs().maxCoeff(), 3)))
    throw ComputationError("rolling body: Eq. 5 is singular (resistance lengths as large as the body)");
  return lu.solve(b);
}

// The unit vector of x, or zero.
Vec3<double> unit_or_zero(const Vec3<double>& x) {
  const double n = x.norm();
  return n > 0 ? Vec3<double>(x / n) : Vec3<double>::Zero();
}

}  // namespace

SphereShape::SphereShape(const Vec3<double>& centre_b, double radius) : centre_b_(centre_b), radius_(radius) {
  if (!(std::isfinite(radius) && radius > 0) || !centre_b.allFinite())
    throw InputError(fmt::format("sphere shape: radius must be positive and finite (got {}) and the centre finite", radius));
}

Vec3<double> SphereShape::point(const Vec3<double>& n_b) const { return centre_b_ + radius_ * n_b; }

Mat3<double> SphereShape::point_derivative(const Vec3<double>&) const { return radius_ * Mat3<double>::Identity(); }

ParaboloidShape::ParaboloidShape(const Vec3<double>& apex_b, const Eigen::Matrix2d& K) : apex_b_(apex_b) {
  if (!apex_b.allFinite() || !K.allFinite() || std::abs(K(0, 1) - K(1, 0)) > 1e-12 * K.cwiseAbs().maxCoeff() ||
      K.llt().info() != Eigen::Success)
    throw InputError("paraboloid shape: the apex must be finite and K symmetric positive definite");
  K_inverse_ = K.inverse();
}

Vec3<double> ParaboloidShape::point(const Vec3<double>& n_b) const {
  if (!(n_b.z() > 0))
    throw ComputationError(fmt::format("paraboloid shape: no point has the normal ({}, {}, {}) (its z must be > 0)",
                                       n_b.x(), n_b.y(), n_b.z()));
  const Eigen::Vector2d s = n_b.head<2>() / n_b.z();
  const Eigen::Vector2d d = K_inverse_ * s;
  return apex_b_ + Vec3<double>(d.x(), d.y(), -0.5 * s.dot(d));
}

Mat3<double> ParaboloidShape::point_derivative(const Vec3<double>& n_b) const {
  if (!(n_b.z() > 0)) throw ComputationError("paraboloid shape: the normal's z must be > 0");
  const Eigen::Vector2d s = n_b.head<2>() / n_b.z();
  Eigen::Matrix<double, 2, 3> ds;  // ds/dn = (1 | -s) / n_z
  ds << Eigen::Matrix2d::Identity(), -s;
  ds /= n_b.z();
  Mat3<double> C;
  C.topRows<2>() = K_inverse_ * ds;
  C.row(2) = -(K_inverse_ * s).transpose() * ds;
  return C;
}

namespace {

// Eqs. 1-5 for a checked body and a finite state.
RollingEvaluation evaluate(const RollingBody& body, const RollingState& state) {
  const Mat3<double>& R = state.R_w_b;
  const Vec3<double>& omega = state.omega_w;
  const Vec3<double>& v = state.com_velocity_w;
  const Mat3<double> I = R * body.inertia_b * R.transpose();
  const Vec3<double> n_w = -kUp;
  const Vec3<double> n_b = R.transpose() * n_w;
  const Vec3<double> r = R * body.shape->point(n_b);
  const Vec3<double> n_b_dot = -R.transpose() * omega.cross(n_w);  // Eq. 2
  const Vec3<double> r_dot = omega.cross(r) + R * (body.shape->point_derivative(n_b) * n_b_dot);

  // The resistance direction a (Eq. 4); a rolling or spin at rest takes the
  // direction of omega' solved without its resistance.
  const RollingLaw& law = body.law;
  const Vec3<double> omega_t = omega - omega.z() * kUp;
  const double rest = 64 * epsilon<double>() * omega.norm();
  const bool rolling_at_rest = law.mu_roll > 0 && !(omega_t.norm() > rest);
  const bool spin_at_rest = law.mu_spin > 0 && !(std::abs(omega.z()) > rest);
  Vec3<double> a = law.mu_roll * unit_or_zero(omega_t) + law.mu_spin * (omega.z() > 0 ? 1.0 : -1.0) * kUp;
  if (rolling_at_rest) a.head<2>().setZero();
  if (spin_at_rest) a.z() = 0;
  if (rolling_at_rest || spin_at_rest) {
    const Vec3<double> start = angular_acceleration(body, I, r, omega, r_dot, a);
    if (rolling_at_rest) a.head<2>() = law.mu_roll * unit_or_zero(Vec3<double>(start.x(), start.y(), 0)).head<2>();
    if (spin_at_rest) a.z() = start.z() > 0 ? law.mu_spin : start.z() < 0 ? -law.mu_spin : 0;
  }

  RollingEvaluation e;
  e.angular_acceleration_w = angular_acceleration(body, I, r, omega, r_dot, a);
  e.acceleration_w = r.cross(e.angular_acceleration_w) - omega.cross(r_dot);  // Eq. 2
  e.contact_force_w = body.mass * (e.acceleration_w - body.gravity_w);             // Eq. 3
  e.normal_force = e.contact_force_w.z();
  e.contact_w = state.com_w + r;
  e.slip_w = v + omega.cross(r);
  e.energy = 0.5 * body.mass * v.squaredNorm() + 0.5 * omega.dot(I * omega) - body.mass * body.gravity_w.dot(state.com_w);
  const Vec3<double> tau = -law.damping * omega - e.normal_force * a;
  e.power = omega.dot(tau);
  if (!e.angular_acceleration_w.allFinite() || !e.contact_force_w.allFinite())
    throw ComputationError("rolling body: non-finite acceleration");
  return e;
}

}  // namespace

RollingEvaluation evaluate_rolling(const RollingBody& body, const RollingState& state) {
  check_body(body);
  if (!finite(state.R_w_b) || !finite(state.com_w) || !finite(state.com_velocity_w) || !finite(state.omega_w))
    throw InputError("rolling body: the state must be finite");
  return evaluate(body, state);
}

RollingRun run_rolling(const RollingBody& body, const RollingState& start, double t0, const std::vector<double>& times,
                       double h) {
  check_body(body);
  check_state(start);
  if (!(std::isfinite(h) && h > 0)) throw InputError(fmt::format("rolling body: the step h must be positive and finite, got {}", h));
  if (!std::isfinite(t0)) throw InputError("rolling body: t0 must be finite");
  // The fewest equal steps of at most h from a to b (a relative 1e-9 spares
  // a step that round-off alone would add).
  const auto steps_between = [h](double a, double b) { return (long)std::ceil((b - a) / h * (1 - 1e-9)); };
  double total = 0, previous = t0;
  for (double t : times) {
    if (!(std::isfinite(t) && t >= previous))
      throw InputError(fmt::format("rolling body: the times must be finite, non-decreasing and >= t0 = {}, got {} after {}",
                                   t0, t, previous));
    total += double(steps_between(previous, t));
    previous = t;
  }
  if (total > 1e8)
    throw InputError(fmt::format("rolling body: {:.3g} steps of h = {} s exceed the limit of 1e8", total, h));

  // The resisted rolling and spin at the step's start (zero at rest): a
  // stage that sees either reversed marks the step (reversed).
  Vec3<double> rolling_start = Vec3<double>::Zero();
  double spin_start = 0;
  bool reversed = false;
  const auto rhs = [&](const State& y, State& dy, double) {
    const RollingState s = unpack(y);
    const RollingEvaluation e = evaluate(body, s);
    const Vec3<double>& w = s.omega_w;
    reversed = reversed || (body.law.mu_roll > 0 && w.head<2>().dot(rolling_start.head<2>()) < 0) ||
               (body.law.mu_spin > 0 && w.z() * spin_start < 0);
    const Eigen::Quaterniond q(y[0], y[1], y[2], y[3]);
    const Eigen::Quaterniond q_dot = Eigen::Quaterniond(0, s.omega_w.x(), s.omega_w.y(), s.omega_w.z()) * q;
    dy = {0.5 * q_dot.w(), 0.5 * q_dot.x(), 0.5 * q_dot.y(), 0.5 * q_dot.z(), y[7], y[8], y[9],
          e.acceleration_w.x(), e.acceleration_w.y(), e.acceleration_w.z(), e.angular_acceleration_w.x(),
          e.angular_acceleration_w.y(), e.angular_acceleration_w.z(), e.power};
  };
  boost::numeric::odeint::runge_kutta_fehlberg78<State> stepper;
  State y = pack(start, 0);
  RollingRun run;
  double t = t0;
  const auto fail = [&](const std::string& what) {
    throw ComputationError(fmt::format("rolling body at t = {:.6f} s: {}", t, what));
  };
  const auto record = [&run](const RollingSample& sample) {
    run.max_gap = std::max(run.max_gap, std::abs(sample.evaluation.contact_w.z()));
    run.max_slip = std::max(run.max_slip, sample.evaluation.slip_w.norm());
    run.samples.push_back(sample);
  };
  const auto evaluated = [&](double time, const State& state) {
    RollingSample sample{time, unpack(state), {}, state[13]};
    try {
      sample.evaluation = evaluate(body, sample.state);
    } catch (const ComputationError& error) {
      fail(error.what());
    }
    return sample;
  };
  RollingSample now = evaluated(t0, y);
  for (double target : times) {
    const long n = steps_between(t, target);
    const double step = n > 0 ? (target - t) / double(n) : 0;
    for (long k = 0; k < n; ++k) {
      // The law's directions at the step's start, from beyond the round-off
      // of the at-rest test (evaluate).
      const Vec3<double>& w = now.state.omega_w;
      const double rest = 64 * epsilon<double>() * w.norm();
      rolling_start = w.head<2>().norm() > rest ? Vec3<double>(w.x(), w.y(), 0) : Vec3<double>::Zero();
      spin_start = std::abs(w.z()) > rest ? w.z() : 0;
      reversed = false;
      try {
        stepper.do_step(rhs, y, t, step);
      } catch (const ComputationError& error) {
        fail(error.what());
      }
      t = k + 1 == n ? target : t + step;
      if (!std::all_of(y.begin(), y.end(), [](double x) { return std::isfinite(x); })) fail("the state is not finite");
      now = evaluated(t, y);
      ++run.steps;
      if (!(now.evaluation.normal_force > 0))
        fail(fmt::format("the normal force is {} N: the body would leave the plane (flight is not modelled)",
                         now.evaluation.normal_force));
      // A resisted rolling or spin that reverses at a stage of the step has
      // stopped within it: the rest modes are not modelled (header).
      if (reversed)
        fail("the resisted rolling or spin reversed within the step (it stopped: the no-roll and no-spin modes are "
             "not modelled)");
    }
    now.time = t = target;
    record(now);
  }
  return run;
}

}  // namespace contactref::oracles
