#include "reference/volume_contact/block_pgs.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::volume_contact {
namespace {

bool is_bilateral(const PgsJoint& joint) { return joint.kind == JointKind::kSpherical || joint.kind == JointKind::kHinge; }

void apply(const PgsJoint& joint, const Vector6d& delta, std::vector<Vector6d>& velocities,
           const std::vector<InverseMass>& inverse_masses) {
  auto& v_b = velocities[std::size_t(joint.b)];
  auto& v_a = velocities[std::size_t(joint.a)];
  v_b += inverse_masses[std::size_t(joint.b)].apply(joint.J_b.transpose() * delta);
  v_a -= inverse_masses[std::size_t(joint.a)].apply(joint.J_a.transpose() * delta);
}

Vector6d twist(const PgsJoint& joint, const std::vector<Vector6d>& velocities) {
  return joint.J_b * velocities[std::size_t(joint.b)] - joint.J_a * velocities[std::size_t(joint.a)];
}

// The twist of joint j per unit impulse of joint k: sum over their shared
// bodies s of sigma_j(s) sigma_k(s) J_j^s M_s^-1 J_k^s^T (sigma: +1 at b, -1
// at a); S for j = k.
Matrix6d coupling(const PgsJoint& j, const PgsJoint& k, const std::vector<InverseMass>& inverse_masses) {
  Matrix6d S = Matrix6d::Zero();
  for (const bool j_at_b : {false, true})
    for (const bool k_at_b : {false, true}) {
      const int body = j_at_b ? j.b : j.a;
      if (body != (k_at_b ? k.b : k.a)) continue;
      const Matrix6d& J_j = j_at_b ? j.J_b : j.J_a;
      const Matrix6d& J_k = k_at_b ? k.J_b : k.J_a;
      Matrix6d MinvJt;
      for (int c = 0; c < 6; ++c) MinvJt.col(c) = inverse_masses[std::size_t(body)].apply(J_k.row(c).transpose());
      S += (j_at_b == k_at_b ? 1.0 : -1.0) * J_j * MinvJt;
    }
  return S;
}

// A contact's block: the bilateral joints reachable from its movable bodies
// through movable bodies (a finger on its hinge), eliminated from its update
// so that the light body between them does not slow Gauss-Seidel down (the
// effective mass ratio of finger and ruler sets its rate otherwise): with
// their stacked rows' K = S_gg, B = S_gc, they take lambda_g' = -K^+ (e_g +
// B lambda_c') and the contact is projected with S_cc - B^T K^+ B.
struct ContactBlock {
  std::vector<int> bilateral;  // joint indices
  std::vector<std::vector<int>> rows;  // each one's rows (bilateral_rows)
  std::vector<int> offsets;    // each one's first row in K
  Eigen::MatrixXd B;           // S_gc, stacked rows x 6
  Eigen::MatrixXd K;           // S_gg, without compliance (to take the impulses' own effect out)
  Eigen::MatrixXd K_pinv;      // (K + C_g)^+: redundant bilateral rows share their load
  Matrix6d S_eff;              // S_cc + C_c - B^T K^+ B
};

std::vector<int> reachable_bilateral(int contact, const std::vector<PgsJoint>& joints,
                                     const std::vector<InverseMass>& inverse_masses) {
  const auto movable = [&](int body) {
    const InverseMass& m = inverse_masses[std::size_t(body)];
    return m.inverse_mass > 0 || !m.inverse_inertia_w.isZero();
  };
  std::vector<int> bodies, found;
  for (const int body : {joints[std::size_t(contact)].a, joints[std::size_t(contact)].b})
    if (movable(body)) bodies.push_back(body);
  for (std::size_t next = 0; next < bodies.size(); ++next)
    for (int k = 0; k < int(joints.size()); ++k) {
      const PgsJoint& joint = joints[std::size_t(k)];
      if (!is_bilateral(joint) || (joint.a != bodies[next] && joint.b != bodies[next]) ||
          std::find(found.begin(), found.end(), k) != found.end())
        continue;
      found.push_back(k);
      for (const int body : {joint.a, joint.b})
        if (movable(body) && std::find(bodies.begin(), bodies.end(), body) == bodies.end()) bodies.push_back(body);
    }
  return found;
}

ContactBlock contact_block(int contact, const std::vector<PgsJoint>& joints,
                           const std::vector<InverseMass>& inverse_masses) {
  const PgsJoint& c = joints[std::size_t(contact)];
  ContactBlock block;
  block.bilateral = reachable_bilateral(contact, joints, inverse_masses);
  block.S_eff = c.S;
  block.S_eff.diagonal() += c.compliance;
  if (block.bilateral.empty()) return block;
  int rows = 0;
  for (const int g : block.bilateral) {
    block.rows.push_back(bilateral_rows(joints[std::size_t(g)].kind));
    block.offsets.push_back(rows);
    rows += int(block.rows.back().size());
  }
  block.B.resize(rows, 6);
  block.K.resize(rows, rows);
  Eigen::VectorXd compliance(rows);
  for (std::size_t i = 0; i < block.bilateral.size(); ++i) {
    const PgsJoint& g = joints[std::size_t(block.bilateral[i])];
    const std::vector<int>& rows_g = block.rows[i];
    const int n_g = int(rows_g.size());
    block.B.middleRows(block.offsets[i], n_g) = coupling(g, c, inverse_masses)(rows_g, Eigen::all);
    compliance.segment(block.offsets[i], n_g) = g.compliance(rows_g);
    for (std::size_t k = 0; k < block.bilateral.size(); ++k) {
      const PgsJoint& h = joints[std::size_t(block.bilateral[k])];
      const std::vector<int>& rows_h = block.rows[k];
      block.K.block(block.offsets[i], block.offsets[k], n_g, int(rows_h.size())) =
          coupling(g, h, inverse_masses)(rows_g, rows_h);
    }
  }
  Eigen::MatrixXd K_c = block.K;
  K_c.diagonal() += compliance;
  block.K_pinv = K_c.completeOrthogonalDecomposition().pseudoInverse();
  block.S_eff -= block.B.transpose() * block.K_pinv * block.B;
  return block;
}

// The joint's new total impulse from the twist it would see without its own
// (S: with the compliance).
Vector6d project(PgsJoint& joint, const Matrix6d& S, const Vector6d& e_free) {
  if (joint.kind == JointKind::kPoint) {  // no compliance: SOFA's point contacts are rigid
    const Eigen::Vector3d e = e_free.tail<3>() + joint.approach_speed * Eigen::Vector3d::UnitZ();  // v_n + gap/h
    const PointProjection p = project_point(S.bottomRightCorner<3, 3>(), e, joint.impulse.tail<3>(), joint.mu);
    joint.state = p.state;
    Vector6d out = Vector6d::Zero();
    out.tail<3>() = p.impulse;
    return out;
  }
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

// One update of a bilateral joint alone; returns the squared norm of its change.
double update_bilateral(PgsJoint& joint, std::vector<Vector6d>& velocities,
                        const std::vector<InverseMass>& inverse_masses) {
  Matrix6d S = joint.S;
  S.diagonal() += joint.compliance;
  const Vector6d lambda = project(joint, S, twist(joint, velocities) - joint.S * joint.impulse);
  const Vector6d delta = lambda - joint.impulse;
  apply(joint, delta, velocities, inverse_masses);
  joint.impulse = lambda;
  return delta.squaredNorm();
}

// One update of a contact with its block's bilateral joints; returns the
// squared norm of their changes.
double update_contact(int contact, const ContactBlock& block, std::vector<PgsJoint>& joints,
                      std::vector<Vector6d>& velocities, const std::vector<InverseMass>& inverse_masses) {
  PgsJoint& c = joints[std::size_t(contact)];
  Vector6d e_c = twist(c, velocities) - c.S * c.impulse;
  if (block.bilateral.empty()) {
    const Vector6d lambda = project(c, block.S_eff, e_c);
    const Vector6d delta = lambda - c.impulse;
    apply(c, delta, velocities, inverse_masses);
    c.impulse = lambda;
    return delta.squaredNorm();
  }
  // The block's twists without the block's impulses.
  Eigen::VectorXd e_g(block.K.rows()), lambda_g(block.K.rows());
  for (std::size_t i = 0; i < block.bilateral.size(); ++i) {
    const PgsJoint& g = joints[std::size_t(block.bilateral[i])];
    const std::vector<int>& rows = block.rows[i];
    e_g.segment(block.offsets[i], Eigen::Index(rows.size())) = twist(g, velocities)(rows);
    lambda_g.segment(block.offsets[i], Eigen::Index(rows.size())) = g.impulse(rows);
  }
  e_c -= block.B.transpose() * lambda_g;
  e_g -= block.B * c.impulse + block.K * lambda_g;
  const Vector6d lambda = project(c, block.S_eff, e_c - block.B.transpose() * (block.K_pinv * e_g));
  const Eigen::VectorXd lambda_g_new = -block.K_pinv * (e_g + block.B * lambda);
  double update = (lambda - c.impulse).squaredNorm();
  apply(c, lambda - c.impulse, velocities, inverse_masses);
  c.impulse = lambda;
  for (std::size_t i = 0; i < block.bilateral.size(); ++i) {
    PgsJoint& g = joints[std::size_t(block.bilateral[i])];
    const std::vector<int>& rows = block.rows[i];
    Vector6d new_impulse = Vector6d::Zero();
    new_impulse(rows) = lambda_g_new.segment(block.offsets[i], Eigen::Index(rows.size()));
    const Vector6d delta = new_impulse - g.impulse;
    apply(g, delta, velocities, inverse_masses);
    g.impulse = new_impulse;
    g.state = JointState::kStuck;
    update += delta.squaredNorm();
  }
  return update;
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

  std::vector<ContactBlock> blocks(joints.size());
  for (int j = 0; j < int(joints.size()); ++j)
    if (!is_bilateral(joints[std::size_t(j)])) blocks[std::size_t(j)] = contact_block(j, joints, inverse_masses);
  for (const PgsJoint& joint : joints) apply(joint, joint.impulse, velocities, inverse_masses);
  PgsResult result;
  while (result.iterations < options.max_iterations) {
    double update = 0;
    for (int j = 0; j < int(joints.size()); ++j)
      update += is_bilateral(joints[std::size_t(j)])
                    ? update_bilateral(joints[std::size_t(j)], velocities, inverse_masses)
                    : update_contact(j, blocks[std::size_t(j)], joints, velocities, inverse_masses);
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
