#pragma once
// The normal surface displacement of an elastic half-space under a pressure
// that is constant on each square cell (side h) of a regular nx x ny grid in
// its surface, at the cells' centres, by a discrete convolution evaluated
// with FFTs (a "beyond the paper" option of the quasi-rigid contact: issue
// 31, item 3):
//   u(i, j) = sum over (k, l) of K(i - k, j - l) p(k, l),
//   K(di, dj) = integral over the cell centred at (di h, dj h) of f(|x|) dA,
// with f the point-load response of response_matrix.hpp (Pauly et al. Eq. 1:
// f(r) = c / r, c = (1 - nu) / (2 pi G); or our volume-preserving form).
//
// Influence coefficients. For c / r, the closed form of a uniformly loaded
// rectangle (Love 1929; Johnson, Contact Mechanics, 1985, Eq. 3.25):
//   integral over [x0, x1] x [y0, y1] of dA / sqrt(x^2 + y^2)
//     = P(x1, y1) - P(x0, y1) - P(x1, y0) + P(x0, y0),
//   P(x, y) = x asinh(y / |x|) + y asinh(x / |y|)   (each term 0 where its
//   divisor is), since d^2 P / dx dy = 1 / sqrt(x^2 + y^2) (Johnson's
//   x ln(y + r) + y ln(x + r) less the terms in x or y alone, which cancel
//   in the four-corner sum). For the volume-preserving kernel,
//   f = c / r + c q(r), q(r) = expm1(-r^2 / (2 sigma^2)) / r - beta exp(-r^2 / (2 sigma^2)),
// the first term by the closed form and the bounded q (q(0) = -beta; a cone
// -r / (2 sigma^2) at r = 0) by a 6 x 6-point Gauss-Legendre rule on each
// cell (on each quarter of the cells next to and at the origin, which puts
// the cone at a quarter's corner); K = 0 on cells wholly beyond the kernel's
// far_reach (7.5 sigma), as in the exact response (response_matrix.hpp).
// K is even in di and in dj (the cells are symmetric about their axes), so
// K as a matrix is symmetric.
//
// The convolution (DC-FFT: Liu, Wang & Liu, Wear 243, 2000): the pressure
// zero-padded to mx >= 2 nx by my >= 2 ny, K laid out with its negative
// offsets wrapped (K(di, dj) at (di mod mx, dj mod my) for |di| < nx,
// |dj| < ny, zero elsewhere), so that the circular convolution of the padded
// arrays is the linear one on the grid: no wrap-around error. 2-D FFTs as
// 1-D real FFTs along x then complex FFTs along y (Eigen's FFT module, its
// kissfft back end), and back; K's transform is computed once per grid, and
// is real (K even).
#include <Eigen/Core>
#include <memory>

#include "reference/quasi_rigid/response_matrix.hpp"

namespace contactref::quasi_rigid {

// The largest grid (nx ny cells) an operator accepts: it holds at most
// about 90 bytes a cell (K, 8; its transform on the padded grid, 16 f^2;
// the padded complex work array, 32 f^2; f <= 1.25, the padding's rounding
// of 2 n up to a multiple of 4 with no prime factor above 5), some 190 MB at
// this many cells.
inline constexpr long kMaxFftCells = 1L << 21;

// integral over [x0, x1] x [y0, y1] of dA / sqrt(x^2 + y^2) (m), by Love's
// closed form above. x0 <= x1, y0 <= y1.
double rectangle_inverse_distance(double x0, double x1, double y0, double y1);

// K(di, dj) (m/Pa) for the kernel and cell side h (m).
double cell_influence(const ResponseKernel& kernel, double h, int di, int dj);

class FftHalfSpace {
 public:
  // InputError naming the problem: the kernel's (ResponseKernel::check), a
  // spacing not finite and > 0, nx or ny below 1, more than kMaxFftCells
  // cells.
  FftHalfSpace(const ResponseKernel& kernel, double spacing, int nx, int ny);
  ~FftHalfSpace();
  FftHalfSpace(FftHalfSpace&&) noexcept;
  FftHalfSpace& operator=(FftHalfSpace&&) noexcept;

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  // K(di, dj) for |di| < nx, |dj| < ny (m/Pa).
  double influence(int di, int dj) const;

  // u = K * p (m) for cell pressures p (Pa), nx x ny (rows: x). InputError:
  // p of another size. Not for concurrent calls on one object (the FFT's
  // plans and work arrays are its own).
  Eigen::ArrayXXd apply(const Eigen::ArrayXXd& pressure) const;

 private:
  int nx_, ny_, mx_, my_;
  Eigen::ArrayXXd influence_;  // K(di, dj), 0 <= di < nx, 0 <= dj < ny
  Eigen::ArrayXXd kernel_hat_;  // the wrapped K's transform, (mx / 2 + 1) x my (real: K even)
  struct Work;
  std::unique_ptr<Work> work_;  // the FFT object and its arrays (mutable state of apply)
};

}  // namespace contactref::quasi_rigid
