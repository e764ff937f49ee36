#pragma once
// The quasi-rigid body simulator of Pauly et al. Section 5 (Fig. 7): free
// rigid bodies (fixed inertia) with point-sampled quasi-rigid surfaces, and
// fixed ones, under gravity. Each loop pass is one step that advances time:
//
// 1. Detect and resolve (Sections 4.1-4.3): resolve_contact for every pair
//    with a free body whose bounding spheres meet, at the step's start poses.
// 2. No pair penetrates: a flight step of time_step (exact ballistic flight,
//    rigid_motion.hpp). If it ends with a smallest nearest-sample distance
//    d_min (over both bodies' samples against the other's, Section 4.1's
//    conservative distance) below -contact_tolerance, it is retraced
//    (Section 5: "we retrace the simulation to the time instance of first
//    contact and proceed with a smaller time step"): bisection on the step
//    length until d_min lies in [-contact_tolerance, 0), so the first-contact
//    time is located to contact_tolerance / (approach speed).
// 3. A pair penetrates: a contact step (contact_impulses.hpp: the normal
//    impulses, then friction, then the free flight over the step). The
//    scheme is symplectic Euler (a kick by the contact wrench at the step's
//    start, then the exact flight): first order, but with no energy drift
//    in the undamped elastic contact, unlike explicit Euler, and exact in
//    flight. Its step is dt = min(time_step, step_fraction sqrt(m / k)) with
//    m the pair's reduced mass and k = 2 E* a Sneddon's normal stiffness of
//    an axisymmetric contact of radius a (Hertz's dF/d delta), E* =
//    1 / (pi c) from the composite compliance and a = sqrt(A / pi) from the
//    contact area, never below the smallest active sample spacing (the
//    contact's resolution): symplectic Euler is stable for dt sqrt(k / m) < 2.
//
// A run ends `completed` at the duration, or `failed` with the reason: an
// LCP or MLS failure (the ComputationError's message), a body whose centre of
// mass fell inside (or off) another body, more than max_retractions
// retractions, a non-finite state, max_steps steps, or `watchdog` passes in a
// row that did not advance the clock (a step below its resolution).
#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "reference/quasi_rigid/point_contact.hpp"
#include "reference/quasi_rigid/rigid_motion.hpp"

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
  double load = 0;               // N: the contact impulses' load (contact_impulses.hpp), all pairs
  int active = 0;                // active samples, both bodies, all pairs
  int loaded = 0;                // samples carrying traction, all pairs
  double normal_work = 0;        // J: the kinetic energy the normal impulses added
  double friction_work = 0;      // J: that friction added (<= 0)
  double friction_scale = 1;     // the smallest of the pairs' (contact_impulses.hpp)
  double rule_step = 0;          // s: step_fraction sqrt(m / k) (contact steps; else 0)
  // The normal contact impulse on each body (input order; zero in flight), N s.
  std::vector<Eigen::Vector3d> normal_impulse_w;
};

struct DynamicsSample {
  double time = 0;               // s
  std::vector<BodyState> states; // one per body, in the input order
  double load = 0;               // N: of the step that ended here (0 in flight)
  double normal_work = 0, friction_work = 0;  // J: summed since the start
};

struct DynamicsResult {
  RunStatus status = RunStatus::kCompleted;
  std::string message;                  // why it failed; empty when completed
  std::vector<BodyState> final_states;
  std::vector<DynamicsSample> samples;  // at 0, every output interval and the end
  std::vector<StepRecord> steps;
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
// step.
DynamicsResult simulate_quasi_rigid(const std::vector<DynamicBody>& bodies, const DynamicsOptions& options,
                                    const std::function<void(double)>& progress = {});

}  // namespace contactref::quasi_rigid
