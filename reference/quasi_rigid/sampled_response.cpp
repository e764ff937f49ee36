#include "reference/quasi_rigid/sampled_response.hpp"

#include <Eigen/Geometry>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/errors.hpp"
#include "reference/quasi_rigid/avx2_kernels.hpp"
#include "reference/quasi_rigid/radial_rule.hpp"

namespace contactref::quasi_rigid {
namespace {

// The columns that reach one block of rows (FarColumns' arrays).
class ReachingColumns {
 public:
  void clear() {
    x_.clear(), y_.clear(), z_.clear(), moment_.clear(), load_.clear(), own_.clear();
  }
  void add(const Eigen::Vector3d& q, float moment, double load, int own) {
    x_.push_back(q.x()), y_.push_back(q.y()), z_.push_back(q.z());
    moment_.push_back(moment), load_.push_back(load), own_.push_back(own);
  }
  FarColumns columns() const {
    return {x_.data(), y_.data(), z_.data(), moment_.data(), load_.data(), own_.data(), static_cast<long>(x_.size())};
  }

 private:
  std::vector<double> x_, y_, z_, load_;
  std::vector<float> moment_;
  std::vector<int> own_;
};

}  // namespace

// cos(0.5): the turn of the normals past which the tangent plane no longer
// stands for the surface (near_field_radius), and the sharp edge beside which
// a gap is not a rim (on_rim).
constexpr double kMaxTurnCos = 0.8775825618903728;

SurfaceSampling::SurfaceSampling(const MlsSurface& surface, const SampledShepard& shepard)
    : surface_(&surface), shepard_(shepard) {
  const int n = surface.index().size();
  std::ostringstream bad;
  if (!(std::isfinite(shepard.width) && shepard.width > 0 && std::isfinite(shepard.support) &&
        shepard.support >= shepard.width)) {
    bad << "Shepard kernels: need 0 < width <= support (finite), got width " << shepard.width << ", support "
        << shepard.support;
  } else if (shepard.spacing_neighbours < 1) {
    bad << "Shepard kernels: spacing_neighbours must be >= 1, got " << shepard.spacing_neighbours;
  } else if (shepard.spacing_neighbours >= n) {
    bad << surface.samples().name << ": " << n << " samples, too few for Shepard kernels spaced by "
        << shepard.spacing_neighbours << " neighbours (at least " << shepard.spacing_neighbours + 1 << ")";
  } else if (shepard.angles < 8) {
    bad << "Shepard kernels: need at least 8 angles, got " << shepard.angles;
  }
  if (!bad.str().empty()) throw InputError(bad.str());

  spacing_.resize(n);
  tbb::parallel_for(tbb::blocked_range<int>(0, n), [&](const tbb::blocked_range<int>& samples) {
    std::vector<Neighbour> near;
    for (int k = samples.begin(); k != samples.end(); ++k) {
      surface.index().nearest(surface.samples().points[static_cast<std::size_t>(k)], shepard.spacing_neighbours + 1, near);
      double sum = 0;
      for (std::size_t m = 1; m < near.size(); ++m) sum += std::sqrt(near[m].distance_sq);  // near[0] is k itself
      spacing_(k) = sum / shepard.spacing_neighbours;
    }
  });
  for (int k = 0; k < n; ++k) {
    if (!(spacing_(k) > 0)) {
      throw InputError(surface.samples().name + ": sample " + std::to_string(k) + " coincides with its " +
                       std::to_string(shepard.spacing_neighbours) + " nearest samples (no spacing)");
    }
  }
  largest_support_ = shepard.support * spacing_.maxCoeff();
  areas_ = Eigen::VectorXd::Zero(n);
  second_moments_ = Eigen::VectorXd::Zero(n);
  tbb::parallel_for(tbb::blocked_range<int>(0, n), [&](const tbb::blocked_range<int>& samples) {
    for (int k = samples.begin(); k != samples.end(); ++k) {
      // Phi_k whole: the kernels centred at q_k (g(r) = r^3: r^2 times the Jacobian).
      integrate_about(k, 0.0, [](double r) { return r * r * r; }, [&](int j, double moment, double mass) {
        if (j != k) return;
        areas_(k) = mass;
        second_moments_(k) = moment;
      });
    }
  });
  rim_.assign(static_cast<std::size_t>(n), 0);
  tbb::parallel_for(tbb::blocked_range<int>(0, n), [&](const tbb::blocked_range<int>& samples) {
    std::vector<Neighbour> near;
    std::vector<double> angles;
    for (int k = samples.begin(); k != samples.end(); ++k) rim_[static_cast<std::size_t>(k)] = on_rim(k, near, angles);
  });
}

bool SurfaceSampling::on_rim(int k, std::vector<Neighbour>& near, std::vector<double>& angles) const {
  // An interior sample's neighbours surround it: on a lattice the widest gap
  // between their directions is 45 degrees, on a Poisson-disk sampling well
  // under 120; on an open patch's edge it is 180, at a corner 270.
  constexpr double kWidestGap = 150 * std::numbers::pi / 180;
  const SurfaceSamples& samples = surface_->samples();
  const Eigen::Vector3d& q = samples.points[static_cast<std::size_t>(k)];
  const Eigen::Vector3d& n = samples.normals[static_cast<std::size_t>(k)];
  const Eigen::Vector3d t_u = n.unitOrthogonal(), t_v = n.cross(t_u);
  surface_->index().within(q, kRimReach * spacing_(k), near);
  angles.clear();
  for (const Neighbour& m : near) {
    // Beside a sharp edge the surface folds away: the next face's samples
    // project onto the edge's line and leave a gap, but the surface goes on.
    if (samples.normals[static_cast<std::size_t>(m.index)].dot(n) < kMaxTurnCos) return false;
    const Eigen::Vector3d d = samples.points[static_cast<std::size_t>(m.index)] - q;
    if (d.dot(t_u) != 0 || d.dot(t_v) != 0) angles.push_back(std::atan2(d.dot(t_v), d.dot(t_u)));
  }
  if (angles.empty()) return true;
  std::sort(angles.begin(), angles.end());
  double widest = angles.front() + 2 * std::numbers::pi - angles.back();
  for (std::size_t m = 1; m < angles.size(); ++m) widest = std::max(widest, angles[m] - angles[m - 1]);
  return widest > kWidestGap;
}

template <class G, class Visit>
void SurfaceSampling::integrate_about(int i, double radius, const G& g, const Visit& visit) const {
  const SurfaceSamples& samples = surface_->samples();
  const Eigen::Vector3d& q = samples.points[static_cast<std::size_t>(i)];
  const Eigen::Vector3d& n = samples.normals[static_cast<std::size_t>(i)];
  const Eigen::Vector3d t_u = n.unitOrthogonal(), t_v = n.cross(t_u);

  // The samples whose kernels can reach the disk of the whole kernels'
  // supports, projected into the plane; the whole kernels among them, and
  // the disk.
  std::vector<Neighbour> near;
  surface_->index().within(q, radius + 2 * largest_support_, near);
  const std::size_t count = near.size();
  std::vector<Eigen::Vector2d> at(count);
  std::vector<double> s2(count), rho2(count), integral(count, 0.0), mass(count, 0.0);
  std::vector<char> whole(count, 0);
  double disk = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const Eigen::Vector3d d = samples.points[static_cast<std::size_t>(near[k].index)] - q;
    at[k] = {d.dot(t_u), d.dot(t_v)};
    const double s = shepard_.width * spacing_(near[k].index), rho = shepard_.support * spacing_(near[k].index);
    s2[k] = 2 * s * s;
    rho2[k] = rho * rho;
    whole[k] = at[k].squaredNorm() <= radius * radius;
    if (whole[k]) disk = std::max(disk, at[k].norm() + rho);
  }
  // The radial points are the same on every ray: their r, weight and g(r) once.
  const int segments = std::max(1, static_cast<int>(std::ceil(disk / spacing_(i))));
  // The angles resolve the rim as they do at six spacings (near = 4 and the
  // kernels' support of 2: 32 angles, about 1.2 h_i apart there).
  const int angles = std::max(shepard_.angles, static_cast<int>(std::ceil(shepard_.angles * disk / (6 * spacing_(i)))));
  const double d_theta = 2 * std::numbers::pi / angles;
  std::vector<double> r_at, w_at, g_at;
  for_each_radial_point(disk, segments, [&](double r, double radial_weight) {
    r_at.push_back(r);
    w_at.push_back(radial_weight * d_theta);
    g_at.push_back(g(r));
  });
  // The rule visits the segments in order, each segment's points together.
  const double length = disk / segments;
  const std::size_t per_segment = r_at.size() / static_cast<std::size_t>(segments);
  std::vector<double> sum(r_at.size());
  struct Reach {
    std::size_t point, k;
    double omega;
  };
  std::vector<Reach> reaches;  // on one ray: grouped by kernel, each kernel's points in the rule's order
  for (int a = 0; a < angles; ++a) {
    const Eigen::Vector2d e(std::cos(a * d_theta), std::sin(a * d_theta));
    std::fill(sum.begin(), sum.end(), 0.0);
    reaches.clear();
    for (std::size_t k = 0; k < count; ++k) {
      // Kernel k's disk meets the ray where |r - t| < sqrt(rho^2 - p^2) (t
      // along it, p across): the points there, with a slack far above the
      // round-off of p^2 = |q_k|^2 - t^2; the exact test below decides.
      const double t = at[k].dot(e), slack = 1e-9 * (at[k].squaredNorm() + rho2[k]);
      const double half2 = rho2[k] - (at[k].squaredNorm() - t * t) + slack;
      if (!(half2 > 0)) continue;
      const double half = std::sqrt(half2);
      // The segments the chord meets, their points in the rule's order (as a
      // sum over the ray's points adds them).
      const double first = std::max(0.0, std::floor((t - half) / length));
      const double last = std::min(static_cast<double>(segments - 1), std::floor((t + half) / length));
      if (first > last) continue;
      const std::size_t end = (static_cast<std::size_t>(last) + 1) * per_segment;
      for (std::size_t m = static_cast<std::size_t>(first) * per_segment; m < end; ++m) {
        if (!(std::abs(r_at[m] - t) < half)) continue;
        const Eigen::Vector2d x = r_at[m] * e;
        const double d2 = (at[k] - x).squaredNorm();
        if (d2 >= rho2[k]) continue;
        const double omega = std::exp(-d2 / s2[k]);
        sum[m] += omega;
        reaches.push_back({m, k, omega});
      }
    }
    for (const Reach& reach : reaches) {
      if (!whole[reach.k]) continue;
      const std::size_t m = reach.point;
      const double w_g = w_at[m] * g_at[m] / sum[m], w_mass = w_at[m] * r_at[m] / sum[m];
      integral[reach.k] += w_g * reach.omega;
      mass[reach.k] += w_mass * reach.omega;
    }
  }
  for (std::size_t k = 0; k < count; ++k) {
    if (whole[k] && mass[k] > 0) visit(near[k].index, integral[k], mass[k]);
  }
}

