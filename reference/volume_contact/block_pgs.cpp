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

// A contact's block (block_pgs.hpp, joint elimination): the bilateral joints
// reachable from its movable bodies through movable bodies (a finger on its
// hinge), with their stacked rows' K = S_gg and B = S_gc.
struct ContactBlock {
  std::vector<int> bilateral;  // joint indices
  std::vector<std::vector<int>> rows;  // each one's rows (bilateral_rows)
  std::vector<int> offsets;    // each one's first row in K
  Eigen::MatrixXd B;           // S_gc, stacked rows x 6
  Eigen::MatrixXd K;           // S_gg, without compliance (to take the impulses' own effect out)
  Eigen::MatrixXd K_pinv;      // (K + C_g)^+: redundant bilateral rows share their load
  Matrix6d S_own;              // S_cc + C_c: the contact's own
  Matrix6d D;                  // B^T K^+ B: the joints' response to the contact's impulse, at the contact
  Eigen::LLT<Matrix6d> reduced;  // of S_own - D, the mobility the joints leave the contact
};

// Anderson acceleration of the block's fixed-point iteration: the last
// kAndersonDepth differences (the problem has 6 unknowns), at most
// kMaxAndersonIterations iterations a contact update (a bound on a sweep's
// cost: what is left unresolved counts in the sweep's update, and the sweeps
// go on). Measured on a 10 g finger hinged against a 2 kg block (40 seeded
// trials, mu 0.5): 200 iterations let every trial converge in at most 42
// sweeps; 50 left one unconverged after 5,000 sweeps and 20 left seven.
constexpr int kAndersonDepth = 5;
constexpr int kMaxAndersonIterations = 200;

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
                           const std::vector<InverseMass>& inverse_masses, bool eliminate) {
  const PgsJoint& c = joints[std::size_t(contact)];
  ContactBlock block;
  if (eliminate) block.bilateral = reachable_bilateral(contact, joints, inverse_masses);
  block.S_own = c.S;
  block.S_own.diagonal() += c.compliance;
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
  block.D = block.B.transpose() * block.K_pinv * block.B;
  block.reduced.compute(block.S_own - block.D);
  return block;
}

