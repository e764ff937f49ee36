#pragma once
// The hybrid simulator behind contact_simulation.hpp's simulate (Kry & Pai
// Sections 3.3-3.7 and 4.2): internal to contact_simulation.cpp (the
// contact modes, events and the step loop) and contact_flight.cpp (flight,
// separation, impacts, contact re-established, forced separations). Not
// part of the interface.
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reference/dynamics/contact_dynamics.hpp"
#include "reference/dynamics/contact_simulation.hpp"
#include "reference/dynamics/flight.hpp"
#include "reference/dynamics/integrators.hpp"
#include "reference/dynamics/mode_switching.hpp"
#include "reference/dynamics/step_acceptance.hpp"
#include "reference/dynamics/surface_proximity.hpp"
#include "reference/spatial/newton_euler.hpp"

namespace contactref::dynamics::detail {

using surfaces::Patch;
using surfaces::PatchComplex;
using surfaces::Vec2;

// The parameters of body b (1 or 2) in q, and their rates in q'.
template <class T>
Vec2<T> parameters(const Vec5<T>& q, int body) {
  return q.template segment<2>(body == 1 ? 0 : 2);
}

template <class T>
const Patch<T>& patch_of(const ContactSystem<T>& system, const ContactState<T>& state, int body) {
  const PatchComplex<T>& complex = body == 1 ? *system.surface1 : *system.surface2;
  return *complex.patches[std::size_t(body == 1 ? state.patch1 : state.patch2)];
}

// A body's current patch with its evaluation pinned to one smooth piece (the
// region the contact point may move in without a located crossing), so that
// every stage of a step, even one that pokes across the region's edge, uses
// that piece's polynomial (Patch::evaluate_piece). The region is the smooth
// piece, or the whole domain polygon when pieces are not located
// (BoundaryLocation::kLinear, the paper's scheme), or empty for a chart
// (whose intervals are checked instead).
template <class T>
class PinnedPatch final : public Patch<T> {
 public:
  void pin(const Patch<T>& patch, std::vector<Vec2<T>> region, bool pinned) {
    patch_ = &patch;
    region_ = std::move(region);
    pinned_ = pinned && !region_.empty();
    inside_ = Vec2<T>::Zero();
    for (const Vec2<T>& corner : region_) inside_ += corner / T(region_.size());
  }
  surfaces::PatchJet<T> evaluate(const T& s, const T& t) const override {
    return pinned_ ? patch_->evaluate_piece(s, t, inside_) : patch_->evaluate(s, t);
  }
  const surfaces::Domain<T>& domain() const override { return patch_->domain(); }
  std::string describe() const override { return patch_->describe(); }
  const std::vector<Vec2<T>>& region() const { return region_; }

 private:
  const Patch<T>* patch_ = nullptr;
  std::vector<Vec2<T>> region_;
  bool pinned_ = false;
  Vec2<T> inside_;  // the region's centroid
};

template <class T>
class Simulator {
 public:
  Simulator(const ContactSystem<T>& system, const SimulationOptions<T>& options,
            const std::function<void(const T&)>& progress, const SimulationSinks<T>& sinks)
      : system_(system),
        options_(options),
        progress_(progress),
        sinks_(sinks),
        dynamics_(system.mass, system.I_com, pinned_[0], pinned_[1], system.E_w_2, system.gravity_w),
        flight_dynamics_(system.mass, system.I_com, system.gravity_w) {}

  // A run from a contact, or from a flight (the hierarchies built).
  SimulationResult<T> run(const ContactState<T>& initial);
  SimulationResult<T> run(const FlightStart<T>& initial);
  // Builds the bodies' hierarchies for flight; false (and why in
  // no_flight_) when a surface cannot have one.
  bool prepare_flight();
  const std::string& no_flight() const { return no_flight_; }
  // The bodies' smooth distance at body 1's state y (nullopt beyond the
  // query distance), warm-started by the run's last query (ProximityCache).
  std::optional<SurfaceClosestPoints<T>> proximity(const typename FlightDynamics<T>::State& y) {
    return closest_points(*hierarchy1_, FlightDynamics<T>::pose_of(y), *hierarchy2_, system_.E_w_2, query_distance_,
                          &proximity_cache_);
  }

