#include "reference/quasi_rigid/contact_plane_grid.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <tuple>

#include "core/errors.hpp"
#include "reference/quasi_rigid/fft_half_space.hpp"

namespace contactref::quasi_rigid {

namespace {

using Basis = Eigen::Matrix<double, 6, 1>;  // 1, x, y, x^2, x y, y^2 (x, y in cells)

Basis quadratic(double x, double y) { return (Basis() << 1, x, y, x * x, x * y, y * y).finished(); }

}  // namespace

ContactPlaneGrid::ContactPlaneGrid(const PlaneSamples& s, double cell, const std::string& where) : cell_(cell) {
  const auto n = static_cast<Eigen::Index>(s.points.size());
  samples_ = static_cast<int>(n);
  std::ostringstream bad;
  if (!(std::isfinite(cell) && cell > 0)) {
    bad << where << ": the FFT grid's spacing must be finite and > 0 (m), got " << cell;
  } else if (static_cast<Eigen::Index>(s.normals.size()) != n || s.area.size() != n || s.spacing.size() != n ||
             s.gap.size() != n) {
    bad << where << ": " << n << " sample points but " << s.normals.size() << " normals, " << s.area.size()
        << " areas, " << s.spacing.size() << " spacings and " << s.gap.size() << " gaps";
  }
  if (!bad.str().empty()) throw InputError(bad.str());

  // The plane of the penetrating samples.
  Eigen::Vector3d normal_sum = Eigen::Vector3d::Zero(), centroid = Eigen::Vector3d::Zero();
  double area = 0;
  for (Eigen::Index k = 0; k < n; ++k) {
    if (!(s.gap(k) < 0)) continue;
    normal_sum += s.area(k) * s.normals[static_cast<std::size_t>(k)];
    centroid += s.area(k) * s.points[static_cast<std::size_t>(k)];
    area += s.area(k);
  }
  if (!(area > 0) || !(normal_sum.norm() > 0)) {
    bad << where << ": no penetrating sample (gap < 0) with a mean normal to set the FFT operator's contact plane";
    throw InputError(bad.str());
  }
  const Eigen::Vector3d normal = normal_sum.normalized();
  centroid /= area;
  const double least_cos = std::cos(kPlanarTilt);
  for (Eigen::Index k = 0; k < n; ++k) {
    const double cos_tilt = s.normals[static_cast<std::size_t>(k)].dot(normal);
    if (s.gap(k) < 0 && !(cos_tilt >= least_cos)) {
      bad << where << ": the penetrating samples are not near-planar for the FFT half-space operator: active sample "
          << k << "'s normal turns " << std::acos(std::clamp(cos_tilt, -1.0, 1.0))
          << " rad from the contact plane's (at most " << kPlanarTilt << " rad)";
      throw InputError(bad.str());
    }
    if (cos_tilt >= least_cos) mapped_.push_back(static_cast<int>(k));
  }

  // The plane's axes: the principal axes of the mapped samples' projections.
  const Eigen::Vector3d helper = std::abs(normal.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d e1 = normal.cross(helper).normalized(), e2 = normal.cross(e1);
  std::vector<Eigen::Vector2d> xy;
  Eigen::Vector2d mean = Eigen::Vector2d::Zero();
  for (int k : mapped_) {
    const Eigen::Vector3d d = s.points[static_cast<std::size_t>(k)] - centroid;
    xy.emplace_back(d.dot(e1), d.dot(e2));
    mean += xy.back();
  }
  mean /= static_cast<double>(xy.size());
  Eigen::Matrix2d covariance = Eigen::Matrix2d::Zero();
  for (const Eigen::Vector2d& p : xy) covariance += (p - mean) * (p - mean).transpose();
  const Eigen::Matrix2d axes = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(covariance).eigenvectors();
  Eigen::Vector2d low = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity()), high = -low;
  for (Eigen::Vector2d& p : xy) {
    p = axes.transpose() * p;
    low = low.cwiseMin(p);
    high = high.cwiseMax(p);
  }
  const double cells_x = std::floor((high.x() - low.x()) / cell) + 1, cells_y = std::floor((high.y() - low.y()) / cell) + 1;
  if (!(cells_x * cells_y <= static_cast<double>(kMaxFftCells))) {
    bad << where << ": the FFT grid would have " << cells_x << " x " << cells_y << " cells at a spacing of " << cell
        << " m, more than " << kMaxFftCells << ": a coarser grid spacing";
    throw InputError(bad.str());
  }
  nx_ = static_cast<int>(cells_x);
  ny_ = static_cast<int>(cells_y);
  for (const Eigen::Vector2d& p : xy) uv_.push_back((p - low) / cell);
  axis_x_ = axes(0, 0) * e1 + axes(1, 0) * e2;
  axis_y_ = axes(0, 1) * e1 + axes(1, 1) * e2;
  const Eigen::Vector2d corner_xy = axes * low;
  corner_ = centroid + corner_xy.x() * e1 + corner_xy.y() * e2;

  // The mapped samples binned by cell, and the fits.
  std::vector<std::vector<int>> bin(static_cast<std::size_t>(nx_) * static_cast<std::size_t>(ny_));
  double reach = 0;  // the largest rho_k, in cells
  for (std::size_t m = 0; m < mapped_.size(); ++m) {
    const int i = std::min(static_cast<int>(uv_[m].x()), nx_ - 1), j = std::min(static_cast<int>(uv_[m].y()), ny_ - 1);
    bin[static_cast<std::size_t>(i) + static_cast<std::size_t>(nx_) * static_cast<std::size_t>(j)].push_back(static_cast<int>(m));
    reach = std::max(reach, s.support * s.spacing(mapped_[m]) / cell);
  }
  const int block = static_cast<int>(std::ceil(reach));
  std::vector<Eigen::Triplet<double>> entries;
  inside_.resize(nx_, ny_);
  struct Term {
    int m;
    double w;
    Basis b;
  };
  std::vector<Term> terms;
  for (int j = 0; j < ny_; ++j) {
    for (int i = 0; i < nx_; ++i) {
      const Eigen::Vector2d centre(i + 0.5, j + 0.5);
      terms.clear();
      Eigen::Matrix<double, 6, 6> M = Eigen::Matrix<double, 6, 6>::Zero();
      double weights = 0;
      for (int bj = std::max(0, j - block); bj <= std::min(ny_ - 1, j + block); ++bj) {
        for (int bi = std::max(0, i - block); bi <= std::min(nx_ - 1, i + block); ++bi) {
          for (int m : bin[static_cast<std::size_t>(bi) + static_cast<std::size_t>(nx_) * static_cast<std::size_t>(bj)]) {
            const Eigen::Vector2d d = uv_[static_cast<std::size_t>(m)] - centre;  // cells
            const double h = s.spacing(mapped_[static_cast<std::size_t>(m)]) / cell;  // cells
            const double d2 = d.squaredNorm();
            if (!(d2 < s.support * s.support * h * h)) continue;
            const double w = std::exp(-d2 / (2 * s.width * s.width * h * h));
            const Basis b = quadratic(d.x(), d.y());
            M.noalias() += w * b * b.transpose();
            weights += w;
            terms.push_back({m, w, b});
          }
        }
      }
      inside_(i, j) = terms.size() >= 3;
      if (!inside_(i, j)) continue;
      for (int k = 1; k < 6; ++k) M(k, k) += 1e-9 * weights;
      const Basis y = M.ldlt().solve(Basis::Unit(0));
      const int row = i + nx_ * j;
      for (const Term& t : terms) entries.emplace_back(row, t.m, t.w * t.b.dot(y));
    }
  }
  fit_.resize(static_cast<Eigen::Index>(nx_) * ny_, static_cast<Eigen::Index>(mapped_.size()));
  fit_.setFromTriplets(entries.begin(), entries.end());
}

Eigen::ArrayXXd ContactPlaneGrid::to_cells(const Eigen::VectorXd& sample_values) const {
  if (sample_values.size() != samples_) {
    throw InputError("contact plane grid: " + std::to_string(sample_values.size()) + " values for " +
                     std::to_string(samples_) + " samples");
  }
  Eigen::VectorXd mapped_values(static_cast<Eigen::Index>(mapped_.size()));
  for (std::size_t m = 0; m < mapped_.size(); ++m) mapped_values(static_cast<Eigen::Index>(m)) = sample_values(mapped_[m]);
  const Eigen::VectorXd fitted = fit_ * mapped_values;
  const Eigen::ArrayXXd cells = Eigen::Map<const Eigen::ArrayXXd>(fitted.data(), nx_, ny_);
  return inside_.select(cells, std::numeric_limits<double>::infinity());
}

namespace {

// The bilinear stencil of a sample at uv (in cells from the grid's corner;
// centres at k + 1/2): the lower centres (i, j) of the interval holding
// each coordinate and the fractions beyond them, clamped to the outer
// centres (a grid one cell wide has weight on its one centre).
struct Stencil {
  int i, j, i1, j1;
  double fx, fy;
};

Stencil stencil(const Eigen::Vector2d& uv, int nx, int ny) {
  const auto locate = [](double coordinate, int count, int& lower, double& fraction) {
    const double from_centre = coordinate - 0.5;
    lower = std::clamp(static_cast<int>(std::floor(from_centre)), 0, std::max(0, count - 2));
    fraction = count < 2 ? 0.0 : std::clamp(from_centre - lower, 0.0, 1.0);
  };
  Stencil s{};
  locate(uv.x(), nx, s.i, s.fx);
  locate(uv.y(), ny, s.j, s.fy);
  s.i1 = std::min(s.i + 1, nx - 1);
  s.j1 = std::min(s.j + 1, ny - 1);
  return s;
}

}  // namespace

Eigen::VectorXd ContactPlaneGrid::bilinear_at_samples(const Eigen::ArrayXXd& cells) const {
  Eigen::VectorXd values = Eigen::VectorXd::Zero(samples_);
  for (std::size_t m = 0; m < mapped_.size(); ++m) {
    const Stencil t = stencil(uv_[m], nx_, ny_);
    values(mapped_[m]) = (1 - t.fx) * (1 - t.fy) * cells(t.i, t.j) + t.fx * (1 - t.fy) * cells(t.i1, t.j) +
                         (1 - t.fx) * t.fy * cells(t.i, t.j1) + t.fx * t.fy * cells(t.i1, t.j1);
  }
  return values;
}

Eigen::VectorXd ContactPlaneGrid::pressure_at_samples(const Eigen::ArrayXXd& pressure) const {
  Eigen::VectorXd values = Eigen::VectorXd::Zero(samples_);
  for (std::size_t m = 0; m < mapped_.size(); ++m) {
    const int i = std::min(static_cast<int>(uv_[m].x()), nx_ - 1), j = std::min(static_cast<int>(uv_[m].y()), ny_ - 1);
    if (!(pressure(i, j) > 0)) continue;
    const Stencil t = stencil(uv_[m], nx_, ny_);
    double sum = 0, weights = 0;
    for (const auto& [ci, cj, w] : {std::tuple{t.i, t.j, (1 - t.fx) * (1 - t.fy)}, std::tuple{t.i1, t.j, t.fx * (1 - t.fy)},
                                    std::tuple{t.i, t.j1, (1 - t.fx) * t.fy}, std::tuple{t.i1, t.j1, t.fx * t.fy}}) {
      if (!(pressure(ci, cj) > 0)) continue;
      sum += w * pressure(ci, cj);
      weights += w;
    }
    values(mapped_[m]) = sum / weights;
  }
  return values;
}

}  // namespace contactref::quasi_rigid
