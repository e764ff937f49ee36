#include "reference/dynamics/mode_switching.hpp"

#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <limits>
#include <optional>
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
unsigned FrictionModel<T>::resisted_groups() const {
  if (frictionless()) return 0;
  return kSlipGroup | (law.mu_spin > T(0) ? kSpinGroup : 0u) | (law.mu_roll > T(0) ? kRollingGroup : 0u);
}

VelocityGroup group_of(ModeEvent event) {
  switch (event) {
    case ModeEvent::kSlipBelowThreshold:
    case ModeEvent::kStickBroken: return kSlipGroup;
    case ModeEvent::kSpinBelowThreshold:
    case ModeEvent::kSpinStickBroken: return kSpinGroup;
    case ModeEvent::kRollBelowThreshold:
    case ModeEvent::kRollStickBroken: return kRollingGroup;
  }
  return kSlipGroup;
}

bool holds(ModeEvent event) {
  return event == ModeEvent::kSlipBelowThreshold || event == ModeEvent::kSpinBelowThreshold ||
         event == ModeEvent::kRollBelowThreshold;
}

template <class T>
std::vector<ModeEvent> events_of(ContactMode mode, const FrictionModel<T>& model) {
  if (mode == ContactMode::kFrictionless) return {};
  const unsigned held = held_groups(mode), resisted = model.resisted_groups();
  std::vector<ModeEvent> events;
  const auto add = [&](VelocityGroup group, ModeEvent below, ModeEvent broken) {
    if (held & group) {
      events.push_back(broken);
    } else if (resisted & group) {
      events.push_back(below);
    }
  };
  add(kSlipGroup, ModeEvent::kSlipBelowThreshold, ModeEvent::kStickBroken);
  add(kSpinGroup, ModeEvent::kSpinBelowThreshold, ModeEvent::kSpinStickBroken);
  add(kRollingGroup, ModeEvent::kRollBelowThreshold, ModeEvent::kRollStickBroken);
  return events;
}

namespace {

// s |w| (header): |w| while w keeps the side of `along`, -|w| once it has
// turned against it; |w| without a direction. With the direction held
// through the step (LawDirections): w's component along it, smooth where a
// w that does not pass exactly through zero makes s |w| jump (what is left
// across it at the root, the step's turn of w, is the next mode's to hold or
// release).
template <class T>
T signed_speed(const Eigen::Matrix<T, 2, 1>& w, const Eigen::Matrix<T, 2, 1>& along, bool held) {
  if (held && along.norm() > T(0)) return w.dot(along);
  return w.dot(along) < T(0) ? T(-w.norm()) : w.norm();
}

}  // namespace

template <class T>
T event_value(ModeEvent event, const ContactDynamicsState<T>& state, const ContactDynamicsState<T>& start,
              const FrictionModel<T>& model) {
  using std::abs;
  const LawDirections<T>& along = start.directions;
  switch (event) {
    case ModeEvent::kSlipBelowThreshold:
      return signed_speed<T>(state.phi_1c.template segment<2>(3), along.slip, along.slip_held) - model.slip_threshold;
    case ModeEvent::kStickBroken:
      return model.mu_static * state.f_n - state.f_c_1c.template segment<2>(3).norm();  // Eq. 35
    case ModeEvent::kSpinBelowThreshold:
      return (along.spin != T(0) ? T(state.phi_1c(2) * along.spin) : T(abs(state.phi_1c(2)))) - model.spin_threshold;
    case ModeEvent::kSpinStickBroken: return model.law.mu_spin * state.f_n - abs(state.f_c_1c(2));  // Eq. 40
    case ModeEvent::kRollBelowThreshold:
      return signed_speed<T>(state.phi_1c.template head<2>(), along.rolling, along.rolling_held) - model.roll_threshold;
    case ModeEvent::kRollStickBroken:
      return model.law.mu_roll * state.f_n - state.f_c_1c.template head<2>().norm();
  }
  return T(0);
}

ContactMode target_of(ContactMode from, ModeEvent event) {
  const unsigned held = held_groups(from), group = group_of(event);
  return friction_mode_holding(holds(event) ? held | group : held & ~group);
}

