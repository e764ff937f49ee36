#include "reference/volume_contact/volume_world.hpp"

#include <Eigen/Cholesky>
#include <chrono>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"

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

// Section 5.7: one Gauss-Seidel pass of the volume projection over the pairs.
void stabilise(std::vector<RigidBody>& bodies, const std::vector<VolumeContact>& contacts, double target) {
  for (const VolumeContact& c : contacts) {
    if (c.volume <= target) continue;
    RigidBody& a = bodies[std::size_t(c.a)];
    RigidBody& b = bodies[std::size_t(c.b)];
    const InverseMass Ma = a.inverse_mass(), Mb = b.inverse_mass();
    const Vector6d da = Ma.apply(c.gradient_a), db = Mb.apply(c.gradient_b);
    const double stiffness = c.gradient_a.dot(da) + c.gradient_b.dot(db);
    if (!(stiffness > 0)) continue;  // the volume does not change to first order (no normal)
    const double s = -(c.volume - target) / stiffness;
    displace(a, s * da.head<3>(), s * da.tail<3>());
    displace(b, s * db.head<3>(), s * db.tail<3>());
  }
}

// A wrench (torque; force) given at frame 1 expressed at frame 2 (both world poses).
Vector6d move_wrench(const Vector6d& wrench_1, const Eigen::Matrix3d& R_w_1, const Eigen::Vector3d& x_1,
                     const Eigen::Matrix3d& R_w_2, const Eigen::Vector3d& x_2) {
  const Eigen::Vector3d f_w = R_w_1 * wrench_1.tail<3>();
  const Eigen::Vector3d tau_w = R_w_1 * wrench_1.head<3>() - (x_2 - x_1).cross(f_w);  // Eq. 7
  Vector6d out;
  out << R_w_2.transpose() * tau_w, R_w_2.transpose() * f_w;
  return out;
}

void check_options(const WorldOptions& o) {
  const auto finite_nonnegative = [](double x) { return std::isfinite(x) && x >= 0; };
  if (!(std::isfinite(o.time_step) && o.time_step > 0) || !o.gravity.allFinite() ||
      !finite_nonnegative(o.target_volume) || !finite_nonnegative(o.touch_tolerance) ||
      !finite_nonnegative(o.linear_compliance) || !finite_nonnegative(o.angular_compliance)) {
    std::ostringstream os;
    os << "volume-contact world: need time_step > 0, finite gravity, and finite target_volume, touch_tolerance "
          "and compliances >= 0; got time_step = "
       << o.time_step << " s, target_volume = " << o.target_volume << " m^3, touch_tolerance = " << o.touch_tolerance
       << " m, compliances = " << o.linear_compliance << " m/N, " << o.angular_compliance << " rad/(N m)";
    throw InputError(os.str());
  }
}

}  // namespace

const char* to_string(ContactModel model) {
  return model == ContactModel::kVolume6d ? "volume-6d" : "point-contact";
}

VolumeWorld::VolumeWorld(std::vector<RigidBody> bodies, const WorldOptions& options)
    : bodies_(std::move(bodies)), options_(options) {
  check_options(options_);
  for (const RigidBody& body : bodies_) check_body(body);
}

StepReport VolumeWorld::step() {
  const double h = options_.time_step;
  const bool six_d = options_.model == ContactModel::kVolume6d;
  StepReport report;
  for (RigidBody& body : bodies_) {  // 1. free motion
    if (body.fixed()) continue;
    body.v_w += h * options_.gravity;
    const Eigen::Matrix3d I_w = body.inertia_w();
    body.omega_w += h * I_w.ldlt().solve(-body.omega_w.cross(I_w * body.omega_w));
  }

  Clock::time_point start = Clock::now();  // 2. detection, 3. stabilisation
  std::vector<VolumeContact> volumes = detect_volume_contacts(bodies_, options_.patch);
  (six_d ? report.times.detection : report.times.stabilisation) = seconds_since(start);
  for (const VolumeContact& c : volumes) report.max_volume = std::max(report.max_volume, c.volume);
  std::vector<PointContact> points;
  if (!six_d) {
    start = Clock::now();
    points = detect_point_contacts(bodies_, indices_, options_.touch_tolerance);
    report.times.detection = seconds_since(start);
  }
  start = Clock::now();
  stabilise(bodies_, volumes, options_.target_volume);
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
    j.compliance << Eigen::Vector3d::Constant(options_.angular_compliance / (h * h)),
        Eigen::Vector3d::Constant(options_.linear_compliance / (h * h));  // impulse c / h^2: a velocity
    j.mu = std::max(A.friction, B.friction);
    joints.push_back(j);
    return &joints.back();
  };
  if (six_d)
    for (const VolumeContact& c : volumes) add_joint(JointKind::kVolume6d, c.a, c.b, c.R_w_c, c.x_w_c)->semi_axes =
        c.patch.ellipse_semi_axes;
  else
    for (const PointContact& p : points) add_joint(JointKind::kPoint, p.a, p.b, p.R_w_c, p.x_w_c);
  if (options_.warm_start)
    for (PgsJoint& j : joints) {
      const PgsJoint* match = nullptr;
      double nearest = options_.touch_tolerance;
      for (const PgsJoint& old : previous_) {
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
    if (!body.x_w.allFinite() || !body.v_w.allFinite() || !body.omega_w.allFinite())
      throw ComputationError("volume-contact world: body \"" + body.name + "\" has a non-finite state at t = " +
                             std::to_string(time_ + h) + " s");
  }
  time_ += h;
  report.time = time_;
  report.contacts = int(joints.size());
  report.constraints = six_d ? 6 * report.contacts : 3 * report.contacts;
  previous_ = joints;
  report.joints = std::move(joints);
  if (six_d) report.volume_contacts = std::move(volumes);
  return report;
}

}  // namespace contactref::volume_contact
