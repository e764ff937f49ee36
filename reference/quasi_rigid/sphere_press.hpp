#pragma once
// A rigid sphere pressed with a load into a compliant half-space (or two
// elastic bodies, their compliances summed on the same geometry: Pauly et al.
// Eq. 10 with R = R_A + R_B, whose prefactor is then 1 / (pi E*)), on a
// square grid of nodes in the tangent plane at the first contact, with the
// Boussinesq response (response_matrix.hpp) and load control
// (indentation.hpp). The gaps are the sphere's exact ones,
// R - sqrt(R^2 - r^2) (sphere_gap). The spacing is the Hertz radius over
// nodes_per_radius: Hertz's a places the nodes, and Hertz's a and p0 are the
// fit's units (below); nothing else of Hertz is used.
//
// What it reports (SI units): the approach (the solver's), and the contact
// radius and peak pressure read from the pressure field at the loaded nodes
// by the least-squares fit of p^2 = p0^2 - (p0 / a)^2 r^2 (the elliptic
// profile's own form; a node-counting radius would be quantised by the
// spacing).
#include <vector>

namespace contactref::quasi_rigid {

struct SpherePressOptions {
  double radius = 0;      // m
  double E = 0, nu = 0;   // the sphere's Young's modulus (Pa) and Poisson's ratio
  double plane_E = 0, plane_nu = 0;  // the half-space's; plane_E = 0: rigid
  double load = 0;        // N
  int nodes_per_radius = 6;
  double extent = 1.5;    // the grid's radius over the Hertz radius
  double width = 0.5, support = 2.0;  // Shepard kernels: width and truncation over the spacing
};

struct SpherePress {
  double contact_radius = 0, peak_pressure = 0, approach = 0;  // m, Pa, m
  double composite_modulus = 0;  // E* (Pa)
  double spacing = 0;            // m
  int nodes = 0, loaded_nodes = 0, lcp_solves = 0, pivots = 0;
  // The pressure field at every node (Pa) and the node's distance from the
  // first contact (m), for profiles.
  std::vector<double> node_radius, pressure;
};

// InputError naming the option: a radius, modulus or load not finite and > 0,
// a Poisson's ratio outside [0, 0.5), the plane's nu without its E, nodes_per_radius < 2 or > 16 (the response is
// dense: about 1800 nodes at 16), extent
// <= 1, width or support not positive, support below width, a load so large
// (or materials so soft) that the grid, extent times Hertz's contact radius,
// does not fit on the sphere.
SpherePress press_sphere(const SpherePressOptions& options);

// A sphere's height above its tangent plane at distance r from the touching
// point, R - sqrt(R^2 - r^2), as r^2 / (R + sqrt(R^2 - r^2)): the same value
// without the cancellation of the difference, which loses about
// log10(R^2 / r^2) of its digits (all of them below r / R = 1e-8).
// r_squared <= R^2.
double sphere_gap(double radius, double r_squared);

}  // namespace contactref::quasi_rigid
