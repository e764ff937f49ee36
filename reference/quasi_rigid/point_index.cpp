#include "reference/quasi_rigid/point_index.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nanoflann.hpp>
#include <string>

#include "core/errors.hpp"

namespace contactref::quasi_rigid {

// nanoflann's dataset interface over the owned points.
struct PointIndex::Tree {
  std::vector<Eigen::Vector3d> points;

  std::size_t kdtree_get_point_count() const { return points.size(); }
  double kdtree_get_pt(std::size_t i, std::size_t axis) const { return points[i][static_cast<Eigen::Index>(axis)]; }
  template <class Box> bool kdtree_get_bbox(Box&) const { return false; }

  using KdTree = nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<double, Tree>, Tree, 3, std::size_t>;
  KdTree kd;

  explicit Tree(std::vector<Eigen::Vector3d> pts)
      : points(std::move(pts)), kd(3, *this, nanoflann::KDTreeSingleIndexAdaptorParams(16)) {}
};

PointIndex::PointIndex(std::vector<Eigen::Vector3d> points) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) throw InputError("point index: point " + std::to_string(i) + " is not finite");
  }
  tree_ = std::make_unique<Tree>(std::move(points));
}

PointIndex::~PointIndex() = default;
PointIndex::PointIndex(PointIndex&&) noexcept = default;
PointIndex& PointIndex::operator=(PointIndex&&) noexcept = default;

int PointIndex::size() const { return static_cast<int>(tree_->points.size()); }
const std::vector<Eigen::Vector3d>& PointIndex::points() const { return tree_->points; }

Neighbour PointIndex::nearest(const Eigen::Vector3d& x) const {
  check_invariant(size() > 0, "PointIndex::nearest needs a point");
  std::size_t index = 0;
  double distance_sq = 0;
  tree_->kd.knnSearch(x.data(), 1, &index, &distance_sq);
  return {static_cast<int>(index), distance_sq};
}

void PointIndex::nearest(const Eigen::Vector3d& x, int k, std::vector<Neighbour>& out) const {
  out.clear();
  if (k <= 0 || size() == 0) return;
  const auto wanted = static_cast<std::size_t>(std::min(k, size()));
  // nanoflann's arrays, kept per thread (the MLS projections query for every
  // active sample, twice or more).
  thread_local std::vector<std::size_t> indices;
  thread_local std::vector<double> distances_sq;
  indices.resize(wanted);
  distances_sq.resize(wanted);
  const std::size_t found = tree_->kd.knnSearch(x.data(), wanted, indices.data(), distances_sq.data());
  out.reserve(found);
  for (std::size_t i = 0; i < found; ++i) out.push_back({static_cast<int>(indices[i]), distances_sq[i]});
}

void PointIndex::within(const Eigen::Vector3d& x, double radius, std::vector<Neighbour>& out) const {
  out.clear();
  if (!(radius >= 0) || size() == 0) return;
  thread_local std::vector<std::pair<std::size_t, double>> matches;  // nanoflann's, kept as nearest's
  tree_->kd.radiusSearch(x.data(), radius * radius, matches, nanoflann::SearchParams(32, 0.0F, true));
  out.reserve(matches.size());
  for (const auto& [index, distance_sq] : matches) out.push_back({static_cast<int>(index), distance_sq});
}

namespace {

// nanoflann's result set for any_within: its worst distance stays the
// radius's, and the first point found ends the search.
struct AnyWithin {
  double radius_sq;
  bool found = false;
  double worstDist() const { return radius_sq; }
  bool full() const { return found; }
  bool addPoint(double, std::size_t) {
    found = true;
    return false;
  }
};

}  // namespace

bool PointIndex::any_within(const Eigen::Vector3d& x, double radius) const {
  if (!(radius > 0) || size() == 0) return false;
  AnyWithin result{radius * radius};
  tree_->kd.findNeighbors(result, x.data(), nanoflann::SearchParams());
  return result.found;
}

const std::vector<Neighbour>& MovingNearest::at(const Eigen::Vector3d& y) {
  if (k_ <= 0) {
    near_.clear();
    return near_;
  }
  if (!((y - anchor_).norm() < reach_)) {
    index_.nearest(y, k_ + 1, queried_);
    ++queries_;
    anchor_ = y;
    const auto k = static_cast<std::size_t>(k_);
    if (queried_.size() <= k) {
      reach_ = std::numeric_limits<double>::infinity();  // every point is among them
    } else {
      const double d_k = std::sqrt(queried_[k - 1].distance_sq), d_next = std::sqrt(queried_[k].distance_sq);
      reach_ = (d_next - d_k) / 2 - 1e-12 * d_next;
    }
    near_.assign(queried_.begin(), queried_.begin() + static_cast<std::ptrdiff_t>(std::min(k, queried_.size())));
    return near_;
  }
  const std::vector<Eigen::Vector3d>& points = index_.points();
  for (Neighbour& n : near_) {
    const Eigen::Vector3d& p = points[static_cast<std::size_t>(n.index)];
    double distance_sq = 0;
    for (Eigen::Index axis = 0; axis < 3; ++axis) {
      const double difference = y(axis) - p(axis);
      distance_sq += difference * difference;
    }
    n.distance_sq = distance_sq;
  }
  std::stable_sort(near_.begin(), near_.end(),
                   [](const Neighbour& a, const Neighbour& b) { return a.distance_sq < b.distance_sq; });
  return near_;
}

}  // namespace contactref::quasi_rigid
