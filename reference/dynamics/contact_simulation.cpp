#include "reference/dynamics/contact_simulation.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <sstream>

#include "reference/dynamics/contact_entry.hpp"
#include "reference/dynamics/contact_simulator.hpp"
#include "reference/dynamics/flight.hpp"
#include "reference/dynamics/initial_contact.hpp"
#include "reference/dynamics/integrators.hpp"
#include "reference/dynamics/patch_transition.hpp"
#include "reference/dynamics/step_acceptance.hpp"
#include "reference/dynamics/surface_proximity.hpp"
#include "reference/spatial/newton_euler.hpp"
#include "reference/spatial/spatial_inertia.hpp"

namespace contactref::dynamics {

const char* to_string(SimulationStatus status) {
  switch (status) {
    case SimulationStatus::kCompleted: return "completed";
    case SimulationStatus::kSeparated: return "separated";
    case SimulationStatus::kLeftSurface: return "left-surface";
    case SimulationStatus::kExtraordinaryVertex: return "extraordinary-vertex";
    case SimulationStatus::kFailed: return "failed";
  }
  return "?";
}

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::kTransition: return "transition";
    case EventKind::kSmoothPiece: return "smooth-piece";
    case EventKind::kModeSwitch: return "mode-switch";
    case EventKind::kIllConditioned: return "ill-conditioned";
    case EventKind::kSeparation: return "separation";
    case EventKind::kLeftSurface: return "left-surface";
    case EventKind::kExtraordinaryVertex: return "extraordinary-vertex";
    case EventKind::kFailure: return "failure";
    case EventKind::kCollision: return "collision";
    case EventKind::kContact: return "contact";
    case EventKind::kForcedSeparation: return "forced-separation";
  }
  return "?";
}

namespace {

using detail::parameters;
using detail::patch_of;
using surfaces::PatchComplex;
using surfaces::Vec2;

// The signed distance of x from the line of edge k of a polygon: positive inside.
template <class T>
T edge_distance(const std::vector<Vec2<T>>& polygon, std::size_t k, const Vec2<T>& x) {
  const Vec2<T>& a = polygon[k];
  const Vec2<T>& b = polygon[(k + 1) % polygon.size()];
  const Vec2<T> e = b - a;
  return (e.x() * (x - a).y() - e.y() * (x - a).x()) / e.norm();
}

// The slack of "on an edge": the round-off of a parameter point, which is
// absolute (the maps between a face, its split children and the corner charts
// of Stam's evaluation add offsets of order 1), so at least 64 eps.
template <class T>
T polygon_slack(const std::vector<Vec2<T>>& polygon) {
  T size = T(1);
  for (std::size_t k = 0; k < polygon.size(); ++k) size = std::max(size, T((polygon[(k + 1) % polygon.size()] - polygon[k]).norm()));
  return T(64) * epsilon<T>() * size;
}

// Consecutive transitions at one instant (a corner where n patches meet
// needs at most n - 1; Loop valences here are at most 12 or so).
constexpr int kMaxCornerTransitions = 16;
// Mode switches at one instant: an event of each of the three velocity
// groups (mode_switching.hpp), each possibly refused and located once more
// at zero, and one more event of the new mode.
constexpr int kMaxInstantModeSwitches = 8;

// The output row of a state whose dynamics have been evaluated.
template <class T>
SimulationSample<T> sample_from(const ContactSystem<T>& system, const ContactState<T>& state,
                                const ContactDynamicsState<T>& evaluated, const T& step) {
  SimulationSample<T> sample;
  sample.state = state;
  const Mat3<T> R_w_1 = evaluated.E_w_1.template block<3, 3>(0, 0);
  const Mat3<T> R_w_2 = system.E_w_2.template block<3, 3>(0, 0);
  sample.com_w = evaluated.E_w_1.template block<3, 1>(0, 3);
  sample.R_w_1 = R_w_1;
  sample.phi = evaluated.phi;
  sample.omega_w = R_w_1 * evaluated.phi.template head<3>();
  sample.com_velocity_w = R_w_1 * evaluated.phi.template tail<3>();
  sample.slip_speed = evaluated.slip_speed();
  sample.energy = evaluated.energy;
  sample.power = evaluated.power;
  sample.normal_force = evaluated.f_n;
  // The residuals, from the patches themselves rather than the contact frames.
  const surfaces::PatchJet<T> c = patch_of(system, state, 1).evaluate(state.q(0), state.q(1));
  const surfaces::PatchJet<T> d = patch_of(system, state, 2).evaluate(state.q(2), state.q(3));
  const Vec3<T> p1_w = R_w_1 * c.c() + sample.com_w;
  const Vec3<T> p2_w = R_w_2 * d.c() + system.E_w_2.template block<3, 1>(0, 3);
  const Vec3<T> n1_w = R_w_1 * c.c_s().cross(c.c_t()).normalized();
  const Vec3<T> n2_w = R_w_2 * d.c_s().cross(d.c_t()).normalized();
  sample.gap = (p1_w - p2_w).norm();
  sample.normal_misalignment = (n1_w + n2_w).norm();
  sample.step = step;
  return sample;
}

}  // namespace

