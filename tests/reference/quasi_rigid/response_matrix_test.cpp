// The response matrix (reference/quasi_rigid/response_matrix.hpp) against
// closed forms:
//  - a uniform pressure p on a disk of radius a (Johnson, Contact Mechanics,
//    Sec. 3.4, Eq. 3.29): u(r) = 4 (1 - nu^2) p a E(r / a) / (pi E*), i.e.
//    c 4 a E(r / a) with c = (1 - nu) / (2 pi G) and E the complete elliptic
//    integral of the second kind; the rows of R sum to it, because the
//    Shepard functions are a partition of unity on the disk;
//  - the volume-preserving kernel's Eq. 3 (the integral of f(r) r vanishes)
//    by an independent quadrature (Boost's tanh-sinh), and the displaced
//    volume of a unit load, sum_i a_i R_ij, near zero against Boussinesq's;
//  - the singular self-terms converge as the quadrature is refined;
//  - bad input.
#include <gtest/gtest.h>

#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/special_functions/ellint_2.hpp>
#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/errors.hpp"
#include "reference/quasi_rigid/response_matrix.hpp"
#include "tests/kit/errors.hpp"

namespace contactref::quasi_rigid {
namespace {

constexpr double kKernelCompliance = 1e-6;  // m^3/N, any positive value (R is linear in it)

// Nodes on a square grid of spacing h inside the disk of radius a - h / 2.
std::vector<Eigen::Vector2d> disk_nodes(double a, double h) { return square_grid_nodes(h, (a - h / 2) / h); }

TEST(ResponseMatrix, UniformPressureOnADiskMatchesJohnsonsClosedForm) {
  const double a = 1.0, h = 0.1;
  const std::vector<Eigen::Vector2d> nodes = disk_nodes(a, h);
  const ShepardKernels kernels{h, 2.5 * h};
  const Eigen::MatrixXd R =
      response_matrix(nodes, {ResponseKernel::Kind::kBoussinesq, kKernelCompliance, 0}, kernels, a);
  double worst_inner = 0, worst = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const double r = nodes[i].norm();
    const double exact = kKernelCompliance * 4 * a * boost::math::ellint_2(r / a);
    const double error = std::abs(R.row(Eigen::Index(i)).sum() - exact) / exact;
    worst = std::max(worst, error);
    if (r <= a / 2) worst_inner = std::max(worst_inner, error);
  }
  // Along each ray the integrand is exactly c (the partition of unity), so
  // only the angle's trapezoid rule errs: geometrically in the number of
  // angles, at the rate (|q| / a) of the ray length's nearest singularity:
  // (1/2)^96 inside a / 2; near the rim (|q| = 0.95 a) 0.95^96 ~ 1e-2 bounds it.
  EXPECT_LT(worst_inner, 1e-12);
  EXPECT_LT(worst, 1e-2);
  std::cout << "[response] uniform pressure on a disk: worst relative error " << worst_inner << " inside a/2, " << worst
            << " overall (" << nodes.size() << " nodes)\n";
}

TEST(ResponseMatrix, VolumePreservingKernelDisplacesNoVolume) {
  const double sigma = 0.15;
  const ResponseKernel kernel{ResponseKernel::Kind::kVolumePreserving, kKernelCompliance, sigma};
  // Eq. 3 by an independent quadrature.
  boost::math::quadrature::exp_sinh<double> integrator;
  double error = 0, magnitude = 0;
  const double integral =
      integrator.integrate([&](double r) { return kernel.times_r(r); }, 1e-14, &error, &magnitude);  // over [0, inf)
  EXPECT_LT(std::abs(integral), 1e-12 * magnitude) << "Eq. 3";
  // The displaced volume of a unit traction at the central node, against Boussinesq's.
  const double h = 0.1;
  const std::vector<Eigen::Vector2d> nodes = disk_nodes(1.0, h);  // the plane, sampled 1 m (6.7 sigma) out
  const ShepardKernels kernels{h, 2.5 * h};
  const Eigen::VectorXd areas = nodal_areas(nodes, kernels);
  Eigen::Index centre = 0;
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (nodes[k].norm() < nodes[std::size_t(centre)].norm()) centre = Eigen::Index(k);
  const Eigen::MatrixXd R_vp = response_matrix(nodes, kernel, kernels);
  const double volume = areas.dot(R_vp.col(centre)), gross = areas.dot(R_vp.col(centre).cwiseAbs());
  // Collocation at nodes h apart integrates the displacement field to
  // O(h^2 / sigma^2) ~ 0.4 of its gross volume at worst; the central load's
  // field is symmetric, which cancels most of it.
  EXPECT_LT(std::abs(volume), 0.1 * gross);
  const Eigen::MatrixXd R_b = response_matrix(nodes, {ResponseKernel::Kind::kBoussinesq, kKernelCompliance, 0}, kernels);
  EXPECT_GT(areas.dot(R_b.col(centre)), 10 * std::abs(volume)) << "Boussinesq displaces volume";
  std::cout << "[response] volume-preserving kernel: displaced volume / gross " << volume / gross << "\n";
}

TEST(ResponseMatrix, SelfTermsConvergeUnderQuadratureRefinement) {
  const double a = 0.5, h = 0.1;
  const std::vector<Eigen::Vector2d> nodes = disk_nodes(a, h);
  const ShepardKernels kernels{h, 2.5 * h};
  const ResponseKernel kernel{ResponseKernel::Kind::kBoussinesq, kKernelCompliance, 0};
  const auto at = [&](int angles, double segment) {
    return response_matrix(nodes, kernel, kernels, a, {angles, 8, segment}).diagonal().eval();
  };
  const Eigen::VectorXd coarse = at(48, h), medium = at(96, h / 2), fine = at(192, h / 4);
  const double e1 = (coarse - fine).cwiseAbs().maxCoeff(), e2 = (medium - fine).cwiseAbs().maxCoeff();
  EXPECT_LT(e2, e1 / 2) << "the self-terms converge";
  EXPECT_LT(e2, 1e-3 * fine.cwiseAbs().maxCoeff());
  std::cout << "[response] self-terms: |coarse - fine| " << e1 << ", |medium - fine| " << e2 << "\n";
}

// A rigid flat punch of radius a pressed by delta into the half-space
// (Johnson Sec. 3.8, Eq. 3.34): every point of the face displaced by delta,
// the load F = 2 a E* delta and the pressure F / (2 pi a sqrt(a^2 - r^2)),
// which is singular at the rim. R p = delta 1 on nodes filling the face (S =
// the disk) gives the load as sum_j a_j p_j; it converges to the closed form
// as the nodes are refined (the rim's singularity is resolved only to the
// spacing, so slowly).
TEST(ResponseMatrix, FlatPunchLoadConvergesToTheClosedForm) {
  const double a = 1.0, delta = 1e-3, E_star = 1e9;
  std::vector<double> errors;
  for (double h : {a / 6, a / 10}) {
    const std::vector<Eigen::Vector2d> nodes = disk_nodes(a, h);
    const ShepardKernels kernels{h / 2, 2 * h};
    const Eigen::MatrixXd R =
        response_matrix(nodes, {ResponseKernel::Kind::kBoussinesq, 1 / (std::numbers::pi * E_star), 0}, kernels, a);
    const Eigen::VectorXd areas = nodal_areas(nodes, kernels, a);
    const Eigen::VectorXd p = R.partialPivLu().solve(Eigen::VectorXd::Constant(R.rows(), delta));
    const double load = areas.dot(p), exact = 2 * a * E_star * delta;
    const double error = std::abs(load / exact - 1);
    std::cout << "[response] flat punch, h = a/" << a / h << " (" << nodes.size() << " nodes): load " << load
              << " N against " << exact << " N (" << error << ")\n";
    errors.push_back(error);
  }
  // The pressure's 1 / sqrt singularity at the rim, resolved to the spacing,
  // leaves an error of at worst O(h^(1/2)): the observed order must reach 1/2.
  const double order = std::log(errors[0] / errors[1]) / std::log(10.0 / 6.0);
  std::cout << "[response] flat punch: observed order " << order << "\n";
  EXPECT_GE(order, 0.5);
}

TEST(ResponseMatrix, VectorisedKernelIsTheScalarOnesToRoundOff) {
  // f_of_squared (Eigen's vectorised exp and sqrt, the far fields') against
  // times_r(r) / r (the standard library's, the quadratures'), for distances
  // from 1e-3 sigma to 12 sigma (past the Gaussian's underflow to subnormal
  // nothing happens before r^2 / (2 sigma^2) = 708): within 8 ulp of the
  // larger term, 1 / r's or the Gaussian's (the difference 1 / r - beta loses
  // relative accuracy near r = 1 / beta, where both are exact to round-off).
  for (const ResponseKernel kernel : {ResponseKernel{ResponseKernel::Kind::kBoussinesq, 2e-7, 0},
                                      ResponseKernel{ResponseKernel::Kind::kVolumePreserving, 2e-7, 0.01}}) {
    Eigen::VectorXd r(241), f(241);
    for (Eigen::Index k = 0; k < r.size(); ++k) r(k) = 1e-5 * std::pow(10.0, 4.08 * static_cast<double>(k) / 240);
    f = r.array().square();
    kernel.f_of_squared(f);
    for (Eigen::Index k = 0; k < r.size(); ++k) {
      const double scalar = kernel.times_r(r(k)) / r(k);
      const double scale = kernel.compliance / r(k);  // the larger of the terms' sizes
      EXPECT_NEAR(f(k), scalar, 8 * std::numeric_limits<double>::epsilon() * scale) << "r = " << r(k);
    }
  }
}

// f_corrected's term against the Laplacian taken from f itself:
// (f_corrected(r, m) - f(r)) / m is lap f = f'' + f' / r, here by central
// differences of times_r(r) / r (step 1e-4 r: truncation 1e-8, round-off
// 1e-8 relative); and the vectorised form, double and float, against the
// scalar one.
TEST(ResponseMatrix, CorrectedKernelAddsTheLaplacianOfFByFiniteDifferences) {
  const double m = 1e-7;  // m^2: (mu_j / (4 a_j)) for spacings of about a millimetre
  for (const ResponseKernel kernel : {ResponseKernel{ResponseKernel::Kind::kBoussinesq, 2e-7, 0},
                                      ResponseKernel{ResponseKernel::Kind::kVolumePreserving, 2e-7, 0.01}}) {
    const auto f = [&](double r) { return kernel.times_r(r) / r; };
    for (const double r : {1e-3, 3e-3, 0.01, 0.02, 0.05}) {
      const double step = 1e-4 * r;
      const double laplacian = (f(r + step) - 2 * f(r) + f(r - step)) / (step * step) +
                               (f(r + step) - f(r - step)) / (2 * step) / r;
      const double term = (kernel.f_corrected(r, m) - f(r)) / m;
      const double scale = std::abs(laplacian) + kernel.compliance / (r * r * r);  // lap f's terms' size
      EXPECT_NEAR(term, laplacian, 1e-5 * scale) << "r = " << r;
      Eigen::VectorXd r2 = Eigen::VectorXd::Constant(1, r * r);
      Eigen::VectorXf r2_single = Eigen::VectorXf::Constant(1, static_cast<float>(r * r));
      kernel.f_of_squared(r2, m);
      kernel.f_of_squared(r2_single, m);
      const double corrected = kernel.f_corrected(r, m), size = kernel.compliance / r + m * scale;
      EXPECT_NEAR(r2(0), corrected, 16 * std::numeric_limits<double>::epsilon() * size) << "r = " << r;
      EXPECT_NEAR(r2_single(0), corrected, 1e-6 * size) << "r = " << r;
    }
  }
}

TEST(ResponseMatrix, BadInputIsNamed) {
  using test::contains;
  using test::message_of;
  const ResponseKernel kernel{ResponseKernel::Kind::kBoussinesq, kKernelCompliance, 0};
  const ShepardKernels kernels{0.1, 0.25};
  EXPECT_TRUE(contains(message_of<InputError>([&] { response_matrix({}, kernel, kernels); }), "no node"));
  EXPECT_TRUE(contains(message_of<InputError>([&] {
                         response_matrix({Eigen::Vector2d(std::nan(""), 0)}, kernel, kernels);
                       }),
                       "node 0 is not finite"));
  EXPECT_TRUE(contains(message_of<InputError>([&] { response_matrix({Eigen::Vector2d(2, 0)}, kernel, kernels, 1.0); }),
                       "outside the disk"));
  EXPECT_TRUE(contains(message_of<InputError>([&] {
                         response_matrix({Eigen::Vector2d::Zero()}, kernel, ShepardKernels{0.1, 0.05});
                       }),
                       "width <= support"));
  EXPECT_TRUE(contains(message_of<InputError>([&] {
                         response_matrix({Eigen::Vector2d::Zero()}, {ResponseKernel::Kind::kBoussinesq, -1, 0}, kernels);
                       }),
                       "compliance"));
  EXPECT_TRUE(contains(message_of<InputError>([&] {
                         response_matrix({Eigen::Vector2d::Zero()}, {ResponseKernel::Kind::kVolumePreserving, 1, 0},
                                         kernels);
                       }),
                       "sigma"));
}

}  // namespace
}  // namespace contactref::quasi_rigid