template <class T>
std::string describe(ModeEvent event, const ContactDynamicsState<T>& state, const FrictionModel<T>& model) {
  using std::abs;
  std::ostringstream os;
  os << to_string(state.mode) << " -> " << to_string(target_of(state.mode, event)) << ": ";
  switch (event) {
    case ModeEvent::kSlipBelowThreshold:
      os << "the slip speed " << state.slip_speed() << " m/s reached the threshold " << model.slip_threshold << " m/s";
      break;
    case ModeEvent::kStickBroken:
      os << "the static friction force " << state.f_c_1c.template segment<2>(3).norm() << " N exceeds mu_static f_n = "
         << model.mu_static << " * " << state.f_n << " N (Eq. 35)";
      break;
    case ModeEvent::kSpinBelowThreshold:
      os << "the spin " << abs(state.phi_1c(2)) << " rad/s reached the threshold " << model.spin_threshold << " rad/s";
      break;
    case ModeEvent::kSpinStickBroken:
      os << "the spin torque " << abs(state.f_c_1c(2)) << " N m exceeds mu_spin f_n = " << model.law.mu_spin << " * "
         << state.f_n << " N m (Eq. 40)";
      break;
    case ModeEvent::kRollBelowThreshold:
      os << "the rolling speed " << state.phi_1c.template head<2>().norm() << " rad/s reached the threshold "
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

template <class T>
unsigned groups_below_threshold(const kinematics::Mat65<T>& H_1c, const Vec5<T>& qdot, const FrictionModel<T>& model) {
  using std::abs;
  const Vec6<T> phi_1c = H_1c * qdot;
  // The round-off of each group, as ContactDynamicsState's slip_floor and rotation_floor.
  const T rates = qdot.cwiseAbs().sum();
  const T slip_floor = T(64) * epsilon<T>() * H_1c.template middleRows<2>(3).cwiseAbs().maxCoeff() * rates;
  const T rotation_floor = T(64) * epsilon<T>() * H_1c.template topRows<3>().cwiseAbs().maxCoeff() * rates;
  const auto below = [&](VelocityGroup group, const T& speed, const T& floor) {
    return (model.resisted_groups() & group) && (speed < model.threshold(group) || speed <= floor) ? unsigned(group) : 0u;
  };
  return below(kSlipGroup, phi_1c.template segment<2>(3).norm(), slip_floor) |
         below(kSpinGroup, abs(phi_1c(2)), rotation_floor) |
         below(kRollingGroup, phi_1c.template head<2>().norm(), rotation_floor);
}

namespace {

// The slip direction of a mode with a free slip entered at zero slip: a unit
// d = (cos theta, sin theta) with the slip acceleration a(d) under the
// friction -mu f_n d along d itself (d x a(d) = 0, d . a(d) > 0: the
// consistent start of sliding, along which the slip then grows). a(d) is
// smooth on the circle but its fixed-point iteration d <- a(d) / |a(d)| need
// not converge on an anisotropic contact, so the roots of d x a(d) are
// bracketed on 32 angles and refined by bisection to the angle's round-off;
// of the consistent ones, the nearest to the hint is taken. Without one (no
// acceleration at all, or the state already slips) the hint stays.
template <class T>
Eigen::Matrix<T, 2, 1> consistent_slip_direction(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model,
                                                 ContactMode mode, const StateVector<T>& y,
                                                 LawDirections<T> reference) {
  using std::atan2;
  using std::cos;
  using std::sin;
  const Eigen::Matrix<T, 2, 1> hint = reference.slip;
  if (!(hint.norm() > T(0))) return hint;
  const auto direction = [](const T& theta) { return Eigen::Matrix<T, 2, 1>(cos(theta), sin(theta)); };
  bool slipping = false;
  // (d x a(d), d . a(d)) at the angle.
  const auto balance = [&](const T& theta) {
    reference.slip = direction(theta);
    const ContactDynamicsState<T> state = dynamics.evaluate(mode, y, model.law, reference);
    slipping = slipping || state.slipping();
    const Eigen::Matrix<T, 2, 1> a = state.slip_acceleration();
    return std::pair<T, T>(reference.slip.x() * a.y() - reference.slip.y() * a.x(), reference.slip.dot(a));
  };
  const T two_pi = T(2) * boost::math::constants::pi<T>(), theta_hint = atan2(hint.y(), hint.x());
  constexpr int kAngles = 32;
  std::optional<T> best;
  T theta0 = theta_hint;
  std::pair<T, T> g0 = balance(theta0);
  for (int k = 1; k <= kAngles && !slipping; ++k) {
    const T theta1 = theta_hint + two_pi * T(k) / T(kAngles);
    const std::pair<T, T> g1 = balance(theta1);
    if ((g0.first <= T(0)) != (g1.first <= T(0))) {
      T lo = theta0, hi = theta1, g_lo = g0.first;
      for (int iteration = 0; iteration < std::numeric_limits<T>::digits && hi - lo > T(4) * epsilon<T>() * two_pi;
           ++iteration) {
        const T mid = (lo + hi) / 2;
        const T g_mid = balance(mid).first;
        if ((g_mid <= T(0)) == (g_lo <= T(0))) {
          lo = mid, g_lo = g_mid;
        } else {
          hi = mid;
        }
      }
      const T root = (lo + hi) / 2;
      // Consistent: the slip grows along d; nearest the hint (angles from theta_hint upwards).
      if (balance(root).second > T(0)) {
        const T from_hint = std::min(T(root - theta_hint), T(two_pi - (root - theta_hint)));
        if (!best || from_hint < std::min(T(*best - theta_hint), T(two_pi - (*best - theta_hint)))) best = root;
      }
    }
    theta0 = theta1, g0 = g1;
  }
  if (slipping || !best) return hint;  // not at zero slip, or no consistent direction: the hint stays
  return direction(*best);
}

// The entry rules (header) from `from` towards the groups `held`, at (q, q')
// before the event.
template <class T>
ModeEntry<T> settle(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model, ContactMode from, unsigned held,
                    const Vec5<T>& q, const Vec5<T>& qdot, const LawDirections<T>& reference) {
  const kinematics::ContactConfiguration<T> c = kinematics::contact_configuration(dynamics.patch1(), dynamics.patch2(), q);
  ModeEntry<T> entry{from, {}, reference, {}};
  bool released_slip = false;
  // At most three releases (spin, rolling, slip), each checked once more.
  for (int check = 0; check < 4; ++check) {
    entry.mode = friction_mode_holding(held);
    const bool grows = (held & ~held_groups(from)) != 0;
    entry.rdot = grows ? dynamics.project(entry.mode, q, qdot) : reduced_velocities(entry.mode, c.H_1c, qdot);
    if (held == 0) break;
    StateVector<T> y(5 + entry.rdot.size());
    y << q, entry.rdot;
    const ContactDynamicsState<T> state = dynamics.evaluate(entry.mode, y, model.law, entry.reference);
    ModeEvent broken = ModeEvent::kStickBroken;
    if ((held & kSpinGroup) && event_value(ModeEvent::kSpinStickBroken, state, state, model) < T(0)) {
      broken = ModeEvent::kSpinStickBroken;
    } else if ((held & kRollingGroup) && event_value(ModeEvent::kRollStickBroken, state, state, model) < T(0)) {
      broken = ModeEvent::kRollStickBroken;
    } else if (!((held & kSlipGroup) && event_value(ModeEvent::kStickBroken, state, state, model) < T(0))) {
      if (grows) {
        entry.steps.push_back(std::string("entered ") + to_string(entry.mode) +
                              ": the held velocities removed by a plastic impulse at the contact");
      }
      break;
    }
    entry.steps.push_back(describe(broken, state, model));
    held &= ~unsigned(group_of(broken));
    if (broken == ModeEvent::kStickBroken) {
      entry.reference.slip = slip_hint_of(state);
      released_slip = true;
    }
  }
  if (released_slip && !holds_slip(entry.mode) && entry.reference.slip.norm() > T(0)) {
    StateVector<T> y(5 + entry.rdot.size());
    y << q, entry.rdot;
    entry.reference.slip = consistent_slip_direction(dynamics, model, entry.mode, y, entry.reference);
  }
  return entry;
}

}  // namespace

template <class T>
ModeEntry<T> enter_mode(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model, ContactMode from,
                        ModeEvent event, const Vec5<T>& q, const Vec5<T>& qdot, const LawDirections<T>& reference) {
  const kinematics::ContactConfiguration<T> c = kinematics::contact_configuration(dynamics.patch1(), dynamics.patch2(), q);
  // The event's group, and every other resisted group below its threshold
  // (not the one whose limit just broke).
  const unsigned held = held_groups(target_of(from, event)) |
                        (groups_below_threshold(c.H_1c, qdot, model) & ~unsigned(group_of(event)));
  return settle(dynamics, model, from, held, q, qdot, reference);
}

template <class T>
ModeEntry<T> initial_mode(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model, const Vec5<T>& q,
                          const Vec5<T>& qdot) {
  if (model.frictionless()) return {ContactMode::kFrictionless, ReducedVector<T>(qdot), {}, {}};
  const kinematics::ContactConfiguration<T> c = kinematics::contact_configuration(dynamics.patch1(), dynamics.patch2(), q);
  return settle(dynamics, model, ContactMode::kSliding, groups_below_threshold(c.H_1c, qdot, model), q, qdot, {});
}

#define CONTACTREF_INSTANTIATE(T)                                                                                    \
  template struct FrictionModel<T>;                                                                                 \
  template void check_friction_model<T>(const FrictionModel<T>&);                                                   \
  template std::vector<ModeEvent> events_of<T>(ContactMode, const FrictionModel<T>&);                               \
  template T event_value<T>(ModeEvent, const ContactDynamicsState<T>&, const ContactDynamicsState<T>&,            \
                            const FrictionModel<T>&);                                                              \
  template std::string describe<T>(ModeEvent, const ContactDynamicsState<T>&, const FrictionModel<T>&);            \
  template Eigen::Matrix<T, 2, 1> slip_hint_of<T>(const ContactDynamicsState<T>&);                                  \
  template unsigned groups_below_threshold<T>(const kinematics::Mat65<T>&, const Vec5<T>&, const FrictionModel<T>&); \
  template ModeEntry<T> enter_mode<T>(const ContactDynamics<T>&, const FrictionModel<T>&, ContactMode, ModeEvent,    \
                                      const Vec5<T>&, const Vec5<T>&, const LawDirections<T>&);                     \
  template ModeEntry<T> initial_mode<T>(const ContactDynamics<T>&, const FrictionModel<T>&, const Vec5<T>&,         \
                                        const Vec5<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
