#pragma once
// Time stepping of rigid bodies with 6D volume contacts or point contacts
// (Bouchard et al. Sections 3, 5.7 and 6), one step:
//   1. free motion: v += h (g + F/m), omega += h I_w^-1 (tau - omega x I_w omega)
//      (gravity, the external wrench (tau; F) given by apply_wrench for this
//      step, and the explicit gyroscopic torque);
//   2. detection at the current poses (contact_detection.hpp);
//   3. post-stabilisation (Section 5.7, Cline & Pai): each pair whose
//      intersection volume V exceeds its target V_t is pushed apart by the
//      pushes p_j >= 0 that bring every volume to its target to first order
//      (coupled pairs, a stack: projected Gauss-Seidel over the pairs), then
//      applied to the bodies at once. The direction (WorldOptions::
//      stabilisation):
//        - kVolumeGradient, the paper's ("in the direction of the volume
//          gradient"): Cline & Pai's projection with the constraint
//          V - V_t and its Jacobian the full gradient g = dV/d(twist of b
//          relative to a) (contact_detection.hpp's gradient_a): the least
//          mass-weighted displacement that removes the excess to first order,
//          delta_k = +-M_k^-1 J_k^T g p, V linearised as V + g . xi;
//        - kPatchNormal, this code's departure: along the normal at the
//          patch's centre, as an impulse p there would move the bodies
//          (delta_k = +-M_k^-1 J_k^T p n), V linearised as V - A s (s the
//          separation the pushes add at the centre, A = -dV/ds). The
//          gradient's angular part (and, without the differences of
//          contact_detection.hpp, its tangential part) is discontinuous at
//          flush faces: in a stack of cubes of one footprint 1 mm into each
//          other, the upper ones turned by 1e-13 rad, the side faces' 1 mm
//          strips inside the cubes below add their moments, and the paper's
//          push turns the cubes by 2e-3 rad in the first step; the push at
//          the patch has no angular part of its own and leaves the stack
//          upright (volume_world_test). On a flat face the two agree (the
//          gradient is the normal push at the face's centre). It is the
//          default.
//      The target (WorldOptions::target_volume): given, one volume for every
//      pair (the paper's e); unset, each pair's own A_j d_t with the depth
//      d_t = kTargetDepthRatio times the smaller bounding radius of its
//      bodies, so that a resting contact keeps a thin sheet of that depth.
//      With V_t = 0 a resting contact is pushed out to zero volume, where the
//      next step's detection finds no contact (the 6D model needs an
//      intersection with volume): it falls freely for a step (g h^2 deep),
//      is pushed out again, and the contact flickers every other step; a
//      round-off tilt then leaves an edge or a corner inside for a step,
//      whose patch tips the box (a cube dropped on the floor still rocked at
//      0.96 rad/s after 10 s, a box on a 25 degree incline with mu 0.6 crept
//      1.4 cm in 1 s). Any V_t > 0 that the steps hold makes the contact
//      persist. The joints of this step keep the geometry detected before
//      that small move. The point model is stabilised the same way (its
//      pairs' volumes are computed for this only, with the exact gradient's
//      normal: contact_detection.hpp's smooth_normals), so that both models
//      see the same penetrations. The bilateral joints are stabilised the
//      same way (Cline & Pai's projection of their position error: the
//      anchors' separation, and a hinge's axes' misalignment about u and w,
//      through S of their rows);
//   4. the joints (6D: one per pair at the patch, with the ellipse and the
//      pair's friction; point: one per region corner, whose normal row holds
//      v_n >= -gap/h (gap >= 0 the corner's distance to the other body: the
//      body may close the gap within the step, so that it comes to rest on
//      the surface rather than where the touch tolerance first saw it);
//      then the bilateral joints), each warm-started from the previous
//      step's joint of the same pair (6D), the nearest previous point of the
//      same pair within the touch tolerance (point), or itself (bilateral);
//   5. block PGS (block_pgs.hpp) on the velocities;
//   6. positions: x += h v, q = exp(h omega) q (renormalised).
// Every step advances the clock by h, so a run cannot stall.
// A pair's friction is the larger of its bodies' coefficients (as MuJoCo's
// default combination).
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <optional>
#include <vector>

#include "reference/volume_contact/block_pgs.hpp"
#include "reference/volume_contact/contact_detection.hpp"
#include "reference/volume_contact/rigid_body.hpp"

