// A sphere pressed into an elastic half-space (reference/quasi_rigid/
// sphere_press.hpp: the Boussinesq response, load control) against Hertz
// (validation/oracles/hertz.hpp; Johnson ch. 4): the contact radius, peak
// pressure and approach converge as the sampling is refined, and meet the
// issue's targets at the default sampling (radius within 2%, peak pressure
// within 4%); a rigid sphere on a rigid-backed elastic plane and two
// elastic bodies of different materials; bad options.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "core/errors.hpp"
#include "reference/quasi_rigid/sphere_press.hpp"
#include "tests/kit/errors.hpp"
#include "validation/oracles/hertz.hpp"

namespace contactref::quasi_rigid {
namespace {

struct Errors {
  double radius, pressure, approach;
  double worst() const { return std::max({radius, pressure, approach}); }
};

Errors errors_of(const SpherePressOptions& options) {
  const SpherePress m = press_sphere(options);
  const oracles::HertzContact h = oracles::hertz_sphere_on_half_space(
      options.radius, oracles::composite_modulus(options.E, options.nu, options.plane_E, options.plane_nu), options.load);
  const Errors e{std::abs(m.contact_radius / h.contact_radius - 1), std::abs(m.peak_pressure / h.peak_pressure - 1),
                 std::abs(m.approach / h.approach - 1)};
  std::cout << "[hertz] a/" << options.nodes_per_radius << " (" << m.nodes << " nodes, " << m.lcp_solves
            << " LCP solves): relative errors: contact radius " << e.radius << ", peak pressure " << e.pressure
            << ", approach " << e.approach << "\n";
  return e;
}

SpherePressOptions soft_sphere() {
  SpherePressOptions o;
  o.radius = 0.05, o.E = 1e9, o.nu = 0.3, o.load = 100;  // a = 1.5 mm
  return o;
}

TEST(Hertz, SphereOnARigidPlaneConvergesToHertzAndMeetsTheTargetsAtTheDefaultSampling) {
  SpherePressOptions o = soft_sphere();
  o.nodes_per_radius = 4;
  const Errors coarse = errors_of(o);
  o.nodes_per_radius = 6;  // the default
  const Errors fine = errors_of(o);
  EXPECT_LT(fine.worst(), coarse.worst()) << "the errors shrink as the sampling is refined";
  EXPECT_LT(fine.radius, 0.02);
  EXPECT_LT(fine.pressure, 0.04);
  EXPECT_LT(fine.approach, 0.02);
}

TEST(Hertz, TwoMaterialsCombineIntoHertzsCompositeModulus) {
  SpherePressOptions o = soft_sphere();
  o.plane_E = 3e9, o.plane_nu = 0.4;  // a stiffer, nearly incompressible plane
  const Errors e = errors_of(o);
  EXPECT_LT(e.radius, 0.02);
  EXPECT_LT(e.pressure, 0.04);
}

TEST(Hertz, BadOptionsAreNamed) {
  using test::contains;
  using test::message_of;
  SpherePressOptions o = soft_sphere();
  o.nu = 0.5;
  EXPECT_TRUE(contains(message_of<InputError>([&] { press_sphere(o); }), "nu must be in [0, 0.5)"));
  o = soft_sphere();
  o.load = -1;
  EXPECT_TRUE(contains(message_of<InputError>([&] { press_sphere(o); }), "the load must be finite and > 0"));
  o = soft_sphere();
  o.nodes_per_radius = 1;
  EXPECT_TRUE(contains(message_of<InputError>([&] { press_sphere(o); }), "nodes per contact radius"));
}

}  // namespace
}  // namespace contactref::quasi_rigid