double SurfaceSampling::near_field_radius(int i, double near) const {
  // The tangent plane stands for the surface while the normals turn by less
  // than 0.5 rad (kMaxTurnCos: the surface leaves the plane by about r^2 / (2 rho)
  // < r / 4 there). On a surface curved within the disk (a toe sampled at a
  // few spacings per radius of curvature) the projected samples would pile up
  // and the response loses positivity: the whole kernels stop a support
  // short of the nearest sample whose normal turns more, but never inside
  // one spacing (the nearest kernels overlap q_i, where the midpoint rule
  // cannot stand for them: cut to the self-term alone, a coarse level's LCP
  // lost its solution).
  const SurfaceSamples& samples = surface_->samples();
  const Eigen::Vector3d& q_i = samples.points[static_cast<std::size_t>(i)];
  const Eigen::Vector3d& n_i = samples.normals[static_cast<std::size_t>(i)];
  const double support = shepard_.support * spacing_(i);
  double radius = near * spacing_(i);
  std::vector<Neighbour> within;
  surface_->index().within(q_i, radius + support, within);
  for (const Neighbour& n : within) {
    if (samples.normals[static_cast<std::size_t>(n.index)].dot(n_i) < kMaxTurnCos) {
      radius = std::min(radius, std::sqrt(n.distance_sq) - support);
    }
  }
  return std::max(radius, spacing_(i));
}

