#pragma once
// The Shepard interpolant of Pauly et al. Eq. 5: v(x) = sum_j v_j Phi_j(x),
// Phi_j = omega_j / sum_k omega_k, with sample_shepard's truncated Gaussians
// (sampled_response.hpp, Eq. 6: omega_j(d) = exp(-d^2 / (2 s_j^2)) for
// d < rho_j, s_j = width h_j, rho_j = support h_j) over the points of an
// index. Used to carry a field from one sampling to another: a coarse level's
// tractions onto a finer level (multi_level.hpp), a deformable body's
// tractions onto its rigid partner's samples (point_contact.hpp).
#include <Eigen/Core>
#include <vector>

#include "reference/quasi_rigid/point_index.hpp"
#include "reference/quasi_rigid/sampled_response.hpp"

namespace contactref::quasi_rigid {

// The interpolant over the points of `index` with spacings h_j (m, by point);
// both must outlive it.
class ShepardInterpolant {
 public:
  ShepardInterpolant(const PointIndex& index, const Eigen::VectorXd& spacing, const SampledShepard& shepard);
  // v(x) for values v_j by point, 0 where no kernel reaches x. `near`:
  // scratch space for the range query.
  double operator()(const Eigen::VectorXd& values, const Eigen::Vector3d& x, std::vector<Neighbour>& near) const;
  // The largest support rho_j (m): no kernel reaches farther.
  double reach() const { return reach_; }

 private:
  const PointIndex& index_;
  const Eigen::VectorXd& spacing_;
  SampledShepard shepard_;
  double reach_;
};

}  // namespace contactref::quasi_rigid
