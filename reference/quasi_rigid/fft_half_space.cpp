#include "reference/quasi_rigid/fft_half_space.hpp"

#include <algorithm>
#include <boost/math/quadrature/gauss.hpp>
#include <cmath>
#include <complex>
#include <numbers>
#include <sstream>
#include <vector>
#include <unsupported/Eigen/FFT>

#include "core/errors.hpp"

namespace contactref::quasi_rigid {

namespace {

// Love's corner function P(x, y) = x asinh(y / |x|) + y asinh(x / |y|).
double corner(double x, double y) {
  double value = 0;
  if (x != 0) value += x * std::asinh(y / std::abs(x));
  if (y != 0) value += y * std::asinh(x / std::abs(y));
  return value;
}

// The smallest m >= n that is a multiple of 4 (kissfft's real transforms
// take their fast path there) with no prime factor above 5.
int padded_size(int n) {
  for (int m = (n + 3) / 4 * 4;; m += 4) {
    int rest = m;
    for (int prime : {2, 3, 5}) {
      while (rest % prime == 0) rest /= prime;
    }
    if (rest == 1) return m;
  }
}

// The integral of the volume-preserving kernel's bounded part q over the
// cell (di, dj) (m, per unit compliance): 6 x 6-point Gauss-Legendre on the
// cell, or on each quarter of it where |di|, |dj| <= 1 (the cone of q at the
// origin then lies on a quarter's corner or outside).
double remainder_integral(double sigma, double h, int di, int dj) {
  using Rule = boost::math::quadrature::gauss<double, 6>;  // abscissae t > 0 on [-1, 1]
  const double beta = std::sqrt(std::numbers::pi / 2) / sigma;
  const double inv_two_sigma_sq = 1 / (2 * sigma * sigma);
  const auto q = [&](double r) {
    if (r == 0) return -beta;
    const double e = -r * r * inv_two_sigma_sq;
    return std::expm1(e) / r - beta * std::exp(e);
  };
  const int parts = (std::abs(di) <= 1 && std::abs(dj) <= 1) ? 2 : 1;
  const double side = h / parts;
  double sum = 0;
  for (int a = 0; a < parts; ++a) {
    for (int b = 0; b < parts; ++b) {
      const double cx = (di - 0.5) * h + (a + 0.5) * side, cy = (dj - 0.5) * h + (b + 0.5) * side;
      for (std::size_t i = 0; i < Rule::abscissa().size(); ++i) {
        for (int si = -1; si <= 1; si += 2) {
          const double x = cx + si * Rule::abscissa()[i] * side / 2;
          for (std::size_t j = 0; j < Rule::abscissa().size(); ++j) {
            for (int sj = -1; sj <= 1; sj += 2) {
              const double y = cy + sj * Rule::abscissa()[j] * side / 2;
              sum += Rule::weights()[i] * Rule::weights()[j] * q(std::hypot(x, y));
            }
          }
        }
      }
    }
  }
  return sum * side * side / 4;
}

}  // namespace

double rectangle_inverse_distance(double x0, double x1, double y0, double y1) {
  return corner(x1, y1) - corner(x0, y1) - corner(x1, y0) + corner(x0, y0);
}

struct FftHalfSpace::Work {
  Eigen::FFT<double> fft;
  std::vector<double> column;                // mx reals
  std::vector<std::complex<double>> half;    // mx / 2 + 1
  std::vector<std::complex<double>> line, transformed;  // my
  Eigen::ArrayXXcd spectrum;                 // (mx / 2 + 1) x my

  Work(int mx, int my)
      : column(static_cast<std::size_t>(mx)),
        half(static_cast<std::size_t>(mx / 2 + 1)),
        line(static_cast<std::size_t>(my)),
        transformed(static_cast<std::size_t>(my)),
        spectrum(mx / 2 + 1, my) {
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    fft.SetFlag(Eigen::FFT<double>::Unscaled);
  }

  // spectrum = the 2-D transform of the mx x my real array whose column j is
  // column_of(j, column) (filled, padded with zeros) for j in `columns`, and
  // zero elsewhere.
  template <class Fill>
  void forward(const std::vector<int>& columns, const Fill& column_of) {
    const auto mx = static_cast<Eigen::Index>(column.size());
    spectrum.setZero();
    for (int j : columns) {
      column_of(j, column);
      fft.fwd(half.data(), column.data(), mx);
      for (Eigen::Index i = 0; i < spectrum.rows(); ++i) spectrum(i, j) = half[static_cast<std::size_t>(i)];
    }
    along_y(false);
  }