std::shared_ptr<const SurfaceSampling::NearRow> SurfaceSampling::near_row(int i, const ResponseKernel& kernel,
                                                                           double near) const {
  const std::tuple<int, double, double> key{static_cast<int>(kernel.kind), kernel.sigma, near};
  {
    const std::lock_guard<std::mutex> lock(cache_mutex_);
    if (key != cache_key_) {
      near_rows_.assign(static_cast<std::size_t>(surface_->index().size()), nullptr);
      cache_key_ = key;
    }
    if (near_rows_[static_cast<std::size_t>(i)]) return near_rows_[static_cast<std::size_t>(i)];
  }
  const ResponseKernel unit{kernel.kind, 1.0, kernel.sigma};
  auto row = std::make_shared<NearRow>();
  integrate_about(i, near_field_radius(i, near), [&](double r) { return unit.times_r(r); },
                  [&](int j, double integral, double) { row->push_back({j, integral}); });
  const std::lock_guard<std::mutex> lock(cache_mutex_);
  if (key == cache_key_ && !near_rows_[static_cast<std::size_t>(i)]) near_rows_[static_cast<std::size_t>(i)] = row;
  return row;
}

Eigen::MatrixXd SurfaceSampling::response(const std::vector<int>& nodes, const ResponseKernel& kernel,
                                          double near) const {
  return response(nodes, nodes, kernel, near);
}

