#pragma once
// The response matrix of Pauly et al. Section 3 (Eqs. 4-8) on a planar
// contact surface: the normal displacement u_i at node q_i under the nodal
// tractions p_j, u = R p, with
//   R_ij = integral over S of f(|q_i - x|) Phi_j(x) dA          (Eq. 8)
// where f is the response to a unit point load:
//  - Boussinesq (Eq. 1): f(r) = c / r, c = (1 - nu) / (2 pi G);
//  - volume-preserving (Section 3.1.1; the paper gives no formula, this is
//    ours, shared/notes/quasi-rigid-and-brep.md A.1.4):
//    f(r) = c (1 / r - beta) exp(-r^2 / (2 sigma^2)), beta = sqrt(pi / 2) / sigma,
//    so that Eq. 3, integral of f(r) r dr = 0, holds exactly;
// and Phi_j the Shepard partition of unity of truncated Gaussians (Eq. 6),
//   omega_k(d) = exp(-d^2 / (2 s^2)) for d < rho, 0 beyond,
//   Phi_j = omega_j / sum_k omega_k (0 where no kernel reaches).
// The integral is taken in polar coordinates about q_i, where the Jacobian r
// cancels the singularity of 1 / r (the integrand f(r) r Phi_j is bounded):
// a trapezoid rule in the angle (periodic) and composite Gauss-Legendre along
// each ray, out to where the surface S (the plane, or a disk about the origin)
// or the kernels' cover ends. Every Phi_j is evaluated at the same points, so
// the rows keep the partition of unity exactly: sum_j R_ij is the quadrature
// of f over the covered part of S.
#include <Eigen/Core>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "reference/quasi_rigid/avx2_kernels.hpp"

namespace contactref::quasi_rigid {

struct ResponseKernel {
  enum class Kind { kBoussinesq, kVolumePreserving };
  Kind kind = Kind::kBoussinesq;
  double compliance = 0;  // c = (1 - nu) / (2 pi G), m^3/N (displacement per force over distance)
  double sigma = 0;       // m: the volume-preserving kernel's width (kVolumePreserving only)

  // f(r) r, the integrand's bounded factor (m^2/N ... times the traction);
  // inline: the response's far field evaluates it for every pair of samples.
  double times_r(double r) const {
    if (kind == Kind::kBoussinesq) return compliance;
    const double beta = std::sqrt(std::numbers::pi / 2) / sigma;
    return compliance * (1 - beta * r) * std::exp(-r * r / (2 * sigma * sigma));
  }
  // f(r) + m lap f(r), with lap f = f'' + f' / r the plane's Laplacian of
  // the radial f: c / r^3 for Boussinesq, and for the volume-preserving
  // kernel c exp(-r^2 / (2 sigma^2)) (1 / r^3 + 2 beta / sigma^2
  // + (r - beta r^2) / sigma^4). With m = 0, f itself. (The sampled
  // response's far field: its midpoint rule with the second-order term,
  // sampled_response.hpp.)
  double f_corrected(double r, double m) const;
  // f_corrected for many distances at once, from their squares, in place
  // (vectorised: Eigen's exp and sqrt; the far fields' pairs).
  void f_of_squared(Eigen::Ref<Eigen::VectorXd> r2, double m = 0) const;
  // The same in single precision, for sums that need no more (the
  // displacement field of SurfaceSampling::displacement): relative error
  // below 1e-6 (float's rounding, 6e-8, in the exponential, the estimated
  // reciprocal square root and four products; measured in
  // response_matrix_test).
  void f_of_squared(Eigen::Ref<Eigen::VectorXf> r2, double m = 0) const;
  // f_corrected's constants for the AVX2 far fields (avx2_kernels.hpp).
  FarKernelTerms far_terms() const;
  // The distance beyond which the far fields leave f out (m): infinite for
  // Boussinesq; 7.5 sigma for the volume-preserving kernel, where, as
  // beta r > 1, |f(r)| < c beta exp(-r^2 / (2 sigma^2)): the pairs left out
  // change a displacement by less than c beta exp(-28.125) W
  // = 7.7e-13 c W / sigma under nonnegative tractions of load
  // W = sum_j p_j a_j (c W / sigma: that load's displacement spread over
  // sigma), and a response entry by less than 7.7e-13 c a_j / sigma; with
  // f_corrected's term m (|lap f| / (c exp(-r^2 / (2 sigma^2))) is at most
  // 60.5 / sigma^3 there, and falls beyond), by less than that times
  // (1 + 48.3 m / sigma^2).
  double far_reach() const;
  // InputError ("WHERE: ...") unless the compliance is finite and > 0 and,
  // for the volume-preserving kernel, sigma is finite and > 0.
  void check(const std::string& where) const;
};

struct ShepardKernels {
  double width = 0;    // s (m): the Gaussian's standard deviation
  double support = 0;  // rho (m): its truncation radius
};

struct ResponseQuadrature {
  int angles = 96;        // trapezoid points in the angle
  int radial_points = 8;  // Gauss-Legendre points per radial segment
  double segment = 0;     // m: radial segment length (0: twice the kernels' width s)
};

// nodes: the q_i in the plane (m). disk_radius: S is the disk of that radius
// about the origin (every node inside it), or the whole plane (empty).
// InputError: no node, a non-finite coordinate, compliance <= 0, width or
// support <= 0, support below width, sigma <= 0 for the volume-preserving
// kernel, a node outside the disk, a quadrature with fewer than 8 angles or
// 2 radial points.
Eigen::MatrixXd response_matrix(const std::vector<Eigen::Vector2d>& nodes, const ResponseKernel& kernel,
                                const ShepardKernels& kernels, std::optional<double> disk_radius = std::nullopt,
                                const ResponseQuadrature& quadrature = {});

// The nodes (i h, j h) of the square grid of spacing h (m) whose index
// (i, j) lies within `cells` spacings of the origin, |(i, j)| <= cells.
std::vector<Eigen::Vector2d> square_grid_nodes(double spacing, double cells);

// The Shepard functions at points x_k: row k holds Phi_j(x_k) (Eq. 6), so
// that the pressure field of nodal tractions p at the points is (this) p.
Eigen::MatrixXd shepard_values(const std::vector<Eigen::Vector2d>& points, const std::vector<Eigen::Vector2d>& nodes,
                               const ShepardKernels& kernels);

// The nodal areas a_j = integral over S of Phi_j (m^2), by the same
// quadrature about each node's own centre: sum_j a_j is the covered area.
Eigen::VectorXd nodal_areas(const std::vector<Eigen::Vector2d>& nodes, const ShepardKernels& kernels,
                            std::optional<double> disk_radius = std::nullopt, const ResponseQuadrature& quadrature = {});

}  // namespace contactref::quasi_rigid
