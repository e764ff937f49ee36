#pragma once
// The quasi-rigid body simulator of Pauly et al. Section 5 (Fig. 7): free
// rigid bodies (fixed inertia) with point-sampled quasi-rigid surfaces, and
// fixed ones, under gravity. Each loop pass is one step that advances time:
//
// 1. Detect and resolve (Sections 4.1-4.3): resolve_contact for every pair
//    with a free body whose bounding spheres meet, at the step's start poses
//    (or take them from the previous step, which resolved them at its end).
// 2. No pair penetrates: a flight step of time_step (exact ballistic flight,
//    rigid_motion.hpp). If it ends with a smallest nearest-sample distance
//    d_min (over both bodies' samples against the other's, Section 4.1's
//    conservative distance) below -contact_tolerance, it is retraced
//    (Section 5: "we retrace the simulation to the time instance of first
//    contact and proceed with a smaller time step"): bisection on the step
//    length until d_min lies in [-contact_tolerance, 0), so the first-contact
//    time is located to contact_tolerance / (approach speed).
// 3. A pair penetrates: a contact step of velocity Verlet (kick, drift,
//    kick): half the step's impulses from the contacts at its start poses
//    (contact_impulses.hpp: the normal impulses, then friction), the free
//    flight over the step, the contacts resolved at the end poses and the
//    other half of the impulses from them. The end's contacts are the next
//    step's start, so a step costs one resolution, and the states (samples,
//    final states) are synchronous: their velocities have both kicks. The
//    contact force is integrated by the trapezoid rule: second order, each
//    step symmetric in time. (Symplectic Euler, one kick of the whole step
//    at its start, moves the bodies as Verlet does at a fixed step, but
//    where the step changes it weights the start's force by the new step
//    dt_n instead of (dt_n-1 + dt_n) / 2: first order once the step follows
//    the contact area, and an undamped bounce gained about 0.2 step_fraction
//    in speed.) Where a step straddles a kink of the force in time (a sample
//    starts or stops carrying load; the contact's end), the trapezoid rule
//    errs by up to |jump of dF/dt| dt^2 / 8, so a rebound's speed is second
//    order in the step, with a constant that changes with where the kinks
//    fall in their steps: for the one kink that ends a linear law of
//    stiffness k, at the phase theta of its step, e - 1 =
//    (k dt^2 / 2m) theta (1 - theta), k dt^2 / (12 m) on average (the first
//    contact is located, so it falls at a step's start). The closing kick
//    reads the damping's rates at the end velocities (contact_impulses.hpp),
//    so a body at rest feels none; friction does no positive work in either
//    kick.
//    The step is dt = min(time_step, step_fraction sqrt(m / k)) with m the
//    pair's reduced mass and k = 2 E* a Sneddon's normal stiffness of an
//    axisymmetric contact of radius a (Hertz's dF/d delta), E* = 1 / (pi c)
//    from the composite compliance and a = sqrt(A / pi) from the contact
//    area at the step's start, never below the smallest active sample
//    spacing (the contact's resolution): Verlet is stable for
//    dt sqrt(k / m) < 2. A contact whose samples carry no traction (Section
//    4.1's conservative classification flags samples a little outside a
//    curved surface) has no force to integrate: its step moves no point of
//    either body by more than contact_tolerance relative to the other
//    (bounded by the relative speed of the bodies' bounding spheres and
//    gravity), so a slow approach does not creep through it at the
//    stiffness's step, and it has no closing kick (a flight: a load at its
//    end is the next step's, as after a first contact).
//
// A run ends `completed` at the duration, or `failed` with the reason: an
// LCP or MLS failure (the ComputationError's message; at a contact step's end
// poses, the run ends at the step's start), a body whose centre of
// mass fell inside another body, more than max_retractions
// retractions, a non-finite state, max_steps steps, a contact step's rule
// below min_step, or `watchdog` passes in a row that did not advance the
// clock (a step below its resolution).
#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "reference/quasi_rigid/contact_impulses.hpp"
#include "reference/quasi_rigid/point_contact.hpp"
#include "reference/quasi_rigid/rigid_motion.hpp"
#include "reference/spatial/row_sink.hpp"

