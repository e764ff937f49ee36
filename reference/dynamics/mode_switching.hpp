#pragma once
// Switching between the friction modes of one contact (Kry & Pai Section
// 3.4.2-3.4.3, Eqs. 35 and 40; thesis Section 4.4.4): the friction model, the
// event functions whose roots end a mode, and the handlers that enter a mode.
//
// A mode holds some of the three velocity groups of phi_1c at zero (the
// rolling rho = (omega_x, omega_y), the spin omega_z, the slip (v_x, v_y):
// contact_modes.hpp) and leaves the others free. A group is resisted when the
// law acts on it: the slip in every friction mode, the spin when
// mu_spin > 0, the rolling when mu_roll > 0. The events of a mode are:
//   each held group:           its static limit broken     -> release it
//     slip:     mu_static f_n - |f_t|                 (Eq. 35)
//     spin:     mu_spin f_n - |tau_z|                 (Eq. 40, mu_spin as the
//                                                      static spin coefficient)
//     rolling:  mu_roll f_n - |tau_roll|              (mu_roll as the static
//                                                      rolling coefficient)
//   each free resisted group:  its velocity reaches its threshold -> hold it
//     s |w| - threshold, with w the group's velocity and s = -1 once w has
//     turned against its direction at the start of the step (the law's
//     reference, contact_dynamics.hpp LawDirections), +1 otherwise: a
//     velocity that passes through zero crosses g = 0 there even for a
//     threshold of 0, and g is smooth along the step (linear in w near zero),
//     so its root is located to the integrator's order.
// with tau_roll = f_1c(0..1) and tau_z = f_1c(2) in frame 1c. The event
// functions end the mode when they cross from g >= 0 at the start of a step
// to g < 0 at its end (a downward crossing).
//
// Thresholds (slip_threshold, spin_threshold, roll_threshold) apply on the
// way down; 0 holds a group at the instant its velocity reaches zero. A
// group already below its threshold when a mode is entered (it could not be
// held: the simulator's "spent" threshold) has its event at zero instead.
//
// Entering a mode (the same rules at the start of a run and at every event):
// the target holds the groups of the mode before, plus the group whose
// velocity reached its threshold (or minus the one whose limit broke), plus
// every other free resisted group below its threshold (|w| < threshold, or
// w within its round-off); the held velocities are removed by a plastic
// impulse at the contact (ContactDynamics::project, from the velocity before
// the event) when the target holds a group the mode before did not;
// then the static limits are checked in the order spin, rolling, slip, and
// the first one violated is released (the target recomputed from the
// velocity before the event, so that no impulse removes a velocity that is
// not held in the end), at most three times. Releasing keeps q' (the
// velocity is continuous). A stick that breaks gives the sliding mode a slip
// direction to use while the slip is within its round-off (the slip hint):
// first against the static friction force it could not hold, then refined to
// the consistent one, along which the slip then accelerates (exact at once
// for an isotropic contact; iterated for an anisotropic one, where a wrong
// direction would let the friction do positive work).
#include <string>
#include <vector>

#include "reference/dynamics/contact_dynamics.hpp"

namespace contactref::dynamics {

template <class T>
struct FrictionModel {
  FrictionLaw<T> law;           // dynamic friction, resistance, damping (contact_dynamics.hpp)
  T mu_static = T(0);           // Eq. 35: no-slip holds while |f_t| <= mu_static f_n; >= law.mu
  T slip_threshold = T(0.005);  // m/s: the slip is held from this speed down (Kry & Pai: 2.5 to 5 mm/s); 0: at zero
  T spin_threshold = T(0);      // rad/s: the spin is held from this speed down (0: at zero); needs mu_spin > 0
  T roll_threshold = T(0);      // rad/s: the rolling is held from this speed down (0: at zero); needs mu_roll > 0

  // No friction at all: the frictionless mode (Eq. 20) throughout.
  bool frictionless() const {
    return law.mu == T(0) && law.mu_roll == T(0) && law.mu_spin == T(0) && mu_static == T(0);
  }
  // The groups (contact_modes.hpp VelocityGroup) the law resists (header).
  unsigned resisted_groups() const;
  const T& threshold(VelocityGroup group) const {
    return group == kSlipGroup ? slip_threshold : group == kSpinGroup ? spin_threshold : roll_threshold;
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
// The group an event concerns, and whether it holds it (a velocity reached
// its threshold) or releases it (a static limit broke).
VelocityGroup group_of(ModeEvent event);
bool holds(ModeEvent event);

// The events that can end `mode` under the model: the static limits of the
// held groups, the thresholds of the free resisted groups (slip, spin,
// rolling in that order).
template <class T>
std::vector<ModeEvent> events_of(ContactMode mode, const FrictionModel<T>& model);

// g of the event at an evaluated state (header), with the side of the
// velocity taken against the law's direction at `start` (the state the step
// starts from), and the model's thresholds.
template <class T>
T event_value(ModeEvent event, const ContactDynamicsState<T>& state, const ContactDynamicsState<T>& start,
              const FrictionModel<T>& model);

// The mode an event of `from` leads to before the entry rules: `from` with
// the event's group held or released.
ContactMode target_of(ContactMode from, ModeEvent event);

// What happened, with the numbers, for the event log.
template <class T>
std::string describe(ModeEvent event, const ContactDynamicsState<T>& state, const FrictionModel<T>& model);

// A mode entered: its reduced velocities, the law's reference directions for
// its first evaluation (the caller's, with the slip hint of a broken stick),
// and the steps taken to get there (one line each, for the event log).
template <class T>
struct ModeEntry {
  ContactMode mode;
  ReducedVector<T> rdot;
  LawDirections<T> reference;
  std::vector<std::string> steps;
};

// The unit slip direction in frame 1c that a broken stick gives the sliding
// mode: against the static friction force f_1c(3..4) it could not hold.
template <class T>
Eigen::Matrix<T, 2, 1> slip_hint_of(const ContactDynamicsState<T>& stuck);

// The free resisted groups whose velocity at (q, q') is below its threshold
// (|w| < threshold) or at rest (within its round-off, as
// ContactDynamicsState's floors).
template <class T>
unsigned groups_below_threshold(const kinematics::Mat65<T>& H_1c, const Vec5<T>& qdot, const FrictionModel<T>& model);

// Enters the mode that `event` of `from` leads to at (q, q') by the entry
// rules (header). reference: the law's directions at the event.
template <class T>
ModeEntry<T> enter_mode(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model, ContactMode from,
                        ModeEvent event, const Vec5<T>& q, const Vec5<T>& qdot, const LawDirections<T>& reference);

// The mode a run starts in from (q, q'): frictionless for a frictionless
// model; otherwise sliding with every resisted group below its threshold
// held, by the entry rules.
template <class T>
ModeEntry<T> initial_mode(const ContactDynamics<T>& dynamics, const FrictionModel<T>& model, const Vec5<T>& q,
                          const Vec5<T>& qdot);

}  // namespace contactref::dynamics
