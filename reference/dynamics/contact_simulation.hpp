#pragma once
// Single-contact simulation in reduced coordinates (Kry & Pai Sections
// 3.3-3.7): body 1 free on body 2 fixed, both piecewise parametric
// surfaces (surfaces::PatchComplex), integrated by RK4 with Kry & Pai's
// adaptive scheme or by Dormand-Prince 5(4), across patch boundaries, with
// flight between contacts, as a hybrid system (shared/DESIGN.md):
//  - flight (flight.hpp): body 1 free under gravity, Newton-Euler with the
//    same integrators and step control; each step bounded by conservative
//    advancement against the bodies' certain distance (surface_proximity.hpp)
//    so that none passes through body 2; the smooth gap below
//    -contact_tolerance at a step's end is an event whose root (the first
//    contact) is located to the tolerance; there an impact
//    (collision_law.hpp, Chatterjee & Ruina, with e, e_t and the friction's
//    mu) sends the body back into flight, or, when it leaves slower than
//    g_n h_min (the speed gravity's pull towards body 2 gives in a minimum
//    step: bounces in close succession and proximity, Section 3.6), the
//    contact is re-established there (contact_entry.hpp) in the mode the
//    friction model gives, like a start. A run starts in contact or in
//    flight (FlightStart);
//  - the mode is frictionless, or a friction mode that holds some of the
//    rolling, the spin and the slip at zero (sliding, no-slip, no-spin,
//    no-roll, rest, sliding-no-spin, sliding-no-roll,
//    sliding-no-roll-no-spin), each with its own state (q, r')
//    (contact_modes.hpp); the run starts in the mode its state and friction
//    model give (mode_switching.hpp initial_mode);
//  - events with located roots end a step: patch edges and smooth-piece
//    lines (below), the mode events of mode_switching.hpp (a resisted
//    velocity reaching its threshold, or zero; a static limit, Eqs. 35 and
//    40, broken; a downward crossing is located by regula falsi on the step
//    length like an edge, the step is cut there, and the handler enters the
//    new mode by the entry rules, or, when the velocity cannot be held,
//    moves its event to zero and lets it pass through), and the sign of the
//    normal force (Section 3.3: its crossing below zero, beyond its
//    round-off, is located the same way and hands the state to flight with
//    the same pose and velocity; a resting contact's normal force is its
//    weight, so round-off never separates it). The stages of a
//    step evaluate the law with the directions at its start
//    (contact_dynamics.hpp LawDirections), so that a velocity's zero is
//    such an event, located to the integrator's order whatever the
//    threshold, never a jump inside a step; a root that is a jump of the
//    event function (a velocity turning by more than a right angle within
//    the step without passing near zero) halves the step, and at h_min is
//    taken as the velocity passing through zero;
//  - the handlers map the state: patch transitions (patch_transition.hpp)
//    and mode entries (a plastic impulse into no-slip or no-spin, continuous
//    velocity into sliding).
// Step control (Section 3.7):
//  - RK4: a step that leaves the smooth piece of a patch it is on is undone
//    and retried at half the step, down to h_min; after every accepted step
//    the step doubles again, up to h_max. Beyond the paper (issue 34 item 2):
//    a step that the parameter velocity carries to an edge of the piece
//    (linearly, from q') is cut to end half a minimum step short of it, and
//    the next, of h_min, crosses it; so a crossing costs two steps instead
//    of log2(h / h_min) rejected ones (the bowl at 16 ms: 13 rejected steps
//    for 497 accepted instead of 363 for 535), and only a path that curves
//    across an edge sooner is backed up. Dormand-Prince: the same backing up
//    for boundaries, and its error estimate below `tolerance` (otherwise the
//    standard controller shrinks the step; it grows it after success, never
//    beyond h_max nor below h_min).
//  - A step whose evaluation fails at a stage (conforming contact, a point
//    that is not regular) is retried at half the step as well; RK4 steps
//    must also pass an energy test (step_acceptance.hpp, energy_step_bound:
//    the change stays within the bound in a conservative mode, the rise
//    does in one whose friction law dissipates) or are retried smaller. At h_min
//    the run ends with the cause (kFailed), or kExtraordinaryVertex when the
//    contact is within a minimum step of a Loop extraordinary vertex.
//  - At h_min the crossing is located (Section 3.5: "the current parameter
//    velocity is used to project the contact location onto the exact
//    boundary"): BoundaryLocation::kLinear does exactly that,
//    q <- q + tau q' (and q' <- q' + tau q'') with tau from the parameter
//    velocity, and advances time by tau, when the parameter velocity reaches
//    an edge of the region within the step. When it does not (the contact is
//    at rest, moves along the edge or away from it, and the acceleration
//    carries it out), the paper's projection has no edge to land on and the
//    crossing is located as by kIntegrated. kIntegrated (the default) finds
//    the step length tau by regula falsi such that one integrator step of
//    length tau lands on the boundary, so that the crossing state has the
//    integrator's accuracy, not O(tau^2).
//  - Smooth pieces (surfaces::Patch::smooth_piece): the right-hand side of
//    Eq. 20 uses the surfaces' third derivatives, which jump where the
//    polynomial pieces of a Loop patch meet (split faces, the rings about an
//    extraordinary vertex). A step across such a line loses the integrator's
//    order, so it is located like a patch edge and the step restarts there
//    (no change of coordinates). A crossing located at the very start of a
//    step that is no patch transition (a state on the line at rest, grazing
//    it, or at a piece corner, whose q' chose the piece it is leaving) is
//    stepped over once with the patch evaluated piece by piece (order lost
//    for that step of h_min).
//  - At a patch edge the contact moves to the neighbour (patch_transition.hpp),
//    logged as an event; at a corner the edge that ends at the corner is
//    taken (counter-clockwise), at most n - 1 times at one instant. The edges
//    it leaves are decided by the motion of the step beyond the crossing
//    (not q', which is tangent to the edge when grazing and zero at rest).
//  - Periodic chart parameters wrap into their interval; the end of a
//    non-periodic chart or an edge without neighbour ends the run
//    (kLeftSurface).
//  - A negative normal force at the start of a step (the initial state, or
//    the far side of an edge) separates at once. When the surfaces cannot
//    have collision detection (an unbounded surface that is no plane), the
//    run ends there with kSeparated.
//  - Every pass of the step loop advances time by at least h_min, shrinks the
//    step, accepts a located crossing, changes a patch or steps over a piece
//    line; a watchdog (step_acceptance.hpp, stalled_pass_limit) ends a run
//    with kFailed (or kExtraordinaryVertex) when more passes than that follow
//    each other without a step of h_min.
#include <functional>
#include <string>
#include <vector>

