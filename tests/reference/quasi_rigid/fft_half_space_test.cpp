// The FFT half-space operator (reference/quasi_rigid/fft_half_space.hpp):
// its product against the direct O(N^2) sum of its own influence
// coefficients (the zero padding leaves no wrap-around), Love's rectangle
// integral against Gauss-Legendre away from the singularity, a uniform
// pressure on a square against Johnson's centre displacement (Eq. 3.25), the
// volume-preserving kernel's coefficients against Eq. 3 (no volume change),
// and bad input.
#include <gtest/gtest.h>

#include <boost/math/quadrature/gauss.hpp>
#include <cmath>
#include <iostream>
#include <array>
#include <limits>
#include <numbers>
#include <random>

#include "reference/quasi_rigid/fft_half_space.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::quasi_rigid {
namespace {

using test::contains;
using test::error_of;

constexpr double kFftCompliance = 3.0e-10;  // m^2/N: (1 - nu^2) / (pi E) for E = 1 GPa, nu = 0.3
constexpr double kFftSigma = 0.01;          // m: the foot's volume-preserving width

ResponseKernel fft_boussinesq() { return {ResponseKernel::Kind::kBoussinesq, kFftCompliance, 0}; }
ResponseKernel fft_preserving() { return {ResponseKernel::Kind::kVolumePreserving, kFftCompliance, kFftSigma}; }

// The FFT's round-off in a product: each output passes through four
// transforms of at most 16 nx ny points (the padded grid is at most 2.5
// times 2 n a side), log2 of that many butterflies each, against the scale
// sum |K| |p| of the direct sum.
double fft_tolerance(int nx, int ny) { return test::tolerance<double>(64 * std::log2(16.0 * nx * ny)); }

TEST(FftHalfSpace, ProductEqualsTheDirectSumOfItsInfluenceCoefficients) {
  std::mt19937_64 rng(test::kSeed);
  std::uniform_real_distribution<double> unit(0, 1);
  for (const ResponseKernel& kernel : {fft_boussinesq(), fft_preserving()}) {
    for (const auto& [nx, ny] : {std::pair{13, 9}, std::pair{1, 7}, std::pair{24, 1}, std::pair{40, 33}}) {
      const double h = 2e-3;  // 40 cells span 8 sigma: the volume-preserving kernel's sign change and cut-off
      const FftHalfSpace K(kernel, h, nx, ny);
      Eigen::ArrayXXd p(nx, ny);
      for (Eigen::Index k = 0; k < p.size(); ++k) p(k) = 1e5 * unit(rng);
      const Eigen::ArrayXXd u = K.apply(p);
      double worst = 0, scale = 0;
      for (int i = 0; i < nx; ++i) {
        for (int j = 0; j < ny; ++j) {
          double direct = 0, magnitude = 0;
          for (int k = 0; k < nx; ++k) {
            for (int l = 0; l < ny; ++l) {
              direct += K.influence(i - k, j - l) * p(k, l);
              magnitude += std::abs(K.influence(i - k, j - l) * p(k, l));
            }
          }
          worst = std::max(worst, std::abs(u(i, j) - direct));
          scale = std::max(scale, magnitude);
        }
      }
      EXPECT_LE(worst, fft_tolerance(nx, ny) * scale) << nx << " x " << ny;
    }
  }
}

TEST(FftHalfSpace, LovesRectangleIntegralAgreesWithGaussLegendreAwayFromTheSingularity) {
  // Off the origin 1 / r is analytic: a 20 x 20-point rule on a rectangle
  // at least its own size away errs by below (1/3)^40 of the integral.
  using Rule = boost::math::quadrature::gauss<double, 20>;
  for (const std::array<double, 4>& box : {std::array{3.0, 4.0, 1.0, 2.5}, std::array{-5.0, -4.0, -0.5, 0.5},
                                            std::array{2.0, 3.0, -3.0, -2.0}}) {
    const double x0 = box[0], x1 = box[1], y0 = box[2], y1 = box[3];
    const double gauss = Rule::integrate(
        [&](double x) { return Rule::integrate([&](double y) { return 1 / std::hypot(x, y); }, y0, y1); }, x0, x1);
    EXPECT_NEAR(rectangle_inverse_distance(x0, x1, y0, y1), gauss, test::tolerance<double>(64) * gauss);
  }
}

TEST(FftHalfSpace, UniformPressureOnASquareGivesJohnsonsCentreDisplacement) {
  // Johnson Eq. 3.25 at the centre of a square of side L = 2 a: the integral
  // of dA / r over it is 8 a ln(1 + sqrt 2) (8 triangles, each
  // a integral over [0, pi/4] of sec theta = a ln(1 + sqrt 2)), so
  // u = c p 4 L ln(1 + sqrt 2). On n x n cells (n odd: a cell centre at the
  // square's centre) the sum of the cells' coefficients is that integral
  // exactly (the cells tile the square).
  const double h = 1e-3, pressure = 2e5;
  for (int n : {1, 5, 21}) {
    const FftHalfSpace K(fft_boussinesq(), h, n, n);
    const Eigen::ArrayXXd u = K.apply(Eigen::ArrayXXd::Constant(n, n, pressure));
    const double johnson = kFftCompliance * pressure * 4 * n * h * std::log(1 + std::sqrt(2.0));
    // Each of the n^2 coefficients is a four-term difference of corner
    // values no larger than the whole square's integral (8 roundings of
    // it), then the FFT's.
    EXPECT_NEAR(u(n / 2, n / 2), johnson, (test::tolerance<double>(8.0 * n * n) + fft_tolerance(n, n)) * johnson) << n;
  }
}

// The sum of the volume-preserving kernel's coefficients over every cell
// within its reach, relative to the sum of their magnitudes, on cells of
// side h.
double volume_change(double h) {
  const int n = static_cast<int>(std::ceil(7.5 * kFftSigma / h)) + 2;  // the quadrant of cells within reach
  const FftHalfSpace K(fft_preserving(), h, n, n);
  double sum = 0, magnitude = 0;
  for (int i = 1 - n; i < n; ++i) {
    for (int j = 1 - n; j < n; ++j) {
      sum += K.influence(i, j);
      magnitude += std::abs(K.influence(i, j));
    }
  }
  EXPECT_EQ(K.influence(n - 1, n - 1), 0) << "beyond 7.5 sigma the kernel is left out";
  return std::abs(sum) / magnitude;
}

TEST(FftHalfSpace, VolumePreservingCoefficientsDisplaceNoVolumeConvergingAtThirdOrder) {
  // Eq. 3: the integral of f over the plane vanishes, so the coefficients
  // of every cell sum to 0 but for the part beyond the cut-off (the bound of
  // ResponseKernel::far_reach: 7.7e-13 c / sigma per unit load, some 1e-12
  // of the sum of magnitudes) and the quadrature of the bounded remainder
  // q. Its Gauss rule is exact to high order on the smooth part (error
  // (h / sigma)^12); the cone -r / (2 sigma^2) at the origin, on the corners
  // of the four quarter-cells about it, leaves an error of order h^3 /
  // sigma^2 against magnitudes of order sigma: third order in h.
  const double coarse = volume_change(kFftSigma / 2), middle = volume_change(kFftSigma / 4), fine = volume_change(kFftSigma / 8);
  const double order = std::log(coarse / fine) / std::log(4.0);
  std::cout << "[fft] volume change over the magnitudes at h = sigma/2, /4, /8: " << coarse << ", " << middle << ", "
            << fine << " (order " << order << ")\n";
  EXPECT_GE(order, 2.5);  // third order, less half an order for what is not yet asymptotic
  EXPECT_LT(middle, coarse);
}

TEST(FftHalfSpace, BadInputIsRefusedNamingTheProblem) {
  for (double h : {0.0, -1e-3, std::nan(""), std::numeric_limits<double>::infinity()}) {
    EXPECT_TRUE(contains(error_of([&] { const FftHalfSpace K(fft_boussinesq(), h, 4, 4); }),
                         "InputError: FFT half-space: the grid spacing must be finite and > 0"))
        << h;
  }
  EXPECT_TRUE(contains(error_of([&] { const FftHalfSpace K(fft_boussinesq(), 1e-3, 0, 4); }), "at least one cell per axis"));
  // kMaxFftCells, at some 90 bytes a cell, keeps an operator below some
  // 190 MB: one cell more is refused before anything is allocated.
  EXPECT_TRUE(contains(error_of([&] {
                         const FftHalfSpace K(fft_boussinesq(), 1e-3, static_cast<int>(kMaxFftCells / 2) + 1, 2);
                       }),
                       "is more than the 2097152 cells an operator may hold"));
  EXPECT_TRUE(contains(error_of([&] {
                         const FftHalfSpace K({ResponseKernel::Kind::kBoussinesq, 0, 0}, 1e-3, 4, 4);
                       }),
                       "InputError: FFT half-space: need a finite compliance > 0"));
  const FftHalfSpace K(fft_boussinesq(), 1e-3, 4, 3);
  EXPECT_TRUE(contains(error_of([&] { K.apply(Eigen::ArrayXXd::Zero(3, 4)); }),
                       "InputError: FFT half-space: a pressure of 3 x 4 cells on a grid of 4 x 3"));
}

}  // namespace
}  // namespace contactref::quasi_rigid