namespace detail {

template <class T>
int Simulator<T>::exit_edge(const std::vector<Vec2<T>>& region, const State& y, int body) const {
  if (region.empty()) return -1;
  const Vec2<T> x = parameters<T>(y.template head<5>(), body);
  const T slack = polygon_slack(region);
  int worst = -1;
  T worst_distance = -slack;
  for (std::size_t k = 0; k < region.size(); ++k) {
    const T distance = edge_distance(region, k, x);
    if (distance < worst_distance) worst = int(k), worst_distance = distance;
  }
  return worst;
}

template <class T>
bool Simulator<T>::outside_chart(const ContactState<T>& state, const State& y, int body) const {
  const surfaces::Domain<T>& domain = patch_of(system_, state, body).domain();
  if (domain.is_polygon()) return false;
  const Vec2<T> x = parameters<T>(y.template head<5>(), body);
  return !domain.contains(x.x(), x.y());
}

template <class T>
std::optional<T> Simulator<T>::linear_reach(const State& y, const State& k1, int body, std::size_t k) const {
  const std::vector<Vec2<T>>& polygon = region(body);
  const auto distance = [&](const State& x) { return edge_distance(polygon, k, parameters<T>(x.template head<5>(), body)); };
  const T g0 = distance(y);
  const T rate = distance(State(y + k1)) - g0;  // d distance / d tau (distance is affine in q)
  if (!(rate < T(0))) return std::nullopt;
  return std::max(T(-g0 / rate), T(0));
}

template <class T>
std::optional<T> Simulator<T>::time_to_edge(const State& y, const State& k1) const {
  std::optional<T> first;
  for (int body = 1; body <= 2; ++body)
    for (std::size_t k = 0; k < region(body).size(); ++k)
      if (const std::optional<T> tau = linear_reach(y, k1, body, k); tau && (!first || *tau < *first)) first = tau;
  return first;
}

template <class T>
std::optional<typename Simulator<T>::Crossing> Simulator<T>::project_linearly(const State& y,
                                                                             const ContactDynamicsState<T>& at_y,
                                                                             const T& h, const State& end) {
  std::optional<Crossing> first;
  const State& k1 = at_y.derivative;
  for (int body = 1; body <= 2; ++body) {
    const std::vector<Vec2<T>>& polygon = region(body);
    for (std::size_t k = 0; k < polygon.size(); ++k) {
      // onto the edges the step crossed
      if (!(edge_distance(polygon, k, parameters<T>(end.template head<5>(), body)) < -polygon_slack(polygon))) continue;
      const std::optional<T> tau = linear_reach(y, k1, body, k);
      if (tau && *tau <= h && (!first || *tau < first->tau)) first = Crossing{*tau, State(y + *tau * k1), *tau * at_y.power};
    }
  }
  return first;
}

template <class T>
typename Simulator<T>::Crossing Simulator<T>::locate_root(const std::function<T(const State&)>& g, const State& y,
                                                          const ContactDynamicsState<T>& at_y, const T& h,
                                                          const T& g0, const T& g_end, const T& slack) {
  State best;
  T best_work = T(0), ignored;
  const auto g_at = [&](const T& tau) {
    best = step(y, at_y, tau, ignored), best_work = step_work_;
    return g(best);
  };
  const T best_tau = illinois_root(g_at, T(0), g0, h, g_end, slack);
  return {best_tau, best, best_work};
}

template <class T>
typename Simulator<T>::Crossing Simulator<T>::locate(const ContactState<T>& state, const State& y,
                                                     const ContactDynamicsState<T>& at_y,
                                                     const T& h, const State& end) {
  if (options_.boundary == BoundaryLocation::kLinear) {
    // Section 3.5: q <- q + tau q' when the parameter velocity reaches an edge
    // within the step; otherwise the step left along a curve (acceleration
    // across an edge the velocity does not reach in h) and the projection has
    // no edge to land on: the integrated location below, never an Euler step.
    if (const std::optional<Crossing> projected = project_linearly(y, at_y, h, end)) return *projected;
  }
  Crossing first{h, State(), T(0)};
  bool found = false;
  for (int body = 1; body <= 2; ++body) {
    const std::vector<Vec2<T>>& polygon = region(body);
    if (polygon.empty()) continue;
    const T slack = polygon_slack(polygon);
    for (std::size_t k = 0; k < polygon.size(); ++k) {
      const auto distance = [&](const State& x) { return edge_distance(polygon, k, parameters<T>(x.template head<5>(), body)); };
      const T g0 = distance(y);
      const T g_end = distance(end);
      if (!(g_end < -slack)) continue;
      if (g0 <= slack) {  // already on this edge and leaving it (a corner, or a grazing exit)
        if (!found || T(0) < first.tau) first = {T(0), y, T(0)}, found = true;
        continue;
      }
      // The integrator's own state on the edge (to the slack), not a linear projection.
      const Crossing crossing = locate_root(distance, y, at_y, h, g0, g_end, slack);
      if (!found || crossing.tau < first.tau) first = crossing, found = true;
    }
  }
  for (int body = 1; body <= 2; ++body) {  // the bands of atlas charts
    const std::optional<T> g0 = band_distance(state, y, body), g_end = band_distance(state, end, body);
    if (!g0 || !(*g_end < -band_slack())) continue;
    if (*g0 <= band_slack()) {
      if (!found || T(0) < first.tau) first = {T(0), y, T(0)}, found = true;
      continue;
    }
    const auto distance = [&](const State& x) { return *band_distance(state, x, body); };
    const Crossing crossing = locate_root(distance, y, at_y, h, *g0, *g_end, band_slack());
    if (!found || crossing.tau < first.tau) first = crossing, found = true;
  }
  if (!found) throw ComputationError("a step left a patch's smooth piece, but no crossing edge was found");
  return first;
}

template <class T>
FrictionModel<T> Simulator<T>::active_model() const {
  FrictionModel<T> model = system_.friction;
  if (spent_ & kSlipGroup) model.slip_threshold = T(0);
  if (spent_ & kSpinGroup) model.spin_threshold = T(0);
  if (spent_ & kRollingGroup) model.roll_threshold = T(0);
  return model;
}

template <class T>
void Simulator<T>::rearm(const ContactDynamicsState<T>& here) {
  using std::abs;
  const std::array<std::pair<VelocityGroup, T>, 3> speeds = {{{kSlipGroup, here.slip_speed()},
                                                              {kSpinGroup, abs(here.phi_1c(2))},
                                                              {kRollingGroup, here.phi_1c.template head<2>().norm()}}};
  for (const auto& [group, speed] : speeds) {
    const T& threshold = system_.friction.threshold(group);
    // Clearly above: beyond the root's round-off (a refused group sits on
    // its threshold to 64 eps of an O(1) scale).
    if ((spent_ & group) && speed - threshold > T(1e-6) * threshold + T(128) * epsilon<T>()) spent_ &= ~unsigned(group);
  }
}

template <class T>
std::optional<typename Simulator<T>::LocatedEvent> Simulator<T>::mode_event(const ContactDynamicsState<T>& here,
                                                                           const ContactDynamicsState<T>& there,
                                                                           const State& y, const T& h) {
  std::optional<LocatedEvent> first;
  rearm(here);
  const FrictionModel<T> model = active_model();
  ContactDynamicsState<T> start = here;  // with the step's directions (held ones included)
  start.directions = reference_;
  for (ModeEvent event : events_of(mode_, model)) {
    const T g0 = event_value(event, here, start, model), g_end = event_value(event, there, start, model);
    if (!(g0 >= T(0) && g_end < T(0))) continue;  // downward crossings only (mode_switching.hpp)
    using std::abs;
    using std::sqrt;
    // g's round-off: 64 eps of the larger end value's scale.
    const T scale = std::max({abs(g0), abs(g_end), T(1)});
    const T slack = T(64) * epsilon<T>() * scale;
    const auto g = [&](const State& x) { return event_value(event, evaluate(x), start, model); };
    const Crossing crossing = locate_root(g, y, here, h, g0, g_end, slack);
    // A root of a smooth g is found to its slack; what is left far above it
    // (sqrt(eps) of its scale) is a jump of g: a velocity whose direction
    // turned by more than a right angle within the step without passing
    // near zero, which the step does not resolve.
    const bool resolved = abs(g(crossing.y)) <= sqrt(epsilon<T>()) * scale;
    if (!first || crossing.tau < first->crossing.tau) first = LocatedEvent{event, crossing, resolved};
  }
  return first;
}

template <class T>
typename Simulator<T>::EventOutcome Simulator<T>::switch_at_event(ContactState<T>& state,
                                                                  ContactDynamicsState<T>& here,
                                                                  const ContactDynamicsState<T>& there,
                                                                  const State& y, const T& h) {
  const std::optional<LocatedEvent> located = mode_event(here, there, y, h);
  if (!located) return EventOutcome::kNone;
  // A jump of g: the velocity passed near zero, turning faster than the step
  // resolves. Above h_min the step is halved; at h_min the velocity is
  // taken as passing through zero at the jump (within the velocity change of
  // one minimum step; order is lost for that step).
  if (!located->resolved && h > options_.h_min) return EventOutcome::kUnresolved;
  // Section 3.4.2: the mode ends at the event's root; the next step starts
  // in the mode it leads to.
  const ContactDynamicsState<T> at_event = evaluate(located->crossing.y);
  accept(state, located->crossing.y, located->crossing.tau, located->crossing.work, &at_event.qdot);
  const ModeEvent event = located->event;
  const FrictionModel<T> model = active_model();
  const ModeEntry<T> entry = enter_mode(dynamics(), system_.friction, mode_, event, state.q, state.qdot, at_event.directions);
  const std::string cause = describe(event, at_event, model);
  if (entry.mode == mode_ && holds(event)) {
    // The group could not be held (its static limit): the mode goes on, the
    // event of that group is at zero from now, and a velocity that has
    // reached zero goes on through it, against its direction before.
    const VelocityGroup group = group_of(event);
    const bool at_zero = model.threshold(group) == T(0);
    spent_ |= group;
    reference_ = at_event.directions;
    if (at_zero) {  // onwards: the way its acceleration takes it (against its direction before, failing that)
      const auto onwards = [](const Eigen::Matrix<T, 2, 1>& acceleration, const Eigen::Matrix<T, 2, 1>& before) {
        const T norm = acceleration.norm();
        return norm > T(0) ? Eigen::Matrix<T, 2, 1>(acceleration / norm) : Eigen::Matrix<T, 2, 1>(-before);
      };
      if (group == kSlipGroup) reference_.slip = onwards(at_event.slip_acceleration(), reference_.slip);
      if (group == kRollingGroup) reference_.rolling = onwards(at_event.rolling_acceleration(), reference_.rolling);
      if (group == kSpinGroup) {
        const T spin_rate = (at_event.kinematics.Hdot_1c_qdot + at_event.kinematics.H_1c * at_event.qddot)(2);
        reference_.spin = spin_rate > T(0) ? T(1) : spin_rate < T(0) ? T(-1) : T(-reference_.spin);
      }
    }
    std::string message = cause;
    for (const std::string& step : entry.steps) message += "; " + step;
    message += at_zero ? "; the " + std::string(to_string(group)) + " goes on through zero"
                       : "; its event is at zero from now";
    log_event({EventKind::kModeSwitch, state.time, 0, -1, -1, -1, -1, message, mode_, mode_});
    ++statistics_.mode_switches;
  } else {
    switch_mode(state, entry, cause);
  }
  here = start_at(state);
  observe(state, here, true);
  return EventOutcome::kSwitched;
}

template <class T>
void Simulator<T>::adopt(ContactState<T>& state, const ModeEntry<T>& entry) {
  mode_ = entry.mode;
  reference_ = entry.reference;
  State y(5 + entry.rdot.size());
  y << state.q, entry.rdot;
  state.mode = mode_;
  state.qdot = rates_of(y);
  // Groups left free below their threshold could not be held: their events
  // are at zero in this mode (mode_switching.hpp).
  spent_ = groups_below_threshold(kinematics::contact_configuration<T>(pinned_[0], pinned_[1], state.q).H_1c,
                                  state.qdot, system_.friction) &
           ~held_groups(mode_);
}

template <class T>
void Simulator<T>::move_to_other_chart(ContactState<T>& state, int body, const std::string& message) {
  const PatchComplex<T>& complex = body == 1 ? *system_.surface1 : *system_.surface2;
  int& patch_index = body == 1 ? state.patch1 : state.patch2;
  const PatchTransition<T> transition =
      switch_chart(complex, body, patch_index, patch_of(system_, state, 3 - body), state.q, state.qdot);
  log_event(
      {EventKind::kTransition, state.time, body, patch_index, -1, transition.to_patch, -1, message, mode_, mode_});
  patch_index = transition.to_patch;
  state.q = transition.q;
  state.qdot = transition.qdot;
}

template <class T>
void Simulator<T>::switch_mode(ContactState<T>& state, const ModeEntry<T>& entry, const std::string& cause) {
  const ContactMode from = mode_;
  const T before = dynamics().energy(make_state(state.q, state.qdot));
  adopt(state, entry);
  impulse_work_ += dynamics().energy(make_state(state.q, state.qdot)) - before;
  std::string message = cause;
  for (const std::string& step : entry.steps) message += "; " + step;
  SimulationEvent<T> event{EventKind::kModeSwitch, state.time, 0, -1, -1, -1, -1, message, from, mode_};
  log_event(event);
  ++statistics_.mode_switches;
}

template <class T>
bool Simulator<T>::transit_if_on_edge(ContactState<T>& state, int body, const Vec2<T>& direction) {
  const PatchComplex<T>& complex = body == 1 ? *system_.surface1 : *system_.surface2;
  int& patch_index = body == 1 ? state.patch1 : state.patch2;
  const std::vector<Vec2<T>>& polygon = complex.patches[std::size_t(patch_index)]->domain().polygon;
  if (polygon.empty()) return false;
  const Vec2<T> x = parameters(state.q, body);
  // Edges the point is on (to the located crossing's accuracy) and leaves.
  // The step's own motion decides "leaves", not q': a contact at rest, or
  // grazing the edge, leaves where the acceleration takes it.
  const T slack = T(1024) * polygon_slack(polygon);
  std::vector<std::size_t> leaving;
  for (std::size_t k = 0; k < polygon.size(); ++k) {
    const T distance = edge_distance(polygon, k, x);
    const T rate = edge_distance(polygon, k, Vec2<T>(x + direction)) - distance;
    if (distance <= slack && rate < T(0)) leaving.push_back(k);
  }
  if (leaving.empty()) return false;
  // At a corner P_{k+1} (edges k and k + 1 both left) take edge k, the one that
  // ends at the corner (Kry & Pai 3.5: counter-clockwise transitions).
  std::size_t edge = leaving.front();
  if (leaving.size() > 1) {
    const std::size_t n = polygon.size();
    for (std::size_t k : leaving)
      if (std::find(leaving.begin(), leaving.end(), (k + 1) % n) != leaving.end()) edge = k;
  }
  const bool open_edge = std::size_t(patch_index) >= complex.links.size() ||
                         complex.links[std::size_t(patch_index)][edge].patch < 0;
  if (open_edge) {
    left_surface_ = "the contact left the surface of body " + std::to_string(body) + " across edge " +
                    std::to_string(edge) + " of " + complex.patches[std::size_t(patch_index)]->describe() +
                    ", which has no neighbour";
    return false;
  }
  const Vec2<T>& a = polygon[edge];
  const Vec2<T>& b = polygon[(edge + 1) % polygon.size()];
  const T alpha = std::clamp(T((x - a).dot(b - a) / (b - a).squaredNorm()), T(0), T(1));
  const Patch<T>& other = patch_of(system_, state, 3 - body);
  const PatchTransition<T> transition =
      transit_edge(complex, body, patch_index, int(edge), alpha, other, state.q, state.qdot);
  SimulationEvent<T> event{EventKind::kTransition, state.time, body, patch_index, int(edge), transition.to_patch,
                           transition.to_edge, ""};
  log_event(event);
  ++statistics_.transitions;
  patch_index = transition.to_patch;
  state.q = transition.q;
  state.qdot = transition.qdot;
  return true;
}

template <class T>
bool Simulator<T>::switch_if_on_band(ContactState<T>& state, int body, const Vec2<T>& direction) {
  const State y = state_vector(state);
  const std::optional<T> distance = band_distance(state, y, body);
  if (!distance || *distance > T(1024) * band_slack()) return false;
  State beyond = y;
  beyond.template segment<2>(body == 1 ? 0 : 2) += direction;
  if (!(*band_distance(state, beyond, body) < *distance)) return false;  // not leaving the band
  move_to_other_chart(state, body, "chart switch before a pole of " + patch_of(system_, state, body).describe());
  ++statistics_.transitions;
  return true;
}

template <class T>
bool Simulator<T>::energy_accepted(const ContactDynamicsState<T>& here, const ContactDynamicsState<T>& there,
                                   const T& work) const {
  using std::abs;
  const T kinetic0 = kinetic_energy(here), kinetic1 = kinetic_energy(there);
  const T scale = std::max({kinetic0, kinetic1, kinetic_max_});
  const T magnitude = kinetic0 + kinetic1 + abs(T(here.energy - kinetic0)) + abs(T(there.energy - kinetic1)) + abs(work);
  return abs(T(there.energy - here.energy - work)) <= energy_step_bound(scale, magnitude);
}

template <class T>
std::string Simulator<T>::energy_failure(const ContactDynamicsState<T>& here, const ContactDynamicsState<T>& there,
                                         const T& work, const T& h) const {
  std::ostringstream os;
  os << "the RK4 step of " << h << " s changes the energy by " << T(there.energy - here.energy)
     << " J where the law did " << work << " J, more than 1/72 of the kinetic energy scale "
     << std::max({kinetic_energy(here), kinetic_energy(there), kinetic_max_})
     << " J (the step does not resolve the motion, e.g. near a chart's pole)";
  return os.str();
}

template <class T>
void Simulator<T>::finish(SimulationStatus status, EventKind kind, const ContactState<T>& state, int body,
                          std::string message) {
  result_.status = status;
  result_.message = std::move(message);
  log_event({kind, state.time, body, -1, -1, -1, -1, result_.message});
}

template <class T>
void Simulator<T>::emit(const SimulationSample<T>& sample) {
  ++result_.rows;
  last_row_time_ = sample.state.time;
  if (sinks_.samples) {
    sinks_.samples->write(sample);
  } else {
    result_.samples.push_back(sample);
  }
  using std::floor;
  if (options_.output_interval > T(0))
    next_output_ = (floor(sample.state.time / options_.output_interval) + 1) * options_.output_interval;
}

template <class T>
bool Simulator<T>::fail(const ContactState<T>& state, const std::string& cause, bool may_separate) {
  for (int body = 1; body <= 2 && !in_flight_; ++body) {
    const Patch<T>& patch = patch_of(system_, state, body);
    const std::vector<Vec2<T>>& polygon = patch.domain().polygon;
    const Vec2<T> x = parameters(state.q, body);
    // The contact moves about |x'| h_min in a minimum step; twice that
    // covers the stages' excursions. (Not |x''|: it is what fails, and it is
    // huge near any singular state, conforming contact included.)
    // Only within the vertex's corner of the face: the half of the unit
    // triangle's legs where its corner sub-patch (split faces) or Stam's
    // rings down from a + b = 1/2 lie; a fast contact farther away failed
    // for another reason.
    const T reach = std::min(T(2) * parameters(state.qdot, body).norm() * options_.h_min, T(0.5));
    for (const typename Patch<T>::SingularCorner& singular : patch.singular_corners()) {
      const T distance = (x - polygon[std::size_t(singular.corner)]).norm();
      if (distance > reach + polygon_slack(polygon)) continue;
      std::ostringstream os;
      os << "at t = " << state.time << " s the contact reached the extraordinary " << singular.vertex
         << " at corner " << singular.corner << " of " << patch.describe() << " (body " << body << ", parameter distance "
         << distance << ", within the reach " << reach << " of a minimum step), where Stam's parameterisation is singular";
      if (may_separate && separate_at_vertex(state, os.str() + ": the bodies are forced apart")) return true;
      os << "; the step there failed: " << cause;
      finish(SimulationStatus::kExtraordinaryVertex, EventKind::kExtraordinaryVertex, state, body, os.str());
      return false;
    }
  }
  std::ostringstream os;
  os << "at t = " << state.time << " s, ";
  if (in_flight_) {
    os << "in flight: ";
  } else {
    os << "on patches " << state.patch1 << " and " << state.patch2 << ": ";
  }
  os << cause;
  if (!in_flight_) os << conforming_diagnosis(state);
  finish(SimulationStatus::kFailed, EventKind::kFailure, state, 0, os.str());
  return false;
}

template <class T>
std::string Simulator<T>::conforming_diagnosis(const ContactState<T>& state) const {
  Eigen::Matrix<T, 2, 2> K;
  try {
    K = kinematics::relative_curvature(
        kinematics::contact_configuration<T>(patch_of(system_, state, 1), patch_of(system_, state, 2), state.q));
  } catch (const ComputationError&) {
    return "";
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<T, 2, 2>> eigen(K, Eigen::EigenvaluesOnly);
  const T lowest = eigen.eigenvalues()(0), highest = eigen.eigenvalues()(1);
  using std::abs;
  if (lowest > abs(highest) / T(kConformingRatio)) return "";
  std::ostringstream os;
  os << "; the contact is nearly conforming there: the relative curvature's eigenvalues are " << lowest << " and "
     << highest << " 1/m (ratio below 1/" << kConformingRatio << "), so the contact point's rates for a given "
     << "rolling grow as the inverse of the smaller, and the contact is about to stop being a single isolated point "
     << "(a body settling onto a ring or a flat), which one contact in reduced coordinates cannot follow "
     << "(Kry & Pai Section 6)";
  return os.str();
}

template <class T>
void Simulator<T>::wrap_periodic(ContactState<T>& state) const {
  for (int body = 1; body <= 2; ++body) {
    const surfaces::Domain<T>& domain = patch_of(system_, state, body).domain();
    if (domain.is_polygon()) continue;
    const std::array<const surfaces::Interval<T>*, 2> ranges = {&domain.s, &domain.t};
    for (int k = 0; k < 2; ++k) {
      const surfaces::Interval<T>& range = *ranges[std::size_t(k)];
      if (!range.periodic) continue;
      using std::floor;
      T& value = state.q(2 * (body - 1) + k);
      const T period = range.hi - range.lo;
      value -= period * floor((value - range.lo) / period);
    }
  }
}

// The loop below makes progress on every pass: it accepts a step (time
// advances by at least h_min, or to the end), shrinks the step (at most
// log2(h_max / h_min) + 1 times in a row), accepts a located crossing, changes
// a patch, or arms the unpinned step over a piece line. The watchdog
// (stalled_pass_limit) ends a run that strings more of the last kinds
// together than a minimum step can hold.
template <class T>
T Simulator<T>::begin_contact(ContactState<T>& state, const std::string& why) {
  for (int body = 1; body <= 2; ++body) {  // a point outside its atlas chart's band: on another chart
    const std::optional<T> band = band_distance(state, state_vector(state), body);
    if (band && *band < T(0)) {
      move_to_other_chart(state, body,
                          why + "chart switch (the point lies outside the band of chart " +
                              std::to_string(body == 1 ? state.patch1 : state.patch2) + ")");
    }
  }
  update_regions(state, false);
  const ModeEntry<T> entry = initial_mode(dynamics(), system_.friction, state.q, state.qdot);
  const T energy = dynamics().energy(make_state(state.q, state.qdot));
  const ContactMode before = mode_;
  adopt(state, entry);
  impulse_work_ += dynamics().energy(make_state(state.q, state.qdot)) - energy;
  for (const std::string& step : entry.steps) {
    log_event({EventKind::kModeSwitch, state.time, 0, -1, -1, -1, -1, why + step, before, mode_});
    ++statistics_.mode_switches;
  }
  return energy;
}

template <class T>
SimulationResult<T> Simulator<T>::run(const ContactState<T>& initial) {
  ContactState<T> state = initial;
  // The energy as given, and the start's plastic impulse into the initial
  // mode in the accounts (impulse_work).
  result_.initial_energy = begin_contact(state, "initial state: ");
  return run_from(state);
}

template <class T>
SimulationResult<T> Simulator<T>::run(const FlightStart<T>& initial) {
  ContactState<T> state;
  state.time = initial.time;
  begin_flight(initial.body);
  result_.initial_energy = flight_dynamics_.energy(flight_);
  return run_from(state);
}

template <class T>
SimulationResult<T> Simulator<T>::run_from(ContactState<T>& state) {
  T h = options_.h_max;
  statistics_.smallest_step = options_.h_max;
  ContactDynamicsState<T> here;
  if (in_flight_) {
    observe_flight(state, true);
  } else {
    here = start_at(state);
    observe(state, here, true);
    kinetic_max_ = kinetic_energy(here);
  }
  const T end_time = state.time + options_.duration;
  const long watchdog = stalled_pass_limit(options_.h_max, options_.h_min, kMaxCornerTransitions + kMaxInstantModeSwitches);
  long stalled = 0;               // passes since the last step of at least h_min
  int instant_transitions = 0;    // consecutive transitions without time advancing (a corner)
  bool unpinned = false;          // this step crosses a piece line from a state on it
  // A failed evaluation near an extraordinary vertex forces a separation
  // (fail) and the loop goes on in flight.
  for (bool going = true; going;) {
  going = false;
  try {
    while (state.time < end_time) {
      ++statistics_.passes;
      if (++stalled > watchdog) {
        std::ostringstream os;
        os << "watchdog: " << watchdog << " passes of the step loop without a step of h_min = " << options_.h_min
           << " s (" << statistics_.transitions << " transitions, " << statistics_.smooth_piece_crossings
           << " smooth-piece crossings so far): the crossings do not resolve at the minimum step";
        if (fail(state, os.str())) {
          stalled = 0;
          continue;
        }
        break;
      }
      if (progress_) progress_(state.time);
      if (statistics_.accepted_steps + statistics_.flight_steps + statistics_.rejected_steps >= options_.max_steps) {
        fail(state, "the run took max_steps = " + std::to_string(options_.max_steps) +
                        " steps (accepted and rejected) before its end: raise the limit to go on", false);
        break;
      }
      if (in_flight_) {
        const FlightOutcome outcome = flight_pass(state, h, end_time);
        if (outcome == FlightOutcome::kEnd) break;
        if (outcome == FlightOutcome::kStepped) stalled = 0;
        if (outcome == FlightOutcome::kContact) {  // the contact's own steps from here
          here = start_at(state);
          observe(state, here, true);
          kinetic_max_ = std::max(kinetic_max_, kinetic_energy(here));
          h = options_.h_max;
          stalled = 0;
        }
        continue;
      }
      if (here.separating) {  // at the start, or on the far side of a patch edge or piece line
        if (!separate(state, here)) break;
        continue;
      }
      // The rotation bounds the step (step_acceptance.hpp resolved_step); a
      // motion faster than h_min resolves cannot be integrated.
      const T angular_speed = here.phi.template head<3>().norm();
      if (const std::string why = unresolved_rotation(angular_speed, options_.h_min); !why.empty()) {
        fail(state, why, false);
        break;
      }
      const T h_resolved = resolved_step(angular_speed);
      const State y = state_vector(state);
      T h_try = std::min({h, T(end_time - state.time), h_resolved});
      // Section 3.7 backs a step that leaves its piece up and halves it down
      // to h_min, where the crossing is located: log2(h / h_min) rejected
      // steps a crossing. The edge predicted along q' ends the step half a
      // minimum step short of it instead (issue 34 item 2), and the next, of
      // h_min, crosses it and is located as before; a path that curves
      // across an edge sooner is still backed up and halved.
      if (const std::optional<T> edge = time_to_edge(y, here.derivative); edge && *edge < h_try)
        h_try = std::min(h_try, std::max(options_.h_min, T(*edge - options_.h_min / 2)));
      hold_directions(here, h_try);
      const T time_before = state.time;
      const bool at_minimum = h_try <= options_.h_min;
      // Section 3.7 shrinks a step that cannot be taken: a failed evaluation
      // at a stage (conforming contact, a non-regular point) is retried at
      // half the step down to h_min, where its cause is reported.
      T error = T(0), work = T(0);
      State end;
      std::optional<ContactDynamicsState<T>> there;
      std::string cause;
      try {
        end = step(y, here, h_try, error);
        work = step_work_;
      } catch (const ComputationError& e) {
        cause = e.what();
      }
      if (cause.empty() && error > T(1) && !at_minimum) {  // Dormand-Prince error control
        using std::pow;
        h = std::max(options_.h_min, T(h_try * std::max(T(0.2), T(0.9 * pow(error, T(-0.2))))));
        ++statistics_.rejected_steps;
        continue;
      }
      int exiting_body = 0;
      bool left_chart = false;
      for (int body = 1; body <= 2 && !exiting_body && cause.empty(); ++body) {
        if (exit_edge(region(body), end, body) >= 0) exiting_body = body;
        const std::optional<T> band = band_distance(state, end, body);
        if (band && *band < -band_slack()) {
          exiting_body = body;  // located like an edge, then a chart switch
        } else if (outside_chart(state, end, body)) {
          exiting_body = body, left_chart = true;
        }
      }
      if (cause.empty() && !exiting_body) {
        try {
          there = evaluate(end);
        } catch (const ComputationError& e) {
          cause = e.what();
        }
        if (there && options_.integrator == IntegratorKind::kRk4 && !energy_accepted(here, *there, work)) {
          cause = energy_failure(here, *there, work, h_try);
          there.reset();
          ++statistics_.energy_rejected_steps;
        }
      }
      if (!cause.empty() || (exiting_body && !at_minimum)) {  // back up and halve (Section 3.7)
        if (at_minimum) {
          std::ostringstream os;
          os << "a step cannot be taken even at h_min = " << options_.h_min << " s: " << cause;
          if (fail(state, os.str())) continue;
          break;
        }
        h = std::max(options_.h_min, T(h_try / 2));
        ++statistics_.rejected_steps;
        continue;
      }
      if (left_chart) {
        finish(SimulationStatus::kLeftSurface, EventKind::kLeftSurface, state, exiting_body,
               "the contact reached the end of the chart of body " + std::to_string(exiting_body) + " (" +
                   patch_of(system_, state, exiting_body).describe() + ")");
        break;
      }
      if (!exiting_body) {
        // Section 3.3: the normal force crossing zero within the step is
        // located like the others; a mode event before it comes first.
        if (const std::optional<Crossing> separation = separation_crossing(here, *there, y, h_try)) {
          const ContactDynamicsState<T> at_separation = evaluate(separation->y);
          if (switch_at_event(state, here, at_separation, y, separation->tau) != EventOutcome::kNone) continue;
          accept(state, separation->y, separation->tau, separation->work, &at_separation.qdot);
          here = at_separation;
          observe(state, here, true);
          stalled = 0;
          if (!separate(state, here)) break;
          continue;
        }
        const EventOutcome outcome = switch_at_event(state, here, *there, y, h_try);
        if (outcome == EventOutcome::kUnresolved) {
          h = std::max(options_.h_min, T(h_try / 2));
          ++statistics_.rejected_steps;
          continue;
        }
        if (outcome == EventOutcome::kSwitched) {
          if (state.time - time_before >= options_.h_min) stalled = 0;
          continue;
        }
        accept(state, end, h_try, work, &there->qdot);
        here = *there;
        reference_ = here.directions;
        kinetic_max_ = std::max(kinetic_max_, kinetic_energy(here));
        stalled = 0;
        instant_transitions = 0;
        if (unpinned) {  // back to the piece the state is in
          unpinned = false;
          update_regions(state, false);
        }
        h = next_step(h_try, error);
        observe(state, here, false);
        continue;
      }
      const Crossing crossing = locate(state, y, here, h_try, end);
      // A mode event before the crossing comes first (a crossing is located
      // at h_min: the event is never unresolved there).
      if (crossing.tau > T(0)) {
        const ContactDynamicsState<T> at_crossing = evaluate(crossing.y);
        if (switch_at_event(state, here, at_crossing, y, crossing.tau) != EventOutcome::kNone) continue;
        // The crossing's partial step passes the same energy test as a full one.
        if (options_.integrator == IntegratorKind::kRk4 && !energy_accepted(here, at_crossing, crossing.work)) {
          if (fail(state, "a located crossing at h_min: " + energy_failure(here, at_crossing, crossing.work, crossing.tau)))
            continue;
          break;
        }
        accept(state, crossing.y, crossing.tau, crossing.work);
        instant_transitions = 0;
      }
      // The motion beyond the crossing decides which edges it leaves.
      bool transited = false;
      for (int body = 1; body <= 2; ++body) {
        const Vec2<T> direction = parameters<T>(end.template head<5>(), body) -
                                  parameters<T>(crossing.y.template head<5>(), body);
        transited = transit_if_on_edge(state, body, direction) || switch_if_on_band(state, body, direction) || transited;
      }
      if (!left_surface_.empty()) {
        finish(SimulationStatus::kLeftSurface, EventKind::kLeftSurface, state, 0, left_surface_);
        break;
      }
      if (transited && crossing.tau == T(0) && ++instant_transitions > kMaxCornerTransitions) {
        throw ComputationError("more transitions at one instant than patches meet at a vertex");
      }
      // A crossing at the start of the step that is no transition: the state
      // is on a piece line and the step leaves the piece that q' chose (the
      // contact is at rest, grazes the line or passes a piece corner). The
      // next step crosses it with the patch evaluated as it is, piece by
      // piece (order is lost for that one step of h_min), instead of locating
      // the same crossing again.
      unpinned = !transited && crossing.tau == T(0);
      if (!transited) ++statistics_.smooth_piece_crossings;
      h = options_.h_min;
      // The next step starts on the next piece: its derivative there is the
      // one-sided limit (q'' jumps with the surfaces' third derivatives).
      // Frame 1c follows body 1's parameterisation, which a transition
      // changes: the law's directions start afresh from the state's own.
      update_regions(state, unpinned);
      if (transited) reference_ = LawDirections<T>();
      here = start_at(state);
      observe(state, here, false);
    }
  } catch (const ComputationError& error) {
    going = fail(state, error.what());
  }
  }
  if (last_row_time_ != state.time && result_.status != SimulationStatus::kFailed &&
      result_.status != SimulationStatus::kExtraordinaryVertex) {
    if (in_flight_) {
      observe_flight(state, true);
    } else {
      observe(state, start_at(state), true);
    }
  }
  result_.final_state = state;
  result_.ended_in_flight = in_flight_;
  result_.final_body = in_flight_ ? FlightDynamics<T>::body_of(flight_) : free_state(start_at(state));
  return result_;
}

template <class T>
void Simulator<T>::accept(ContactState<T>& state, const State& y, const T& h, const T& work, const Vec5<T>* qdot) {
  work_ += work;
  state.q = y.template head<5>();
  state.qdot = qdot ? *qdot : rates_of(y);
  state.time += h;
  wrap_periodic(state);
  ++statistics_.accepted_steps;
  statistics_.smallest_step = std::min(statistics_.smallest_step, h);
  statistics_.largest_step = std::max(statistics_.largest_step, h);
  last_step_ = h;
}

template <class T>
void Simulator<T>::observe(const ContactState<T>& state, const ContactDynamicsState<T>& evaluated, bool force) {
  SimulationSample<T> sample = sample_from(system_, state, evaluated, last_step_);
  sample.work = work_;
  sample.impulse_work = impulse_work_;
  if (!(statistics_.max_condition > T(kIllConditionedWarning)) && evaluated.condition > T(kIllConditionedWarning)) {
    std::ostringstream os;
    os << "the " << to_string(mode_) << " solve's condition number reached " << evaluated.condition
       << " (above " << kIllConditionedWarning << "): high friction or a nearly conforming contact; "
       << "accelerations may lose digits";
    log_event({EventKind::kIllConditioned, state.time, 0, -1, -1, -1, -1, os.str(), mode_, mode_});
  }
  statistics_.max_condition = std::max(statistics_.max_condition, evaluated.condition);
  statistics_.max_gap = std::max(statistics_.max_gap, sample.gap);
  statistics_.max_normal_misalignment = std::max(statistics_.max_normal_misalignment, sample.normal_misalignment);
  if (!force && state.time < next_output_) return;
  emit(sample);
}

#define CONTACTREF_INSTANTIATE(T) template class Simulator<T>;
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace detail

namespace {

template <class T>
void check_options(const SimulationOptions<T>& options) {
  using std::isfinite;
  if (!isfinite(options.h_min) || !isfinite(options.h_max) || !(options.h_min > T(0)) || options.h_min > options.h_max)
    throw InputError("simulation: need 0 < h_min <= h_max (finite)");
  if (!isfinite(options.duration) || options.duration < T(0)) throw InputError("simulation: duration must be finite and >= 0");
  if (!isfinite(options.output_interval) || options.output_interval < T(0))
    throw InputError("simulation: output interval must be finite and >= 0");
  if (options.integrator == IntegratorKind::kDormandPrince54 && !(options.tolerance > T(0)))
    throw InputError("simulation: the Dormand-Prince tolerance must be positive");
  if (!isfinite(options.contact_tolerance) || !(options.contact_tolerance > T(0)))
    throw InputError("simulation: the contact tolerance must be finite and > 0");
  if (!isfinite(options.proximity_bound) || !(options.proximity_bound > T(0)))
    throw InputError("simulation: the proximity bound must be finite and > 0");
}

// The limits of a run (SimulationOptions::max_steps, max_rows) against the
// fewest steps it can take and the most rows it can write.
template <class T>
void check_limits(const SimulationOptions<T>& options) {
  if (options.max_steps < 1 || options.max_rows < 1) throw InputError("simulation: max_steps and max_rows must be >= 1");
  // The fewest steps and the most rows the run can take.
  const T steps = options.duration / options.h_max;
  const T rows = options.output_interval > T(0) ? T(options.duration / options.output_interval) : steps;
  if (steps > T(options.max_steps)) {
    std::ostringstream os;
    os << "simulation: a run of " << options.duration << " s in steps of at most h_max = " << options.h_max
       << " s takes at least " << steps << " steps, above max_steps = " << options.max_steps
       << " (raise it to run this)";
    throw InputError(os.str());
  }
  if (rows > T(options.max_rows)) {
    std::ostringstream os;
    os << "simulation: a run of " << options.duration << " s writes up to " << rows << " rows (output interval "
       << options.output_interval << " s), above max_rows = " << options.max_rows << " (raise it to run this)";
    throw InputError(os.str());
  }
}

template <class T>
void check_collision_parameters(const ContactSystem<T>& system) {
  using std::isfinite;
  for (const auto& [value, name] : {std::pair{&system.restitution, "restitution"},
                                    std::pair{&system.tangential_restitution, "tangential_restitution"}}) {
    if (!isfinite(*value) || *value < T(0) || *value > T(1))
      throw InputError(std::string("simulation: collision ") + name + " must be in [0, 1]");
  }
}

// Body 1's mass properties (checked here for a start in flight too, which
// builds no ContactDynamics before its first contact) and gravity, whose
// magnitude bounds every flight step (flight.hpp conservative_step): |g|
// must be finite, not only its entries (1e300 m/s^2 squares to infinity).
template <class T>
void check_body_and_gravity(const ContactSystem<T>& system) {
  spatial::check_rigid_inertia(system.mass, system.I_com, "simulation: body 1");
  using std::isfinite;
  if (isfinite(T(system.gravity_w.norm()))) return;
  std::ostringstream os;
  const Vec3<T>& g = system.gravity_w;
  os << "simulation: gravity (" << g.x() << ", " << g.y() << ", " << g.z()
     << ") m/s^2 is not finite or its magnitude is not representable";
  throw InputError(os.str());
}

template <class T>
void check_initial(const ContactSystem<T>& system, const ContactState<T>& state) {
  if (!system.surface1 || !system.surface2) throw InputError("simulation: both surfaces are needed");
  const std::array<std::pair<const PatchComplex<T>*, int>, 2> bodies = {{{system.surface1, state.patch1},
                                                                         {system.surface2, state.patch2}}};
  for (int body = 1; body <= 2; ++body) {
    const auto [complex, index] = bodies[std::size_t(body - 1)];
    if (index < 0 || index >= int(complex->patches.size())) {
      throw InputError("simulation: patch " + std::to_string(index) + " of body " + std::to_string(body) +
                       " does not exist (" + std::to_string(complex->patches.size()) + " patches)");
    }
    const Vec2<T> x = parameters(state.q, body);
    if (!x.allFinite() || !complex->patches[std::size_t(index)]->domain().contains(x.x(), x.y())) {
      std::ostringstream os;
      os << "simulation: the contact point (" << x.x() << ", " << x.y() << ") of body " << body
         << " is outside the domain of " << complex->patches[std::size_t(index)]->describe();
      throw InputError(os.str());
    }
  }
  if (!state.q.allFinite() || !state.qdot.allFinite()) throw InputError("simulation: q and q' must be finite");
}

}  // namespace


template <class T>
SimulationSample<T> sample_state(const ContactSystem<T>& system, const ContactState<T>& state, const T& step) {
  const ContactDynamics<T> dyn(system.mass, system.I_com, patch_of(system, state, 1), patch_of(system, state, 2),
                               system.E_w_2, system.gravity_w);
  StateVector<T> y(5 + velocity_dimension(state.mode));
  y << state.q, reduced_velocities(state.mode, kinematics::contact_configuration(dyn.patch1(), dyn.patch2(), state.q).H_1c,
                                   state.qdot);
  return sample_from(system, state, dyn.evaluate(state.mode, y, system.friction.law), step);
}

template <class T>
SimulationResult<T> simulate(const ContactSystem<T>& system, const ContactState<T>& initial,
                             const SimulationOptions<T>& options, const std::function<void(const T&)>& progress,
                             const SimulationSinks<T>& sinks) {
  check_options(options);
  check_initial(system, initial);
  check_initial_contact(system, initial);
  check_friction_model(system.friction);
  check_collision_parameters(system);
  check_body_and_gravity(system);
  if (options.h_min < min_resolvable_step(initial.time, options.duration)) {
    std::ostringstream os;
    os << "simulation: h_min = " << options.h_min << " s cannot finish the run: below "
       << min_resolvable_step(initial.time, options.duration) << " s (2^10 eps of the end time "
       << initial.time + options.duration << " s) a step does not move the clock reliably";
    throw InputError(os.str());
  }
  check_limits(options);
  detail::Simulator<T> simulator(system, options, progress, sinks);
  return simulator.run(initial);
}

template <class T>
SimulationResult<T> simulate(const ContactSystem<T>& system, const FlightStart<T>& initial,
                             const SimulationOptions<T>& options, const std::function<void(const T&)>& progress,
                             const SimulationSinks<T>& sinks) {
  check_options(options);
  if (!system.surface1 || !system.surface2) throw InputError("simulation: both surfaces are needed");
  check_friction_model(system.friction);
  check_collision_parameters(system);
  check_body_and_gravity(system);
  const spatial::RigidBodyState<T>& body = initial.body;
  using std::abs;
  using std::isfinite;
  if (!isfinite(initial.time) || !body.finite()) throw InputError("simulation: the flight's start is not finite");
  if (abs(T(body.q_w_b.norm() - T(1))) > T(1e-6))
    throw InputError("simulation: the flight's start orientation is not a unit quaternion");
  if (options.h_min < min_resolvable_step(initial.time, options.duration))
    throw InputError("simulation: h_min cannot finish the run: below 2^10 eps of its end time");
  check_limits(options);
  detail::Simulator<T> simulator(system, options, progress, sinks);
  if (!simulator.prepare_flight()) throw InputError("simulation: a start in flight needs collision detection: " + simulator.no_flight());
  const std::optional<SurfaceClosestPoints<T>> near = simulator.proximity(FlightDynamics<T>::state_of(body));
  if (near && near->distance <= options.contact_tolerance) {
    std::ostringstream os;
    os << "simulation: the body starts " << (near->distance < T(0) ? "inside" : "touching") << " body 2 (distance "
       << near->distance << " m at its patch " << near->patch1 << " (" << near->st.transpose() << ") and body 2's patch "
       << near->patch2 << " (" << near->uv.transpose() << ")): a start in flight must be apart (give contact.q to start in contact)";
    throw InputError(os.str());
  }
  return simulator.run(initial);
}

#define CONTACTREF_INSTANTIATE(T)                                                                                  \
  template SimulationResult<T> simulate(const ContactSystem<T>&, const FlightStart<T>&, const SimulationOptions<T>&, \
                                        const std::function<void(const T&)>&, const SimulationSinks<T>&);          \
  template SimulationSample<T> sample_state(const ContactSystem<T>&, const ContactState<T>&, const T&);           \
  template SimulationResult<T> simulate(const ContactSystem<T>&, const ContactState<T>&, const SimulationOptions<T>&, \
                                        const std::function<void(const T&)>&, const SimulationSinks<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
