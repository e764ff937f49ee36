#include "reference/quasi_rigid/cluster_hierarchy.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/errors.hpp"

namespace contactref::quasi_rigid {

ClusterHierarchy::ClusterHierarchy(const std::vector<Eigen::Vector3d>& points, const ClusterOptions& options) {
  if (points.empty()) throw InputError("cluster hierarchy: no point");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) throw InputError("cluster hierarchy: point " + std::to_string(i) + " is not finite");
  }
  if (options.max_samples < 1) throw InputError("cluster hierarchy: max_samples must be >= 1");
  if (!(options.max_variation >= 0 && options.max_variation <= 1.0 / 3)) {
    throw InputError("cluster hierarchy: max_variation must be in [0, 1/3]");
  }
  order_.resize(points.size());
  std::iota(order_.begin(), order_.end(), 0);
  const auto at = [&](int k) -> const Eigen::Vector3d& { return points[static_cast<std::size_t>(k)]; };

  clusters_.push_back({});
  clusters_[0].count = static_cast<int>(points.size());
  std::vector<int> pending{0};
  while (!pending.empty()) {
    const int c = pending.back();
    pending.pop_back();
    const auto begin = order_.begin() + clusters_[static_cast<std::size_t>(c)].first;
    const auto end = begin + clusters_[static_cast<std::size_t>(c)].count;
    const double count = static_cast<double>(end - begin);

    Eigen::Vector3d centre = Eigen::Vector3d::Zero();
    for (auto k = begin; k != end; ++k) centre += at(*k);
    centre /= count;
    Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
    double radius_sq = 0;
    for (auto k = begin; k != end; ++k) {
      const Eigen::Vector3d d = at(*k) - centre;
      covariance += d * d.transpose();
      radius_sq = std::max(radius_sq, d.squaredNorm());
    }
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen;
    eigen.computeDirect(covariance);
    const double trace = eigen.eigenvalues().sum();
    const double variation = trace > 0 ? std::max(0.0, eigen.eigenvalues()(0)) / trace : 0.0;

    Cluster& cluster = clusters_[static_cast<std::size_t>(c)];
    cluster.centre = centre;
    cluster.radius = std::sqrt(radius_sq);
    depth_ = std::max(depth_, cluster.depth);
    if (cluster.count <= options.max_samples && variation <= options.max_variation) continue;
    if (cluster.count == 1) continue;

    // Split at the centroid along the principal axis; at the median where the
    // centroid leaves one side empty (coincident or lopsided points).
    const Eigen::Vector3d axis = eigen.eigenvectors().col(2);
    const auto along = [&](int k) { return (at(k) - centre).dot(axis); };
    auto middle = std::partition(begin, end, [&](int k) { return along(k) < 0; });
    if (middle == begin || middle == end) {
      middle = begin + (end - begin) / 2;
      std::nth_element(begin, middle, end, [&](int a, int b) { return along(a) < along(b); });
    }
    const int first = cluster.first;
    const int left_count = static_cast<int>(middle - begin);
    const int depth = cluster.depth + 1;
    const int total = cluster.count;
    const auto left = static_cast<int>(clusters_.size());
    clusters_[static_cast<std::size_t>(c)].children = {left, left + 1};
    clusters_.push_back({Eigen::Vector3d::Zero(), 0, first, left_count, {-1, -1}, depth});
    clusters_.push_back({Eigen::Vector3d::Zero(), 0, first + left_count, total - left_count, {-1, -1}, depth});
    pending.push_back(left);
    pending.push_back(left + 1);
  }
}

std::vector<int> ClusterHierarchy::level(int max_samples) const {
  std::vector<int> level;
  std::vector<int> pending{0};
  while (!pending.empty()) {
    const int c = pending.back();
    pending.pop_back();
    const Cluster& cluster = clusters_[static_cast<std::size_t>(c)];
    if (cluster.leaf() || cluster.count <= max_samples) {
      level.push_back(c);
    } else {
      pending.push_back(cluster.children[1]);
      pending.push_back(cluster.children[0]);
    }
  }
  return level;
}

}  // namespace contactref::quasi_rigid
