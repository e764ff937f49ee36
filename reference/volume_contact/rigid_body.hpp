#pragma once
// The bodies of the 6D contact simulator (Bouchard et al. Section 3: "a
// position and a quaternion ... a six component vector containing the linear
// and angular velocity").
//
// A body's frame b has its origin at the centre of mass; its shape is a
// closed polyhedron in b's coordinates (the exact Polyhedron for the point
// model's contact regions, its triangulation for the intersection moments).
// A fixed body (mass 0) never moves; it may also be a ground: its shape a
// box in its frame (the slab), whose top face lies on the plane
// normal . x = offset (world axes, solid below). The slab is the ground's
// solid for both models, in detection and post-stabilisation alike: the
// point model finds contacts on its faces; the 6D model cuts a body by the
// fast half-space path where the body's bounding sphere stays within the
// slab's footprint and above its bottom (the half-space and the slab then
// cut it alike), by the exact path against the slab's mesh where it reaches
// past a side (a body that leaves the footprint falls). Units: SI.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <memory>
#include <optional>
#include <string>

#include "core/mesh_io.hpp"
#include "reference/spatial/rigid_body.hpp"
#include "reference/volume_contact/contact_jacobian.hpp"
#include "robust_geometry/convex_moments.hpp"
#include "robust_geometry/halfspace_moments.hpp"
#include "robust_geometry/intersection_volume.hpp"
#include "robust_geometry/polyhedron.hpp"

namespace contactref::volume_contact {

inline constexpr double kSpeedLimit = 299792458;  // m/s: the speed of light

struct BodyShape {
  robust_geometry::Polyhedron polyhedron;       // b's coordinates
  robust_geometry::TriangleSolid triangles;     // its triangulation
  double bounding_radius = 0;                   // m: max |x| over the vertices (b's origin)
  Eigen::AlignedBox3d bounds_b;                 // m: the vertices' bounding box, b's coordinates
  // The polyhedron again when it is convex (decided exactly): pairs of convex
  // bodies take the double-precision clipping of convex_moments.hpp.
  std::optional<robust_geometry::ConvexPolyhedron> convex;
  // InputError from Polyhedron's checks (named by soup.name).
  explicit BodyShape(PolygonSoup soup);
};

// A uniform solid's volume, centroid and mass properties (the intersection
// moments of the solid with a half-space that contains it: Eqs. 14-16 with
// M = tr(C) I - C, the inertia per unit density), the inertia about the
// centroid in the soup's axes. InputError: mass not finite and > 0, a bad
// solid.
struct UniformSolid {
  double volume = 0;                                    // m^3
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();   // m, the soup's coordinates
  spatial::MassProperties<double> mass;                 // kg; kg m^2 about the centroid
};
UniformSolid uniform_solid(const robust_geometry::TriangleSolid& solid, double mass);

// A body: the one rigid-body state and mass properties of every model
// (spatial/rigid_body.hpp: x_w the centre of mass, q_w_b, v_w, omega_w in
// world axes; mass, I_com_b about the centre of mass in b's axes; a mass of
// 0 is a fixed body), with its shape and surface.
struct RigidBody : spatial::RigidBodyState<double>, spatial::MassProperties<double> {
  std::string name;
  std::shared_ptr<const BodyShape> shape;
  std::optional<robust_geometry::HalfSpace> ground_w;   // fixed half-space {normal . x <= offset}
  double friction = 0;                     // Coulomb's mu of this body's surface

  bool fixed() const { return mass == 0; }
  Eigen::Matrix3d inertia_w() const { return I_w(*this); }
  InverseMass inverse_mass() const;  // zero for a fixed body
  Vector6d velocity() const {        // (omega_w; v_w)
    Vector6d out;
    out << omega_w, v_w;
    return out;
  }
};

// InputError naming the body and field: a non-finite state, a mass < 0, an
// inertia that is not symmetric positive definite (spatial_inertia.hpp's
// check) for a moving body, a non-unit quaternion, no shape, a ground that is
// not fixed, has a zero normal, or whose shape is not a box with its top face
// on the plane (to 1e-9 of the box's size plus its distance from the
// origin: the scenes' slabs and planes are placed by one pose, so they agree
// to rounding), friction < 0, a velocity at
// which a point of the body (within the bounding radius) would move faster
// than light, kSpeedLimit: outside Newtonian mechanics, and with it the
// overflow of the kinetic energy of any mass below 1e291 kg.
void check_body(const RigidBody& body);

}  // namespace contactref::volume_contact
