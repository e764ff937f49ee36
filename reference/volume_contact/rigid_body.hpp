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
#include "reference/volume_contact/contact_jacobian.hpp"
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
  // InputError from Polyhedron's checks (named by soup.name).
  explicit BodyShape(PolygonSoup soup);
};

struct MassProperties {
  double volume = 0;                                    // m^3
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();   // m, the soup's coordinates
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();    // kg m^2 about the centroid, for the given mass
};

// A uniform solid's mass properties (the intersection moments of the solid
// with a half-space that contains it: Eqs. 14-16 with M = tr(C) I - C, the
// inertia per unit density). InputError: mass not finite and > 0, a bad
// solid.
MassProperties uniform_mass_properties(const robust_geometry::TriangleSolid& solid, double mass);

struct RigidBody {
  std::string name;
  std::shared_ptr<const BodyShape> shape;
  double mass = 0;                         // kg; 0: fixed
  Eigen::Matrix3d inertia_b = Eigen::Matrix3d::Zero();  // kg m^2 about the centre of mass, b's axes
  std::optional<robust_geometry::HalfSpace> ground_w;   // fixed half-space {normal . x <= offset}
  double friction = 0;                     // Coulomb's mu of this body's surface

  Eigen::Quaterniond q_w_b = Eigen::Quaterniond::Identity();  // unit: b's axes into world axes
  Eigen::Vector3d x_w = Eigen::Vector3d::Zero();              // m: the centre of mass
  Eigen::Vector3d omega_w = Eigen::Vector3d::Zero();          // rad/s, world axes
  Eigen::Vector3d v_w = Eigen::Vector3d::Zero();              // m/s: the centre of mass's velocity

  bool fixed() const { return mass == 0; }
  Eigen::Matrix3d R_w_b() const { return q_w_b.toRotationMatrix(); }
  Eigen::Matrix3d inertia_w() const { return R_w_b() * inertia_b * R_w_b().transpose(); }
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
