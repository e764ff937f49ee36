#pragma once
// A k-d tree over a fixed set of 3-D points (nanoflann): the nearest point,
// the k nearest and every point within a radius. The index copies the points,
// so it stays valid whatever becomes of the caller's vector. Distances are
// Euclidean, in the points' unit (m).
#include <Eigen/Core>
#include <memory>
#include <vector>

namespace contactref::quasi_rigid {

struct Neighbour {
  int index = -1;
  double distance_sq = 0;  // m^2
};

class PointIndex {
 public:
  // InputError: a non-finite coordinate (named by its index).
  explicit PointIndex(std::vector<Eigen::Vector3d> points);
  ~PointIndex();
  PointIndex(PointIndex&&) noexcept;
  PointIndex& operator=(PointIndex&&) noexcept;
  PointIndex(const PointIndex&) = delete;
  PointIndex& operator=(const PointIndex&) = delete;

  int size() const;
  const std::vector<Eigen::Vector3d>& points() const;

  // The point closest to x (ties: any of them). InternalError on an empty index.
  Neighbour nearest(const Eigen::Vector3d& x) const;
  // The min(k, size) closest points, closest first, into `out` (cleared).
  void nearest(const Eigen::Vector3d& x, int k, std::vector<Neighbour>& out) const;
  // Every point at distance < radius (strictly: nanoflann's test), closest
  // first, into `out` (cleared).
  void within(const Eigen::Vector3d& x, double radius, std::vector<Neighbour>& out) const;

 private:
  struct Tree;
  std::unique_ptr<Tree> tree_;
};

}  // namespace contactref::quasi_rigid
