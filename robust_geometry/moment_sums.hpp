#pragma once
// The sums behind the double-precision intersection moments (Bouchard et al.
// Eqs. 14-16 and the volume gradient), shared by the half-space path
// (halfspace_moments.hpp) and the convex path (convex_moments.hpp): both
// integrate over the boundary pieces of the intersection by the divergence
// theorem, as tetrahedra with apex o (the coordinates y relative to o).
//
// Per piece p0 p1 p2 (y, counter-clockwise seen from outside), with
// s = p0 + p1 + p2 and 2N = (p1 - p0) × (p2 - p0):
//   D = p0 · 2N (= p0 · (p1 × p2), better conditioned for small pieces),
//   volume += D,  first += D s,  second += D (Σ p_i p_i^T + s s^T)
//   (xx yy zz xy xz yz),  area += 2N,  moment += s × 2N.
// Scaled once at the end: V = Σ D / 6, ∫ y = Σ D s / 24,
// ∫ y y^T = Σ / 120, ∫ n dA = Σ 2N / 2, ∫ y × n dA = Σ s × 2N / 6.
#include <cstddef>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "robust_geometry/intersection_volume.hpp"

namespace contactref::robust_geometry::detail {

struct MomentSums {
  double volume = 0;
  double volume_abs = 0;  // Σ |D|: the scale of volume's rounding error
  Eigen::Vector3d first = Eigen::Vector3d::Zero();
  Vector6d second = Vector6d::Zero();
  Eigen::Vector3d area = Eigen::Vector3d::Zero();
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();

  // A piece of a surface that bounds no volume of its own (the gradient's
  // integrals only).
  void add_gradient(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, const Eigen::Vector3d& p2) {
    const Eigen::Vector3d n2 = (p1 - p0).cross(p2 - p0);
    area += n2;
    moment += (p0 + p1 + p2).cross(n2);
  }

  void add_piece(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, const Eigen::Vector3d& p2) {
    const Eigen::Vector3d n2 = (p1 - p0).cross(p2 - p0);
    const Eigen::Vector3d s = p0 + p1 + p2;
    const double d = p0.dot(n2);
    volume += d;
    volume_abs += std::abs(d);
    first += d * s;
    const auto pp = [&](Eigen::Index i, Eigen::Index j) {
      return p0(i) * p0(j) + p1(i) * p1(j) + p2(i) * p2(j) + s(i) * s(j);
    };
    second += d * (Vector6d() << pp(0, 0), pp(1, 1), pp(2, 2), pp(0, 1), pp(0, 2), pp(1, 2)).finished();
    area += n2;
    moment += s.cross(n2);
  }

  void add(const MomentSums& o) {
    volume += o.volume;
    volume_abs += o.volume_abs;
    first += o.first;
    second += o.second;
    area += o.area;
    moment += o.moment;
  }

  // (∫ y × n dA ; ∫ n dA) over the pieces, y relative to o.
  Vector6d gradient_about_o() const {
    Vector6d g;
    g << moment / 6, area / 2;
    return g;
  }
};

// Pairwise summation of pieces: blocks of kBlock pieces summed naively, the
// blocks' sums combined by a binary counter (error ~ (kBlock + log2 blocks)
// eps instead of pieces eps; measured on the 197k-triangle bumpy cube's
// half-space cut: the volume's error against the exact path drops from
// 1.5e-15 to ~3e-16, the cap area's from 3e-14 to ~4e-16).
class PairwiseMomentSums {
 public:
  static constexpr int kBlock = 16;

  void add_piece(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, const Eigen::Vector3d& p2) {
    block_.add_piece(p0, p1, p2);
    ++pieces_;
    if (++in_block_ == kBlock) flush_block();
  }
  std::size_t pieces() const { return pieces_; }
  MomentSums total() {
    flush_block();
    MomentSums sum;
    for (std::size_t level = 0; level < partial_.size(); ++level)
      if (occupied_[level]) sum.add(partial_[level]);
    return sum;
  }

 private:
  void flush_block() {
    MomentSums carry = block_;
    block_ = MomentSums();
    in_block_ = 0;
    std::size_t level = 0;
    while (level < occupied_.size() && occupied_[level]) {
      carry.add(partial_[level]);
      occupied_[level] = false;
      ++level;
    }
    if (level == occupied_.size()) {
      partial_.emplace_back();
      occupied_.push_back(false);
    }
    partial_[level] = carry;
    occupied_[level] = true;
  }

  MomentSums block_;
  int in_block_ = 0;
  std::size_t pieces_ = 0;
  std::vector<MomentSums> partial_;  // partial_[k]: the sum of 2^k blocks
  std::vector<bool> occupied_;
};

// V, c, C, M and the principal shape (Eqs. 14-20) from the sums of a closed
// boundary about o, into result (kind and gradient untouched). V > 0.
inline void set_volume_moments(IntersectionMoments& result, const MomentSums& total, const Eigen::Vector3d& o) {
  const double volume = total.volume / 6;             // Eq. 14
  const Eigen::Vector3d first = total.first / 24;     // ∫ y
  const Eigen::Vector3d c_o = first / volume;         // Eq. 15, relative to o
  result.volume = volume;
  result.centroid = o + c_o;
  const Vector6d sec = total.second / 120;  // ∫ y y^T
  Eigen::Matrix3d yy;
  yy << sec(0), sec(3), sec(4), sec(3), sec(1), sec(5), sec(4), sec(5), sec(2);
  const Eigen::Matrix3d C = yy - first * c_o.transpose();  // ∫ (y - c)(y - c)^T = ∫ y y^T - V c c^T
  result.covariance = (C + C.transpose()) / 2;
  result.second_moment = result.covariance.trace() * Eigen::Matrix3d::Identity() - result.covariance;  // Eq. 16
  fill_principal_shape(result);
}

}  // namespace contactref::robust_geometry::detail
