#pragma once
// Hertz's sphere on a half-space (Johnson, Contact Mechanics, 1985, ch. 4;
// shared/notes/references.md 1.1), the closed form that the quasi-rigid
// model's Boussinesq response must reproduce:
//   1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2   (a rigid partner: E2 -> infinity)
//   a = (3 F R / (4 E*))^(1/3),  p0 = 3 F / (2 pi a^2),  delta = a^2 / R,
//   p(r) = p0 sqrt(1 - r^2 / a^2).
#include <cmath>
#include <numbers>

namespace contactref::oracles {

struct HertzContact {
  double contact_radius = 0;  // a (m)
  double peak_pressure = 0;   // p0 (Pa)
  double approach = 0;        // delta (m)
};

// E2 = 0 means a rigid half-space.
inline double composite_modulus(double E1, double nu1, double E2 = 0, double nu2 = 0) {
  return 1 / ((1 - nu1 * nu1) / E1 + (E2 > 0 ? (1 - nu2 * nu2) / E2 : 0));
}

inline HertzContact hertz_sphere_on_half_space(double radius, double E_star, double load) {
  HertzContact h;
  h.contact_radius = std::cbrt(3 * load * radius / (4 * E_star));
  h.peak_pressure = 3 * load / (2 * std::numbers::pi * h.contact_radius * h.contact_radius);
  h.approach = h.contact_radius * h.contact_radius / radius;
  return h;
}

// The largest a / R at which a model of the exact sphere is compared with
// Hertz. Hertz replaces the sphere's gap R - sqrt(R^2 - r^2) =
// r^2 / (2 R) (1 + r^2 / (4 R^2) + ...) by its parabola, which at the contact
// edge is short by a^2 / (4 R^2) of it: 1% at a / R = 0.2, the order of the
// accuracies the comparison claims (README: 0.6% in radius). Beyond it the
// difference from Hertz measures Hertz's approximation, not the model (and
// the half-space's small strains, a / R << 1, are gone too).
inline constexpr double kHertzLargestContactRatio = 0.2;

// The load that presses a sphere by the approach delta (m) into a half-space:
// W = 4/3 E* sqrt(R) delta^(3/2) (Johnson Eq. 4.23).
inline double hertz_load_at_approach(double radius, double E_star, double approach) {
  return 4.0 / 3 * E_star * std::sqrt(radius) * std::pow(approach, 1.5);
}

// Hertz's impact (Johnson Sec. 11.2, Eqs. 11.23-11.24): a sphere of mass m (or
// the reduced mass of the pair) striking a half-space at the speed V (m/s),
// without gravity. The largest approach stores the kinetic energy in W above,
// 1/2 m V^2 = 8/15 E* sqrt(R) delta*^(5/2); the contact lasts
// t = 2 int_0^delta* d delta / v(delta) = (4/5) B(2/5, 1/2) delta* / V
// = 2.943 delta* / V = 2.868 (m^2 / (R E*^2 V))^(1/5).
struct HertzImpact {
  double approach = 0;  // delta* (m)
  double duration = 0;  // t (s)
};

inline HertzImpact hertz_impact(double radius, double E_star, double mass, double speed) {
  HertzImpact h;
  h.approach = std::pow(15 * mass * speed * speed / (16 * E_star * std::sqrt(radius)), 0.4);
  h.duration = 0.8 * std::beta(0.4, 0.5) * h.approach / speed;
  return h;
}

}  // namespace contactref::oracles
