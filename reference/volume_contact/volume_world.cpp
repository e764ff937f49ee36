#include "reference/volume_contact/volume_world.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <sstream>
#include <utility>

#include "core/errors.hpp"
#include "reference/spatial/adjoint.hpp"
#include "robust_geometry/contact_regions.hpp"

namespace contactref::volume_contact {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A body's small rigid displacement: its centre by dx, its axes by the rotation vector dtheta (world).
void displace(RigidBody& body, const Eigen::Vector3d& dtheta, const Eigen::Vector3d& dx) {
  body.x_w += dx;
  const double angle = dtheta.norm();
  if (angle > 0) body.q_w_b = (Eigen::Quaterniond(Eigen::AngleAxisd(angle, dtheta / angle)) * body.q_w_b).normalized();
}

// Section 5.7: the pairs' pushes p_j >= 0 that bring every volume to its
// target to first order, by projected Gauss-Seidel on the linearised volumes
// V_j + r_j . xi_j (xi_j the relative twist J_b delta_b - J_a delta_a of the
// bodies' displacements at the pair's frame, r_j the volume's rate per unit
// of it), each push moving the bodies as an impulse p w_j at that frame
// would (delta_k = +-M_k^-1 J_k^T w_j p), then applied to the bodies at once.
// Along the patch normal: the contact frame, r_j = -A_j e_n, w_j = e_n; along
// the gradient: a's frame at its centre of mass (the gradient's own),
// r_j = g_j and w_j = -g_j (Cline & Pai: the constraint's Jacobian). One
// pass would leave coupled pairs (a stack) far from the target: pushing one
// pair apart pushes its neighbours together.
void stabilise(std::vector<RigidBody>& bodies, const std::vector<VolumeContact>& contacts,
               const WorldOptions& options) {
  struct Pair {
    Matrix6d J_a, J_b;
    Vector6d rate;                // r_j
    Vector6d da, db;              // the bodies' displacements per unit push
    double volume_per_push = 0;   // r_j . (J_b db - J_a da): negative where a push separates the pair
    double target = 0, push = 0;  // m^3; the push so far
  };
  const bool gradient = options.stabilisation == StabilisationDirection::kVolumeGradient;
  std::vector<Pair> pairs;
  for (const VolumeContact& c : contacts) {
    const RigidBody& a = bodies[std::size_t(c.a)];
    const RigidBody& b = bodies[std::size_t(c.b)];
    const Eigen::Matrix3d R_w_f = gradient ? a.R_w_b() : c.R_w_c;
    const Eigen::Vector3d x_w_f = gradient ? a.x_w : c.x_w_c;
    Pair p;
    p.J_a = frame_jacobian(R_w_f, x_w_f, a.x_w);
    p.J_b = frame_jacobian(R_w_f, x_w_f, b.x_w);
    p.rate = gradient ? c.gradient_a : Vector6d(-c.normal_area * Vector6d::Unit(5));
    const Vector6d push_wrench = gradient ? Vector6d(-c.gradient_a) : Vector6d::Unit(5);
    p.db = b.inverse_mass().apply(p.J_b.transpose() * push_wrench);
    p.da = -a.inverse_mass().apply(p.J_a.transpose() * push_wrench);
    p.volume_per_push = p.rate.dot(p.J_b * p.db - p.J_a * p.da);
    p.target = options.target_volume ? *options.target_volume
                                     : c.normal_area * kTargetDepthRatio *
                                           std::min(a.shape->bounding_radius, b.shape->bounding_radius);
    pairs.push_back(p);
  }
  std::vector<Vector6d> moved(bodies.size(), Vector6d::Zero());  // (rotation vector; translation), linearised
  const int kMaxSweeps = 200;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double largest_change = 0;  // relative to the pair's volume
    for (std::size_t j = 0; j < pairs.size(); ++j) {
      const VolumeContact& c = contacts[j];
      Pair& p = pairs[j];
      if (!(p.volume_per_push < 0)) continue;
      const Vector6d xi = p.J_b * moved[std::size_t(c.b)] - p.J_a * moved[std::size_t(c.a)];
      const double excess = c.volume + p.rate.dot(xi) - p.target;
      const double push = std::max(0.0, p.push - excess / p.volume_per_push);
      const double change = push - p.push;
      p.push = push;
      moved[std::size_t(c.a)] += change * p.da;
      moved[std::size_t(c.b)] += change * p.db;
      largest_change = std::max(largest_change, std::abs(change * p.volume_per_push) / c.volume);
    }
    if (largest_change < 1e-9) break;  // the volumes' linearised excesses settled to 1e-9 of themselves
  }
  for (std::size_t k = 0; k < bodies.size(); ++k) displace(bodies[k], moved[k].head<3>(), moved[k].tail<3>());
}