  // The 1-D transforms along y of every row of the spectrum, in place.
  void along_y(bool inverse) {
    const auto my = static_cast<Eigen::Index>(line.size());
    for (Eigen::Index i = 0; i < spectrum.rows(); ++i) {
      for (Eigen::Index j = 0; j < my; ++j) line[static_cast<std::size_t>(j)] = spectrum(i, j);
      if (inverse) {
        fft.inv(transformed.data(), line.data(), my);
      } else {
        fft.fwd(transformed.data(), line.data(), my);
      }
      for (Eigen::Index j = 0; j < my; ++j) spectrum(i, j) = transformed[static_cast<std::size_t>(j)];
    }
  }
};

FftHalfSpace::FftHalfSpace(const ResponseKernel& kernel, double spacing, int nx, int ny)
    : nx_(nx), ny_(ny) {
  kernel.check("FFT half-space");
  std::ostringstream bad;
  if (!(std::isfinite(spacing) && spacing > 0)) {
    bad << "FFT half-space: the grid spacing must be finite and > 0 (m), got " << spacing;
  } else if (nx < 1 || ny < 1) {
    bad << "FFT half-space: the grid needs at least one cell per axis, got " << nx << " x " << ny;
  } else if (static_cast<long>(nx) * ny > kMaxFftCells) {
    bad << "FFT half-space: a grid of " << nx << " x " << ny << " cells is more than the " << kMaxFftCells
        << " cells an operator may hold (some 90 bytes a cell): a coarser spacing or a smaller contact";
  }
  if (!bad.str().empty()) throw InputError(bad.str());
  mx_ = padded_size(2 * nx);
  my_ = padded_size(2 * ny);

  // K on the quadrant di, dj >= 0: Love's form from the corner function on
  // the lattice of cell corners ((k - 1/2) h, (l - 1/2) h), and the
  // volume-preserving kernel's remainder.
  const double h = spacing;
  Eigen::ArrayXXd P(nx + 1, ny + 1);
  for (int k = 0; k <= nx; ++k) {
    for (int l = 0; l <= ny; ++l) P(k, l) = corner((k - 0.5) * h, (l - 0.5) * h);
  }
  influence_.resize(nx, ny);
  const double reach = kernel.far_reach();
  for (int di = 0; di < nx; ++di) {
    for (int dj = 0; dj < ny; ++dj) {
      // The cell's nearest point to the origin.
      const double near = std::hypot(std::max(0.0, (di - 0.5) * h), std::max(0.0, (dj - 0.5) * h));
      if (near >= reach) {
        influence_(di, dj) = 0;
        continue;
      }
      double integral = P(di + 1, dj + 1) - P(di, dj + 1) - P(di + 1, dj) + P(di, dj);
      if (kernel.kind == ResponseKernel::Kind::kVolumePreserving) {
        integral += remainder_integral(kernel.sigma, h, di, dj);
      }
      influence_(di, dj) = kernel.compliance * integral;
    }
  }

  // K wrapped onto the padded grid, and its transform (real: K is even).
  work_ = std::make_unique<Work>(mx_, my_);
  std::vector<int> columns;
  for (int j = 0; j < my_; ++j) {
    if (j < ny_ || my_ - j < ny_) columns.push_back(j);
  }
  work_->forward(columns, [&](int j, std::vector<double>& column) {
    std::fill(column.begin(), column.end(), 0.0);
    const int dj = j < ny_ ? j : my_ - j;
    for (int di = 0; di < nx_; ++di) {
      column[static_cast<std::size_t>(di)] = influence_(di, dj);
      if (di > 0) column[static_cast<std::size_t>(mx_ - di)] = influence_(di, dj);
    }
  });
  kernel_hat_ = work_->spectrum.real() / (static_cast<double>(mx_) * my_);  // the inverse's 1 / (mx my) folded in
}

FftHalfSpace::~FftHalfSpace() = default;
FftHalfSpace::FftHalfSpace(FftHalfSpace&&) noexcept = default;
FftHalfSpace& FftHalfSpace::operator=(FftHalfSpace&&) noexcept = default;

double FftHalfSpace::influence(int di, int dj) const { return influence_(std::abs(di), std::abs(dj)); }

Eigen::ArrayXXd FftHalfSpace::apply(const Eigen::ArrayXXd& pressure) const {
  if (pressure.rows() != nx_ || pressure.cols() != ny_) {
    std::ostringstream os;
    os << "FFT half-space: a pressure of " << pressure.rows() << " x " << pressure.cols() << " cells on a grid of "
       << nx_ << " x " << ny_;
    throw InputError(os.str());
  }
  Work& w = *work_;
  std::vector<int> columns(static_cast<std::size_t>(ny_));
  for (int j = 0; j < ny_; ++j) columns[static_cast<std::size_t>(j)] = j;
  w.forward(columns, [&](int j, std::vector<double>& column) {
    for (int i = 0; i < nx_; ++i) column[static_cast<std::size_t>(i)] = pressure(i, j);
    std::fill(column.begin() + nx_, column.end(), 0.0);
  });
  w.spectrum *= kernel_hat_;
  w.along_y(true);
  Eigen::ArrayXXd u(nx_, ny_);
  for (int j = 0; j < ny_; ++j) {
    for (Eigen::Index i = 0; i < w.spectrum.rows(); ++i) w.half[static_cast<std::size_t>(i)] = w.spectrum(i, j);
    w.fft.inv(w.column.data(), w.half.data(), mx_);
    for (int i = 0; i < nx_; ++i) u(i, j) = w.column[static_cast<std::size_t>(i)];
  }
  return u;
}

}  // namespace contactref::quasi_rigid
