#pragma once
// Time stepping of rigid bodies with 6D volume contacts or point contacts
// (Bouchard et al. Sections 3, 5.7 and 6), one step:
//   1. free motion: v += h (g + F/m), omega += h I_w^-1 (tau - omega x I_w omega)
//      (gravity, the external wrench (tau; F) given by apply_wrench for this
//      step, and the explicit gyroscopic torque);
//   2. detection at the current poses (contact_detection.hpp);
//   3. post-stabilisation (Section 5.7, Cline & Pai, "in the direction of the
//      volume gradient"): each 6D pair whose intersection volume V exceeds the
//      target V_t is pushed apart along its normal at the patch's centre, as an
//      impulse p there would move it (delta_k = +-M_k^-1 J_k^T p n), by the
//      pushes p_j >= 0 that remove the excesses to first order (the
//      separation they add at pair j times its area A_j = -dV/ds equals
//      V_j - V_t where V_j > V_t), found by projected Gauss-Seidel over the
//      pairs (coupled pairs: a stack). Pushing at the patch rather than along
//      the full 6D gradient
//      keeps the gradient's angular part out: like the tangential part it is
//      discontinuous at flush faces (contact_detection.hpp), and it would turn
//      a stacked box by the strips' moments. The joints of this step keep the
//      geometry detected before that small move. The point model is
//      stabilised the same way (its pairs' volumes are computed for this
//      only, with the exact gradient's normal: contact_detection.hpp's
//      smooth_normals), so that both models see the same penetrations;
//      The bilateral joints are stabilised the same way (Cline & Pai's
//      projection of their position error: the anchors' separation, and a
//      hinge's axes' misalignment about u and w, through S of their rows);
//   4. the joints (6D: one per pair at the patch, with the ellipse and the
//      pair's friction; point: one per region corner; then the bilateral
//      joints), each warm-started from the previous step's joint of the same
//      pair (6D), the nearest previous point of the same pair within the touch
//      tolerance (point), or itself (bilateral);
//   5. block PGS (block_pgs.hpp) on the velocities;
//   6. positions: x += h v, q = exp(h omega) q (renormalised).
// Every step advances the clock by h, so a run cannot stall.
// A pair's friction is the larger of its bodies' coefficients (as MuJoCo's
// default combination).
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "reference/volume_contact/block_pgs.hpp"
#include "reference/volume_contact/contact_detection.hpp"
#include "reference/volume_contact/rigid_body.hpp"

namespace contactref::volume_contact {

enum class ContactModel { kVolume6d, kPointContact };
const char* to_string(ContactModel model);

struct WorldOptions {
  ContactModel model = ContactModel::kVolume6d;
  double time_step = 0.01;                                // s
  Eigen::Vector3d gravity = Eigen::Vector3d(0, 0, -9.81);  // m/s^2
  double target_volume = 0;         // m^3: the interpenetration post-stabilisation keeps (Section 5.7's e)
  double touch_tolerance = 1e-3;    // m: the point model's contact distance
  double linear_compliance = 0;     // m/N: a force F gives a displacement F c (Section 5.7)
  double angular_compliance = 0;    // rad/(N m)
  bool warm_start = true;
  // Between meshes with near-parallel faces, the 6D normal from central
  // differences of the volume (contact_detection.hpp's departure); false: the
  // exact gradient's, as Section 4.1.
  bool normal_differences = true;
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
  // gravity; a joint that is not bilateral, names bodies out of range or one
  // body twice, or has a non-finite anchor or a zero axis; a drive that is
  // not a hinge's, or has negative or non-finite gains or angle.
  VolumeWorld(std::vector<RigidBody> bodies, const WorldOptions& options, std::vector<BilateralJoint> joints = {});
  // Adds a wrench (torque N m, about the centre of mass; force N), world axes,
  // acting on a free body during the next step only (a controller calls it
  // before each step). InputError: a body out of range, a non-finite wrench.
  void apply_wrench(int body, const Vector6d& torque_force_w);
  // ComputationError from the geometry or a non-finite state (naming the
  // body); the world is then left as it was before the step.
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
