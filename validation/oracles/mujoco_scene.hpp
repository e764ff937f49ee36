#pragma once
// A peer oracle for rigid-body contact with friction: MuJoCo 2.2 (libmujoco-dev)
// simulates N rigid bodies, each the convex hull of a point set, on the plane
// z = 0 (normal +z) under gravity, with condim-6 contacts (sliding, spinning
// and rolling friction in an elliptic cone) between each body and the plane
// and between the bodies themselves. It is a separate implementation (soft
// convex-optimisation contacts, its own collision detection and integrator), so
// qualitative and conserved-quantity agreement with it checks ours; it is not a
// rigid-contact model, so its trajectories agree with ours only to within its
// contact softness. run_mujoco_on_plane (mujoco_contact.hpp) is its one-body
// case.
//
// The model (MJCF, built as a string and loaded through MuJoCo's in-memory
// virtual file system: nothing is written to disk):
//  - per body, a child of the world with a free joint, its frame at the centre
//    of mass, with an explicit <inertial pos="0 0 0" mass fullinertia>
//    (compiler inertiafromgeom="false": MuJoCo's mesh-derived inertia is never
//    used). The body frame is therefore the frame of points_b and inertia_b,
//    and the free joint's position is the centre of mass.
//  - per body, one mesh geom with its points inline (<mesh vertex=...>); MuJoCo
//    takes their convex hull (qhull), stores the vertices in single precision
//    (so the hull is the given one to about 2^-24 relative) and re-centres the
//    mesh at its own centroid, moving the geom frame so that the vertices stay
//    where they were given in the body frame.
//  - a plane geom z = 0. Every geom has condim 6, friction "mu mu_spin mu_roll"
//    (MuJoCo's geom friction order is sliding, torsional, rolling; a contact
//    takes the element-wise maximum of its two geoms', equal here), margin 0
//    and gap 0 (a contact exists only while two geoms penetrate). MuJoCo
//    raises every friction coefficient below mjMINMU = 1e-5 to 1e-5, so
//    "frictionless" is 1e-5 here. Every pair of geoms of different bodies is
//    tested (MuJoCo's default contype = conaffinity = 1; its parent filter
//    never removes pairs with the world, and the bodies are siblings).
//  - <option cone="elliptic" gravity timestep integrator> and
//    <flag energy="enable" multiccd="enable"/>; the Newton solver with tolerance
//    1e-10. Body-plane pairs go through MuJoCo's plane-convex collider, which
//    returns several contact points of a face lying on the plane; mesh-mesh
//    pairs go through its general convex collider (libccd), which returns ONE
//    point per pair unless multiccd is enabled: a cube on a cube would then
//    rest on a single point (and its rolling friction alone). multiccd asks it
//    for the extra points of a face-face contact; it does not change
//    body-plane contacts (so the one-body case is as before).
//  - the integrator: RK4 by default (the most accurate MuJoCo offers for the
//    smooth parts of a trajectory); Euler on request: MuJoCo's default,
//    semi-implicit (velocity first, then position with the new velocity), the
//    fairer comparison for a velocity-level time stepper such as ours, which
//    also solves once per step for the impulses that give the new velocity.
//
// Contact softness. MuJoCo's constraint acceleration obeys
//   a1 + d (b v + k r) = (1 - d) a0,   b = 2 / (dmax tc),  k = d / (dmax^2 tc^2 zeta^2),
// (r the penetration, a0 the unconstrained acceleration, d the impedance from
// solimp, (tc, zeta) = solref). We choose the stiffest contact MuJoCo integrates
// safely:
//  - solref = "2 h, 1": tc = 2 timestep, the smallest time constant MuJoCo
//    accepts (its refsafe flag would raise a smaller one to 2 h anyway), and
//    zeta = 1, critical damping: the penetration settles without a bounce
//    (restitution 0, as in the rigid models we compare with).
//  - solimp = "0.99 0.99 0.001 0.5 2": a constant impedance d = dmin = dmax =
//    0.99 (the width and shape do not matter when dmin = dmax), so that the
//    softness does not depend on the penetration and the steady penetration
//    has a closed form. d close to 1 means little force-dependent "give":
//    at rest, contact i with regulariser R_i = (1 - d)/d A_i (A_i MuJoCo's
//    estimate of the inverse inertia the contact sees) and normal force f_i
//    penetrates by  r_i = R_i f_i / k = (1 - d) A_i f_i tc^2 zeta^2,
//    i.e. (1 - d) g tc^2 ~ 0.4 micrometres for A_i f_i ~ g and h = 1 ms.
//    d -> 1 makes the regulariser R vanish and the solver's problem
//    ill-conditioned (MuJoCo clamps d to at most 0.9999); 0.99 keeps R at 1% of
//    A, stiff and well conditioned.
//  The same regulariser lets a contact creep: a tangential force f_t below
//  the friction limit still comes with a tangential velocity of order R_t f_t
//  per unit of time constant, i.e. a slip of about (1 - d) A_t f_t tc^2 per tc
//  (the tangential analogue of r_i), where a rigid contact would stick.
//  And a contact that starts sliding fast is kicked off the plane: the
//  soft friction asks for the slip to vanish within tc, the elliptic cone
//  caps it at mu f_n, and the solver meets the cap by raising f_n too. The
//  sliding octagon (2 m/s, h = 1 ms) leaves the plane at 0.3-0.5 m/s in its
//  first steps and flies for ~90 ms, rocking for a few tenths of a second
//  after. Every force stays in the cone, so the friction impulse never
//  exceeds mu times the normal impulse (tests/validation/mujoco_scene_test.cpp
//  bounds the stop with it).
//
// The state. MuJoCo's free joint has qpos = (position of the body frame in
// world; unit quaternion w x y z of the body orientation, rotating body
// vectors into world) and qvel = (linear velocity of the body-frame origin IN
// WORLD coordinates; angular velocity in the BODY-LOCAL frame). The local
// angular velocity was verified against MuJoCo 2.2.2 itself: a body turned 90
// degrees about x with qvel angular (0, 0, 2) has world angular velocity
// cvel = (0, -2, 0) = R_w_b (0, 0, 2) and kinetic energy 2 I_zz (body axes);
// the tests check it through the orientation after a spin in the air. So the
// oracle writes qvel = (v_w, R_w_b^T omega_w) and reads
// omega_w = R_w_b qvel[3:6].
//
// Energy: MuJoCo's energy[0] is -sum_i m_i g.x_com_i (gravity only: no
// springs here), zero at centres of mass at the world origin, the same zero
// as ours; energy[1] is qvel' M qvel / 2 = sum_i m_i |v_i|^2 / 2 +
// omega_b_i' I_b_i omega_b_i / 2. Both are evaluated at each sample by
// mj_forward on the sampled state (the values left by an RK4 step may belong to
// one of its stages rather than to the new state).
//
// Per step (information for comparisons, not a check): the number of contacts
// (mjData.ncon) and of constraint rows (mjData.nefc, 6 per condim-6 contact
// with the elliptic cone) that MuJoCo's last evaluation of the dynamics in the
// step used, and the wall time of mj_step alone (std::chrono::steady_clock;
// the oracle's own checks and sampling are outside it). With Euler that
// evaluation is the one at the state the step starts from, whose contact
// forces advance it; RK4 evaluates four times per step (at its stages), and
// the counts are those of its last stage.
//
// Errors: InputError for bad input; ComputationError when MuJoCo refuses the
// model (with MuJoCo's message; e.g. a body too light for its compiler,
// mass or inertia below mjMINVAL = 1e-15) or when the state becomes non-finite or MuJoCo reports a warning (a bad qpos,
// qvel or qacc, after which MuJoCo silently resets the state; a full contact
// or constraint buffer) during the run; MuJoCo's warning handler is silenced
// during the run (it would print and append to MUJOCO_LOG.TXT in the working
// directory), the exception carries the warning. MuJoCo's own fatal errors (mju_error:
// out of memory) still end the process: MuJoCo 2.2's default error handler
// calls exit, and a handler that throws would unwind through C frames.
#include <string>
#include <vector>