 private:
  using State = StateVector<T>;  // (q, r') of the current mode

  // The dynamics on the pinned patches (update_regions first).
  const ContactDynamics<T>& dynamics() const { return dynamics_; }
  // The dynamics of the current mode at y, with the law's directions at the
  // start of the step (reference_: contact_dynamics.hpp LawDirections).
  ContactDynamicsState<T> evaluate(const State& y) const {
    return dynamics_.evaluate(mode_, y, system_.friction.law, reference_);
  }
  // The dynamics at a state that starts a step: its law directions become
  // the reference of the step.
  ContactDynamicsState<T> start_at(const ContactState<T>& state) {
    ContactDynamicsState<T> start = evaluate(state_vector(state));
    reference_ = start.directions;
    return start;
  }
  State state_vector(const ContactState<T>& state) const {
    State y(5 + velocity_dimension(mode_));
    y << state.q, reduced_velocities(mode_, configuration_rows(state.q), state.qdot);
    return y;
  }
  // H_1c at q where reduced_velocities reads it (the sliding modes that hold
  // a group), otherwise zero (not evaluated).
  kinematics::Mat65<T> configuration_rows(const Vec5<T>& q) const {
    if (!twist_coordinates(mode_)) return kinematics::Mat65<T>::Zero();
    return kinematics::contact_configuration<T>(pinned_[0], pinned_[1], q).H_1c;
  }
  // q' = P r' at y (the pinned patches' configuration).
  Vec5<T> rates_of(const State& y) const {
    const ReducedVector<T> rdot = y.tail(y.size() - 5);
    if (rdot.size() == 5) return rdot;
    const Vec5<T> q = y.template head<5>();
    return reduced_velocity_map(mode_, kinematics::contact_configuration<T>(pinned_[0], pinned_[1], q).H_1c) * rdot;
  }

  // The regions of both bodies at the state, and the pins. whole_patch: the
  // patch's domain polygon, evaluated unpinned (the step that crosses a piece
  // line from a state on it, see run()).
  void update_regions(const ContactState<T>& state, bool whole_patch) {
    const bool pieces = options_.boundary == BoundaryLocation::kIntegrated && !whole_patch;
    for (int body = 1; body <= 2; ++body) {
      const Patch<T>& patch = patch_of(system_, state, body);
      const Vec2<T> x = parameters(state.q, body), xdot = parameters(state.qdot, body);
      pinned_[std::size_t(body - 1)].pin(patch, pieces ? patch.smooth_piece(x.x(), x.y(), xdot) : patch.domain().polygon,
                                         pieces);
    }
  }
  const std::vector<Vec2<T>>& region(int body) const { return pinned_[std::size_t(body - 1)].region(); }

  // The most violated edge of a body's region at y (index, distance < -slack), or -1.
  int exit_edge(const std::vector<Vec2<T>>& region, const State& y, int body) const;
  // Whether y's parameters of a chart body are outside its non-periodic intervals.
  bool outside_chart(const ContactState<T>& state, const State& y, int body) const;
  // An atlas chart's band (surfaces::PatchComplex): the signed distance of
  // y's first parameter of the body from the ends of its chart's band
  // (positive inside), or nullopt when the body's complex is no atlas.
  std::optional<T> band_distance(const ContactState<T>& state, const State& y, int body) const {
    const PatchComplex<T>& complex = body == 1 ? *system_.surface1 : *system_.surface2;
    if (!complex.is_atlas()) return std::nullopt;
    return complex.band_distance(body == 1 ? state.patch1 : state.patch2, y(body == 1 ? 0 : 2));
  }
  // The round-off slack of a band distance (radians-like parameter of size pi).
  static T band_slack() { return T(256) * epsilon<T>(); }
  // After a located crossing: a chart switch (patch_transition.hpp
  // switch_chart) if the body's point is on its band's end and `direction`
  // leaves the band (returns true).
  bool switch_if_on_band(ContactState<T>& state, int body, const Vec2<T>& direction);