namespace contactref::quasi_rigid {

struct DynamicBody {
  QuasiRigidBody body;    // the surface in body coordinates, the origin at the centre of mass
  bool fixed = false;     // a fixed body keeps its state; it needs no mass
  MassProperties mass;    // free bodies: mass > 0, I_com_b symmetric positive definite
  BodyState state;        // the initial state (fixed bodies: only the pose)
};

struct DynamicsOptions {
  Eigen::Vector3d gravity_w{0, 0, -9.81};  // m/s^2
  double duration = 1;               // s, >= 0
  double time_step = 1e-3;           // s, > 0: the flight step and the largest contact step
  double step_fraction = 0.05;       // in (0, 1]: the contact step's fraction of sqrt(m / k)
  double mu = 0;                     // >= 0: the dynamic Coulomb coefficient (Section 5.1)
  double damping = 0;                // s/m, >= 0: Hunt and Crossley's (contact_impulses.hpp); 0: none
  double contact_tolerance = 1e-5;   // m, > 0: the first contact's location (step 2 above)
  // s, >= 0: a contact step whose rule (step_fraction sqrt(m / k), or an
  // unloaded contact's contact_tolerance step) is below it ends the run
  // failed: the contact cannot be resolved (0: none). The scenes' rules
  // are 1e-5 s and more; a ball spun at 1e9 rad/s gave 2e-13 s, 1e7 steps
  // of t stuck near 0.013 s.
  double min_step = 1e-9;
  int max_retractions = 10000;       // retractions in a run, >= 0
  long max_steps = 10000000;         // steps in a run, >= 1
  int watchdog = 100;                // passes in a row that do not advance the clock, >= 1
  double output_interval = 0;        // s, >= 0: between samples (0: every step)
  ContactOptions contact;            // resolve_contact's
};

enum class RunStatus { kCompleted, kFailed };
const char* to_string(RunStatus status);

// One step (the end time, its length and what happened).
struct StepRecord {
  double time = 0;               // s, at the step's end
  double dt = 0;                 // s
  bool contact = false;          // a contact step (else a flight step)
  bool retracted = false;        // a flight step shortened to the first contact
  double load = 0;               // N: the contact impulses' load (contact_impulses.hpp), all pairs, the
                                 // mean of the step's two kicks' (its normal impulse over dt)
  int active = 0;                // active samples at the step's start, both bodies, all pairs
  int loaded = 0;                // samples carrying traction at the step's start, all pairs
  double normal_work = 0;        // J: the kinetic energy the normal impulses added
  double friction_work = 0;      // J: that friction added (<= 0)
  double friction_scale = 1;     // the smallest of the pairs' in both kicks (contact_impulses.hpp)
  double rule_step = 0;          // s: step_fraction sqrt(m / k), or an unloaded contact's
                                 // contact_tolerance step (contact steps; else 0)
  // The normal and the friction contact impulses on each body (input order;
  // zero in flight), N s.
  std::vector<Eigen::Vector3d> normal_impulse_w, friction_impulse_w;
  // The loaded samples of the closing kick, every contact's (the contacts at
  // the step's end, as the next step starts from them; none when the step
  // started unloaded), each with its body's index (input order).
  struct Sample {
    std::size_t body = 0;
    LoadedSample loaded;
  };
  std::vector<Sample> samples;
};

struct DynamicsSample {
  double time = 0;               // s
  std::vector<BodyState> states; // one per body, in the input order
  double load = 0;               // N: of the step that ended here (0 in flight)
  double normal_work = 0, friction_work = 0;  // J: summed since the start
};

// Where the rows go while the run goes on (spatial/row_sink.hpp); null: kept
// in DynamicsResult::samples and steps.
struct DynamicsSinks {
  spatial::RowSink<DynamicsSample>* samples = nullptr;
  spatial::RowSink<StepRecord>* steps = nullptr;
};

struct DynamicsResult {
  RunStatus status = RunStatus::kCompleted;
  std::string message;                  // why it failed; empty when completed
  std::vector<BodyState> final_states;
  std::vector<DynamicsSample> samples;  // without a sink: at 0, every output interval and the end
  std::vector<StepRecord> steps;        // without a sink
  long rows = 0, step_count = 0;        // written, to a sink or above
  std::vector<double> first_contacts;   // s: the located first-contact times
  int retractions = 0;
  int contact_steps = 0, flight_steps = 0;
  int max_active = 0;                   // the most active samples of a step
  double normal_work = 0, friction_work = 0;  // J: summed
};

// InputError naming the body (index and name) and field: a free body with a
// mass not finite and > 0, an inertia not symmetric positive definite, a
// non-finite state or a non-unit quaternion (|q| - 1 beyond 1e-9), two rigid
// (E = 0) bodies that can touch with one free, no free body; an option out of
// its range above (naming it). `progress` is called with the time after every
// step. A sink that throws a ComputationError ends the run failed with its
// message.
DynamicsResult simulate_quasi_rigid(const std::vector<DynamicBody>& bodies, const DynamicsOptions& options,
                                    const std::function<void(double)>& progress = {}, const DynamicsSinks& sinks = {});

}  // namespace contactref::quasi_rigid
