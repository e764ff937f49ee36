#include "reference/volume_contact/rigid_body.hpp"

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "core/errors.hpp"
#include "reference/spatial/spatial_inertia.hpp"
#include "robust_geometry/triangle_solid.hpp"

namespace contactref::volume_contact {
BodyShape::BodyShape(PolygonSoup soup) : polyhedron(std::move(soup)), triangles(robust_geometry::triangle_solid(polyhedron)) {
  for (const Eigen::Vector3d& x : triangles.vertices) {
    bounding_radius = std::max(bounding_radius, x.norm());
    bounds_b.extend(x);
  }
  convex = robust_geometry::ConvexPolyhedron::if_convex(polyhedron);
}

UniformSolid uniform_solid(const robust_geometry::TriangleSolid& solid, double mass) {
  if (!(std::isfinite(mass) && mass > 0)) throw InputError("mass properties: the mass must be finite and > 0");
  robust_geometry::validate_triangle_solid(solid, "mass properties");
  // A half-space whose plane lies above every vertex contains the solid: the
  // cut has no cap and the moments are the solid's own. The plane is one
  // height of the solid above its top: the moments are summed about a point
  // on it, so it is kept near (see halfspace_moments.hpp, Accuracy).
  double top = -std::numeric_limits<double>::infinity(), bottom = -top;
  for (const Eigen::Vector3d& x : solid.vertices) {
    top = std::max(top, x.z());
    bottom = std::min(bottom, x.z());
  }
  const robust_geometry::IntersectionMoments m =
      robust_geometry::halfspace_intersection_moments(solid, {Eigen::Vector3d::UnitZ(), top + (top - bottom)});
  UniformSolid out;
  out.volume = m.volume;
  out.centroid = m.centroid;
  out.mass.mass = mass;
  out.mass.I_com_b = mass / m.volume * m.second_moment;  // M = tr(C) I - C per unit density (Eq. 16)
  return out;
}

InverseMass RigidBody::inverse_mass() const {
  if (fixed()) return {};
  const Eigen::Matrix3d R = R_w_b();
  return {1 / mass, R * I_com_b.inverse() * R.transpose()};
}

void check_body(const RigidBody& body) {
  const auto fail = [&](const std::string& why) { throw InputError("body \"" + body.name + "\": " + why); };
  if (!(std::isfinite(body.mass) && body.mass >= 0)) fail("mass must be finite and >= 0 (0: fixed)");
  if (!body.fixed()) spatial::check_rigid_inertia<double>(body.mass, body.I_com_b, "body \"" + body.name + "\"");
  if (!body.shape) fail("a body needs a shape");
  if (body.ground_w && (!body.fixed() || !body.ground_w->normal.allFinite() || body.ground_w->normal.norm() == 0 ||
                        !std::isfinite(body.ground_w->offset)))
    fail("a ground half-space must be fixed, with a finite non-zero normal and a finite offset");
  if (body.ground_w && body.shape) {
    // A solid fills its bounding box only if it is that box; the box's top
    // corners, placed by the body's pose, on the plane.
    const Eigen::AlignedBox3d& box = body.shape->bounds_b;
    const double size = box.sizes().norm() + body.x_w.norm(), unit = body.ground_w->normal.norm();
    bool on_plane = std::abs(body.shape->polyhedron.volume() - box.volume()) <= 1e-9 * box.volume();
    for (const auto corner : {Eigen::AlignedBox3d::TopLeftCeil, Eigen::AlignedBox3d::TopRightCeil,
                              Eigen::AlignedBox3d::BottomLeftCeil, Eigen::AlignedBox3d::BottomRightCeil}) {
      const Eigen::Vector3d x_w = body.x_w + body.R_w_b() * box.corner(corner);
      on_plane = on_plane && std::abs(body.ground_w->normal.dot(x_w) - body.ground_w->offset) <= 1e-9 * size * unit;
    }
    if (!on_plane || !(body.ground_w->normal.dot(body.R_w_b().col(2)) > 0))
      fail("a ground's shape must be a box in its frame (the slab) with its top face on the ground's plane and "
           "the plane's normal along the box's +z");
  }
  if (!(std::isfinite(body.friction) && body.friction >= 0)) fail("friction must be finite and >= 0");
  if (!body.q_w_b.coeffs().allFinite() || std::abs(body.q_w_b.norm() - 1) > 1e-12)
    fail("the orientation must be a finite unit quaternion");
  if (!body.x_w.allFinite() || !body.omega_w.allFinite() || !body.v_w.allFinite())
    fail("position and velocities must be finite");
  // stableNorm: |v| = 1e200 must not overflow on the way.
  const double speed = body.v_w.stableNorm(), spin = body.omega_w.stableNorm();
  if (body.shape && !(speed + spin * body.shape->bounding_radius < kSpeedLimit)) {
    std::ostringstream os;
    os << "velocity: its points move at up to |v| + |omega| r = " << speed << " m/s + " << spin << " rad/s x "
       << body.shape->bounding_radius << " m, not below the speed of light (" << std::setprecision(9) << kSpeedLimit
       << " m/s): outside Newtonian mechanics";
    fail(os.str());
  }
}

}  // namespace contactref::volume_contact
