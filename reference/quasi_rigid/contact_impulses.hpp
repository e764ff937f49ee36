#pragma once
// The impulses of one kick of a contact step between two quasi-rigid bodies
// (Pauly et al. Section 5: "compute the forces acting on the contact surface
// and update the total wrenches"; Section 5.1: friction), from a contact that
// resolve_contact solved at the bodies' present poses (the simulator kicks
// at a step's start and end, quasi_rigid_dynamics.hpp).
//
// Normal: each side's loaded samples carry f_i = p_i a_i along its normal,
// at the deformed sample x_i = q_i - u_i n_i (point_contact.hpp). The split
// scheme gives each body its own tractions, whose sums differ slightly
// (Newton's third law is not imposed by it); here each sample of either side
// carries half of its force, applied to both bodies, equal and opposite at
// the same point, so that the contact conserves the total linear and angular
// momentum. Beside a rigid body there is one LCP, and the samples of the
// side that solved it carry their whole force (the other side's tractions
// are interpolated from them: point_contact.hpp). nu_i is the direction of the force on A (-n_i on A's samples,
// +n_i on B's).
// Damping (none by default: the paper has none): Hunt and Crossley's
// f_i (1 - d (v_rel . nu_i)), clipped at 0, with v_rel the velocity of the
// material point of A minus that of B at x_i and d (s/m) the scene's
// "damping": more push while the bodies approach, less while they separate.
// v_rel is read before the impulses, or after their elastic part (f_i dt
// nu_i): the simulator's kick at a step's start reads the start velocities,
// its kick at the step's end the end velocities but for the damping's own
// share (quasi_rigid_dynamics.hpp), so that a body at rest feels no damping.
//
// Friction (Section 5.1, the dynamic Coulomb model of [Bar91]): at each
// loaded sample the tangential impulse -mu f_i dt t_i, t_i the unit direction
// of the relative slip (v_rel minus its nu_i part, after the normal
// impulses), on A, and its opposite on B. Where the slip is small, the full
// impulses would reverse it within the step: all of them are scaled by one
// factor s = min(1, -a / b), where the kinetic energy of the two bodies along
// the impulses is K(s) = K + s a + s^2 b / 2 (a = sum_i J_i . v_rel,i <= 0,
// b >= 0 the kinetic energy of the unscaled impulses, times two); s = -a / b
// is its minimum, where the (mean) slip stops: beyond it friction would
// reverse the slip. So friction's work K(s) - K is <= 0 in every step.
#include <Eigen/Core>
#include <vector>

#include "reference/quasi_rigid/point_contact.hpp"
#include "reference/quasi_rigid/rigid_motion.hpp"

namespace contactref::quasi_rigid {

// A body in a contact: its surface, its mass properties (nullptr: fixed)
// and its state (moved by the impulses when free).
struct ContactParty {
  const QuasiRigidBody* body = nullptr;
  const MassProperties* mass = nullptr;
  BodyState* state = nullptr;
};

// A sample of either side that carries traction (p_i > 0): where it pushes,
// x_i = q_i - u_i n_i in the world, its outward unit normal n_i (world), p_i
// (Pa), its area a_i (m^2), and the share of f_i = p_i a_i that pushes
// (above: 1/2, or beside a rigid body 1 on the side that solved and 0 on
// the other). The impulses are built from these.
struct LoadedSample {
  int side = 0;    // 0: A's sample, 1: B's
  int sample = 0;  // its index in its body's samples
  Eigen::Vector3d x_w, n_w;
  double traction = 0, area = 0, share = 0;
};

struct ContactImpulses {
  double normal_work = 0;    // J: the kinetic energy the normal impulses added (elastic and damping)
  double friction_work = 0;  // J: that friction added (<= 0 but for round-off)
  double friction_scale = 1; // s above (1: no sample's slip stopped)
  double load = 0;           // N: sum of f_i over both sides' halves, damping included
  int loaded = 0;            // samples with p_i > 0 that push (both sides, or the deformable one)
  Eigen::Vector3d normal_impulse_w = Eigen::Vector3d::Zero();    // N s: on A (B takes the opposite)
  Eigen::Vector3d friction_impulse_w = Eigen::Vector3d::Zero();  // N s: on A, scaled (B takes the opposite)
  std::vector<LoadedSample> samples;  // the samples the impulses were built from (loaded_samples)
};

// Both sides' loaded samples of `contact`, A's first, at the parties' poses.
std::vector<LoadedSample> loaded_samples(const QuasiRigidContact& contact, const BodyState& a, const QuasiRigidBody& body_a,
                                         const BodyState& b, const QuasiRigidBody& body_b);

// N, world: the normal force on A that the impulses push with, undamped
// (the sides' shares above).
Eigen::Vector3d normal_force_on_a(const QuasiRigidContact& contact);

// Where the damping reads v_rel (above).
enum class DampingRate { kBefore, kAfterElastic };

// Applies the impulses over dt (s) to the free parties' states. mu >= 0,
// damping >= 0 (s/m).
ContactImpulses apply_contact_impulses(const QuasiRigidContact& contact, const ContactParty& a, const ContactParty& b,
                                       double mu, double damping, double dt,
                                       DampingRate rate = DampingRate::kBefore);

}  // namespace contactref::quasi_rigid