// A bilateral joint's frame in the world: at the midpoint of its anchors,
// with n along a's axis (a hinge's), and its position error in that frame:
// (the rotation vector a x b of the misaligned axes; the anchors' separation).
struct BilateralFrame {
  Eigen::Matrix3d R_w_c;
  Eigen::Vector3d x_w_c;
  Vector6d error_c;
};

BilateralFrame bilateral_frame(const std::vector<RigidBody>& bodies, const BilateralJoint& joint) {
  const RigidBody& A = bodies[std::size_t(joint.a)];
  const RigidBody& B = bodies[std::size_t(joint.b)];
  const Eigen::Vector3d p_a = A.x_w + A.R_w_b() * joint.anchor_a, p_b = B.x_w + B.R_w_b() * joint.anchor_b;
  const Eigen::Vector3d n_a = A.R_w_b() * joint.axis_a.normalized(), n_b = B.R_w_b() * joint.axis_b.normalized();
  BilateralFrame f;
  f.R_w_c = frame_about_normal(n_a);
  f.x_w_c = (p_a + p_b) / 2;
  f.error_c << f.R_w_c.transpose() * n_a.cross(n_b), f.R_w_c.transpose() * (p_b - p_a);
  return f;
}

// Cline & Pai's projection of the bilateral joints' position errors: the
// least mass-weighted displacement that removes each joint's error in its
// rows to first order (one Gauss-Seidel pass).
void stabilise_joints(std::vector<RigidBody>& bodies, const std::vector<BilateralJoint>& joints) {
  for (const BilateralJoint& joint : joints) {
    const BilateralFrame f = bilateral_frame(bodies, joint);
    RigidBody& A = bodies[std::size_t(joint.a)];
    RigidBody& B = bodies[std::size_t(joint.b)];
    const Matrix6d J_a = frame_jacobian(f.R_w_c, f.x_w_c, A.x_w), J_b = frame_jacobian(f.R_w_c, f.x_w_c, B.x_w);
    const InverseMass Ma = A.inverse_mass(), Mb = B.inverse_mass();
    const std::vector<int> rows = bilateral_rows(joint.kind);
    const Matrix6d S = schur_complement(J_a, Ma, J_b, Mb);
    Vector6d correction = Vector6d::Zero();
    const Eigen::VectorXd error_rows = f.error_c(rows);
    const Eigen::VectorXd solved = Eigen::MatrixXd(S(rows, rows)).llt().solve(-error_rows);
    correction(rows) = solved;
    const Vector6d db = Mb.apply(J_b.transpose() * correction), da = -Ma.apply(J_a.transpose() * correction);
    displace(A, da.head<3>(), da.tail<3>());
    displace(B, db.head<3>(), db.tail<3>());
  }
}

// A wrench (torque; force) given at frame 1 expressed at frame 2 (both world
// poses): Ad_2_1^-T with E_2_1 = E_w_2^-1 E_w_1 (Eq. 7 with the change of axes).
Vector6d move_wrench(const Vector6d& wrench_1, const Eigen::Matrix3d& R_w_1, const Eigen::Vector3d& x_1,
                     const Eigen::Matrix3d& R_w_2, const Eigen::Vector3d& x_2) {
  const Eigen::Matrix4d E_2_1 = spatial::pose_inverse<double>(spatial::make_pose<double>(R_w_2, x_2)) *
                                spatial::make_pose<double>(R_w_1, x_1);
  return spatial::transform_wrench<double>(E_2_1, wrench_1);
}

