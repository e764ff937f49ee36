#include "reference/volume_contact/block_pgs.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::volume_contact {
namespace {

void apply(const PgsJoint& joint, const Vector6d& delta, std::vector<Vector6d>& velocities,
           const std::vector<InverseMass>& inverse_masses) {
  auto& v_b = velocities[std::size_t(joint.b)];
  auto& v_a = velocities[std::size_t(joint.a)];
  v_b += inverse_masses[std::size_t(joint.b)].apply(joint.J_b.transpose() * delta);
  v_a -= inverse_masses[std::size_t(joint.a)].apply(joint.J_a.transpose() * delta);
}

// The joint's new total impulse from the twist it would see without its own.
Vector6d project(PgsJoint& joint, const Vector6d& e_free) {
  if (joint.kind == JointKind::kPoint) {  // no compliance: SOFA's point contacts are rigid
    const PointProjection p =
        project_point(joint.S.bottomRightCorner<3, 3>(), e_free.tail<3>(), joint.impulse.tail<3>(), joint.mu);
    joint.state = p.state;
    Vector6d out = Vector6d::Zero();
    out.tail<3>() = p.impulse;
    return out;
  }
  Matrix6d S = joint.S;
  S.diagonal() += joint.compliance;
  if (joint.kind == JointKind::kVolume6d) {
    const WrenchProjection p = project_joint(S, e_free, joint.semi_axes, joint.mu);
    joint.state = p.state;
    return p.impulse_c;
  }
  const std::vector<int> rows = bilateral_rows(joint.kind);
  const Eigen::LLT<Eigen::MatrixXd> llt(S(rows, rows));
  if (llt.info() != Eigen::Success)
    throw ComputationError("block PGS: a bilateral joint's rows are singular (do both bodies have infinite mass?)");
  const Eigen::VectorXd lambda = llt.solve(-e_free(rows));
  Vector6d out = Vector6d::Zero();
  out(rows) = lambda;
  joint.state = JointState::kStuck;
  return out;
}

}  // namespace

std::vector<int> bilateral_rows(JointKind kind) {
  switch (kind) {
    case JointKind::kSpherical: return {3, 4, 5};
    case JointKind::kHinge: return {0, 1, 3, 4, 5};
    default: throw InternalError("bilateral_rows: not a bilateral joint");
  }
}

PgsResult solve_block_pgs(std::vector<PgsJoint>& joints, std::vector<Vector6d>& velocities,
                          const std::vector<InverseMass>& inverse_masses, const PgsOptions& options) {
  if (!(std::isfinite(options.tolerance) && options.tolerance >= 0) || options.max_iterations < 1) {
    std::ostringstream os;
    os << "block PGS: need a finite tolerance >= 0 and max_iterations >= 1, got " << options.tolerance << " and "
       << options.max_iterations;
    throw InputError(os.str());
  }
  const int n = int(velocities.size());
  if (int(inverse_masses.size()) != n) throw InputError("block PGS: one inverse mass per body velocity");
  for (const PgsJoint& joint : joints)
    if (joint.a < 0 || joint.a >= n || joint.b < 0 || joint.b >= n || joint.a == joint.b)
      throw InputError("block PGS: a joint names a body out of range or joins a body to itself");

  for (const PgsJoint& joint : joints) apply(joint, joint.impulse, velocities, inverse_masses);
  PgsResult result;
  while (result.iterations < options.max_iterations) {
    double update = 0;
    for (PgsJoint& joint : joints) {
      const Vector6d e = joint.J_b * velocities[std::size_t(joint.b)] - joint.J_a * velocities[std::size_t(joint.a)];
      const Vector6d lambda = project(joint, e - joint.S * joint.impulse);
      const Vector6d delta = lambda - joint.impulse;
      apply(joint, delta, velocities, inverse_masses);
      joint.impulse = lambda;
      update += delta.squaredNorm();
    }
    ++result.iterations;
    result.residuals.push_back(std::sqrt(update));
    if (result.residuals.back() <= options.tolerance) {
      result.converged = true;
      break;
    }
  }
  return result;
}

}  // namespace contactref::volume_contact
