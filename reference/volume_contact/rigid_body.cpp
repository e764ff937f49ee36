#include "reference/volume_contact/rigid_body.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "core/errors.hpp"
#include "reference/spatial/spatial_inertia.hpp"

namespace contactref::volume_contact {
namespace {

robust_geometry::TriangleSolid triangulate(const robust_geometry::Polyhedron& polyhedron) {
  robust_geometry::TriangleSolid solid;
  solid.vertices = polyhedron.vertices();
  for (const robust_geometry::Triangle& t : polyhedron.triangles()) solid.triangles.push_back(t.vertices);
  return solid;
}

}  // namespace

BodyShape::BodyShape(PolygonSoup soup) : polyhedron(std::move(soup)), triangles(triangulate(polyhedron)) {
  for (const Eigen::Vector3d& x : triangles.vertices) bounding_radius = std::max(bounding_radius, x.norm());
}

MassProperties uniform_mass_properties(const robust_geometry::TriangleSolid& solid, double mass) {
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
  MassProperties out;
  out.volume = m.volume;
  out.centroid = m.centroid;
  out.inertia = mass / m.volume * m.second_moment;  // M = tr(C) I - C per unit density (Eq. 16)
  return out;
}

InverseMass RigidBody::inverse_mass() const {
  if (fixed()) return {};
  const Eigen::Matrix3d R = R_w_b();
  return {1 / mass, R * inertia_b.inverse() * R.transpose()};
}

void check_body(const RigidBody& body) {
  const auto fail = [&](const std::string& why) { throw InputError("body \"" + body.name + "\": " + why); };
  if (!(std::isfinite(body.mass) && body.mass >= 0)) fail("mass must be finite and >= 0 (0: fixed)");
  if (!body.fixed()) spatial::check_rigid_inertia<double>(body.mass, body.inertia_b, "body \"" + body.name + "\"");
  if (!body.shape) fail("a body needs a shape");
  if (body.ground_w && (!body.fixed() || !body.ground_w->normal.allFinite() || body.ground_w->normal.norm() == 0 ||
                        !std::isfinite(body.ground_w->offset)))
    fail("a ground half-space must be fixed, with a finite non-zero normal and a finite offset");
  if (!(std::isfinite(body.friction) && body.friction >= 0)) fail("friction must be finite and >= 0");
  if (!body.q_w_b.coeffs().allFinite() || std::abs(body.q_w_b.norm() - 1) > 1e-12)
    fail("the orientation must be a finite unit quaternion");
  if (!body.x_w.allFinite() || !body.omega_w.allFinite() || !body.v_w.allFinite())
    fail("position and velocities must be finite");
}

}  // namespace contactref::volume_contact