  // One integrator step from y (evaluated: at_y); error: the scaled error
  // estimate (0 for RK4). The stages evaluate the law with the directions
  // at y (reference_), so that the right-hand side is smooth through a
  // velocity's zero (contact_dynamics.hpp) and the crossing is an event of
  // the mode (mode_switching.hpp). Sets step_work_: the work of the law over
  // the step by the method's own quadrature (its weights on the stages'
  // powers), so that the energy balance separates the law from the integrator.
  State step(const State& y, const ContactDynamicsState<T>& at_y, const T& h, T& error) {
    std::array<T, 7> powers{at_y.power};  // the stages' powers, k1's first
    std::size_t stages = 1;
    const auto f = [&](const State& x) {
      ++statistics_.derivative_evaluations;
      const ContactDynamicsState<T> stage = evaluate(x);
      powers[stages++] = stage.power;
      return State(stage.derivative);
    };
    const State k1 = at_y.derivative;
    if (options_.integrator == IntegratorKind::kRk4) {
      error = T(0);
      const State end = spatial::rk4_step_autonomous(f, y, k1, h);
      step_work_ = spatial::rk4_combine(h, powers[0], powers[1], powers[2], powers[3]);
      return end;
    }
    const EmbeddedStep<State> result = dormand_prince_step(f, y, k1, h);
    step_work_ = dormand_prince_combine(h, powers[0], powers[2], powers[3], powers[4], powers[5]);
    error = T(0);
    for (Eigen::Index i = 0; i < y.size(); ++i) {
      using std::abs;
      error = std::max(error, T(abs(result.error(i)) / (options_.tolerance * (T(1) + abs(y(i))))));
    }
    return result.y;
  }

