#include "reference/dynamics/mode_switching.hpp"

#include <cmath>
#include <sstream>
#include <utility>

#include "core/errors.hpp"

namespace contactref::dynamics {

template <class T>
void check_friction_model(const FrictionModel<T>& model) {
  const std::pair<const char*, const T*> fields[] = {
      {"mu", &model.law.mu},           {"mu_roll", &model.law.mu_roll},     {"mu_spin", &model.law.mu_spin},
      {"damping", &model.law.damping}, {"mu_static", &model.mu_static},     {"slip_threshold", &model.slip_threshold},
      {"spin_threshold", &model.spin_threshold}, {"roll_threshold", &model.roll_threshold}};
  for (const auto& [name, value] : fields) {
    using std::isfinite;
    if (isfinite(*value) && *value >= T(0)) continue;
    std::ostringstream os;
    os << "friction: " << name << " must be finite and >= 0, got " << *value;
    throw InputError(os.str());
  }
  if (model.mu_static < model.law.mu) {
    std::ostringstream os;
    os << "friction: mu_static = " << model.mu_static << " is below mu = " << model.law.mu
       << ": at zero slip the sliding friction alone could then hold a contact whose stick has broken, and no "
          "direction of sliding is consistent (use mu_static >= mu)";
    throw InputError(os.str());
  }
}

template <class T>
std::vector<ModeEvent> events_of(ContactMode mode, const FrictionModel<T>& model) {
  const bool spin_stops = model.law.mu_spin > T(0) && model.spin_threshold > T(0);
  const bool roll_stops = model.law.mu_roll > T(0) && model.roll_threshold > T(0);
  std::vector<ModeEvent> events;
  switch (mode) {
    case ContactMode::kFrictionless: return {};
    case ContactMode::kSliding: return {ModeEvent::kSlipBelowThreshold};
    case ContactMode::kNoSlip:
      events = {ModeEvent::kStickBroken};
      if (spin_stops) events.push_back(ModeEvent::kSpinBelowThreshold);
      if (roll_stops) events.push_back(ModeEvent::kRollBelowThreshold);
      return events;
    case ContactMode::kNoSpin:
      events = {ModeEvent::kStickBroken, ModeEvent::kSpinStickBroken};
      if (roll_stops) events.push_back(ModeEvent::kRollBelowThreshold);
      return events;
    case ContactMode::kNoRoll:
      events = {ModeEvent::kStickBroken, ModeEvent::kRollStickBroken};
      if (spin_stops) events.push_back(ModeEvent::kSpinBelowThreshold);
      return events;
    case ContactMode::kRest: return {ModeEvent::kStickBroken, ModeEvent::kRollStickBroken, ModeEvent::kSpinStickBroken};
  }
  return {};
}

template <class T>
T event_value(ModeEvent event, const ContactDynamicsState<T>& state, const ContactDynamicsState<T>& start,
              const FrictionModel<T>& model) {
  using std::abs;
  switch (event) {
    case ModeEvent::kSlipBelowThreshold: {
      const Eigen::Matrix<T, 2, 1> slip = state.phi_1c.template segment<2>(3);
      const Eigen::Matrix<T, 2, 1> direction = start.phi_1c.template segment<2>(3);
      // |v| while the slip keeps its side of the start's direction, -|v| once reversed.
      return (slip.dot(direction) < T(0) ? T(-slip.norm()) : slip.norm()) - model.slip_threshold;
    }
    case ModeEvent::kStickBroken:
      return model.mu_static * state.f_n - state.f_c_1c.template segment<2>(3).norm();  // Eq. 35
    case ModeEvent::kSpinBelowThreshold:
      return (start.phi_1c(2) < T(0) ? T(-state.phi_1c(2)) : state.phi_1c(2)) - model.spin_threshold;
    case ModeEvent::kSpinStickBroken: return model.law.mu_spin * state.f_n - abs(state.f_c_1c(2));  // Eq. 40
    case ModeEvent::kRollBelowThreshold: {
      const Eigen::Matrix<T, 2, 1> rolling = state.phi_1c.template head<2>();
      const Eigen::Matrix<T, 2, 1> direction = start.phi_1c.template head<2>();
      return (rolling.dot(direction) < T(0) ? T(-rolling.norm()) : rolling.norm()) - model.roll_threshold;
    }
    case ModeEvent::kRollStickBroken:
      return model.law.mu_roll * state.f_n - state.f_c_1c.template head<2>().norm();
  }
  return T(0);
}

template <class T>
const char* reversal(const ContactDynamicsState<T>& start, const ContactDynamicsState<T>& stage,
                     const FrictionLaw<T>& law) {
  const ContactMode mode = stage.mode;
  if (mode == ContactMode::kFrictionless) return nullptr;
  // Rows 0-1 rolling, 2 spin, 3-4 slip of phi_1c, where free in the mode.
  const auto reverses = [&](int row, int size) {
    const T along = stage.phi_1c.segment(row, size).dot(start.phi_1c.segment(row, size));
    return along < T(0);
  };
  if (mode == ContactMode::kSliding && law.mu > T(0) && start.slipping() && reverses(3, 2)) return "the slip";
  if (mode != ContactMode::kNoSpin && law.mu_spin > T(0) && reverses(2, 1)) return "the spin";
  if (law.mu_roll > T(0) && reverses(0, 2)) return "the rolling velocity";
  return nullptr;
}

ContactMode target_of(ContactMode from, ModeEvent event) {
  const bool resting = from == ContactMode::kRest;
  switch (event) {
    case ModeEvent::kSlipBelowThreshold: return ContactMode::kNoSlip;
    case ModeEvent::kStickBroken: return ContactMode::kSliding;
    case ModeEvent::kSpinBelowThreshold: return from == ContactMode::kNoRoll ? ContactMode::kRest : ContactMode::kNoSpin;
    case ModeEvent::kSpinStickBroken: return resting ? ContactMode::kNoRoll : ContactMode::kNoSlip;
    case ModeEvent::kRollBelowThreshold: return from == ContactMode::kNoSpin ? ContactMode::kRest : ContactMode::kNoRoll;
    case ModeEvent::kRollStickBroken: return resting ? ContactMode::kNoSpin : ContactMode::kNoSlip;
  }
  return ContactMode::kSliding;
}

template <class T>
std::string describe(ModeEvent event, const ContactDynamicsState<T>& state, const FrictionModel<T>& model) {
  using std::abs;
  std::ostringstream os;
  os << to_string(state.mode) << " -> " << to_string(target_of(state.mode, event)) << ": ";
  switch (event) {
    case ModeEvent::kSlipBelowThreshold:
      os << "the slip speed " << state.slip_speed() << " m/s fell below the threshold " << model.slip_threshold << " m/s";
      break;
    case ModeEvent::kStickBroken:
      os << "the static friction force " << state.f_c_1c.template segment<2>(3).norm() << " N exceeds mu_static f_n = "
         << model.mu_static << " * " << state.f_n << " N (Eq. 35)";
      break;
    case ModeEvent::kSpinBelowThreshold:
      os << "the spin " << abs(state.phi_1c(2)) << " rad/s fell below the threshold " << model.spin_threshold << " rad/s";
      break;
    case ModeEvent::kSpinStickBroken:
      os << "the spin torque " << abs(state.f_c_1c(2)) << " N m exceeds mu_spin f_n = " << model.law.mu_spin << " * "
         << state.f_n << " N m (Eq. 40)";
      break;
    case ModeEvent::kRollBelowThreshold:
      os << "the rolling speed " << state.phi_1c.template head<2>().norm() << " rad/s fell below the threshold "
         << model.roll_threshold << " rad/s";
      break;
    case ModeEvent::kRollStickBroken:
      os << "the rolling torque " << state.f_c_1c.template head<2>().norm() << " N m exceeds mu_roll f_n = "
         << model.law.mu_roll << " * " << state.f_n << " N m";
      break;
  }
  return os.str();
}

template <class T>
Eigen::Matrix<T, 2, 1> slip_hint_of(const ContactDynamicsState<T>& stuck) {
  const Eigen::Matrix<T, 2, 1> force = stuck.f_c_1c.template segment<2>(3);
  const T norm = force.norm();
  return norm > T(0) ? Eigen::Matrix<T, 2, 1>(-force / norm) : Eigen::Matrix<T, 2, 1>::Zero();
}

namespace {

// The slip direction of a sliding mode entered at zero slip: d with the
// slip acceleration under the friction -mu f_n d along d itself (the
// consistent start of sliding), by the fixed-point iteration
// d <- a(d) / |a(d)| from the hint, at most 16 times (it stops when d changes
// by less than 1e-9 rad, or when the acceleration vanishes: no sliding
// starts, the hint stays).
template <class T>
Eigen::Matrix<T, 2, 1> consistent_slip_direction(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model,
                                                 const StateVector<T>& y, Eigen::Matrix<T, 2, 1> direction) {
  for (int iteration = 0; iteration < 16 && direction.norm() > T(0); ++iteration) {
    const ContactDynamicsState<T> state = dynamics.evaluate(ContactMode::kSliding, y, model.law, direction);
    if (state.slipping()) break;  // not at zero slip: the state's own direction rules
    const Eigen::Matrix<T, 2, 1> a = state.slip_acceleration();
    const T norm = a.norm();
    if (!(norm > T(0))) break;
    const Eigen::Matrix<T, 2, 1> next = a / norm;
    const T change = (next - direction).norm();
    direction = next;
    if (change < T(1e-9)) break;
  }
  return direction;
}

}  // namespace

template <class T>
ModeEntry<T> enter_mode(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model, ContactMode mode,
                        const Vec5<T>& q, const Vec5<T>& qdot, const Eigen::Matrix<T, 2, 1>& slip_hint) {
  ModeEntry<T> entry{mode, {}, slip_hint, {}};
  if (holds_slip(mode)) {
    entry.rdot = dynamics.project(mode, q, qdot);
    entry.steps.push_back(std::string("entered ") + to_string(mode) +
                          ": the held velocities removed by a plastic impulse at the contact");
  } else {
    entry.rdot = reduced_velocities(mode, qdot);
  }
  // At most three checks follow, each releasing what its static limit cannot
  // hold (q' continuous): the spin, the rolling, the slip (rest -> no-roll ->
  // no-slip -> sliding).
  for (int check = 0; check < 3 && holds_slip(entry.mode); ++check) {
    StateVector<T> y(5 + entry.rdot.size());
    y << q, entry.rdot;
    const ContactDynamicsState<T> state = dynamics.evaluate(entry.mode, y, model.law);
    const auto release = [&](ModeEvent event) {
      entry.steps.push_back(describe(event, state, model));
      entry.mode = target_of(entry.mode, event);
      entry.rdot = reduced_velocities(entry.mode, state.qdot);
    };
    if (holds_spin(entry.mode) && event_value(ModeEvent::kSpinStickBroken, state, state, model) < T(0)) {
      release(ModeEvent::kSpinStickBroken);
    } else if (holds_rolling(entry.mode) && event_value(ModeEvent::kRollStickBroken, state, state, model) < T(0)) {
      release(ModeEvent::kRollStickBroken);
    } else if (event_value(ModeEvent::kStickBroken, state, state, model) < T(0)) {
      entry.steps.push_back(describe(ModeEvent::kStickBroken, state, model));
      entry.mode = ContactMode::kSliding;
      entry.rdot = reduced_velocities(entry.mode, state.qdot);
      entry.slip_hint = slip_hint_of(state);
    } else {
      break;
    }
  }
  if (entry.mode == ContactMode::kSliding && entry.slip_hint.norm() > T(0)) {
    StateVector<T> y(10);
    y << q, entry.rdot;
    entry.slip_hint = consistent_slip_direction(dynamics, model, y, entry.slip_hint);
  }
  return entry;
}

template <class T>
ModeEntry<T> initial_mode(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model, const Vec5<T>& q,
                          const Vec5<T>& qdot) {
  if (model.frictionless()) return {ContactMode::kFrictionless, reduced_velocities(ContactMode::kFrictionless, qdot), {}, {}};
  const kinematics::ContactConfiguration<T> c =
      kinematics::contact_configuration(dynamics.patch1(), dynamics.patch2(), q);
  const Vec6<T> phi_1c = c.H_1c * qdot;
  if (phi_1c.template segment<2>(3).norm() >= model.slip_threshold)
    return {ContactMode::kSliding, reduced_velocities(ContactMode::kSliding, qdot), {}, {}};
  using std::abs;
  const bool no_spin = model.law.mu_spin > T(0) && abs(phi_1c(2)) < model.spin_threshold;
  const bool no_roll = model.law.mu_roll > T(0) && phi_1c.template head<2>().norm() < model.roll_threshold;
  const ContactMode mode = no_spin ? (no_roll ? ContactMode::kRest : ContactMode::kNoSpin)
                                   : (no_roll ? ContactMode::kNoRoll : ContactMode::kNoSlip);
  return enter_mode(dynamics, model, mode, q, qdot);
}

#define CONTACTREF_INSTANTIATE(T)                                                                                    \
  template void check_friction_model<T>(const FrictionModel<T>&);                                                   \
  template std::vector<ModeEvent> events_of<T>(ContactMode, const FrictionModel<T>&);                               \
  template T event_value<T>(ModeEvent, const ContactDynamicsState<T>&, const ContactDynamicsState<T>&,            \
                            const FrictionModel<T>&);                                                              \
  template std::string describe<T>(ModeEvent, const ContactDynamicsState<T>&, const FrictionModel<T>&);            \
  template Eigen::Matrix<T, 2, 1> slip_hint_of<T>(const ContactDynamicsState<T>&);                                  \
  template const char* reversal<T>(const ContactDynamicsState<T>&, const ContactDynamicsState<T>&,                 \
                                   const FrictionLaw<T>&);                                                        \
  template ModeEntry<T> enter_mode<T>(const ContactDynamics<T>&, const FrictionModel<T>&, ContactMode, const Vec5<T>&, \
                                      const Vec5<T>&, const Eigen::Matrix<T, 2, 1>&);                               \
  template ModeEntry<T> initial_mode<T>(const ContactDynamics<T>&, const FrictionModel<T>&, const Vec5<T>&,         \
                                        const Vec5<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