#include "reference/dynamics/contact_dynamics.hpp"
#include "reference/dynamics/mode_switching.hpp"
#include "reference/spatial/rigid_body.hpp"
#include "reference/spatial/row_sink.hpp"
#include "reference/surfaces/patch_complex.hpp"

namespace contactref::dynamics {

enum class IntegratorKind { kRk4, kDormandPrince54 };
enum class BoundaryLocation { kIntegrated, kLinear };

template <class T>
struct SimulationOptions {
  IntegratorKind integrator = IntegratorKind::kRk4;
  T h_max = T(0.016);  // s
  T h_min = T(0.001);  // s
  T tolerance = T(1e-10);  // Dormand-Prince: per-step error, max-norm of the scaled (q, q') difference
  T duration = T(1);  // s
  // One output row per interval: the first accepted step at or after each
  // multiple of it (rows are integrator states, never interpolated). 0: every step.
  T output_interval = T(0.01);  // s
  BoundaryLocation boundary = BoundaryLocation::kIntegrated;
  // Limits of a run (InputError up front when duration / h_max or the output
  // rows would exceed them; a run that takes more steps than max_steps ends
  // failed): a run that long is a mistake in the scene (a step in ms given
  // in s), not a job; raise them to run it.
  long max_steps = 10000000;  // accepted and rejected steps
  long max_rows = 1000000;    // output rows
  // Flight (flight.hpp, surface_proximity.hpp): the gap to which the first
  // time of contact is located, which is also the deepest a flight may end a
  // step in body 2; and the largest distance between each body's polyhedral
  // approximation and its smooth surface.
  T contact_tolerance = T(1e-9);  // m
  T proximity_bound = T(1e-4);    // m
};

// The two bodies: body 1 free (frame at its centre of mass), body 2 fixed at
// E_w_2. The complexes are referenced; they must outlive the simulation.
template <class T>
struct ContactSystem {
  T mass;
  Mat3<T> I_com;  // about the centre of mass, body-1 axes
  const surfaces::PatchComplex<T>* surface1 = nullptr;
  const surfaces::PatchComplex<T>* surface2 = nullptr;
  Mat4<T> E_w_2 = Mat4<T>::Identity();
  Vec3<T> gravity_w = Vec3<T>(0, 0, T(-9.81));
  FrictionModel<T> friction;  // frictionless by default
  // Collisions in flight (collision_law.hpp, Chatterjee & Ruina), with the
  // friction's mu: the normal and tangential restitution, in [0, 1].
  T restitution = T(0);
  T tangential_restitution = T(0);
};

template <class T>
struct ContactState {
  T time = T(0);
  int patch1 = 0, patch2 = 0;
  Vec5<T> q = Vec5<T>::Zero();
  Vec5<T> qdot = Vec5<T>::Zero();  // always all five rates (q' = P r' in no-slip and no-spin)
  // Set by the simulator (the initial state's is ignored: the run chooses it,
  // mode_switching.hpp initial_mode).
  ContactMode mode = ContactMode::kFrictionless;
};

// One output row.
template <class T>
struct SimulationSample {
  ContactState<T> state;
  Vec3<T> com_w;        // centre of mass in the world (m)
  Mat3<T> R_w_1;        // body 1's axes in the world
  Vec3<T> com_velocity_w;  // its velocity in world axes (m/s)
  Vec3<T> omega_w;      // its angular velocity in world axes (rad/s)
  Vec6<T> phi;          // body-1 twist (omega; v), body-1 coordinates
  T slip_speed;         // m/s: of body 1's material point at the contact relative to body 2
  T energy;             // J
  // The energy balance: energy - SimulationResult::initial_energy (the state
  // as given, before the start's plastic impulse) = work + impulse_work +
  // what the integrator lost.
  T power;              // W: the law's power, dE/dt (ContactDynamicsState::power)
  T work = T(0);        // J: its integral since the start, by the step's own quadrature (<= 0 for friction and damping)
  T impulse_work = T(0);  // J: the energy changes of the plastic impulses at the start and at mode switches (<= 0)
  T normal_force;       // N, > 0 pushing body 1 away from body 2
  // Independent constraint residuals: the two surface points and normals
  // mapped to the world through E_w_1 = E_w_2 E_2_1(q) and E_w_2.
  T gap;                // |p1_w - p2_w| (m)
  T normal_misalignment;  // |n1_w + n2_w| (rad, small)
  T step;               // the step that produced this state (s); 0 for the first row
  // In flight: state.q, q', mode and patches are those of the last contact
  // (not current), normal_force, slip_speed, power and normal_misalignment
  // are 0, and gap is the bodies' distance (the smooth one within the
  // proximity query's reach, otherwise its certain lower bound).
  bool flight = false;
};

enum class EventKind {
  kTransition, kSmoothPiece, kModeSwitch, kIllConditioned, kSeparation, kLeftSurface, kExtraordinaryVertex, kFailure,
  kCollision, kContact, kForcedSeparation
};
// kSeparation: the contact ends (its normal force crossed zero) and flight
// begins; kCollision: an impact in flight (collision_law.hpp); kContact:
// continuous contact re-established after an impact (contact_entry.hpp);
// kForcedSeparation: the impulse that pushes the bodies apart at an
// extraordinary vertex (Section 3.6), or at an impact whose contact cannot
// be re-established there.
// kIllConditioned: logged once per run, when the condition number of the
// solved system (ContactDynamicsState::condition) first exceeds this (high
// friction or near-conforming contact, Section 3.4.1); the run goes on.
inline constexpr double kIllConditionedWarning = 1e8;

template <class T>
struct SimulationEvent {
  EventKind kind;
  T time;
  int body = 0;  // 1 or 2 (transitions)
  int from_patch = -1, from_edge = -1, to_patch = -1, to_edge = -1;
  std::string message;  // a mode switch's cause, with the numbers
  ContactMode from_mode = ContactMode::kFrictionless, to_mode = ContactMode::kFrictionless;  // mode switches
  // Collisions: the impulse on body 1 (N s, world) and the velocities of its
  // contact point along body 2's normal (m/s, < 0 approaching) and across it
  // before and after; contacts: the discarded normal velocity (before, after
  // 0). The energy change (J) of either joins impulse_work.
  Vec3<T> impulse_w = Vec3<T>::Zero();
  T normal_velocity_before = T(0), normal_velocity_after = T(0);
  T tangential_speed_before = T(0), tangential_speed_after = T(0);
  T energy_change = T(0);
};

// kExtraordinaryVertex: the run could not continue (a failed evaluation or
// energy test at h_min, or the watchdog) with an extraordinary vertex of a
// Loop patch (Patch::singular_corners) within the reach of a minimum step of
// the contact point, and the bodies could not be forced apart there (no
// collision detection for the surfaces); the message names the vertex, the
// patch and the time. Where they can, the run goes on: forced separation,
// small bounces, contact restored beyond the vertex (Section 3.6).
enum class SimulationStatus { kCompleted, kSeparated, kLeftSurface, kExtraordinaryVertex, kFailed };
const char* to_string(SimulationStatus status);
const char* to_string(EventKind kind);

template <class T>
struct SimulationStatistics {
  long accepted_steps = 0, rejected_steps = 0;  // rejected: boundary back-ups, error-control and evaluation failures
  long energy_rejected_steps = 0;  // of those, RK4 steps that failed the energy test
  long derivative_evaluations = 0;
  long passes = 0;  // of the step loop (each accepts, rejects, locates or transits; see the watchdog)
  long transitions = 0, smooth_piece_crossings = 0, mode_switches = 0;
  T max_condition = T(0);  // the largest condition number of a solve (ContactDynamicsState::condition)
  T smallest_step = T(0), largest_step = T(0);
  T max_gap = T(0), max_normal_misalignment = T(0);  // over every accepted step
  long flight_steps = 0;  // accepted in flight (not in accepted_steps)
  long separations = 0, collisions = 0, contacts = 0, forced_separations = 0;
  T flight_time = T(0);  // s
};

// Where the rows go while the run goes on (spatial/row_sink.hpp); null: kept
// in SimulationResult::samples and events.
template <class T>
struct SimulationSinks {
  spatial::RowSink<SimulationSample<T>>* samples = nullptr;
  spatial::RowSink<SimulationEvent<T>>* events = nullptr;
};

template <class T>
struct SimulationResult {
  SimulationStatus status = SimulationStatus::kCompleted;
  std::string message;  // why the run ended early
  std::vector<SimulationSample<T>> samples;  // without a sink
  std::vector<SimulationEvent<T>> events;  // without a sink; transitions, piece crossings are counted only
  long rows = 0, event_count = 0;  // written, to a sink or above
  T initial_energy = T(0);  // J: of the initial state as given (before the start's plastic impulse)
  SimulationStatistics<T> statistics;
  ContactState<T> final_state;  // the last contact's state (its time is the run's end)
  bool ended_in_flight = false;
  spatial::RigidBodyState<T> final_body;  // body 1 at the end, in contact or in flight
};

// A start in flight: body 1's state at `time`, away from body 2.
template <class T>
struct FlightStart {
  T time = T(0);
  spatial::RigidBodyState<T> body;
};

// progress(time) is called on every pass of the step loop (may be empty: it
// should be cheap, and decide itself when to print). InputError: bad options
// (h_min <= 0, h_min > h_max, duration < 0, non-finite, h_min below
// min_resolvable_step of the run's end time, duration / h_max above max_steps,
// the output rows above max_rows),
// an initial state outside its patches' domains or not finite, patches out of
// range. Errors during the run (conforming contact, a non-regular point) are
// retried with smaller steps; at h_min they end it with kFailed and the cause
// (kExtraordinaryVertex near a Loop extraordinary vertex); the samples so far
// are kept.
template <class T>
SimulationResult<T> simulate(const ContactSystem<T>& system, const ContactState<T>& initial,
                             const SimulationOptions<T>& options,
                             const std::function<void(const T&)>& progress = {}, const SimulationSinks<T>& sinks = {});
// The same from a start in flight. InputError as above, and for a body that
// starts inside body 2 or touching it (closer than contact_tolerance), a
// non-finite or non-unit state, or surfaces that collision detection cannot
// take (surface_proximity.hpp SurfaceHierarchy), naming what is wrong.
template <class T>
SimulationResult<T> simulate(const ContactSystem<T>& system, const FlightStart<T>& initial,
                             const SimulationOptions<T>& options,
                             const std::function<void(const T&)>& progress = {}, const SimulationSinks<T>& sinks = {});

// The row for one state (also used for the first row).
template <class T>
SimulationSample<T> sample_state(const ContactSystem<T>& system, const ContactState<T>& state, const T& step);

}  // namespace contactref::dynamics
