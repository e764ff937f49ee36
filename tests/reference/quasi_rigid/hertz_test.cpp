// A rigid sphere pressed into an elastic half-space (Boussinesq response,
// response_matrix.hpp; load control, indentation.hpp) against Hertz (Johnson,
// Contact Mechanics, ch. 4; shared/notes/references.md 1.1):
//   a = (3 F R / (4 E*))^(1/3),  p0 = 3 F / (2 pi a^2),  delta = a^2 / R,
//   p(r) = p0 sqrt(1 - r^2 / a^2),
// with E* = E / (1 - nu^2) for a rigid partner, so the compliance is
// 1 / (pi E*) = (1 - nu) / (2 pi G) (Eq. 1). The contact radius and peak
// pressure are read from the nodal tractions by the least-squares fit of
// p^2 = p0^2 - (p0 / a)^2 r^2 over the loaded nodes (the Hertz profile's
// own form); the approach is the solver's. Sampled at a / 4 and a / 6.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <iostream>
#include <numbers>

#include "reference/quasi_rigid/indentation.hpp"
#include "reference/quasi_rigid/response_matrix.hpp"

namespace contactref::quasi_rigid {
namespace {

// Shepard kernels of width h / 2, truncated at 2 h (h the node spacing):
// narrow enough that the nodal tractions are close to the pressure itself.
constexpr double kWidth = 0.5, kSupport = 2.0;

struct HertzCase {
  double radius = 0.05, E = 1e9, nu = 0.3, load = 100;  // m, Pa, -, N
  double E_star() const { return E / (1 - nu * nu); }
  double a() const { return std::cbrt(3 * load * radius / (4 * E_star())); }
  double p0() const { return 3 * load / (2 * std::numbers::pi * a() * a()); }
  double approach() const { return a() * a() / radius; }
};

struct Measured {
  double a = 0, p0 = 0, approach = 0;
  int nodes = 0;
};

Measured press(const HertzCase& hertz, int per_radius, double width_factor, double support_factor) {
  const double h = hertz.a() / per_radius;
  std::vector<Eigen::Vector2d> nodes;
  const int n = int(std::ceil(1.5 * per_radius));
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      if (Eigen::Vector2d(i, j).norm() <= 1.5 * per_radius) nodes.emplace_back(i * h, j * h);
  const ShepardKernels kernels{width_factor * h, support_factor * h};
  const Eigen::MatrixXd R =
      response_matrix(nodes, {ResponseKernel::Kind::kBoussinesq, 1 / (std::numbers::pi * hertz.E_star()), 0}, kernels);
  const Eigen::VectorXd areas = nodal_areas(nodes, kernels);
  Eigen::VectorXd gaps(Eigen::Index(nodes.size()));
  for (std::size_t k = 0; k < nodes.size(); ++k)
    gaps(Eigen::Index(k)) = hertz.radius - std::sqrt(hertz.radius * hertz.radius - nodes[k].squaredNorm());
  const Indentation result = indent_with_load(R, gaps, areas, hertz.load);
  EXPECT_NEAR(result.load, hertz.load, 1e-9 * hertz.load);
  std::cout << "[hertz] " << result.lcp_solves << " LCP solves, " << result.pivots << " pivots\n";
  EXPECT_GE(result.traction.minCoeff(), 0.0);
  // p^2 = A - B r^2 over the loaded nodes, p the pressure field there.
  const Eigen::VectorXd field = shepard_values(nodes, nodes, kernels) * result.traction;
  std::vector<std::pair<double, double>> loaded;
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (result.traction(Eigen::Index(k)) > 0) loaded.emplace_back(nodes[k].squaredNorm(), std::pow(field(Eigen::Index(k)), 2));
  Eigen::MatrixXd X(Eigen::Index(loaded.size()), 2);
  Eigen::VectorXd y(Eigen::Index(loaded.size()));
  for (std::size_t k = 0; k < loaded.size(); ++k) {
    X.row(Eigen::Index(k)) << 1, -loaded[k].first;
    y(Eigen::Index(k)) = loaded[k].second;
  }
  const Eigen::Vector2d fit = X.colPivHouseholderQr().solve(y);
  return {std::sqrt(fit(0) / fit(1)), std::sqrt(fit(0)), result.approach, int(nodes.size())};
}

TEST(Hertz, RigidSphereOnAnElasticHalfSpaceConvergesToHertz) {
  const HertzCase hertz;
  double previous = 1;
  Measured m;
  for (int per_radius : {4, 6}) {
    m = press(hertz, per_radius, kWidth, kSupport);
    const double e_a = std::abs(m.a / hertz.a() - 1), e_p = std::abs(m.p0 / hertz.p0() - 1),
                 e_d = std::abs(m.approach / hertz.approach() - 1);
    std::cout << "[hertz] a/" << per_radius << " (" << m.nodes << " nodes): contact radius " << m.a << " m (Hertz "
              << hertz.a() << ", " << e_a << "), peak pressure " << m.p0 << " Pa (" << hertz.p0() << ", " << e_p
              << "), approach " << m.approach << " m (" << hertz.approach() << ", " << e_d << ")\n";
    const double worst = std::max({e_a, e_p, e_d});
    EXPECT_LT(worst, previous) << "the errors shrink as the sampling is refined";
    previous = worst;
  }
  // The targets for the CLI's default sampling: radius within 2%,
  // peak pressure within 4% (measured at a / 6: 0.55% and 0.05%).
  EXPECT_LT(std::abs(m.a / hertz.a() - 1), 0.02);
  EXPECT_LT(std::abs(m.p0 / hertz.p0() - 1), 0.04);
}

}  // namespace
}  // namespace contactref::quasi_rigid