SurfaceSampling::Positions SurfaceSampling::checked_positions(const std::vector<int>& rows,
                                                              const std::vector<int>& nodes,
                                                              const ResponseKernel& kernel, double near) const {
  kernel.check("sampled response");
  if (!(std::isfinite(near) && near >= shepard_.support)) {
    throw InputError("sampled response: the near field's radius (" + std::to_string(near) +
                     " spacings) must be finite and at least the kernels' support (" +
                     std::to_string(shepard_.support) + ")");
  }
  const int sample_count = surface_->index().size();
  Positions positions{std::vector<Eigen::Index>(static_cast<std::size_t>(sample_count), -1),
                      std::vector<Eigen::Index>(static_cast<std::size_t>(sample_count), -1)};
  const auto place = [&](const std::vector<int>& samples, const char* what, std::vector<Eigen::Index>& position) {
    for (std::size_t k = 0; k < samples.size(); ++k) {
      if (samples[k] < 0 || samples[k] >= sample_count) {
        throw InputError(std::string("sampled response: ") + what + " " + std::to_string(samples[k]) +
                         " is not a sample (0.." + std::to_string(sample_count - 1) + ")");
      }
      Eigen::Index& at = position[static_cast<std::size_t>(samples[k])];
      if (at >= 0) {
        throw InputError(std::string("sampled response: sample ") + std::to_string(samples[k]) + " is named twice (" +
                         what + "s)");
      }
      at = static_cast<Eigen::Index>(k);
    }
  };
  place(nodes, "node", positions.column);
  place(rows, "row", positions.row);
  return positions;
}

Eigen::ArrayX3d SurfaceSampling::row_points(const std::vector<int>& rows) const {
  Eigen::ArrayX3d at(static_cast<Eigen::Index>(rows.size()), 3);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    at.row(static_cast<Eigen::Index>(k)) = surface_->samples().points[static_cast<std::size_t>(rows[k])].transpose().array();
  }
  return at;
}

template <class T>
bool SurfaceSampling::far_kernel(const RowBlocks& blocks, Eigen::Index b, Eigen::Index self, int j,
                                 const ResponseKernel& kernel, Eigen::Ref<Eigen::Matrix<T, Eigen::Dynamic, 1>> f) const {
  const Eigen::Vector3d& q_j = surface_->samples().points[static_cast<std::size_t>(j)];
  const double reach = kernel.far_reach();
  if (blocks.distance_sq(b, q_j) > reach * reach) return false;
  const auto at = blocks.sorted().middleRows(blocks.first(b), blocks.size(b));
  f.array() = ((at.col(0) - q_j.x()).square() + (at.col(1) - q_j.y()).square() + (at.col(2) - q_j.z()).square())
                  .template cast<T>();
  kernel.f_of_squared(f, far_moment(j));
  const Eigen::Index own = self - blocks.first(b);
  if (self >= 0 && own >= 0 && own < f.size()) f(own) = 0;
  return true;
}

template <class Visit>
void SurfaceSampling::near_field(const std::vector<int>& rows, const std::vector<int>& nodes,
                                 const std::vector<Eigen::Index>& column, const ResponseKernel& kernel,
                                 double near, const Visit& visit) const {
  if (nodes.empty()) return;
  const std::vector<Eigen::Vector3d>& points = surface_->samples().points;
  std::vector<Eigen::Vector3d> node_points;
  for (int j : nodes) node_points.push_back(points[static_cast<std::size_t>(j)]);
  const PointIndex node_index(std::move(node_points));
  // Row by row, each on one thread (visit writes the row's entries only).
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows.size()), [&](const tbb::blocked_range<std::size_t>& range) {
    for (std::size_t row = range.begin(); row != range.end(); ++row) {
      const int i = rows[row];
      const Eigen::Vector3d& q_i = points[static_cast<std::size_t>(i)];
      // The quadrature only where a column's kernel reaches the disk
      // (near_field_radius is at most near h_i): a row far from every column
      // is the midpoint rule alone.
      const double reach = near * spacing_(i) + largest_support_;
      if (!node_index.any_within(q_i, reach)) continue;
      for (const NearEntry& entry : *near_row(i, kernel, near)) {
        const Eigen::Index c = column[static_cast<std::size_t>(entry.j)];
        if (c >= 0) visit(row, c, kernel.compliance * entry.integral);
      }
    }
  });
}

