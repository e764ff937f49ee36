#pragma once
// A uniform sphere on a horizontal plane, the friction tests' closed-form
// case (friction_simulation_test.cpp, friction_thresholds_test.cpp).
#include <boost/math/constants/constants.hpp>
#include <memory>

#include "reference/dynamics/contact_simulation.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "tests/kit/one_patch.hpp"

namespace contactref::test {

// A sphere on the plane z = 0 (body 2 at the identity), contact at the
// sphere's equator (s = pi/2) with psi = pi/2, which puts the sphere's polar
// axis along world y: rolling along world x moves the contact along the
// equator (t), away from the chart's poles.
template <class T>
struct SphereOnPlaneScene {
  T R{T(0.5)}, m{T(2)}, g{T(9.81)};
  surfaces::PatchComplex<T> sphere = one_patch<T>(std::make_unique<surfaces::EllipsoidPatch<T>>(Vec3<T>(R, R, R)));
  surfaces::PatchComplex<T> plane = one_patch<T>(std::make_unique<surfaces::PlanePatch<T>>());
  T I() const { return T(2) / T(5) * m * R * R; }
  dynamics::ContactSystem<T> system(const dynamics::FrictionModel<T>& friction) const {
    dynamics::ContactSystem<T> s;
    s.mass = m;
    s.I_com = I() * Mat3<T>::Identity();
    s.surface1 = &sphere;
    s.surface2 = &plane;
    s.gravity_w = Vec3<T>(T(0), T(0), -g);
    s.friction = friction;
    return s;
  }
  // q' for a centre velocity v0 along world x, no rotation: the contact
  // point moves on the plane (u' = v0) and stays put on the sphere.
  dynamics::ContactState<T> sliding_start(const T& v0) const {
    dynamics::ContactState<T> state;
    state.q << boost::math::constants::half_pi<T>(), T(0), T(0), T(0), boost::math::constants::half_pi<T>();
    state.qdot << T(0), T(0), v0, T(0), T(0);
    return state;
  }
};

}  // namespace contactref::test