  // The crossing inside [0, h] of the first region edge that the step from y
  // (ending at `end`) leaves: its time tau and state.
  struct Crossing {
    T tau;
    State y;
    T work;  // J: the law's work from y to the crossing (step_work_)
  };
  Crossing locate(const ContactState<T>& state, const State& y, const ContactDynamicsState<T>& at_y, const T& h,
                  const State& end);
  // The root of g(step(y, tau)) in (0, h] by Illinois (modified regula
  // falsi) on the step length, given g(y) = g0 >= 0 > g_end = g(end): the
  // integrator's own state at the root (to `slack` in g).
  Crossing locate_root(const std::function<T(const State&)>& g, const State& y, const ContactDynamicsState<T>& at_y,
                       const T& h, const T& g0, const T& g_end, const T& slack);
  // The first mode event (mode_switching.hpp) that the accepted step from
  // `here` to `there` crosses, with its located state, if any.
  struct LocatedEvent {
    ModeEvent event;
    Crossing crossing;
    bool resolved;  // g at the root is within its round-off (not a jump of g)
  };
  // The law's directions for a step of h from `here` (reference_): each
  // moving velocity's own (the reference continues the law through a zero
  // within a step, never from one step to the next), each at rest's as
  // `here` has it (a hint, the direction it is about to move in); a free
  // resisted slip or rolling that may reach zero within the step (its speed
  // at most its rate of change times h) keeps its direction through it
  // (contact_dynamics.hpp LawDirections: the stiff turn near zero).
  void hold_directions(const ContactDynamicsState<T>& here, const T& h) {
    using std::abs;
    reference_ = here.directions;
    const Eigen::Matrix<T, 2, 1> slip = here.phi_1c.template segment<2>(3), rolling = here.phi_1c.template head<2>();
    if (reference_.slip.norm() > T(0) && here.slipping()) reference_.slip = slip / slip.norm();
    if (reference_.rolling.norm() > T(0) && rolling.norm() > here.rotation_floor) reference_.rolling = rolling / rolling.norm();
    if (reference_.spin != T(0) && abs(here.phi_1c(2)) > here.rotation_floor)
      reference_.spin = here.phi_1c(2) > T(0) ? T(1) : T(-1);
    reference_.slip_held = system_.friction.resisted_groups() != 0 && !holds_slip(mode_) &&
                           here.slip_speed() <= here.slip_acceleration().norm() * h;
    reference_.rolling_held = system_.friction.law.mu_roll > T(0) && !holds_rolling(mode_) &&
                              here.phi_1c.template head<2>().norm() <= here.rolling_acceleration().norm() * h;
  }
  // The model with the spent thresholds (spent_) at zero.
  FrictionModel<T> active_model() const;
  // A spent threshold is armed again once its group's speed at the start of
  // a step is clearly above it (the velocity rose through it).
  void rearm(const ContactDynamicsState<T>& here);
  std::optional<LocatedEvent> mode_event(const ContactDynamicsState<T>& here, const ContactDynamicsState<T>& there,
                                         const State& y, const T& h);
  // When a mode event lies on the step from y (evaluated: here) of length h
  // (ending evaluated: there): the state advanced to its root, the new mode entered
  // (or, for a group that cannot be held, its event moved to zero), `here`
  // re-evaluated and observed (kSwitched); kUnresolved when the root is a
  // jump of the event function and h is above h_min (the step is too long
  // to resolve it).
  enum class EventOutcome { kNone, kSwitched, kUnresolved };
  EventOutcome switch_at_event(ContactState<T>& state, ContactDynamicsState<T>& here,
                               const ContactDynamicsState<T>& there, const State& y, const T& h);
  // Makes the entered mode the current one: its reference directions,
  // q' = P r', and the spent thresholds of its free groups.
  void adopt(ContactState<T>& state, const ModeEntry<T>& entry);
  // Moves the body's point to another chart of its atlas (switch_chart) and
  // logs the transition with `message`.
  void move_to_other_chart(ContactState<T>& state, int body, const std::string& message);
  // Adopts an entered mode (mode_switching.hpp enter_mode), accounts its
  // impulse and logs the steps.
  void switch_mode(ContactState<T>& state, const ModeEntry<T>& entry, const std::string& cause);
  // BoundaryLocation::kLinear (Section 3.5): the state projected along the
  // parameter velocity onto the first edge that the step crossed and that q'
  // reaches within h, if any.
  std::optional<Crossing> project_linearly(const State& y, const ContactDynamicsState<T>& at_y, const T& h,
                                          const State& end);
  // The time at which y + tau k1 (k1 = y's derivative) reaches edge k of
  // body's region (the edge distance is affine in q): 0 on or beyond it,
  // nullopt when the parameter velocity does not approach it.
  std::optional<T> linear_reach(const State& y, const State& k1, int body, std::size_t k) const;
  // The first edge of either body's region that the parameter velocity
  // reaches (linear_reach), if any: the step control's prediction.
  std::optional<T> time_to_edge(const State& y, const State& k1) const;

  // After a located crossing: a transition if the point is on its patch's
  // edge and `direction` (the parameter motion of the step beyond the
  // crossing) leaves across it (returns true), otherwise nothing (a
  // smooth-piece crossing).
  bool transit_if_on_edge(ContactState<T>& state, int body, const Vec2<T>& direction);

  // The RK4 acceptance test (step_acceptance.hpp): whether the step from
  // `here` to `there` keeps the energy within its bound (in a mode whose
  // friction law dissipates: does not raise it beyond the bound).
  bool energy_accepted(const ContactDynamicsState<T>& here, const ContactDynamicsState<T>& there, const T& work) const;
  // Why a step from `here` to `there` over which the law did `work` failed the energy test.
  std::string energy_failure(const ContactDynamicsState<T>& here, const ContactDynamicsState<T>& there, const T& work,
                             const T& h) const;
  T kinetic_energy(const ContactDynamicsState<T>& evaluated) const {
    return spatial::kinetic_energy<T>(dynamics().inertia(), evaluated.phi);
  }

  // An event to the events' sink (or the result).
  void log_event(const SimulationEvent<T>& event) {
    ++result_.event_count;
    if (sinks_.events) {
      sinks_.events->write(event);
    } else {
      result_.events.push_back(event);
    }
  }

