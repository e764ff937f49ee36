#pragma once
// Mass properties (volume, centre of mass, inertia) of the solid bounded by a
// closed surface at uniform density, from surface integrals by the divergence
// theorem. With x measured from an origin p and n dA = (c_s x c_t) ds dt the
// outward area element, div(x f) = (3 + k) f for f homogeneous of degree k in
// x, so
//   V             = 1/3 \oint (x.n) dA              (f = 1),
//   \int x dV     = 1/4 \oint x (x.n) dA            (f = x_i),
//   \int x x^T dV = 1/5 \oint x x^T (x.n) dA        (f = x_i x_j).
// Every integrand is a multiple of the one scalar x.n, so the sums commute
// with rotations of the axes exactly (not only in the limit).
//
// Quadrature:
//  - Loop surfaces: a face patch is a quartic polynomial on each of its
//    pieces (the whole face if regular, the dyadic rings about an
//    extraordinary vertex (EV), the four sub-triangles of a split face), so
//    each integrand above is a polynomial of degree <= 4 + 4 + 4 + 3 + 3 = 18
//    there, integrated exactly by triangle_rule (degree 18). About an EV the
//    rings are summed down to a depth L chosen from the tolerance and the
//    neglected disc is bounded (see mass_properties.cpp).
//  - Closed charts (ellipsoid, torus): tensor rules over the parameter box,
//    the midpoint (trapezoid) rule along periodic parameters (exact for
//    trigonometric polynomials of degree < n, spectral for analytic periodic
//    integrands) and Gauss-Legendre along the others (spectral for analytic
//    integrands; its nodes avoid the chart's degenerate ends, e.g. the
//    ellipsoid's poles), doubling n until two rules agree to the tolerance.
#include <vector>

#include "reference/surfaces/loop_surface.hpp"

namespace contactref::surfaces {

template <class T>
struct MassProperties {
  T volume;                 // m^3
  T mass;                   // kg: density * volume
  Vec3<T> centre_of_mass;   // m, in the surface's axes
  Mat3<T> inertia_com;      // kg m^2: \int rho (|r|^2 1 - r r^T) dV, r from the centre of mass, surface axes
  // m^3: a bound E on the error of `volume` from the quadrature (the
  // neglected discs about EVs; for charts the change between the last two
  // rules) and from round-off. The same analysis bounds the errors of
  // \int x dV and \int x x^T dV about the integration origin by (3/4) R E and
  // (3/5) R^2 E (their integrands are at most R/3, R^2/4, R^3/5 times |n|),
  // hence, to first order, |error of centre_of_mass| <= (7/4) R E / V and
  // |error of inertia_com|_F <= 13 density R^2 E. R: the largest distance
  // from the origin to the surface; the origin is the centroid of the
  // control points for Loop surfaces (R <= the largest distance from it to a
  // control point: the surface lies in their convex hull) and the
  // coordinate origin for charts.
  T error_bound;
};

// Ring n of an EV is 2^-n across: beyond 200 rings (area 4^-200 of the
// face's) no precision we use can tell the difference.
inline constexpr int kMaxRingDepth = 200;

template <class T>
struct MassPropertiesOptions {
  // Requested accuracy, relative to R A / 3 (A: the surface area), which is
  // V for a sphere about the origin. Truncation only: round-off comes on top.
  // In [0, 1); 0: always sum max_depth rings.
  T tolerance = T(1e-14);
  int max_depth = 48;   // Loop: most dyadic rings about an EV, 2..kMaxRingDepth
  int max_nodes = 256;  // charts: most nodes per parameter (>= 8)
};

// A rule on the unit triangle (0,0), (1,0), (0,1), exact for polynomials of
// total degree <= 18: the collapsed 10 x 10 Gauss-Legendre rule, 100 interior
// nodes.
template <class T>
struct TriangleRule {
  std::vector<Vec2<T>> points;
  std::vector<T> weights;  // summing to 1/2, the triangle's area
};
template <class T>
TriangleRule<T> triangle_rule();

// Throws InputError unless density is finite and positive, and when the
// volume is not positive (the surface is inside out); ComputationError, naming
// the quantity, when a moment or a result overflows. Messages start with the
// surface's name.
template <class T>
MassProperties<T> mass_properties(const LoopSurface<T>& surface, const T& density,
                                  const MassPropertiesOptions<T>& options = {});

// A closed surface given by one chart: both parameter intervals finite,
// c_s x c_t outward (ellipsoid, torus). InputError as above, and for a chart
// with an unbounded parameter or a polygon domain.
template <class T>
MassProperties<T> mass_properties(const Patch<T>& closed_chart, const T& density,
                                  const MassPropertiesOptions<T>& options = {});

}  // namespace contactref::surfaces
