#pragma once
// Three pairs of analytic surfaces in contact for the dynamics tests (an
// ellipsoid on a plane, a torus on a plane, an ellipsoid on a larger one),
// and a seeded contact point on each whose parameter points are regular and
// convex (the ellipsoid's s away from its poles, the torus on its outer
// half), so that every matrix the dynamics solve is regular.
#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "tests/kit/random.hpp"

namespace contactref::test {

enum class Kind { kEllipsoidOnPlane, kTorusOnPlane, kEllipsoidOnEllipsoid };
inline constexpr Kind kKinds[3] = {Kind::kEllipsoidOnPlane, Kind::kTorusOnPlane, Kind::kEllipsoidOnEllipsoid};

inline const char* name(Kind k) {
  switch (k) {
    case Kind::kEllipsoidOnPlane: return "ellipsoid on plane";
    case Kind::kTorusOnPlane: return "torus on plane";
    default: return "ellipsoid on ellipsoid";
  }
}

template <class T>
struct ContactPairs {
  surfaces::PlanePatch<T> plane;
  surfaces::EllipsoidPatch<T> ellipsoid{Vec3<T>(T(0.5), T(0.4), T(0.3))};
  surfaces::TorusPatch<T> torus{T(0.6), T(0.2)};
  surfaces::EllipsoidPatch<T> big_ellipsoid{Vec3<T>(T(2.0), T(1.5), T(1.2))};
  const surfaces::Patch<T>& body1(Kind k) const {
    return k == Kind::kTorusOnPlane ? static_cast<const surfaces::Patch<T>&>(torus) : ellipsoid;
  }
  const surfaces::Patch<T>& body2(Kind k) const {
    return k == Kind::kEllipsoidOnEllipsoid ? static_cast<const surfaces::Patch<T>&>(big_ellipsoid) : plane;
  }
};

template <class T>
const ContactPairs<T>& contact_pairs() {
  static const ContactPairs<T> instance;
  return instance;
}

// q = (s, t, u, v, psi) of pair `kind`, drawn from rng in that order.
template <class T>
kinematics::Vec5<T> random_contact_point(Kind kind, Rng& rng) {
  const auto u = [&](double a, double b) { return T(fixtures::uniform(rng, a, b)); };
  kinematics::Vec5<T> q;
  if (kind == Kind::kTorusOnPlane)
    q(0) = u(-3, 3), q(1) = u(-1, 1);
  else
    q(0) = u(0.4, 2.7), q(1) = u(-3, 3);
  if (kind == Kind::kEllipsoidOnEllipsoid)
    q(2) = u(0.4, 2.7), q(3) = u(-3, 3);
  else
    q(2) = u(-2, 2), q(3) = u(-2, 2);
  q(4) = u(-3, 3);
  return q;
}

}  // namespace contactref::test
