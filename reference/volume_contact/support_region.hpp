#pragma once
// The support option of the contact patch: the centre of pressure is kept in
// the contact region itself rather than in Appendix A's ellipse, and the spin
// torque bound is that of a pressure spread over that region (Bouchard et
// al. Sections 5.4 and 5.6 with another patch; the paper's ellipse stays the
// default, contact_patch.hpp).
//
// Why. Appendix A's equivalent ellipsoid (constant 1/5) has semi-axes
// sqrt(5 C_i / V): over a flat intersection of width s, sqrt(5/12) s =
// 0.645 s against the region's half-width 0.5 s. The ellipse reaches 0.145 s
// past the contact region, so the centre of pressure may sit where nothing
// touches (a 10 cm cube whose centre of mass is 5 mm past a table's edge
// stays up), and Eq. 13 at the centre gives mu f_n sqrt(a^2 + b^2) =
// 0.913 s mu f_n for a square, against 0.383 s mu f_n for a uniform pressure
// (a spinning cube brakes 2.4 times too fast).
//
// The region R: the convex hull of the intersection's corners projected along
// the normal onto the contact plane, in the patch frame's (u, w) about its
// centre c. It is the intersection's shadow: for a flat intersection the
// contact region (a box on a table's edge: the part of its face over the
// table), and in general the smallest convex set holding every point where
// the bodies overlap, which is where a compressive pressure's centre can be.
//
// Centre of pressure (Section 5.4 with R for the ellipse): d in R stays;
// outside, it moves to the closest point of R (Euclidean, as the paper's).
//
// Spin torque bound (for Eqs. 11-13). Friction mu p(x) opposing a spin about
// p, for a pressure p(x) >= 0 on R with resultant f_n at p, gives the torque
// mu ∫ p(x) |x - p| dA. At R's area centroid g the pressure is taken uniform:
// mu f_n m, with m = (1/A) ∫_R |x - g| dA the mean distance from g (a square
// of side s: (s/6)(sqrt 2 + ln(1 + sqrt 2)) = 0.383 s). Elsewhere, as Eqs.
// 11-12 spread f over the corners with p's bilinear coordinates, f is spread
// uniformly over the largest copy of R scaled about a boundary point that has
// its centroid at p: with z the point where the ray from g through p leaves
// R, the copy z + t (R - z) lies in R (R is convex), has its centroid at
// z + t (g - z) = p for t = |z - p| / |z - g| = 1 - gamma(p) (gamma: R's
// gauge about g, 0 at g and 1 on the boundary), and its distances are t
// times R's:
//   bound(p) = mu f_n m (1 - gamma(p)),
// falling linearly to zero at the boundary, where, as the paper says, a
// pressure concentrated on the edge gives no spin torque. It is a torque the
// region can carry (that pressure is admissible), not an upper bound.
//
// The mean distance, by fanning R from g: the triangle (g, v_i, v_i+1) at
// distance h from g to its edge's line, with the edge's ends at signed
// offsets t_1 < t_2 along it from the foot of the perpendicular, gives
// ∫ |x - g| dA = ∫∫ r^2 dr dphi = (h^3 / 3) [F(t/h)] from t_1 to t_2,
// F(s) = (s sqrt(1 + s^2) + asinh s) / 2 (the integral of sec^3 phi with
// s = tan phi).
#include <Eigen/Core>
#include <vector>

#include "reference/volume_contact/centre_of_pressure.hpp"

namespace contactref::volume_contact {

struct SupportRegion {
  std::vector<Eigen::Vector2d> vertices;                // m: counter-clockwise, no three collinear
  Eigen::Vector2d centroid = Eigen::Vector2d::Zero();   // m: g
  double area = 0;                                      // m^2
  double mean_distance = 0;                             // m: (1/A) ∫ |x - g| dA
  bool empty() const { return vertices.empty(); }
};

// The convex hull of the points and its integrals. InputError: a non-finite
// point, or points whose hull has no area (fewer than three not on a line).
SupportRegion support_region(const std::vector<Eigen::Vector2d>& points);

// Section 5.4 with R. InputError: a non-finite d, an empty region.
PatchProjection project_onto_region(const Eigen::Vector2d& d, const SupportRegion& region);

// R's gauge about its centroid: 0 at g, 1 on the boundary, > 1 outside.
double region_gauge(const Eigen::Vector2d& p, const SupportRegion& region);

// mu f_n m (1 - gamma(p)) (above). InputError: p outside R (gamma > 1 beyond
// round-off), negative or non-finite f_n or mu, an empty region.
double region_spin_torque_bound(const Eigen::Vector2d& p, const SupportRegion& region, double f_n, double mu);

}  // namespace contactref::volume_contact