void check_options(const WorldOptions& o) {
  const auto finite_nonnegative = [](double x) { return std::isfinite(x) && x >= 0; };
  if (!(std::isfinite(o.time_step) && o.time_step > 0) || !o.gravity.allFinite() ||
      (o.target_volume && !finite_nonnegative(*o.target_volume)) || !finite_nonnegative(o.touch_tolerance) ||
      !finite_nonnegative(o.linear_compliance) || !finite_nonnegative(o.angular_compliance)) {
    std::ostringstream os;
    os << "volume-contact world: need time_step > 0, finite gravity, and finite target_volume, touch_tolerance "
          "and compliances >= 0; got time_step = "
       << o.time_step << " s, target_volume = ";
    if (o.target_volume)
      os << *o.target_volume << " m^3";
    else
      os << "unset";
    os << ", touch_tolerance = " << o.touch_tolerance
       << " m, compliances = " << o.linear_compliance << " m/N, " << o.angular_compliance << " rad/(N m)";
    throw InputError(os.str());
  }
}

}  // namespace

const char* to_string(ContactModel model) {
  return model == ContactModel::kVolume6d ? "volume-6d" : "point-contact";
}

const char* to_string(StabilisationDirection direction) {
  return direction == StabilisationDirection::kPatchNormal ? "patch-normal" : "volume-gradient";
}

VolumeWorld::VolumeWorld(std::vector<RigidBody> bodies, const WorldOptions& options,
                         std::vector<BilateralJoint> joints)
    : bodies_(std::move(bodies)),
      options_(options),
      bilateral_(std::move(joints)),
      external_(bodies_.size(), Vector6d::Zero()) {
  check_options(options_);
  for (const RigidBody& body : bodies_) {
    check_body(body);
    if (options_.model == ContactModel::kPointContact)  // what the contact regions need of it, up front
      robust_geometry::check_touch_tolerance(options_.touch_tolerance, body.shape->polyhedron, body.shape->polyhedron,
                                             "volume-contact world: touch_tolerance");
  }
  const int n = int(bodies_.size());
  for (std::size_t k = 0; k < bilateral_.size(); ++k) {
    const BilateralJoint& j = bilateral_[k];
    if ((j.kind != JointKind::kSpherical && j.kind != JointKind::kHinge) || j.a < 0 || j.a >= n || j.b < 0 ||
        j.b >= n || j.a == j.b || !j.anchor_a.allFinite() || !j.anchor_b.allFinite() || !j.axis_a.allFinite() ||
        !j.axis_b.allFinite() || j.axis_a.norm() == 0 || j.axis_b.norm() == 0)
      throw InputError("volume-contact world: joint " + std::to_string(k) +
                       " must be spherical or a hinge between two different bodies, with finite anchors and "
                       "non-zero axes");
    const HingeDrive& d = j.drive;
    if (!(std::isfinite(d.stiffness) && d.stiffness >= 0 && std::isfinite(d.damping) && d.damping >= 0 &&
          std::abs(d.angle) <= std::numbers::pi) ||
        (d.driven() && j.kind != JointKind::kHinge)) {
      std::ostringstream os;
      os << "volume-contact world: joint " << k << "'s drive needs a hinge, finite gains >= 0 and an angle in "
         << "[-pi, pi]; got a " << (j.kind == JointKind::kHinge ? "hinge" : "spherical joint") << ", stiffness "
         << d.stiffness << " N m/rad, damping " << d.damping << " N m s/rad, angle " << d.angle << " rad";
      throw InputError(os.str());
    }
    rest_a_b_.push_back(bodies_[std::size_t(j.a)].q_w_b.conjugate() * bodies_[std::size_t(j.b)].q_w_b);
  }
}

double VolumeWorld::hinge_angle(int joint) const {
  if (joint < 0 || joint >= int(bilateral_.size()) || bilateral_[std::size_t(joint)].kind != JointKind::kHinge)
    throw InputError("volume-contact world: hinge_angle needs the index of a hinge joint, got " +
                     std::to_string(joint));
  const BilateralJoint& j = bilateral_[std::size_t(joint)];
  const Eigen::Quaterniond q_a_b =
      bodies_[std::size_t(j.a)].q_w_b.conjugate() * bodies_[std::size_t(j.b)].q_w_b;
  const Eigen::Quaterniond turn_a = q_a_b * rest_a_b_[std::size_t(joint)].conjugate();  // in a's axes
  const double angle = 2 * std::atan2(turn_a.vec().dot(j.axis_a.normalized()), turn_a.w());
  return std::remainder(angle, 2 * std::numbers::pi);  // the quaternion's double cover: (-2 pi, 2 pi] to (-pi, pi]
}

