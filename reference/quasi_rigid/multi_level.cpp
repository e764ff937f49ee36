#include "reference/quasi_rigid/multi_level.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <sstream>

#include "core/errors.hpp"
#include "reference/quasi_rigid/shepard_interpolant.hpp"

namespace contactref::quasi_rigid {

MultiLevelBody::MultiLevelBody(const QuasiRigidBody& body, const std::vector<int>& cluster_sizes) {
  for (std::size_t k = 0; k < cluster_sizes.size(); ++k) {
    if (cluster_sizes[k] < 2 || (k > 0 && cluster_sizes[k] >= cluster_sizes[k - 1])) {
      throw InputError(body.name() + ": multi-level cluster sizes must decrease, coarse to fine, and be >= 2");
    }
  }
  for (int size : cluster_sizes) {
    SurfaceSamples coarse;
    coarse.name = body.name() + " (clusters of at most " + std::to_string(size) + ")";
    for (int c : body.hierarchy().level(size)) {
      const MlsProjection p = body.surface().project(body.hierarchy().clusters()[static_cast<std::size_t>(c)].centre);
      coarse.points.push_back(p.point);
      coarse.normals.push_back(p.normal);
    }
    if (coarse.points.size() < 8) {
      throw ComputationError(coarse.name + ": " + std::to_string(coarse.points.size()) +
                             " samples, too few for a surface (at least 8)");
    }
    levels_.emplace_back(std::move(coarse), body.material());
  }
  levels_.push_back(body);
}

Eigen::VectorXd interpolate_tractions(const QuasiRigidBody& coarse, const BodyContact& contact,
                                      const QuasiRigidBody& fine) {
  return interpolate_field(coarse, contact.active, contact.traction, fine);
}

Eigen::VectorXd interpolate_field(const QuasiRigidBody& coarse, const std::vector<int>& nodes,
                                  const Eigen::VectorXd& values, const QuasiRigidBody& fine) {
  const auto coarse_count = static_cast<int>(coarse.surface().samples().points.size());
  if (values.size() != static_cast<Eigen::Index>(nodes.size()) ||
      std::any_of(nodes.begin(), nodes.end(), [&](int j) { return j < 0 || j >= coarse_count; })) {
    throw InputError("interpolate_field: need one value per node, each node a sample of " + coarse.name());
  }
  const SurfaceSamples& at = fine.surface().samples();
  Eigen::VectorXd traction = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(at.points.size()));
  Eigen::VectorXd by_sample = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(coarse.surface().samples().points.size()));
  for (std::size_t k = 0; k < nodes.size(); ++k) by_sample(nodes[k]) = values(static_cast<Eigen::Index>(k));
  const ShepardInterpolant interpolant(coarse.surface().index(), coarse.sampling().spacing(),
                                       coarse.sampling().shepard());
  std::vector<Neighbour> near;
  // The field vanishes where no node with a value reaches: only the fine
  // samples within reach of one are summed.
  std::vector<char> reached(at.points.size(), 0);
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if (values(static_cast<Eigen::Index>(k)) == 0) continue;
    fine.surface().index().within(coarse.surface().samples().points[static_cast<std::size_t>(nodes[k])],
                                  interpolant.reach(), near);
    for (const Neighbour& n : near) reached[static_cast<std::size_t>(n.index)] = 1;
  }
  // Each fine sample's value on one of oneTBB's threads (its own sum).
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, at.points.size()), [&](const tbb::blocked_range<std::size_t>& range) {
    std::vector<Neighbour> scratch;
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      if (reached[i]) traction(static_cast<Eigen::Index>(i)) = interpolant(by_sample, at.points[i], scratch);
    }
  });
  return traction;
}

double MultiLevelContact::lcp_work() const {
  double work = 0;
  for (const QuasiRigidContact& level : levels) work += level.a.lcp_work + level.b.lcp_work;
  return work;
}

MultiLevelContact resolve_multi_level(const MultiLevelBody& A, const RigidPose<double>& E_w_a, const MultiLevelBody& B,
                                      const RigidPose<double>& E_w_b, double tolerance, const ContactOptions& options,
                                      int max_levels) {
  if (!(std::isfinite(tolerance) && tolerance >= 0)) {
    throw InputError("multi-level contact: the wrench tolerance must be finite and >= 0");
  }
  if (max_levels < 0) throw InputError("multi-level contact: max_levels must be >= 0, got " + std::to_string(max_levels));
  if (options.response_operator != ResponseOperator::kExact) {
    throw InputError("multi-level contact: the FFT half-space operator is a single level's option (resolve_contact)");
  }
  if (A.levels().size() != B.levels().size()) {
    throw InputError("multi-level contact: " + A.levels().back().name() + " has " + std::to_string(A.levels().size()) +
                     " levels, " + B.levels().back().name() + " " + std::to_string(B.levels().size()));
  }
  MultiLevelContact result;
  ContactOptions level_options = options;
  const std::size_t levels = max_levels > 0 ? std::min(A.levels().size(), static_cast<std::size_t>(max_levels))
                                            : A.levels().size();
  for (std::size_t level = 0; level < levels; ++level) {
    const QuasiRigidBody& a = A.levels()[level];
    const QuasiRigidBody& b = B.levels()[level];
    if (level > 0) {
      const QuasiRigidContact& previous = result.levels.back();
      // Only solved tractions start a solve: a body whose tractions were
      // interpolated from its partner's (a rigid body) solves nothing.
      level_options.initial_traction_a =
          previous.a.interpolated ? Eigen::VectorXd() : interpolate_tractions(A.levels()[level - 1], previous.a, a);
      level_options.initial_traction_b =
          previous.b.interpolated ? Eigen::VectorXd() : interpolate_tractions(B.levels()[level - 1], previous.b, b);
    }
    level_options.refuse_rim = options.refuse_rim && level + 1 == levels;  // the answer's level only
    result.levels.push_back(resolve_contact(a, E_w_a, b, E_w_b, level_options));
    if (level == 0) continue;
    const BodyContact& now = result.levels.back().a;
    const BodyContact& before = result.levels[level - 1].a;
    // |dF| / |F| + |dT_c| / (|F| rho): the force's change, and the torque's
    // about the previous level's centre of pressure c as the shift of the
    // centre of pressure over the contact's radius rho = sqrt(area / pi).
    // The torques are about the body frame's origin o (BodyContact), and
    // T_c = T_o - (c - o) x F: about c the measure does not depend on where
    // the body frame's origin is.
    const double force = before.force_w.norm();
    const double rho = std::sqrt(before.contact_area / std::numbers::pi);
    const Eigen::Vector3d dF = now.force_w - before.force_w;
    const Eigen::Vector3d dT_c = now.torque_w - before.torque_w - before.pressure_centre_w.cross(dF);
    const double relative = force > 0 && rho > 0 ? dF.norm() / force + dT_c.norm() / (force * rho)
                                                 : (now.force_w.norm() > 0 ? 1.0 : 0.0);
    result.wrench_change.push_back(relative);
    if (relative <= tolerance) {
      result.converged = true;
      break;
    }
  }
  return result;
}

}  // namespace contactref::quasi_rigid
