#pragma once
// Switching between the friction modes of one contact (Kry & Pai Section
// 3.4.2-3.4.3, Eqs. 35 and 40; thesis Section 4.4.4): the friction model, the
// event functions whose roots end a mode, and the handlers that enter a mode.
//
// Event functions g(state) end the mode when they cross from g >= 0 at the
// start of a step to g < 0 at its end (a downward crossing: the hysteresis
// that lets a contact whose stick broke start sliding before the slip-speed
// test can send it back, as the thesis advises):
//   sliding:  slip speed - slip_threshold                    -> no-slip
//   no-slip:  mu_static f_n - |f_t|        (Eq. 35)          -> sliding
//             |omega_z| - spin_threshold   (when mu_spin > 0 and
//                                           spin_threshold > 0) -> no-spin
//             |rho| - roll_threshold       (when mu_roll > 0 and
//                                           roll_threshold > 0) -> no-roll
//   no-spin:  mu_static f_n - |f_t|        (Eq. 35)          -> sliding
//             mu_spin f_n - |tau_z|        (Eq. 40, mu_spin as the static
//                                           spin coefficient)  -> no-slip
//             |rho| - roll_threshold       (as above)        -> rest
//   no-roll:  mu_static f_n - |f_t|        (Eq. 35)          -> sliding
//             mu_roll f_n - |tau_roll|     (mu_roll as the static rolling
//                                           coefficient, like Eq. 40) -> no-slip
//             |omega_z| - spin_threshold   (as for no-slip)  -> rest
//   rest:     mu_static f_n - |f_t|        (Eq. 35)          -> sliding
//             mu_roll f_n - |tau_roll|                       -> no-spin
//             mu_spin f_n - |tau_z|        (Eq. 40)          -> no-roll
// with rho = (omega_x, omega_y) and tau_roll = f_1c(0..1) the rolling velocity
// and torque in frame 1c. No-roll and rest (contact_modes.hpp) are where
// rolling resistance brings the rolling to a stop: the thesis's torque
// (Eqs. 4.27-4.28) alone would reverse with the rolling velocity at every step.
// Entering a mode that holds more than the one before removes the held
// velocities by a plastic impulse at the contact (ContactDynamics::project);
// entering sliding or releasing a held velocity keeps q' (the velocity is
// continuous). A stick
// that breaks gives the sliding mode a slip direction to use while the slip
// is within its round-off (the slip hint): first against the static
// friction force it could not hold, then refined to the consistent one,
// along which the slip then accelerates (exact at once for an isotropic
// contact; iterated for an anisotropic one, where a wrong direction would
// let the friction do positive work).
#include <string>
#include <vector>

#include "reference/dynamics/contact_dynamics.hpp"

namespace contactref::dynamics {

template <class T>
struct FrictionModel {
  FrictionLaw<T> law;           // dynamic friction, resistance, damping (contact_dynamics.hpp)
  T mu_static = T(0);           // Eq. 35: no-slip holds while |f_t| <= mu_static f_n; >= law.mu
  T slip_threshold = T(0.005);  // m/s: sliding -> no-slip below it (Kry & Pai: 2.5 to 5 mm/s)
  T spin_threshold = T(0);      // rad/s: no-slip -> no-spin below it (0: never; needs mu_spin > 0)
  T roll_threshold = T(0);      // rad/s: no-slip -> no-roll below it (0: never; needs mu_roll > 0)

  // No friction at all: the frictionless mode (Eq. 20) throughout.
  bool frictionless() const {
    return law.mu == T(0) && law.mu_roll == T(0) && law.mu_spin == T(0) && mu_static == T(0);
  }
};

// InputError naming the field for a negative or non-finite coefficient, and
// for mu_static < mu (Coulomb's law needs mu_static >= mu: at zero slip the
// sliding friction could otherwise hold what the static friction cannot).
template <class T>
void check_friction_model(const FrictionModel<T>& model);

enum class ModeEvent {
  kSlipBelowThreshold, kStickBroken, kSpinBelowThreshold, kSpinStickBroken, kRollBelowThreshold, kRollStickBroken
};

// The events that can end `mode` under the model.
template <class T>
std::vector<ModeEvent> events_of(ContactMode mode, const FrictionModel<T>& model);

// g of the event at an evaluated state (header comment), with the sign of
// the slip (or spin) taken against its direction at `start`: |v| while the
// slip stays on the side of that direction, -|v| once it has reversed, so
// that a step in which the slip passes through zero and comes back
// reversed, where |v| - threshold need not change sign, still crosses
// g = 0. Without a reversal g is the slip speed itself, smooth along the
// step, and its root is located to the integrator's order (a component
// along the start's direction would err by the slip's turn within the step,
// O(h^2): measured, order 1.5 instead of 4).
template <class T>
T event_value(ModeEvent event, const ContactDynamicsState<T>& state, const ContactDynamicsState<T>& start,
              const FrictionModel<T>& model);

// Whether the friction law's direction reverses between the start of a step
// and a stage of it: the slip (sliding, mu > 0), the spin (mu_spin > 0) or
// the rolling velocity (mu_roll > 0) has a negative component along its
// direction at the start (none when that is zero). The right-hand side of
// Eq. 28 jumps there (the direction flips), so a step that contains the
// reversal loses the integrator's order and misplaces the events that
// precede it: the simulator halves such a step, down to h_min. Returns what
// reversed, or nullptr.
template <class T>
const char* reversal(const ContactDynamicsState<T>& start, const ContactDynamicsState<T>& stage,
                     const FrictionLaw<T>& law);

// The mode an event of `from` (events_of) leads to.
ContactMode target_of(ContactMode from, ModeEvent event);

// What happened, with the numbers, for the event log.
template <class T>
std::string describe(ModeEvent event, const ContactDynamicsState<T>& state, const FrictionModel<T>& model);

// A mode entered: its reduced velocities, the slip hint, and the steps taken
// to get there (one line each, for the event log).
template <class T>
struct ModeEntry {
  ContactMode mode;
  ReducedVector<T> rdot;
  Eigen::Matrix<T, 2, 1> slip_hint = Eigen::Matrix<T, 2, 1>::Zero();
  std::vector<std::string> steps;
};

// The unit slip direction in frame 1c that a broken stick gives the sliding
// mode: against the static friction force f_1c(3..4) it could not hold.
template <class T>
Eigen::Matrix<T, 2, 1> slip_hint_of(const ContactDynamicsState<T>& stuck);

// Enters `mode` at (q, q'), then follows the static checks down (a no-spin
// whose spin torque is too large becomes no-slip, a no-slip or no-spin whose
// tangential force is too large becomes sliding), at most two further
// switches at this instant. slip_hint: for a sliding mode entered directly.
template <class T>
ModeEntry<T> enter_mode(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model, ContactMode mode,
                        const Vec5<T>& q, const Vec5<T>& qdot,
                        const Eigen::Matrix<T, 2, 1>& slip_hint = Eigen::Matrix<T, 2, 1>::Zero());

// The mode a run starts in from (q, q'): frictionless for a frictionless
// model; sliding when the slip speed is at least the threshold; otherwise
// no-slip (no-spin when the spin is below its threshold), checked as above.
template <class T>
ModeEntry<T> initial_mode(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model, const Vec5<T>& q,
                          const Vec5<T>& qdot);

}  // namespace contactref::dynamics
