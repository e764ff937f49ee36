#pragma once
// The multi-level contact of Pauly et al. Section 4.3: each body's
// clustering hierarchy gives coarser surfaces (one sample per cluster of a
// level: the cluster's centre projected onto the MLS surface, with its MLS
// normal; its Shepard kernels take their spacing from its own samples, the
// mean distance to the six nearest, which makes their Gaussian's width about
// the cluster's bounding radius, the paper's kernel radius:
// cluster_hierarchy.hpp), the contact is solved from the
// coarsest level to the finest, each
// level warm-started by the tractions of the one before, interpolated onto
// its samples by the coarse level's own Shepard functions (Eq. 5; a body's
// only where they were solved, not interpolated from its partner's), and the
// solve stops at the first level whose wrench on A differs from the previous
// level's by at most the tolerance, |dF| / |F| + |dT| / (|F| rho) (the force's
// change, and the centre of pressure's shift over the contact radius
// rho = sqrt(area / pi), the torques taken about the previous level's centre
// of pressure: independent of where the body frame's origin is): "as soon as
// the desired accuracy is obtained".
#include <vector>

#include "reference/quasi_rigid/point_contact.hpp"

namespace contactref::quasi_rigid {

class MultiLevelBody {
 public:
  // cluster_sizes: the levels' largest clusters, coarse to fine (decreasing,
  // each >= 2); the finest level is `body` itself. InputError: sizes not
  // decreasing or below 2; ComputationError: a coarse level with fewer than
  // 8 samples, or an MLS projection that fails.
  MultiLevelBody(const QuasiRigidBody& body, const std::vector<int>& cluster_sizes);

  // Coarse to fine; the last is the body.
  const std::vector<QuasiRigidBody>& levels() const { return levels_; }

 private:
  std::vector<QuasiRigidBody> levels_;
};

// A field given at some of `coarse`'s samples (`values` at `nodes`, zero at
// the others), at every sample of `fine`: v(x) = sum_j v_j Phi_j(x), Phi_j
// the coarse level's Shepard functions (Eq. 5-6), evaluated at the fine
// samples; zero where no coarse kernel reaches. InputError: values and nodes
// of different sizes, a node that is not a sample of `coarse`.
Eigen::VectorXd interpolate_field(const QuasiRigidBody& coarse, const std::vector<int>& nodes,
                                  const Eigen::VectorXd& values, const QuasiRigidBody& fine);
// The tractions of a contact at `coarse`'s active samples, at every sample of
// `fine` (Pa; Eq. 5).
Eigen::VectorXd interpolate_tractions(const QuasiRigidBody& coarse, const BodyContact& contact,
                                      const QuasiRigidBody& fine);

struct MultiLevelContact {
  std::vector<QuasiRigidContact> levels;  // the levels solved, coarse first
  std::vector<double> wrench_change;      // per level after the first (the measure above)
  bool converged = false;                 // stopped by the tolerance before or at the finest level
  // The LCPs' work on every level (BodyContact::lcp_work of both bodies).
  double lcp_work() const;
};

// max_levels: solve at most this many levels, coarse first (0: all); the
// paper stops at the desired accuracy, a caller may also stop where the
// levels grow too fine for the dense response. InputError: tolerance not
// finite and >= 0, A and B with different numbers of levels, max_levels < 0,
// the FFT operator (ResponseOperator::kFftHalfSpace: a single level's option,
// whose grid does not resolve the coarse levels' few samples); as
// resolve_contact.
MultiLevelContact resolve_multi_level(const MultiLevelBody& A, const RigidPose<double>& E_w_a, const MultiLevelBody& B,
                                      const RigidPose<double>& E_w_b, double tolerance,
                                      const ContactOptions& options = {}, int max_levels = 0);

}  // namespace contactref::quasi_rigid