  // The root of the normal force in the step from `here` (f_n >= 0) to
  // `there` (f_n below its round-off), if it crosses zero there.
  std::optional<Crossing> separation_crossing(const ContactDynamicsState<T>& here, const ContactDynamicsState<T>& there,
                                              const State& y, const T& h);
  // The bodies forced apart at an extraordinary vertex near the contact
  // (fail): push_off, then flight; false when they cannot be.
  bool separate_at_vertex(const ContactState<T>& state, const std::string& why);
  // The contact ends at a state whose normal force is zero or negative
  // (Section 3.3): flight from it (true), or the run ends kSeparated when
  // the surfaces cannot have collision detection (false).
  bool separate(const ContactState<T>& state, const ContactDynamicsState<T>& at);
  // Enters the contact at `state` (a point outside its atlas chart's band
  // moves to another chart first) in the mode that its state and the
  // friction model give, with the plastic impulse in impulse_work; `why`
  // prefixes the logged steps. Returns the energy before the impulse.
  T begin_contact(ContactState<T>& state, const std::string& why);
  // The step loop from a started contact or flight.
  SimulationResult<T> run_from(ContactState<T>& state);

  // Flight (flight.hpp). One pass: a step (kStepped), a step to retry
  // shorter (kRetry), an impact that left the body in flight (kStepped) or
  // in contact (kContact), or the end of the run (kEnd).
  enum class FlightOutcome { kStepped, kRetry, kContact, kEnd };
  FlightOutcome flight_pass(ContactState<T>& state, T& h, const T& end_time);
  void begin_flight(const spatial::RigidBodyState<T>& body);
  // The impact at `touch` (Chatterjee & Ruina, collision_law.hpp), then
  // flight or, when the body leaves slower than gravity can resolve in a
  // minimum step, the contact re-established there.
  FlightOutcome collide(ContactState<T>& state, const SurfaceClosestPoints<T>& touch);
  // The flight row when one is due.
  void observe_flight(const ContactState<T>& state, bool force);
  // Body 1's flight state becomes y; `near`: the bodies' closest points at
  // its pose when the caller has them (a step's end, a located impact).
  void move_flight(const typename FlightDynamics<T>::State& y, const std::optional<SurfaceClosestPoints<T>>* near) {
    flight_ = y;
    flight_near_known_ = near != nullptr;
    if (near) flight_near_ = *near;
    flight_lower_.reset();
  }
  // A flight step of h taken: body 1 at y, the clock h later, the step
  // counted; `near` as move_flight's.
  void count_flight_step(ContactState<T>& state, const typename FlightDynamics<T>::State& y, const T& h,
                         const std::optional<SurfaceClosestPoints<T>>& near) {
    move_flight(y, &near);
    state.time += h;
    last_step_ = h;
    ++statistics_.flight_steps;
    statistics_.flight_time += h;
  }
  // The bodies' closest points at flight_'s pose (nullopt beyond the query
  // distance), queried once per pose.
  const std::optional<SurfaceClosestPoints<T>>& near_here() {
    if (!flight_near_known_) flight_near_ = proximity(flight_);
    flight_near_known_ = true;
    return flight_near_;
  }
  // A certain lower bound of the bodies' smooth distance at flight_'s pose
  // (distance_lower_bound), computed once per pose.
  const T& lower_here() {
    if (!flight_lower_)
      flight_lower_ = distance_lower_bound(*hierarchy1_, FlightDynamics<T>::pose_of(flight_), *hierarchy2_, system_.E_w_2);
    return *flight_lower_;
  }
  // A row to its sink (or the result), and the next output time.
  void emit(const SimulationSample<T>& sample);
  // The step after an accepted one of h with scaled error `error` (Section
  // 3.7): RK4 doubles it up to h_max; Dormand-Prince's standard controller
  // (safety 0.9, growth at most 5) within [h_min, h_max].
  T next_step(const T& h, const T& error) const {
    if (options_.integrator == IntegratorKind::kRk4) return std::min(options_.h_max, T(2 * h));
    using std::pow;
    const T factor = error > T(0) ? T(0.9 * pow(error, T(-0.2))) : T(5);
    return std::clamp(T(h * std::min(T(5), factor)), options_.h_min, options_.h_max);
  }
  // Ends the run: `status` with its event, at the state's time.
  void finish(SimulationStatus status, EventKind kind, const ContactState<T>& state, int body, std::string message);
  // A contact that cannot continue: when an extraordinary vertex lies within
  // the reach of a minimum step of the contact point (the failure is its
  // degenerate parameterisation), the bodies are forced apart (Section 3.6:
  // small bounces carry the contact across, push_off) and the run goes on
  // in flight (true); without collision detection for the surfaces, or when
  // `may_separate` is false, the run ends kExtraordinaryVertex; otherwise
  // it ends kFailed with the cause (false).
  bool fail(const ContactState<T>& state, const std::string& cause, bool may_separate = true);
  // The failure message's diagnosis of a contact whose relative curvature
  // (kinematics::relative_curvature) is nearly singular, lambda_min <=
  // |lambda_max| / kConformingRatio (H^T M H's conditioning follows it), or
  // "".
  std::string conforming_diagnosis(const ContactState<T>& state) const;
  static constexpr int kConformingRatio = 1024;
  // An impulse along body 2's normal n_w at p_w that makes body 1's point
  // there leave at a h_min, a its normal acceleration towards body 2 in
  // flight (bounded by the caller): the gap after a minimum step is then at
  // least a h_min^2 / 2 > 0, the bound on the impulse that Section 3.6 says
  // "may need to be increased to prevent the objects from intersecting after
  // advancing the system by the minimum step". Logged kForcedSeparation.
  void push_off(const ContactState<T>& state, spatial::RigidBodyState<T>& body, const Vec3<T>& p_w,
                const Vec3<T>& n_w, const T& a, const std::string& why);

