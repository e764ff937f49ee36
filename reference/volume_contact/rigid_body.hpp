#pragma once
// The bodies of the 6D contact simulator (Bouchard et al. Section 3: "a
// position and a quaternion ... a six component vector containing the linear
// and angular velocity").
//
// A body's frame b has its origin at the centre of mass; its shape is a
// closed polyhedron in b's coordinates (the exact Polyhedron for the point
// model's contact regions, its triangulation for the intersection moments).
// A fixed body (mass 0) never moves; it may also be a half-space ground
// (the plane normal . x = offset, world axes, solid below), which the 6D
// model cuts by the fast half-space path; its shape is then the slab the
// point model uses, its top face on that plane. Units: SI.
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

struct BodyShape {
  robust_geometry::Polyhedron polyhedron;       // b's coordinates
  robust_geometry::TriangleSolid triangles;     // its triangulation
  double bounding_radius = 0;                   // m: max |x| over the vertices (b's origin)
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
// not fixed or has a zero normal, friction < 0.
void check_body(const RigidBody& body);

}  // namespace contactref::volume_contact