Eigen::MatrixXd SurfaceSampling::response(const std::vector<int>& rows, const std::vector<int>& nodes,
                                          const ResponseKernel& kernel, double near) const {
  const Positions positions = checked_positions(rows, nodes, kernel, near);
  const auto row_count = static_cast<Eigen::Index>(rows.size()), column_count = static_cast<Eigen::Index>(nodes.size());
  Eigen::MatrixXd R;
  {
    const std::lock_guard<std::mutex> lock(cache_mutex_);
    // A spare of another size is let go first: at most one matrix at a time.
    if (spare_response_.size() == row_count * column_count) R = std::move(spare_response_);
    spare_response_ = Eigen::MatrixXd();
  }
  R.resize(row_count, column_count);  // keeps the spare's storage: the same number of entries
  const RowBlocks blocks(row_points(rows));
  // On a processor with AVX2, its kernel (avx2_kernels.hpp) for the blocks
  // within reach.
  const bool vectorised = avx2_kernels_available();
  const FarKernelTerms terms = kernel.far_terms();
  const double reach = kernel.far_reach();
  // Column by column (R is column-major), each on one thread, every entry
  // written once (the foot's R is some 60 MB: a fresh matrix's pages are
  // touched in parallel).
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, nodes.size()), [&](const tbb::blocked_range<std::size_t>& columns) {
    Eigen::VectorXd f(RowBlocks::kRows);
    for (std::size_t c = columns.begin(); c != columns.end(); ++c) {
      const int j = nodes[c];
      const Eigen::Vector3d& q_j = surface_->samples().points[static_cast<std::size_t>(j)];
      const Eigen::Index own = positions.row[static_cast<std::size_t>(j)];
      const Eigen::Index self = own >= 0 ? blocks.position()[static_cast<std::size_t>(own)] : -1;
      for (Eigen::Index b = 0; b < blocks.count(); ++b) {
        auto f_b = f.head(blocks.size(b));
        if (vectorised && !(blocks.distance_sq(b, q_j) > reach * reach)) {
          const auto at = blocks.sorted().middleRows(blocks.first(b), blocks.size(b));
          const Eigen::Index own_b = self >= 0 ? self - blocks.first(b) : -1;
          far_column_avx2(at.col(0).data(), at.col(1).data(), at.col(2).data(), static_cast<long>(f_b.size()), q_j.data(),
                          far_moment(j), areas_(j), static_cast<long>(own_b), terms, f_b.data());
        } else if (!vectorised && far_kernel<double>(blocks, b, self, j, kernel, f_b)) {
          f_b *= areas_(j);
        } else {
          f_b.setZero();  // beyond the kernel's reach
        }
        for (Eigen::Index k = 0; k < f_b.size(); ++k) {
          R(blocks.row()[static_cast<std::size_t>(blocks.first(b) + k)], static_cast<Eigen::Index>(c)) = f_b(k);
        }
      }
    }
  });
  near_field(rows, nodes, positions.column, kernel, near, [&](std::size_t row, Eigen::Index c, double near_value) {
    R(static_cast<Eigen::Index>(row), c) = near_value;
  });
  return R;
}

void SurfaceSampling::recycle(Eigen::MatrixXd&& R) const {
  const std::lock_guard<std::mutex> lock(cache_mutex_);
  spare_response_ = std::move(R);
}