namespace contactref::volume_contact {

enum class ContactModel { kVolume6d, kPointContact };
const char* to_string(ContactModel model);

// Post-stabilisation's direction (above, step 3).
enum class StabilisationDirection { kPatchNormal, kVolumeGradient };
const char* to_string(StabilisationDirection direction);

// The default target depth over a body's size (above, step 3): numerically
// significant (1e10 times the rounding of the coordinates, 2.2e-16 of the
// size: the sheet's volume keeps ten digits, and PGS's velocity residual
// moves a resting contact by far less over the 10^7-step limit) and
// physically insignificant (a micrometre on a metre; the patch stays a thin
// sheet, contact_patch.hpp's ratio 0.1, whose ellipse is the face's).
inline constexpr double kTargetDepthRatio = 1e-6;

struct WorldOptions {
  ContactModel model = ContactModel::kVolume6d;
  double time_step = 0.01;                                // s
  Eigen::Vector3d gravity = Eigen::Vector3d(0, 0, -9.81);  // m/s^2
  // m^3: the interpenetration post-stabilisation keeps (Section 5.7's e);
  // unset: each pair's own (above).
  std::optional<double> target_volume;
  StabilisationDirection stabilisation = StabilisationDirection::kPatchNormal;
  double touch_tolerance = 1e-3;    // m: the point model's contact distance
  double linear_compliance = 0;     // m/N: a force F gives a displacement F c (Section 5.7)
  double angular_compliance = 0;    // rad/(N m)
  bool warm_start = true;
  // Between meshes with near-parallel faces, the 6D normal from central
  // differences of the volume (contact_detection.hpp's departure); false: the
  // exact gradient's, as Section 4.1.
  bool normal_differences = true;
  // Every pair of meshes by the exact corefinement (contact_detection.hpp's
  // DetectionOptions::exact_moments): the referee of the convex clipping.
  bool exact_moments = false;
  PgsOptions pgs;      // with the solver's departures (joint elimination, the spin re-solve)
  PatchOptions patch;  // with the patch region (the paper's ellipse, or the support region)
};

// Wall-clock seconds per phase of the last step (Table 1's columns; the 6D
// joints' 6x6 factorisations happen inside the projection, so they count as
// solve).
struct StepTimes {
  double detection = 0, stabilisation = 0, assembly = 0, solve = 0;
};

struct StepReport {
  double time = 0;          // s, at the end of the step
  int contacts = 0;         // joints (6D pairs or points)
  int constraints = 0;      // scalar rows: 6 per 6D joint, 3 per point
  PgsResult pgs;
  StepTimes times;
  double max_volume = 0;    // m^3: the largest pair volume detected (6D or stabilisation)
  std::vector<PgsJoint> joints;  // as solved (impulses, states)
  std::vector<VolumeContact> volume_contacts;  // 6D: the patches the joints use
};

// A hinge's drive (Section 6.1.6's fingers: "a simple proportional
// derivative control"): the torque stiffness (angle - theta) - damping
// theta_dot about the hinge's axis on b, and its opposite on a, with theta
// the turn of b relative to a about the axis since the world was built
// (VolumeWorld::hinge_angle) and theta_dot its rate. It is evaluated at the
// start of each step and acts through it like apply_wrench's (explicit:
// stable while h^2 stiffness and h damping stay well below the inertia
// about the axis). Zero gains: no drive.
struct HingeDrive {
  double stiffness = 0;  // N m/rad
  double damping = 0;    // N m s/rad
  double angle = 0;      // rad: the target, in (-pi, pi]
  bool driven() const { return stiffness != 0 || damping != 0; }
};

// A bilateral joint between bodies a and b (Section 3's "rotary joints and
// spherical joints"): the anchor points and, for a hinge, its axis, fixed in
// each body's frame (they should coincide in the world; post-stabilisation
// keeps them together).
struct BilateralJoint {
  JointKind kind = JointKind::kSpherical;  // kSpherical or kHinge
  int a = -1, b = -1;
  Eigen::Vector3d anchor_a = Eigen::Vector3d::Zero(), anchor_b = Eigen::Vector3d::Zero();  // m, body frames
  Eigen::Vector3d axis_a = Eigen::Vector3d::UnitZ(), axis_b = Eigen::Vector3d::UnitZ();    // unit, body frames
  HingeDrive drive;  // hinges only
};

class VolumeWorld {
 public:
  // InputError: a bad body (check_body), time_step not finite and > 0, a
  // negative or non-finite target volume, tolerance or compliance, non-finite
  // gravity; for the point model, a touch tolerance not below half the
  // shortest edge of a body (robust_geometry's check_touch_tolerance: the
  // contact regions are undefined then); a joint that is not bilateral, names bodies out of range or one
  // body twice, or has a non-finite anchor or a zero axis; a drive that is
  // not a hinge's, or has negative or non-finite gains or angle.
  VolumeWorld(std::vector<RigidBody> bodies, const WorldOptions& options, std::vector<BilateralJoint> joints = {});
  // Adds a wrench (torque N m, about the centre of mass; force N), world axes,
  // acting on a free body during the next step only (a controller calls it
  // before each step). InputError: a body out of range, a non-finite wrench.
  void apply_wrench(int body, const Vector6d& torque_force_w);
  // ComputationError from the geometry or a non-finite state (naming the
  // body and the quantity: position, velocity, angular velocity); the world
  // is then left as it was before the step.
  StepReport step();
  // A hinge's turn theta (rad, in (-pi, pi]): b's rotation relative to a
  // about a's axis since the world was built. InputError: not a hinge.
  double hinge_angle(int joint) const;
  const std::vector<RigidBody>& bodies() const { return bodies_; }
  double time() const { return time_; }
  const WorldOptions& options() const { return options_; }

 private:
  StepReport advance();  // step() without the rollback
  std::vector<RigidBody> bodies_;
  WorldOptions options_;
  double time_ = 0;
  std::vector<BilateralJoint> bilateral_;
  std::vector<Eigen::Quaterniond> rest_a_b_;  // per joint: b's orientation in a's frame when built
  std::vector<Vector6d> external_;  // per body: (torque; force) for the next step
  std::vector<PgsJoint> previous_;
  BrepIndexCache indices_;
};

}  // namespace contactref::volume_contact
