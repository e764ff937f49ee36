#pragma once
// The clustering hierarchy of Pauly et al. Sections 4.1 and 4.3 (their
// [PGK02]): the samples are split recursively by the plane through their
// centroid normal to their principal axis (the covariance's largest
// eigenvector) until a cluster holds at most max_samples samples and its
// surface variation lambda_0 / (lambda_0 + lambda_1 + lambda_2) is at most
// max_variation. Each cluster has a bounding sphere, centred at its centroid
// (not the minimal sphere: at most twice its radius), which culls collision
// queries (Section 4.1). Section 4.3 also makes that radius the kernel radius
// of the cluster's level in the multi-level solve ("The radius of the
// bounding sphere determines the radius of the kernel function"). Here a
// coarse level's kernels take their spacing h from its own samples, as every
// body's do (SampledShepard::spacing_neighbours, multi_level.hpp); their
// Gaussian's width h / 2 is then about the clusters' radius (0.90 and 1.02
// times their mean on the sampled sphere at clusters of 16 and 4,
// multi_level_test), the paper's rule if its kernel radius is the
// Gaussian's width (its support, 2 h, is then about four radii).
#include <Eigen/Core>
#include <array>
#include <vector>

namespace contactref::quasi_rigid {

struct ClusterOptions {
  int max_samples = 8;
  double max_variation = 1.0 / 3;  // 1/3: no limit (the variation is at most 1/3)
};

struct Cluster {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  // the samples' centroid (m)
  double radius = 0;                                 // m: every sample within it
  int first = 0, count = 0;                          // its samples: order()[first, first + count)
  std::array<int, 2> children{-1, -1};              // none for a leaf
  int depth = 0;                                     // the root's is 0
  bool leaf() const { return children[0] < 0; }
};

class ClusterHierarchy {
 public:
  // InputError: no point, a non-finite point, max_samples below 1,
  // max_variation not in [0, 1/3].
  explicit ClusterHierarchy(const std::vector<Eigen::Vector3d>& points, const ClusterOptions& options = {});

  // clusters()[0] is the root; a parent precedes its children.
  const std::vector<Cluster>& clusters() const { return clusters_; }
  // The sample indices, each cluster's a contiguous range.
  const std::vector<int>& order() const { return order_; }
  int depth() const { return depth_; }

  // The level of clusters of at most max_samples samples whose parents hold
  // more (or the leaves, where max_samples is below a leaf's count): the
  // coarse surfaces of the multi-level solve. Every sample lies in exactly
  // one of them.
  std::vector<int> level(int max_samples) const;

 private:
  std::vector<Cluster> clusters_;
  std::vector<int> order_;
  int depth_ = 0;
};

}  // namespace contactref::quasi_rigid