Eigen::VectorXd SurfaceSampling::displacement(const std::vector<int>& rows, const std::vector<int>& nodes,
                                              const Eigen::VectorXd& traction, const ResponseKernel& kernel,
                                              double near, FarPrecision precision) const {
  if (traction.size() != static_cast<Eigen::Index>(nodes.size())) {
    throw InputError("sampled response: " + std::to_string(traction.size()) + " tractions for " +
                     std::to_string(nodes.size()) + " nodes");
  }
  const Positions positions = checked_positions(rows, nodes, kernel, near);
  // Only the loaded nodes move anything.
  std::vector<int> loaded;
  std::vector<double> p;
  for (std::size_t c = 0; c < nodes.size(); ++c) {
    if (traction(static_cast<Eigen::Index>(c)) == 0) continue;
    loaded.push_back(nodes[c]);
    p.push_back(traction(static_cast<Eigen::Index>(c)));
  }
  std::vector<Eigen::Index> column(surface_->samples().points.size(), -1);
  for (std::size_t c = 0; c < loaded.size(); ++c) column[static_cast<std::size_t>(loaded[c])] = static_cast<Eigen::Index>(c);
  Eigen::VectorXd u = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rows.size()));
  const RowBlocks blocks(row_points(rows));
  std::vector<Eigen::Index> self(loaded.size(), -1);  // each loaded sample's sorted row position, or -1
  for (std::size_t c = 0; c < loaded.size(); ++c) {
    const Eigen::Index own = positions.row[static_cast<std::size_t>(loaded[c])];
    if (own >= 0) self[c] = blocks.position()[static_cast<std::size_t>(own)];
  }
  // In single precision on a processor with AVX2, its kernel
  // (avx2_kernels.hpp) over each block's columns within reach.
  const bool vectorised = precision == FarPrecision::kSingle && avx2_kernels_available();
  const FarKernelTerms terms = kernel.far_terms();
  const double reach = kernel.far_reach();
  // Block by block, each on one thread, its rows summed over the loaded
  // columns in their order.
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, blocks.count()), [&](const tbb::blocked_range<Eigen::Index>& range) {
    Eigen::VectorXd f(RowBlocks::kRows), u_b(RowBlocks::kRows);
    Eigen::VectorXf f_single(RowBlocks::kRows);
    ReachingColumns reaching;
    for (Eigen::Index b = range.begin(); b != range.end(); ++b) {
      auto f_b = f.head(blocks.size(b));
      auto f_single_b = f_single.head(blocks.size(b));
      auto sum = u_b.head(blocks.size(b));
      sum.setZero();
      if (vectorised) {
        reaching.clear();
        for (std::size_t c = 0; c < loaded.size(); ++c) {
          const Eigen::Vector3d& q_j = surface_->samples().points[static_cast<std::size_t>(loaded[c])];
          if (blocks.distance_sq(b, q_j) > reach * reach) continue;
          const Eigen::Index own = self[c] - blocks.first(b);
          reaching.add(q_j, static_cast<float>(far_moment(loaded[c])), p[c] * areas_(loaded[c]),
                       self[c] >= 0 && own >= 0 && own < sum.size() ? static_cast<int>(own) : -1);
        }
        const auto at = blocks.sorted().middleRows(blocks.first(b), blocks.size(b));
        add_far_field_avx2(at.col(0).data(), at.col(1).data(), at.col(2).data(), static_cast<long>(sum.size()),
                           reaching.columns(), terms, sum.data());
      } else {
        for (std::size_t c = 0; c < loaded.size(); ++c) {
          const double load = p[c] * areas_(loaded[c]);
          if (precision == FarPrecision::kSingle) {
            if (far_kernel<float>(blocks, b, self[c], loaded[c], kernel, f_single_b)) sum += load * f_single_b.cast<double>();
          } else if (far_kernel<double>(blocks, b, self[c], loaded[c], kernel, f_b)) {
            sum += load * f_b;
          }
        }
      }
      for (Eigen::Index k = 0; k < sum.size(); ++k) u(blocks.row()[static_cast<std::size_t>(blocks.first(b) + k)]) = sum(k);
    }
  });
  // The near field replaces the midpoint rule there (where far_kernel
  // skipped a pair past far_reach, `midpoint` is below its bound).
  near_field(rows, loaded, column, kernel, near, [&](std::size_t row, Eigen::Index c, double near_value) {
    const int i = rows[row], j = loaded[static_cast<std::size_t>(c)];
    const double r = (surface_->samples().points[static_cast<std::size_t>(j)] -
                      surface_->samples().points[static_cast<std::size_t>(i)]).norm();
    const double midpoint = i == j ? 0.0 : kernel.f_corrected(r, far_moment(j)) * areas_(j);
    u(static_cast<Eigen::Index>(row)) += p[static_cast<std::size_t>(c)] * (near_value - midpoint);
  });
  return u;
}

}  // namespace contactref::quasi_rigid
