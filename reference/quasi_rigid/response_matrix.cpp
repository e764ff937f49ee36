#include "reference/quasi_rigid/response_matrix.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <type_traits>
#include <unordered_map>

#include "core/errors.hpp"
#include "reference/quasi_rigid/radial_rule.hpp"

namespace contactref::quasi_rigid {
namespace {

// The nodes binned in square cells of the kernels' support: the kernels that
// reach a point are in its cell's 3 x 3 block.
class NodeGrid {
 public:
  NodeGrid(const std::vector<Eigen::Vector2d>& nodes, double cell) : nodes_(nodes), cell_(cell) {
    for (std::size_t k = 0; k < nodes.size(); ++k) cells_[key(cell_of(nodes[k].x()), cell_of(nodes[k].y()))].push_back(int(k));
  }
  // Calls visit(k, d2) for every node within `support` of x.
  template <class Visit>
  void near(const Eigen::Vector2d& x, double support, const Visit& visit) const {
    const long cx = cell_of(x.x()), cy = cell_of(x.y());
    for (long i = cx - 1; i <= cx + 1; ++i)
      for (long j = cy - 1; j <= cy + 1; ++j) {
        const auto found = cells_.find(key(i, j));
        if (found == cells_.end()) continue;
        for (int k : found->second) {
          const double d2 = (nodes_[std::size_t(k)] - x).squaredNorm();
          if (d2 < support * support) visit(k, d2);
        }
      }
  }