void VolumeWorld::apply_wrench(int body, const Vector6d& torque_force_w) {
  if (body < 0 || body >= int(bodies_.size()) || !torque_force_w.allFinite())
    throw InputError("volume-contact world: apply_wrench needs a body index in range and a finite wrench");
  external_[std::size_t(body)] += torque_force_w;
}

StepReport VolumeWorld::step() {
  // All or nothing: a step that throws (the geometry's errors) leaves the
  // world as it was (with the external wrenches given for it, without the
  // drives' that advance adds to them).
  const std::vector<RigidBody> saved = bodies_;
  const std::vector<Vector6d> saved_external = external_;
  try {
    return advance();
  } catch (...) {
    bodies_ = saved;
    external_ = saved_external;
    throw;
  }
}

StepReport VolumeWorld::advance() {
  const double h = options_.time_step;
  const bool six_d = options_.model == ContactModel::kVolume6d;
  StepReport report;
  for (std::size_t k = 0; k < bilateral_.size(); ++k) {  // the hinges' drives join the external wrenches
    const BilateralJoint& j = bilateral_[k];
    if (!j.drive.driven()) continue;
    const Eigen::Vector3d axis_w = bodies_[std::size_t(j.a)].R_w_b() * j.axis_a.normalized();
    const double rate = (bodies_[std::size_t(j.b)].omega_w - bodies_[std::size_t(j.a)].omega_w).dot(axis_w);
    const double torque =
        j.drive.stiffness * std::remainder(j.drive.angle - hinge_angle(int(k)), 2 * std::numbers::pi) -
        j.drive.damping * rate;
    external_[std::size_t(j.b)].head<3>() += torque * axis_w;
    external_[std::size_t(j.a)].head<3>() -= torque * axis_w;
  }
  for (std::size_t k = 0; k < bodies_.size(); ++k) {  // 1. free motion
    RigidBody& body = bodies_[k];
    if (body.fixed()) continue;
    const Vector6d& wrench = external_[k];
    body.v_w += h * (options_.gravity + wrench.tail<3>() / body.mass);
    const Eigen::Matrix3d I_w = body.inertia_w();
    body.omega_w += h * I_w.ldlt().solve(wrench.head<3>() - body.omega_w.cross(I_w * body.omega_w));
  }

  Clock::time_point start = Clock::now();  // 2. detection, 3. stabilisation
  std::vector<VolumeContact> volumes =
      detect_volume_contacts(bodies_, {options_.patch, six_d && options_.normal_differences, options_.exact_moments});
  (six_d ? report.times.detection : report.times.stabilisation) = seconds_since(start);
  for (const VolumeContact& c : volumes) report.max_volume = std::max(report.max_volume, c.volume);
  std::vector<PointContact> points;
  if (!six_d) {
    start = Clock::now();
    points = detect_point_contacts(bodies_, indices_, options_.touch_tolerance);
    report.times.detection = seconds_since(start);
  }
  start = Clock::now();
  stabilise(bodies_, volumes, options_);
  stabilise_joints(bodies_, bilateral_);
  report.times.stabilisation += seconds_since(start);

  start = Clock::now();  // 4. joints
  std::vector<PgsJoint> joints;
  const auto add_joint = [&](JointKind kind, int a, int b, const Eigen::Matrix3d& R_w_c, const Eigen::Vector3d& x_w_c) {
    const RigidBody& A = bodies_[std::size_t(a)];
    const RigidBody& B = bodies_[std::size_t(b)];
    PgsJoint j;
    j.kind = kind;
    j.a = a;
    j.b = b;
    j.R_w_c = R_w_c;
    j.x_w_c = x_w_c;
    j.x_b = B.R_w_b().transpose() * (x_w_c - B.x_w);
    j.J_a = frame_jacobian(R_w_c, x_w_c, A.x_w);
    j.J_b = frame_jacobian(R_w_c, x_w_c, B.x_w);
    j.S = schur_complement(j.J_a, A.inverse_mass(), j.J_b, B.inverse_mass());
    if (kind == JointKind::kVolume6d)  // Section 5.7's compliance of the contacts; impulse c / h^2 is a velocity
      j.compliance << Eigen::Vector3d::Constant(options_.angular_compliance / (h * h)),
          Eigen::Vector3d::Constant(options_.linear_compliance / (h * h));
    j.mu = std::max(A.friction, B.friction);
    joints.push_back(j);
    return &joints.back();
  };
  if (six_d)
    for (const VolumeContact& c : volumes) {
      PgsJoint* joint = add_joint(JointKind::kVolume6d, c.a, c.b, c.R_w_c, c.x_w_c);
      joint->semi_axes = c.patch.ellipse_semi_axes;
      if (!c.patch.support.empty()) joint->support = std::make_shared<const SupportRegion>(c.patch.support);
    }
  else
    for (const PointContact& p : points) add_joint(JointKind::kPoint, p.a, p.b, p.R_w_c, p.x_w_c)->approach_speed =
        p.gap / h;
  const std::size_t contact_count = joints.size();
  for (const BilateralJoint& b : bilateral_) {
    const BilateralFrame f = bilateral_frame(bodies_, b);
    add_joint(b.kind, b.a, b.b, f.R_w_c, f.x_w_c);
  }
  const std::size_t previous_contacts = previous_.empty() ? 0 : previous_.size() - bilateral_.size();
  if (options_.warm_start)
    for (std::size_t k = 0; k < joints.size(); ++k) {
      PgsJoint& j = joints[k];
      const PgsJoint* match = nullptr;
      if (k >= contact_count) {  // a bilateral joint: itself, last step
        if (!previous_.empty()) match = &previous_[previous_contacts + (k - contact_count)];
      }
      double nearest = options_.touch_tolerance;
      for (std::size_t m = 0; k < contact_count && m < previous_contacts; ++m) {
        const PgsJoint& old = previous_[m];
        if (old.a != j.a || old.b != j.b || old.kind != j.kind) continue;
        const double distance = j.kind == JointKind::kVolume6d ? 0 : (old.x_b - j.x_b).norm();
        if (distance <= nearest) {
          match = &old;
          nearest = distance;
        }
      }
      if (match) {
        j.impulse = move_wrench(match->impulse, match->R_w_c, match->x_w_c, j.R_w_c, j.x_w_c);
        if (j.kind == JointKind::kPoint) j.impulse.head<3>().setZero();
      }
    }
  std::vector<Vector6d> velocities;
  std::vector<InverseMass> inverse_masses;
  for (const RigidBody& body : bodies_) {
    velocities.push_back(body.velocity());
    inverse_masses.push_back(body.inverse_mass());
  }
  report.times.assembly = seconds_since(start);

  start = Clock::now();  // 5. block PGS
  report.pgs = solve_block_pgs(joints, velocities, inverse_masses, options_.pgs);
  report.times.solve = seconds_since(start);

  for (std::size_t k = 0; k < bodies_.size(); ++k) {  // 6. positions
    RigidBody& body = bodies_[k];
    if (body.fixed()) continue;
    body.omega_w = velocities[k].head<3>();
    body.v_w = velocities[k].tail<3>();
    displace(body, h * body.omega_w, h * body.v_w);
    for (const auto& [finite, quantity] : {std::pair{body.x_w.allFinite(), "position"},
                                           std::pair{body.v_w.allFinite(), "velocity"},
                                           std::pair{body.omega_w.allFinite(), "angular velocity"}})
      if (!finite) {
        std::ostringstream os;  // 6 significant digits: a time of 1e300 s is not 301 digits
        os << "volume-contact world: body \"" << body.name << "\": its " << quantity << " is not finite at t = "
           << time_ + h << " s (it overflows)";
        throw ComputationError(os.str());
      }
  }
  time_ += h;
  std::fill(external_.begin(), external_.end(), Vector6d::Zero());  // they acted on this step
  report.time = time_;
  report.contacts = int(contact_count);
  report.constraints = six_d ? 6 * report.contacts : 3 * report.contacts;
  for (const BilateralJoint& b : bilateral_) report.constraints += int(bilateral_rows(b.kind).size());
  previous_ = joints;
  report.joints = std::move(joints);
  if (six_d) report.volume_contacts = std::move(volumes);
  return report;
}

}  // namespace contactref::volume_contact