#include "core/scalar.hpp"

namespace contactref::oracles {

// The state of one body: centre of mass, orientation (body to world), velocity
// of the centre of mass and angular velocity, both in world coordinates.
struct MujocoStart {
  Vec3<double> com_w = Vec3<double>::Zero();
  Mat3<double> R_w_b = Mat3<double>::Identity();
  Vec3<double> velocity_w = Vec3<double>::Zero();
  Vec3<double> omega_w = Vec3<double>::Zero();
};

// One free rigid body: the convex hull of points_b, its mass properties and
// its initial state.
struct MujocoHull {
  std::vector<Vec3<double>> points_b;  // body-frame points (body frame at the centre of mass); MuJoCo's mesh geom takes their convex hull
  double mass = 0;                     // kg
  Mat3<double> inertia_b = Mat3<double>::Zero();  // kg m^2 about the COM, body axes (symmetric positive definite; MJCF fullinertia)
  MujocoStart start;
};

enum class MujocoIntegrator { kRK4, kEuler };

// Bodies on the plane z = 0, one friction for every contact.
struct MujocoScene {
  std::vector<MujocoHull> bodies;
  Vec3<double> gravity_w = Vec3<double>::Zero();  // m/s^2
  double mu = 0, mu_roll = 0, mu_spin = 0;  // sliding (1), rolling and spinning resistance (m); MuJoCo condim 6, friction="mu mu_spin mu_roll"
  MujocoIntegrator integrator = MujocoIntegrator::kRK4;
  double timestep = 1e-3;         // s
  double duration = 0;            // s
  double sample_interval = 0.01;  // s, a whole number of timesteps
};

struct MujocoSceneSample {
  double time = 0;                   // s, MuJoCo's clock (the sum of the timesteps)
  std::vector<MujocoStart> bodies;   // the state of each body, in the scene's order
  double energy = 0;                 // J, kinetic + gravitational of all bodies, potential zero at z = 0 coms: -sum m g.com
};

// One mj_step (see "Per step" in the header comment).
struct MujocoStepRecord {
  int contacts = 0;          // mjData.ncon
  int constraint_rows = 0;   // mjData.nefc
  double seconds = 0;        // wall time of mj_step
};

struct MujocoSceneRun {
  std::vector<MujocoSceneSample> samples;  // at t = 0, sample_interval, 2 sample_interval, ... <= duration
  std::vector<MujocoStepRecord> steps;     // step k advances from t = k h to (k + 1) h
  std::string model_xml;                   // the MJCF that was simulated
  std::string version;                     // mj_version() as text, e.g. "222"
};

// Simulates the scene for scene.duration seconds and samples it every
// scene.sample_interval (the first sample at t = 0, before any step).
// Throws InputError, naming the body where one is at fault, for: no bodies;
// fewer than 4 points, coplanar points (a hull without volume), a non-finite
// value anywhere, mass <= 0, an inertia that is not symmetric positive
// definite or whose principal moments violate the triangle inequality, a start
// R_w_b that is not a rotation; a negative friction coefficient, timestep <= 0,
// duration < 0, a sample interval that is not a positive whole number of
// timesteps, more than 1e7 steps (their records alone would take 160 MB).
// Throws ComputationError as described in the header comment.
MujocoSceneRun run_mujoco_scene(const MujocoScene& scene);

}  // namespace contactref::oracles
