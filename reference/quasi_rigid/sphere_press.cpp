#include "reference/quasi_rigid/sphere_press.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "reference/quasi_rigid/indentation.hpp"
#include "reference/quasi_rigid/response_matrix.hpp"

namespace contactref::quasi_rigid {
namespace {

void check(const SpherePressOptions& o) {
  const auto positive = [](const char* name, double x) {
    if (std::isfinite(x) && x > 0) return;
    std::ostringstream os;
    os << "sphere press: " << name << " must be finite and > 0, got " << x;
    throw InputError(os.str());
  };
  const auto poisson = [](const char* name, double x) {
    if (x >= 0 && x < 0.5) return;
    std::ostringstream os;
    os << "sphere press: " << name << " must be in [0, 0.5), got " << x;
    throw InputError(os.str());
  };
  positive("the radius", o.radius);
  positive("E", o.E);
  poisson("nu", o.nu);
  if (o.plane_E != 0) {
    positive("the plane's E", o.plane_E);
    poisson("the plane's nu", o.plane_nu);
  } else if (o.plane_nu != 0) {
    std::ostringstream os;
    os << "sphere press: the plane's nu (" << o.plane_nu << ") is given for a rigid plane (its E is 0): give its E too";
    throw InputError(os.str());
  }
  positive("the load", o.load);
  if (o.nodes_per_radius < 2 || o.nodes_per_radius > 16)
    throw InputError("sphere press: nodes per contact radius must be in 2..16 (the dense response grows as its "
                     "square; 16 is about 1800 nodes), got " +
                     std::to_string(o.nodes_per_radius));
  if (!(o.extent > 1 && std::isfinite(o.extent))) throw InputError("sphere press: the extent must be finite and > 1");
  positive("the kernel width", o.width);
  if (!(o.support >= o.width && std::isfinite(o.support)))
    throw InputError("sphere press: the kernel support must be finite and >= its width");
}

}  // namespace

double sphere_gap(double radius, double r_squared) { return r_squared / (radius + std::sqrt(radius * radius - r_squared)); }

SpherePress press_sphere(const SpherePressOptions& options) {
  check(options);
  SpherePress out;
  out.composite_modulus =
      1 / ((1 - options.nu * options.nu) / options.E +
           (options.plane_E > 0 ? (1 - options.plane_nu * options.plane_nu) / options.plane_E : 0));
  // Hertz's radius and peak pressure, to place the nodes and scale the fit only.
  const double a_hertz = std::cbrt(3 * options.load * options.radius / (4 * out.composite_modulus));
  const double p_hertz = 3 * options.load / (2 * std::numbers::pi * a_hertz * a_hertz);
  if (!(options.extent * a_hertz < options.radius)) {
    // The gaps are the sphere's own: the grid must lie on it.
    std::ostringstream os;
    os << "sphere press: the load gives a Hertz contact radius of " << a_hertz << " m, and the grid out to "
       << options.extent << " times it does not fit on the sphere of radius " << options.radius
       << " m (Hertz's theory needs a << R): lower the load, or stiffen the materials";
    throw InputError(os.str());
  }
  const double h = a_hertz / options.nodes_per_radius;
  out.spacing = h;
  const std::vector<Eigen::Vector2d> nodes = square_grid_nodes(h, options.extent * options.nodes_per_radius);
  out.nodes = int(nodes.size());
  const ShepardKernels kernels{options.width * h, options.support * h};
  const Eigen::MatrixXd R = response_matrix(
      nodes, {ResponseKernel::Kind::kBoussinesq, 1 / (std::numbers::pi * out.composite_modulus), 0}, kernels);
  const Eigen::VectorXd areas = nodal_areas(nodes, kernels);
  Eigen::VectorXd gaps(Eigen::Index(nodes.size()));
  for (std::size_t k = 0; k < nodes.size(); ++k)
    gaps(Eigen::Index(k)) = sphere_gap(options.radius, nodes[k].squaredNorm());
  const Indentation pressed = indent_with_load(R, gaps, areas, options.load);
  out.approach = pressed.approach;
  out.lcp_solves = pressed.lcp_solves;
  out.pivots = pressed.pivots;
  // p^2 = A - B r^2 over the loaded nodes, p the pressure field there; the
  // columns in Hertz's units (r / a_hertz, p / p_hertz), so that the fit
  // does not depend on the problem's scale.
  const Eigen::VectorXd field = shepard_values(nodes, nodes, kernels) * pressed.traction;
  for (std::size_t k = 0; k < nodes.size(); ++k)
    out.node_radius.push_back(nodes[k].norm()), out.pressure.push_back(field(Eigen::Index(k)));
  std::vector<std::pair<double, double>> loaded;
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (pressed.traction(Eigen::Index(k)) > 0)
      loaded.emplace_back(nodes[k].squaredNorm() / (a_hertz * a_hertz), std::pow(field(Eigen::Index(k)) / p_hertz, 2));
  out.loaded_nodes = int(loaded.size());
  if (loaded.size() < 3) throw ComputationError("sphere press: fewer than 3 loaded nodes: refine the sampling");
  Eigen::MatrixXd X(Eigen::Index(loaded.size()), 2);
  Eigen::VectorXd y(Eigen::Index(loaded.size()));
  for (std::size_t k = 0; k < loaded.size(); ++k) {
    X.row(Eigen::Index(k)) << 1, -loaded[k].first;
    y(Eigen::Index(k)) = loaded[k].second;
  }
  const Eigen::Vector2d fit = X.colPivHouseholderQr().solve(y);
  if (!(fit(0) > 0 && fit(1) > 0)) throw ComputationError("sphere press: the pressure profile is not elliptic (fit failed)");
  out.contact_radius = a_hertz * std::sqrt(fit(0) / fit(1));
  out.peak_pressure = p_hertz * std::sqrt(fit(0));
  return out;
}

}  // namespace contactref::quasi_rigid
