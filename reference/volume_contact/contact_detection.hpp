#pragma once
// Contact detection for the simulator, one call per pair of bodies:
//  - the 6D model (Section 4): the intersection moments of the pair (the fast
//    half-space path against a ground within its slab's footprint; between
//    two meshes, and against a ground's slab where a body reaches past its
//    side (rigid_body.hpp), the double-precision clipping of two convex
//    polyhedra where both are convex, else the exact corefinement), the patch and frame of
//    contact_patch.hpp, and the volume gradient (its normal component is the
//    patch's area; both for post-stabilisation, Section 5.7);
//  - the point baseline (Section 6.1.7-6.1.8): the corners of the contact
//    regions of robust_geometry's find_contacts (Bouma & Vanecek) within a
//    touch tolerance, each with its region's first normal.
//
// The normal between two meshes. Section 4.1 takes the contact normal from
// the linear part g_v of the volume gradient, which is discontinuous where
// faces of A and B are flush: two stacked boxes of one footprint have B's
// side faces in A's side planes, and a rotation of 1e-19 (a step's
// round-off) puts the strip of one side face strictly inside A and the
// opposite one outside, tilting -g_v by the strip's area over the face's
// (0.03 rad at a 3 mm overlap of 0.1 m cubes: the stack topples; Section
// 6.1.2 meets the same "small lateral component" in a sloppy stack and
// avoids it with a tapered one). Between
// two meshes g_v is therefore replaced by central differences of the
// volume over B's translations by +-eps along A's axes, eps = 1e-6 of the
// ellipsoid's largest semi-axis: the gradient of the volume averaged over
// that scale. Where V is smooth the two agree to O(eps^2); at a flush face
// the difference quotient sees both sides of the kink and gives their mean.
// (Six more intersections per pair, by the same route as the pair's own (the
// exact corefinement, or the convex clipping, whose volumes carry a rounding
// of about 1e-13 V: 1e-9 of the area over the step), taken only for meshes
// with a pair of faces within 1e-3 rad of parallel: elsewhere V is smooth on
// scales far above eps and the gradient is kept, as on the half-space path,
// which has no flush side faces. Where the gradient has no normal, B inside
// A, there are no differences: they would give the volumes' rounding over
// the step.)
//
#include <Eigen/Core>
#include <memory>
#include <vector>

#include "reference/volume_contact/contact_patch.hpp"
#include "reference/volume_contact/rigid_body.hpp"
#include "robust_geometry/brep_index.hpp"
#include "robust_geometry/contact_analysis.hpp"

namespace contactref::volume_contact {

// One 6D contact: bodies a and b, the normal from a into b.
struct VolumeContact {
  int a = -1, b = -1;
  double volume = 0;                                  // m^3
  ContactPatch patch;                                 // in a's frame (a's body frame, or the world for a ground)
  Eigen::Matrix3d R_w_c = Eigen::Matrix3d::Identity();  // the contact frame's axes (u, w, n), world
  Eigen::Vector3d x_w_c = Eigen::Vector3d::Zero();      // its origin: the patch's centre, world
  double normal_area = 0;  // m^2: -dV/ds for b moved by s along the normal (-g_v . n)
  // dV/d(omega; v) for b's rigid motion relative to a about a's origin, a's
  // axes (robust_geometry's gradient; between meshes with flush faces, its
  // linear part by the differences above).
  Vector6d gradient_a = Vector6d::Zero();
};

// How detect_volume_contacts computes the moments.
struct DetectionOptions {
  PatchOptions patch;  // with region kSupport the intersections keep their corners for the support region
  // Between two meshes, the normal from central differences (above; the 6D
  // model's WorldOptions::normal_differences, on by default); false keeps
  // the exact gradient's, Section 4.1's (six fewer intersections a pair: for
  // a caller that needs only the volumes, as the point model's
  // post-stabilisation, whose push along a normal tilted by depth/side moves
  // a body sideways by that fraction of the depth).
  bool smooth_normals = true;
  // Every pair of meshes by the exact corefinement (the referee), no convex
  // clipping. By default a pair of convex bodies (a ground's slab included)
  // takes convex_moments.hpp's double-precision clipping, the exact path
  // where its predicates cannot decide; the two agree to rounding
  // (contact_detection_test).
  bool exact_moments = false;
};

// The 6D contacts among bodies (pairs with at least one moving body whose
// bounding spheres, or sphere and ground slab, overlap, and whose
// intersection has volume beyond rounding: a mean depth V / |g_v| above
// 1e-12 of the smaller body's bounding radius; thinner, the bodies touch).
// InputError or ComputationError from the geometry, naming the pair (the
// first such pair, in the order of the bodies); a pair whose intersection
// gives no normal (one inside the other) is refused with the bodies' names.
// The pairs' double-precision routes (half-space, convex clipping) run on
// oneTBB's threads (core/threads.hpp), the exact route on the calling thread
// (CGAL is built without thread support): the contacts are the same bits on
// any number of threads.
std::vector<VolumeContact> detect_volume_contacts(const std::vector<RigidBody>& bodies,
                                                  const DetectionOptions& options = {});

// One point of the baseline: the normal (w's third axis) from a into b.
struct PointContact {
  int a = -1, b = -1;
  Eigen::Matrix3d R_w_c = Eigen::Matrix3d::Identity();  // (u, w, n), world
  Eigen::Vector3d x_w_c = Eigen::Vector3d::Zero();      // the region's corner, world (on a)
  // m, >= 0: the distance along n from the corner to b's touching entity
  // (its vertex, its edge's line or its face's plane; 0 where b's entity lies
  // on a's side of the corner: penetration is post-stabilisation's)
  double gap = 0;
};

// Each body's Brep-index, built on first use (the point model only).
class BrepIndexCache {
 public:
  const robust_geometry::BrepIndex& index(const std::vector<RigidBody>& bodies, int k);

 private:
  std::vector<std::shared_ptr<const robust_geometry::BrepIndex>> indices_;
};

// The point contacts among bodies: for each pair as above, the corners of
// find_contacts' regions with touch_tolerance (m; see contact_regions.hpp),
// the lower-numbered body as A. Pieces penetrating deeper than the tolerance
// are not contacts (post-stabilisation keeps them shallow).
std::vector<PointContact> detect_point_contacts(const std::vector<RigidBody>& bodies, BrepIndexCache& cache,
                                                double touch_tolerance);

// An orthonormal frame (u, w, n) with n given (unit): u along the smallest
// component's axis made orthogonal to n.
Eigen::Matrix3d frame_about_normal(const Eigen::Vector3d& n);

}  // namespace contactref::volume_contact
