// The hybrid simulator's flight (issue 30; Kry & Pai Sections 3.3, 3.6
// and 3.7): separation at the normal force's zero, flight steps bounded by
// conservative advancement, the impact located at the gap's root and
// answered by Chatterjee & Ruina's law, the contact re-established after
// bounces in close succession, and the forced separation at an
// extraordinary vertex. The rest of the simulator is in
// contact_simulation.cpp.
#include <algorithm>
#include <sstream>

#include "reference/dynamics/collision_law.hpp"
#include "reference/dynamics/contact_entry.hpp"
#include "reference/dynamics/contact_simulator.hpp"
#include "reference/spatial/pose.hpp"

namespace contactref::dynamics::detail {

template <class T>
std::optional<typename Simulator<T>::Crossing> Simulator<T>::separation_crossing(
    const ContactDynamicsState<T>& here, const ContactDynamicsState<T>& there, const State& y, const T& h) {
  using std::abs;
  // f_n's round-off: 64 eps of the weight's and the ends' scale. A resting
  // body's f_n is its weight, far above it; a crossing is a sign change
  // beyond it, never round-off about zero.
  const T scale = std::max({abs(here.f_n), abs(there.f_n), T(system_.mass * system_.gravity_w.norm())});
  const T slack = T(64) * epsilon<T>() * scale;
  if (!(here.f_n >= T(0) && there.f_n < -slack)) return std::nullopt;
  const auto f_n = [&](const State& x) { return evaluate(x).f_n; };
  return locate_root(f_n, y, here, h, here.f_n, there.f_n, slack);
}

template <class T>
bool Simulator<T>::separate(const ContactState<T>& state, const ContactDynamicsState<T>& at) {
  std::ostringstream os;
  os << "the normal force reached " << at.f_n << " N (Section 3.3): the bodies separate";
  if (!prepare_flight()) {
    os << "; flight is not simulated for these surfaces: " << no_flight_;
    finish(SimulationStatus::kSeparated, EventKind::kSeparation, state, 0, os.str());
    return false;
  }
  log_event({EventKind::kSeparation, state.time, 0, -1, -1, -1, -1, os.str(), mode_, mode_});
  ++statistics_.separations;
  begin_flight(free_state(at));
  observe_flight(state, true);
  return true;
}

template <class T>
bool Simulator<T>::prepare_flight() {
  if (hierarchy1_) return true;
  if (!no_flight_.empty()) return false;
  try {
    hierarchy1_.emplace(*system_.surface1, double(options_.proximity_bound));
    hierarchy2_.emplace(*system_.surface2, double(options_.proximity_bound));
  } catch (const InputError& error) {
    hierarchy1_.reset();
    no_flight_ = error.what();
    return false;
  }
  if (hierarchy1_->is_analytic()) {  // its speed bound needs a bounding sphere (flight_pass)
    hierarchy1_.reset();
    no_flight_ = "body 1 is an unbounded plane or cylinder: only body 2 may be one";
    return false;
  }
  // Within four times the polyhedra's bounds their distance says little
  // about the smooth one: closest points come from Newton there.
  query_distance_ = T(4 * (hierarchy1_->bound() + hierarchy2_->bound())) + T(1000) * options_.contact_tolerance;
  return true;
}

template <class T>
void Simulator<T>::begin_flight(const spatial::RigidBodyState<T>& body) {
  in_flight_ = true;
  move_flight(FlightDynamics<T>::state_of(body), nullptr);
  kinetic_max_ = std::max(kinetic_max_, flight_dynamics_.kinetic_energy(flight_));
}

template <class T>
void Simulator<T>::observe_flight(const ContactState<T>& state, bool force) {
  if (!force && state.time < next_output_) return;
  const spatial::RigidBodyState<T> body = FlightDynamics<T>::body_of(flight_);
  SimulationSample<T> sample;
  sample.state = state;
  sample.flight = true;
  sample.com_w = body.x_w;
  sample.R_w_1 = body.R_w_b();
  sample.com_velocity_w = body.v_w;
  sample.omega_w = body.omega_w;
  sample.phi << flight_.template segment<3>(7), sample.R_w_1.transpose() * body.v_w;
  sample.slip_speed = sample.power = sample.normal_force = sample.normal_misalignment = T(0);
  sample.energy = flight_dynamics_.energy(flight_);
  sample.work = work_;
  sample.impulse_work = impulse_work_;
  const std::optional<SurfaceClosestPoints<T>>& queried = near_here();
  sample.gap = queried ? queried->distance : lower_here();
  sample.step = last_step_;
  emit(sample);
}

// A flight step: conservative advancement bounds it (flight.hpp) so that no
// step passes through body 2 (far away, to within half the query distance
// of the certain lower bound of the distance; near, where the closest
// points at the start are within the query distance and so the lower
// bound at most it, half of it a step), besides h, the end and the rotation's
// resolution. The smooth gap at its end below -contact_tolerance is an
// event: its root is located (Illinois on the step length, to the
// tolerance) and the impact handled there. A step from a touching state
// whose own contact leaves while the end penetrates (another point of body
// 1 reaching body 2) is halved until it ends before that contact.
template <class T>
typename Simulator<T>::FlightOutcome Simulator<T>::flight_pass(ContactState<T>& state, T& h, const T& end_time) {
  using FState = typename FlightDynamics<T>::State;
  const FState y = flight_;
  // The contact phase's rule: a spin that h_min cannot resolve ends the run
  // (steps of 1 / omega_bound, below h_min by at most sqrt(I_max / I_min),
  // resolve any slower one).
  if (const std::string why = unresolved_rotation(T(y.template segment<3>(7).norm()), options_.h_min); !why.empty()) {
    fail(state, why, false);
    return FlightOutcome::kEnd;
  }
  const FState k1 = flight_dynamics_.derivative(y);
  const T omega_bound = flight_dynamics_.angular_speed_bound(y);
  const T radius = T(hierarchy1_->sphere_centre().norm() + hierarchy1_->sphere_radius());
  // The centre's approach and gravity's pull on it: towards a half-space
  // only their components along its normal n close the gap (n . v changes
  // by n . g alone in flight), so that a body thrown fast along a floor is
  // not held to steps of the gap over its whole speed.
  Vec3<T> v_w = y.template tail<3>(), g_w = system_.gravity_w;
  if (hierarchy2_->is_half_space()) {
    const Vec3<T> n_w = spatial::rotation_of<T>(system_.E_w_2) * hierarchy2_->plane_normal();
    v_w = n_w * n_w.dot(v_w), g_w = n_w * n_w.dot(g_w);
  }
  const T speed = v_w.norm() + omega_bound * radius;
  const bool near = flight_near_known_ && flight_near_;
  const T lower = near ? T(0) : lower_here();
  const T reach = std::max(T(lower - query_distance_ / 2), T(query_distance_ / 2));
  const T h_try = std::min({h, T(end_time - state.time), resolved_step(omega_bound),
                            conservative_step(reach, speed, T(g_w.norm()))});
  // Not h_try < ...: at t = 0 the bound is 0, and a step of 0 s (a bound
  // that overflowed to 0) would be taken for ever.
  if (!(h_try > min_resolvable_step(state.time, T(0)))) {
    std::ostringstream os;
    os << "a flight step of " << h_try << " s does not move the clock at t = " << state.time
       << " s (the body's points move at up to " << speed << " m/s within " << reach << " m of body 2)";
    fail(state, os.str());
    return FlightOutcome::kEnd;
  }
  const bool at_minimum = h_try <= options_.h_min;
  const auto retry = [&](const T& next) {
    h = next;
    ++statistics_.rejected_steps;
    return FlightOutcome::kRetry;
  };
  T error = T(0);
  const FState end = flight_dynamics_.step(options_.integrator, y, k1, h_try, options_.tolerance, error);
  if (error > T(1) && !at_minimum) {  // Dormand-Prince error control
    using std::pow;
    return retry(std::max(options_.h_min, T(h_try * std::max(T(0.2), T(0.9 * pow(error, T(-0.2)))))));
  }
  if (options_.integrator == IntegratorKind::kRk4) {  // step_acceptance.hpp: no law, the energy is kept
    using std::abs;
    const T kinetic0 = flight_dynamics_.kinetic_energy(y), kinetic1 = flight_dynamics_.kinetic_energy(end);
    const T e0 = flight_dynamics_.energy(y), e1 = flight_dynamics_.energy(end);
    const T magnitude = kinetic0 + kinetic1 + abs(T(e0 - kinetic0)) + abs(T(e1 - kinetic1));
    if (abs(T(e1 - e0)) > energy_step_bound(std::max({kinetic0, kinetic1, kinetic_max_}), magnitude)) {
      ++statistics_.energy_rejected_steps;
      if (!at_minimum) return retry(std::max(options_.h_min, T(h_try / 2)));
      std::ostringstream os;
      os << "a flight step cannot be taken even at h_min = " << options_.h_min << " s: it changes the energy by "
         << T(e1 - e0) << " J (the step does not resolve the motion)";
      fail(state, os.str());
      return FlightOutcome::kEnd;
    }
  }
  const T tolerance = options_.contact_tolerance;
  const std::optional<SurfaceClosestPoints<T>> there = proximity(end);
  if (there && there->distance < -tolerance) {
    const std::optional<SurfaceClosestPoints<T>>& start = near_here();
    const T g0 = start ? start->distance : query_distance_;
    if (g0 <= tolerance) {  // touching at the start: an impact there, or a contact that leaves
      const spatial::RigidBodyState<T> body = FlightDynamics<T>::body_of(y);
      if (start->normal_w.dot(body.point_velocity((start->p1_w + start->p2_w) / 2)) < T(0)) return collide(state, *start);
      if (h_try / 2 < min_resolvable_step(state.time, T(0))) {
        fail(state, "a second point of body 1 reaches body 2 while the first leaves it, closer in time than the clock "
                    "resolves (simultaneous impacts are not modelled)");
        return FlightOutcome::kEnd;
      }
      return retry(h_try / 2);
    }
    FState at = y;
    std::optional<SurfaceClosestPoints<T>> touch;
    const auto advance = [&](const T& tau) {
      T ignored;
      at = flight_dynamics_.step(options_.integrator, y, k1, tau, options_.tolerance, ignored);
    };
    const auto global_distance = [&] {  // at `at`
      touch = proximity(at);
      return touch ? touch->distance : query_distance_;
    };
    const auto global_gap = [&](const T& tau) {
      advance(tau);
      return global_distance();
    };
    // First along the end's closest pair, followed by Newton from the last
    // iterate's pair (a few surface evaluations instead of a global query
    // each); a global query at the root confirms it, or, when another pair
    // is deeper there (another feature reached body 2 first), the root is
    // located again with global queries.
    std::optional<SurfaceClosestPoints<T>> tracked = there;
    const auto tracked_gap = [&](const T& tau) {
      advance(tau);
      try {
        tracked = newton_closest_points(*hierarchy1_, FlightDynamics<T>::pose_of(at), tracked->patch1, tracked->st,
                                        *hierarchy2_, system_.E_w_2, tracked->patch2, tracked->uv);
      } catch (const ComputationError&) {
        return global_distance();
      }
      touch = tracked;
      return tracked->distance;
    };
    T tau = illinois_root(tracked_gap, T(0), g0, h_try, there->distance, tolerance);
    const std::optional<SurfaceClosestPoints<T>> confirmed = proximity(at);
    if (confirmed && touch && confirmed->distance >= touch->distance - tolerance) {
      touch = confirmed;
    } else {
      tau = illinois_root(global_gap, T(0), g0, h_try, there->distance, tolerance);
    }
    if (!touch || touch->distance < -T(1024) * tolerance) {
      fail(state, "the first contact of a flight step could not be located to the contact tolerance");
      return FlightOutcome::kEnd;
    }
    count_flight_step(state, at, tau, touch);
    return collide(state, *touch);
  }
  count_flight_step(state, end, h_try, there);
  kinetic_max_ = std::max(kinetic_max_, flight_dynamics_.kinetic_energy(end));
  h = next_step(h_try, error);
  observe_flight(state, false);
  return FlightOutcome::kStepped;
}

template <class T>
typename Simulator<T>::FlightOutcome Simulator<T>::collide(ContactState<T>& state, const SurfaceClosestPoints<T>& touch) {
  spatial::RigidBodyState<T> body = FlightDynamics<T>::body_of(flight_);
  const spatial::MassProperties<T> mass{system_.mass, system_.I_com};
  const Vec3<T> p_w = (touch.p1_w + touch.p2_w) / 2;
  const Vec3<T>& n_w = touch.normal_w;
  const Vec3<T> r_w = p_w - body.x_w;
  const Vec3<T> u_w = body.point_velocity(p_w);
  T leaving = n_w.dot(u_w);
  if (leaving < T(0)) {
    const CollisionParameters<T> law{system_.restitution, system_.tangential_restitution, system_.friction.law.mu};
    const CollisionResponse<T> response =
        collision_response(inverse_effective_mass(system_.mass, mass.I_w(body), r_w), n_w, u_w, law);
    spatial::apply_impulse(mass, response.impulse_w, r_w.cross(response.impulse_w), body);
    impulse_work_ += response.energy_change;
    leaving = response.normal_velocity_after;
    SimulationEvent<T> event{EventKind::kCollision, state.time, 1, touch.patch1, -1, touch.patch2, -1, "", mode_, mode_};
    event.impulse_w = response.impulse_w;
    event.normal_velocity_before = response.normal_velocity_before;
    event.normal_velocity_after = response.normal_velocity_after;
    event.tangential_speed_before = response.tangential_velocity_before_w.norm();
    event.tangential_speed_after = response.tangential_velocity_after_w.norm();
    event.energy_change = response.energy_change;
    std::ostringstream os;
    os << "impact at the gap " << touch.distance << " m: impulse " << response.impulse_w.norm() << " N s ("
       << (response.sliding ? "sliding" : "sticking") << "), normal velocity " << response.normal_velocity_before
       << " -> " << response.normal_velocity_after << " m/s";
    event.message = os.str();
    log_event(event);
    ++statistics_.collisions;
  }
  // Contact re-established (issue 30 item 5): the body leaves slower than
  // gravity's pull towards body 2 takes back within a minimum step (its
  // flight would last under two of them: bounces in close succession and
  // proximity, Section 3.6). Every impact before it leaves at least that
  // fast, so each bounce lasts at least 2 h_min: the bounces of a ball end
  // in finitely many, and each moves the clock.
  using std::max;
  const T pull = max(T(0), T(-system_.gravity_w.dot(n_w)));
  if (leaving > pull * options_.h_min) {
    flight_ = FlightDynamics<T>::state_of(body);  // the same pose: flight_near_ holds
    observe_flight(state, true);
    return FlightOutcome::kStepped;
  }
  const T energy_before = flight_dynamics_.energy(FlightDynamics<T>::state_of(body));
  const ContactState<T> last_contact = state;
  ContactEntry<T> entry;
  T energy;
  try {
    entry = contact_entry(system_, body, state.time, touch.patch1, touch.st, touch.patch2, touch.uv);
    in_flight_ = false;
    state = entry.state;
    energy = begin_contact(state, "contact: ");
  } catch (const ComputationError& error) {
    // Not a regular contact (an extraordinary vertex, a conforming
    // contact): the body is pushed off to bounce on (push_off, with the
    // point's acceleration towards body 2 bounded by gravity and the turn).
    in_flight_ = true;
    const T time = state.time;
    state = last_contact;
    state.time = time;
    const T a = system_.gravity_w.norm() + body.omega_w.squaredNorm() * (p_w - body.x_w).norm();
    push_off(state, body, p_w, n_w, a, std::string("the contact cannot be re-established here: ") + error.what());
    flight_ = FlightDynamics<T>::state_of(body);  // the same pose: flight_near_ holds
    observe_flight(state, true);
    return FlightOutcome::kStepped;
  }
  impulse_work_ += energy - energy_before;  // the discarded normal velocity and the snap
  SimulationEvent<T> event{EventKind::kContact, state.time, 0, state.patch1, -1, state.patch2, -1, "", mode_, mode_};
  event.normal_velocity_before = entry.normal_velocity;
  event.energy_change = energy - energy_before;
  std::ostringstream os;
  os << "continuous contact re-established in " << to_string(mode_) << ": normal velocity " << entry.normal_velocity
     << " m/s discarded, the body moved " << entry.snap_distance << " m and turned " << entry.snap_rotation
     << " rad onto the constraint";
  event.message = os.str();
  log_event(event);
  ++statistics_.contacts;
  return FlightOutcome::kContact;
}

template <class T>
bool Simulator<T>::separate_at_vertex(const ContactState<T>& state, const std::string& why) {
  if (!prepare_flight()) return false;
  ContactDynamicsState<T> at;
  try {
    at = evaluate(state_vector(state));
  } catch (const ComputationError&) {
    return false;
  }
  spatial::RigidBodyState<T> body = free_state(at);
  const Mat3<T> R_w_1 = at.E_w_1.template topLeftCorner<3, 3>();
  const Vec3<T> p_w = R_w_1 * at.kinematics.E_1_1c.template topRightCorner<3, 1>() +
                      at.E_w_1.template topRightCorner<3, 1>();
  const Vec3<T> n_w = -(R_w_1 * at.kinematics.E_1_1c.template block<3, 1>(0, 2));  // body 2's, Eq. 7
  // The contact point's acceleration towards body 2 in flight: gravity, the
  // centripetal part of the body's turn about its centre, and the slide
  // across body 2 where it curves towards body 1 (its largest curvature
  // magnitude times the tangential speed squared).
  using std::abs;
  const Eigen::Matrix<T, 2, 2> K2 = kinematics::curvature(at.kinematics.frame2);
  const T curvature2 = T(abs(K2(0, 0)) + abs(K2(0, 1)) + abs(K2(1, 0)) + abs(K2(1, 1)));
  const Vec3<T> u_w = body.point_velocity(p_w);
  const T tangential = T((u_w - n_w.dot(u_w) * n_w).norm());
  const T a = system_.gravity_w.norm() + body.omega_w.squaredNorm() * (p_w - body.x_w).norm() +
              curvature2 * tangential * tangential;
  push_off(state, body, p_w, n_w, a, why);
  log_event({EventKind::kSeparation, state.time, 0, -1, -1, -1, -1, why, mode_, mode_});
  begin_flight(body);
  observe_flight(state, true);
  return true;
}

template <class T>
void Simulator<T>::push_off(const ContactState<T>& state, spatial::RigidBodyState<T>& body, const Vec3<T>& p_w,
                            const Vec3<T>& n_w, const T& a, const std::string& why) {
  const spatial::MassProperties<T> mass{system_.mass, system_.I_com};
  const Vec3<T> r_w = p_w - body.x_w;
  const Vec3<T> u_w = body.point_velocity(p_w);
  const Mat3<T> K = inverse_effective_mass(system_.mass, mass.I_w(body), r_w);
  const T before = n_w.dot(u_w), after = a * options_.h_min;
  const Vec3<T> J_w = ((after - before) / n_w.dot(K * n_w)) * n_w;
  spatial::apply_impulse(mass, J_w, r_w.cross(J_w), body);
  SimulationEvent<T> event{EventKind::kForcedSeparation, state.time, 0, state.patch1, -1, state.patch2, -1, "", mode_,
                           mode_};
  const Vec3<T> u_after = body.point_velocity(p_w);
  event.impulse_w = J_w;
  event.normal_velocity_before = before;
  event.normal_velocity_after = n_w.dot(u_after);
  event.tangential_speed_before = (u_w - before * n_w).norm();
  event.tangential_speed_after = (u_after - event.normal_velocity_after * n_w).norm();
  event.energy_change = J_w.dot(u_w) + J_w.dot(K * J_w) / 2;
  std::ostringstream os;
  os << why << " (an impulse of " << J_w.norm() << " N s makes the contact point leave at " << after << " m/s = "
     << a << " m/s^2 times h_min)";
  event.message = os.str();
  impulse_work_ += event.energy_change;
  log_event(event);
  ++statistics_.forced_separations;
}

#define CONTACTREF_INSTANTIATE(T)                                                                                   \
  template std::optional<typename Simulator<T>::Crossing> Simulator<T>::separation_crossing(                          \
      const ContactDynamicsState<T>&, const ContactDynamicsState<T>&, const typename Simulator<T>::State&, const T&); \
  template bool Simulator<T>::separate(const ContactState<T>&, const ContactDynamicsState<T>&);                      \
  template bool Simulator<T>::prepare_flight();                                                                      \
  template void Simulator<T>::begin_flight(const spatial::RigidBodyState<T>&);                                       \
  template void Simulator<T>::observe_flight(const ContactState<T>&, bool);                                           \
  template typename Simulator<T>::FlightOutcome Simulator<T>::flight_pass(ContactState<T>&, T&, const T&);          \
  template typename Simulator<T>::FlightOutcome Simulator<T>::collide(ContactState<T>&,                             \
                                                                      const SurfaceClosestPoints<T>&);               \
  template bool Simulator<T>::separate_at_vertex(const ContactState<T>&, const std::string&);                         \
  template void Simulator<T>::push_off(const ContactState<T>&, spatial::RigidBodyState<T>&, const Vec3<T>&,           \
                                       const Vec3<T>&, const T&, const std::string&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics::detail