 private:
  long cell_of(double x) const { return long(std::floor(x / cell_)); }
  static long long key(long i, long j) { return (static_cast<long long>(i) << 32) ^ static_cast<long long>(j & 0xffffffff); }
  const std::vector<Eigen::Vector2d>& nodes_;
  double cell_;
  std::unordered_map<long long, std::vector<int>> cells_;
};

void check(const std::vector<Eigen::Vector2d>& nodes, const ShepardKernels& kernels, std::optional<double> disk_radius,
           const ResponseQuadrature& quadrature) {
  std::ostringstream os;
  if (nodes.empty()) os << "response matrix: no node";
  for (std::size_t k = 0; k < nodes.size() && os.str().empty(); ++k) {
    if (!nodes[k].allFinite()) os << "response matrix: node " << k << " is not finite";
    if (disk_radius && nodes[k].norm() > *disk_radius)
      os << "response matrix: node " << k << " lies outside the disk of radius " << *disk_radius << " m";
  }
  if (os.str().empty() && !(kernels.width > 0 && kernels.support >= kernels.width && std::isfinite(kernels.support)))
    os << "response matrix: need 0 < width <= support (finite), got width " << kernels.width << " m, support "
       << kernels.support << " m";
  if (os.str().empty() && disk_radius && !(*disk_radius > 0 && std::isfinite(*disk_radius)))
    os << "response matrix: the disk radius must be finite and > 0, got " << *disk_radius;
  if (os.str().empty() && (quadrature.angles < 8 || quadrature.radial_points < 2 || !(quadrature.segment >= 0)))
    os << "response matrix: need at least 8 angles and 2 radial points, and a segment >= 0";
  if (!os.str().empty()) throw InputError(os.str());
}

// Integrates g(r) Phi_k(x) over S in polar coordinates about `centre`
// (g includes the Jacobian), adding into row(k) for every node k.
template <class G>
void integrate_about(const Eigen::Vector2d& centre, const std::vector<Eigen::Vector2d>& nodes, const NodeGrid& grid,
                     const ShepardKernels& kernels, std::optional<double> disk_radius,
                     const ResponseQuadrature& quadrature, const G& g, Eigen::RowVectorXd& row) {
  const double rho = kernels.support, s2 = 2 * kernels.width * kernels.width;
  const double segment = quadrature.segment > 0 ? quadrature.segment : 2 * kernels.width;
  const double d_theta = 2 * std::numbers::pi / quadrature.angles;
  std::vector<std::pair<int, double>> reach;
  for (int a = 0; a < quadrature.angles; ++a) {
    const Eigen::Vector2d e(std::cos(a * d_theta), std::sin(a * d_theta));
    // Out to the farthest kernel disk the ray meets, and to the edge of S.
    double r_max = 0;
    for (const Eigen::Vector2d& q : nodes) {
      const double along = (q - centre).dot(e), across2 = (q - centre).squaredNorm() - along * along;
      if (across2 < rho * rho) r_max = std::max(r_max, along + std::sqrt(rho * rho - across2));
    }
    if (disk_radius) {
      const double b = centre.dot(e);
      r_max = std::min(r_max, -b + std::sqrt(b * b + *disk_radius * *disk_radius - centre.squaredNorm()));
    }
    for_each_radial_point(r_max, std::max(1, int(std::ceil(r_max / segment))), [&](double r, double radial_weight) {
      const double weight = radial_weight * d_theta * g(r);
      const Eigen::Vector2d x = centre + r * e;
      reach.clear();
      double sum = 0;
      grid.near(x, rho, [&](int k, double d2) {
        const double w = std::exp(-d2 / s2);
        reach.emplace_back(k, w);
        sum += w;
      });
      if (!(sum > 0)) return;  // no kernel covers x
      for (const auto& [k, w] : reach) row(k) += weight * w / sum;
    });
  }
}

}  // namespace

namespace {

// f + m lap f from r^2, in place, in T's precision (ResponseKernel::f_corrected).
template <class T>
void kernel_of_squared(const ResponseKernel& kernel, double m, Eigen::Ref<Eigen::Matrix<T, Eigen::Dynamic, 1>> r2) {
  auto x = r2.array();
  const T c = static_cast<T>(kernel.compliance), moment = static_cast<T>(m);
  if (kernel.kind == ResponseKernel::Kind::kBoussinesq) {
    if (m == 0) {
      x = c * x.rsqrt();
    } else {
      x = c * x.rsqrt() * (1 + moment / x);
    }
    return;
  }
  // c (1 / r - beta) exp(-r^2 / (2 sigma^2)).
  const T beta = static_cast<T>(std::sqrt(std::numbers::pi / 2) / kernel.sigma);
  const T exponent = static_cast<T>(-1 / (2 * kernel.sigma * kernel.sigma));
  if (m == 0) {
    if constexpr (std::is_same_v<T, double>) {
      x = c * (x.sqrt().inverse() - beta) * (exponent * x).exp();  // one square root and one division
    } else {
      x = c * (x.rsqrt() - beta) * (exponent * x).exp();  // Eigen's rsqrt: an estimate and a Newton step
    }
    return;
  }
  // In chunks, 1 / r on the stack: the far fields call this for every block
  // of rows and column, where a heap temporary cost the foot 60%.
  const T sigma2 = static_cast<T>(kernel.sigma * kernel.sigma), sigma4 = sigma2 * sigma2;
  constexpr Eigen::Index kChunk = 64;
  for (Eigen::Index start = 0; start < r2.size(); start += kChunk) {
    auto y = r2.segment(start, std::min(kChunk, r2.size() - start)).array();
    Eigen::Array<T, Eigen::Dynamic, 1, 0, kChunk, 1> u(y.size());
    if constexpr (std::is_same_v<T, double>) {
      u = y.sqrt().inverse();
    } else {
      u = y.rsqrt();
    }
    y = c * (exponent * y).exp() * (u - beta + moment * (u * u * u + 2 * beta / sigma2 + (y * u - beta * y) / sigma4));
  }
}

}  // namespace

double ResponseKernel::f_corrected(double r, double m) const {
  if (kind == Kind::kBoussinesq) return compliance / r * (1 + m / (r * r));
  const double beta = std::sqrt(std::numbers::pi / 2) / sigma, sigma2 = sigma * sigma;
  return compliance * std::exp(-r * r / (2 * sigma2)) *
         (1 / r - beta + m * (1 / (r * r * r) + 2 * beta / sigma2 + (r - beta * r * r) / (sigma2 * sigma2)));
}

void ResponseKernel::f_of_squared(Eigen::Ref<Eigen::VectorXd> r2, double m) const {
  kernel_of_squared<double>(*this, m, r2);
}

void ResponseKernel::f_of_squared(Eigen::Ref<Eigen::VectorXf> r2, double m) const {
  kernel_of_squared<float>(*this, m, r2);
}

FarKernelTerms ResponseKernel::far_terms() const {
  FarKernelTerms terms;
  terms.boussinesq = kind == Kind::kBoussinesq;
  terms.c = compliance;
  if (!terms.boussinesq) {
    terms.beta = std::sqrt(std::numbers::pi / 2) / sigma;
    terms.exponent = -1 / (2 * sigma * sigma);
    terms.sigma2 = sigma * sigma;
  }
  return terms;
}

double ResponseKernel::far_reach() const {
  return kind == Kind::kBoussinesq ? std::numeric_limits<double>::infinity() : 7.5 * sigma;
}

void ResponseKernel::check(const std::string& where) const {
  if (!(compliance > 0 && std::isfinite(compliance)) ||
      (kind == Kind::kVolumePreserving && !(sigma > 0 && std::isfinite(sigma)))) {
    std::ostringstream os;
    os << where << ": need a finite compliance > 0 (got " << compliance
       << ") and, for the volume-preserving kernel, a finite sigma > 0 (got " << sigma << ")";
    throw InputError(os.str());
  }
}

Eigen::MatrixXd response_matrix(const std::vector<Eigen::Vector2d>& nodes, const ResponseKernel& kernel,
                                const ShepardKernels& kernels, std::optional<double> disk_radius,
                                const ResponseQuadrature& quadrature) {
  check(nodes, kernels, disk_radius, quadrature);
  kernel.check("response matrix");
  const NodeGrid grid(nodes, kernels.support);
  const int n = int(nodes.size());
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(n, n);
  Eigen::RowVectorXd row(n);
  for (int i = 0; i < n; ++i) {
    row.setZero();
    integrate_about(nodes[std::size_t(i)], nodes, grid, kernels, disk_radius, quadrature,
                    [&](double r) { return kernel.times_r(r); }, row);
    R.row(i) = row;
  }
  return R;
}

std::vector<Eigen::Vector2d> square_grid_nodes(double spacing, double cells) {
  std::vector<Eigen::Vector2d> nodes;
  const int n = int(std::ceil(cells));
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      if (Eigen::Vector2d(i, j).norm() <= cells) nodes.emplace_back(i * spacing, j * spacing);
  return nodes;
}

Eigen::MatrixXd shepard_values(const std::vector<Eigen::Vector2d>& points, const std::vector<Eigen::Vector2d>& nodes,
                               const ShepardKernels& kernels) {
  check(nodes, kernels, std::nullopt, ResponseQuadrature{});
  const NodeGrid grid(nodes, kernels.support);
  const double s2 = 2 * kernels.width * kernels.width;
  Eigen::MatrixXd values = Eigen::MatrixXd::Zero(Eigen::Index(points.size()), Eigen::Index(nodes.size()));
  for (std::size_t k = 0; k < points.size(); ++k) {
    double sum = 0;
    grid.near(points[k], kernels.support, [&](int j, double d2) {
      const double w = std::exp(-d2 / s2);
      values(Eigen::Index(k), j) = w;
      sum += w;
    });
    if (sum > 0) values.row(Eigen::Index(k)) /= sum;
  }
  return values;
}

Eigen::VectorXd nodal_areas(const std::vector<Eigen::Vector2d>& nodes, const ShepardKernels& kernels,
                            std::optional<double> disk_radius, const ResponseQuadrature& quadrature) {
  check(nodes, kernels, disk_radius, quadrature);
  const NodeGrid grid(nodes, kernels.support);
  Eigen::RowVectorXd areas = Eigen::RowVectorXd::Zero(Eigen::Index(nodes.size()));
  integrate_about(Eigen::Vector2d::Zero(), nodes, grid, kernels, disk_radius, quadrature, [](double r) { return r; },
                  areas);
  return areas.transpose();
}

}  // namespace contactref::quasi_rigid
