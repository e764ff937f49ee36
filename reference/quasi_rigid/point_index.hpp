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
  // Whether some point is at distance < radius: nearest(x).distance_sq <
  // radius^2 (the same sums), the search ending at the first such point and
  // never looking past the radius.
  bool any_within(const Eigen::Vector3d& x, double radius) const;

 private:
  struct Tree;
  std::unique_ptr<Tree> tree_;
};

// The k nearest points of a point that moves (an iterative projection's
// iterate): queried with one more about an anchor, where d_k and d_k+1 are
// the k-th and the (k+1)-th distances, and reused while the point stays
// within (d_k+1 - d_k) / 2 of the anchor (less 1e-12 d_k+1 for rounding): by
// the triangle inequality no other point can then come nearer than one of
// the k. Their squared distances are then taken from the point (nanoflann's
// sum, in its order) and sorted, closest first: a fresh query's neighbours,
// at the cost of k distances.
class MovingNearest {
 public:
  // `index` must outlive this object.
  MovingNearest(const PointIndex& index, int k) : index_(index), k_(k) {}

  // The min(k, size) points closest to y, closest first (ties: in the
  // order of the last query), valid until the next call.
  const std::vector<Neighbour>& at(const Eigen::Vector3d& y);
  // The k-d tree queries made so far (the other calls reused one).
  int queries() const { return queries_; }

 private:
  const PointIndex& index_;
  int k_;
  int queries_ = 0;
  std::vector<Neighbour> queried_, near_;
  Eigen::Vector3d anchor_ = Eigen::Vector3d::Zero();
  double reach_ = -1;  // how far the point may move from the anchor (none yet)
};

}  // namespace contactref::quasi_rigid