// The joint's new total impulse from the twist it would see without its own
// (S: with the compliance) and its impulse so far (a point's update starts
// from it; the others do not depend on it).
Vector6d project(PgsJoint& joint, const Matrix6d& S, const Vector6d& e_free, const Vector6d& impulse,
                 const PgsOptions& options) {
  if (joint.kind == JointKind::kPoint) {  // no compliance: SOFA's point contacts are rigid
    const Eigen::Vector3d e = e_free.tail<3>() + joint.approach_speed * Eigen::Vector3d::UnitZ();  // v_n + gap/h
    const PointProjection p = project_point(S.bottomRightCorner<3, 3>(), e, impulse.tail<3>(), joint.mu);
    joint.state = p.state;
    Vector6d out = Vector6d::Zero();
    out.tail<3>() = p.impulse;
    return out;
  }
  if (joint.kind == JointKind::kVolume6d) {
    ProjectionOptions projection;
    projection.support = joint.support.get();
    projection.spin_resolve = options.spin_resolve;
    const WrenchProjection p = project_joint(S, e_free, joint.semi_axes, joint.mu, projection);
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
                        const std::vector<InverseMass>& inverse_masses, const PgsOptions& options) {
  Matrix6d S = joint.S;
  S.diagonal() += joint.compliance;
  const Vector6d lambda = project(joint, S, twist(joint, velocities) - joint.S * joint.impulse, joint.impulse, options);
  const Vector6d delta = lambda - joint.impulse;
  apply(joint, delta, velocities, inverse_masses);
  joint.impulse = lambda;
  return delta.squaredNorm();
}

// One update of a contact with its block's bilateral joints; returns the
// squared norm of their changes.
// The fixed point of the block's G(x) = project(S_own, e_eff - D x, x) by
// Anderson-accelerated iteration from the contact's impulse (block_pgs.hpp),
// type II (Walker & Ni's Eq. 2.5): x+ = G(x) - sum_i gamma_i dG_i with gamma
// the least-squares fit of f = G(x) - x by the last differences dF_i of f.
// Returns G at the last iterate (a projection: admissible whatever the
// iterate) and sets `unresolved` to |G(x) - x| there when it is above the
// tolerance (no fixed point within the iterations), 0 otherwise.
Vector6d block_fixed_point(PgsJoint& c, const ContactBlock& block, const Vector6d& e_eff, const PgsOptions& options,
                           double& unresolved) {
  const auto G = [&](const Vector6d& x) { return project(c, block.S_own, e_eff - block.D * x, x, options); };
  // The iterations stop at a tenth of the sweeps' tolerance: what they leave
  // is what the next sweep sees move.
  const double target = options.tolerance / 10;
  // A stuck contact's fixed point solves (S_own - D) x = -e_eff (G is then
  // the rigid joint's -S_own^-1 e(x)): tried first, it is exact where the
  // iteration would only approach it.
  if (c.kind == JointKind::kVolume6d && block.reduced.info() == Eigen::Success) {
    const Vector6d stuck = block.reduced.solve(-e_eff);
    const JointState before = c.state;
    const Vector6d g = G(stuck);
    if (c.state == JointState::kStuck && (g - stuck).norm() <= target) {
      unresolved = 0;
      return g;
    }
    c.state = before;
  }
  Vector6d x = c.impulse, g = G(x), f = g - x;
  std::vector<Vector6d> dF, dG;  // differences of f and of g over the last iterations
  for (int k = 0; k < kMaxAndersonIterations && f.norm() > target; ++k) {
    x = g;
    if (!dF.empty()) {
      Eigen::MatrixXd F(6, Eigen::Index(dF.size())), Gd(6, Eigen::Index(dG.size()));
      for (std::size_t i = 0; i < dF.size(); ++i) {
        F.col(Eigen::Index(i)) = dF[i];
        Gd.col(Eigen::Index(i)) = dG[i];
      }
      x -= Gd * F.completeOrthogonalDecomposition().solve(f);
    }
    const Vector6d g_next = G(x), f_next = g_next - x;
    dF.push_back(f_next - f);
    dG.push_back(g_next - g);
    if (int(dF.size()) > kAndersonDepth) {
      dF.erase(dF.begin());
      dG.erase(dG.begin());
    }
    g = g_next;
    f = f_next;
  }
  unresolved = f.norm() > options.tolerance ? f.norm() : 0;
  return g;
}

double update_contact(int contact, const ContactBlock& block, std::vector<PgsJoint>& joints,
                      std::vector<Vector6d>& velocities, const std::vector<InverseMass>& inverse_masses,
                      const PgsOptions& options) {
  PgsJoint& c = joints[std::size_t(contact)];
  Vector6d e_c = twist(c, velocities) - c.S * c.impulse;
  if (block.bilateral.empty()) {
    const Vector6d lambda = project(c, block.S_own, e_c, c.impulse, options);
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
  double unresolved = 0;
  const Vector6d lambda =
      block_fixed_point(c, block, e_c - block.B.transpose() * (block.K_pinv * e_g), options, unresolved);
  const Eigen::VectorXd lambda_g_new = -block.K_pinv * (e_g + block.B * lambda);
  double update = (lambda - c.impulse).squaredNorm() + unresolved * unresolved;
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
    if (!is_bilateral(joints[std::size_t(j)]))
      blocks[std::size_t(j)] = contact_block(j, joints, inverse_masses, options.eliminate_joints);
  for (const PgsJoint& joint : joints) apply(joint, joint.impulse, velocities, inverse_masses);
  PgsResult result;
  while (result.iterations < options.max_iterations) {
    double update = 0;
    for (int j = 0; j < int(joints.size()); ++j)
      update += is_bilateral(joints[std::size_t(j)])
                    ? update_bilateral(joints[std::size_t(j)], velocities, inverse_masses, options)
                    : update_contact(j, blocks[std::size_t(j)], joints, velocities, inverse_masses, options);
    ++result.iterations;
    result.residuals.push_back(std::sqrt(update));
    if (result.residuals.back() <= options.tolerance) {
      result.converged = true;
      break;
    }
  }
  result.projection_residual = projection_residual(joints, velocities, options);
  return result;
}

double projection_residual(const std::vector<PgsJoint>& joints, const std::vector<Vector6d>& velocities,
                           const PgsOptions& options) {
  double largest = 0;
  for (const PgsJoint& joint : joints) {
    if (joint.a < 0 || joint.a >= int(velocities.size()) || joint.b < 0 || joint.b >= int(velocities.size()))
      throw InputError("projection residual: a joint names a body out of range");
    PgsJoint own = joint;  // project() records the state
    Matrix6d S = joint.S;
    S.diagonal() += joint.compliance;
    const Vector6d e_free = twist(joint, velocities) - joint.S * joint.impulse;
    largest = std::max(largest, (project(own, S, e_free, joint.impulse, options) - joint.impulse).norm());
  }
  return largest;
}

}  // namespace contactref::volume_contact
