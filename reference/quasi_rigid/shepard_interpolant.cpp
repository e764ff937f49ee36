#include "reference/quasi_rigid/shepard_interpolant.hpp"

#include <cmath>

namespace contactref::quasi_rigid {

ShepardInterpolant::ShepardInterpolant(const PointIndex& index, const Eigen::VectorXd& spacing,
                                       const SampledShepard& shepard)
    : index_(index), spacing_(spacing), shepard_(shepard), reach_(shepard.support * spacing.maxCoeff()) {}

double ShepardInterpolant::operator()(const Eigen::VectorXd& values, const Eigen::Vector3d& x,
                                      std::vector<Neighbour>& near) const {
  index_.within(x, reach_, near);
  double sum = 0, weighted = 0;
  for (const Neighbour& n : near) {
    const double h = spacing_(n.index);
    const double s = shepard_.width * h, rho = shepard_.support * h;
    if (n.distance_sq >= rho * rho) continue;
    const double omega = std::exp(-n.distance_sq / (2 * s * s));
    sum += omega;
    weighted += omega * values(n.index);
  }
  return sum > 0 ? weighted / sum : 0.0;
}

}  // namespace contactref::quasi_rigid