  // The state at y after a step of h over which the law did `work` (J);
  // qdot: P r' at y when known.
  void accept(ContactState<T>& state, const State& y, const T& h, const T& work, const Vec5<T>* qdot = nullptr);
  // The residuals of an evaluated state, and its output row when one is due.
  void observe(const ContactState<T>& state, const ContactDynamicsState<T>& evaluated, bool force);
  void wrap_periodic(ContactState<T>& state) const;

  const ContactSystem<T>& system_;
  SimulationOptions<T> options_;
  std::function<void(const T&)> progress_;
  SimulationSinks<T> sinks_;
  std::optional<T> last_row_time_;  // of the last output row
  std::array<PinnedPatch<T>, 2> pinned_;
  ContactDynamics<T> dynamics_;  // on pinned_, built once
  ContactMode mode_ = ContactMode::kFrictionless;
  LawDirections<T> reference_;  // the law's directions at the start of the current step
  // Groups whose threshold is spent: left free below it (they could not be
  // held), their event is at zero until their speed rises above it again
  // (rearm; mode_switching.hpp).
  unsigned spent_ = 0;
  SimulationResult<T> result_;
  SimulationStatistics<T>& statistics_ = result_.statistics;
  T next_output_ = T(0);
  T last_step_ = T(0);
  T step_work_ = T(0);     // J: the law's work over the last step() (step)
  T work_ = T(0);          // J: the law's work over the accepted steps
  T impulse_work_ = T(0);  // J: the energy changes of the plastic impulses at mode switches
  T kinetic_max_ = T(0);      // the largest kinetic energy of the accepted states (J)
  std::string left_surface_;  // set by transit_if_on_edge at an edge without neighbour
  // Flight: body 1's state, its dynamics, the bodies' hierarchies (built at
  // the first flight) and the distance within which the smooth surfaces'
  // closest points are computed.
  bool in_flight_ = false;
  typename FlightDynamics<T>::State flight_;
  // The closest points at flight_'s pose, when flight_near_known_ (an
  // impulse leaves the pose, and so them, unchanged).
  std::optional<SurfaceClosestPoints<T>> flight_near_;
  bool flight_near_known_ = false;
  std::optional<T> flight_lower_;  // lower_here's, at flight_'s pose
  FlightDynamics<T> flight_dynamics_;
  std::optional<SurfaceHierarchy<T>> hierarchy1_, hierarchy2_;
  T query_distance_ = T(0);
  ProximityCache<T> proximity_cache_;  // proximity's last seeds
  std::string no_flight_;  // why the surfaces cannot have collision detection
};

}  // namespace contactref::dynamics::detail
