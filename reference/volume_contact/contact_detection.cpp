#include "reference/volume_contact/contact_detection.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <optional>
#include <sstream>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/errors.hpp"
#include "core/rigid_pose.hpp"

namespace contactref::volume_contact {
namespace {

// Where a body's bounding sphere lies against a ground's slab
// (rigid_body.hpp): clear of it (above the plane, or off the slab), within
// its footprint and above its bottom (the sphere's part below the plane lies
// in the slab, which the half-space cuts exactly there), or reaching past a
// side or the bottom (the slab's own mesh then).
enum class GroundReach { kClear, kHalfSpace, kSlab };

GroundReach ground_reach(const RigidBody& body, const RigidBody& ground) {
  const robust_geometry::HalfSpace& h = *ground.ground_w;
  const double r = body.shape->bounding_radius;
  if (h.normal.dot(body.x_w) / h.normal.norm() - h.offset / h.normal.norm() >= r) return GroundReach::kClear;
  const Eigen::AlignedBox3d& slab = ground.shape->bounds_b;
  const Eigen::Vector3d c = ground.R_w_b().transpose() * (body.x_w - ground.x_w);  // the ground's frame
  if (!(slab.exteriorDistance(c) < r)) return GroundReach::kClear;
  const bool within = (c.head<2>().array() - r >= slab.min().head<2>().array()).all() &&
                      (c.head<2>().array() + r <= slab.max().head<2>().array()).all() && c.z() - r >= slab.min().z();
  return within ? GroundReach::kHalfSpace : GroundReach::kSlab;
}

bool may_touch(const RigidBody& a, const RigidBody& b) {
  if (a.fixed() && b.fixed()) return false;
  if (b.ground_w) return ground_reach(a, b) != GroundReach::kClear;
  return (a.x_w - b.x_w).norm() < a.shape->bounding_radius + b.shape->bounding_radius;
}

// Body b's pose in a's frame.
RigidPose<double> relative_pose(const RigidBody& a, const RigidBody& b) {
  const Eigen::Matrix3d R_a_w = a.R_w_b().transpose();
  Eigen::Matrix4d E = Eigen::Matrix4d::Identity();
  E.topLeftCorner<3, 3>() = R_a_w * b.R_w_b();
  E.topRightCorner<3, 1>() = R_a_w * (b.x_w - a.x_w);
  return RigidPose<double>::from_matrix(E, "the pose of \"" + b.name + "\" in \"" + a.name + "\"");
}

std::string pair_name(const RigidBody& a, const RigidBody& b) { return "\"" + a.name + "\" and \"" + b.name + "\""; }

RigidPose<double> translated(const RigidPose<double>& pose, const Eigen::Vector3d& shift) {
  Eigen::Matrix4d E = pose.matrix();
  E.topRightCorner<3, 1>() += shift;
  return RigidPose<double>::from_matrix(E, "a shifted pose");
}

// Whether a face of a and a face of b lie within 1e-3 rad of parallel
// (either orientation): only where two faces are coplanar does the exact
// gradient kink (the header). Off parallel by an angle theta, it varies over
// translations of theta times the faces' size, far above the difference step
// (1e-6 of the patch), where central differences only reproduce it. Meshes
// with more than 10^6 face pairs are taken to have such faces (checking
// would cost more than the differences save).
bool may_have_flush_faces(const RigidBody& a, const RigidBody& b) {
  const robust_geometry::Polyhedron& pa = a.shape->polyhedron;
  const robust_geometry::Polyhedron& pb = b.shape->polyhedron;
  const std::size_t fa = pa.faces().size(), fb = pb.faces().size();
  if (double(fa) * double(fb) > 1e6) return true;
  const Eigen::Matrix3d R_a_b = a.R_w_b().transpose() * b.R_w_b();
  const double cos_parallel = std::cos(1e-3);
  for (std::size_t j = 0; j < fb; ++j) {
    const Eigen::Vector3d n_b = R_a_b * pb.plane(int(j)).normal;
    for (std::size_t i = 0; i < fa; ++i)
      if (std::abs(pa.plane(int(i)).normal.dot(n_b)) >= cos_parallel) return true;
  }
  return false;
}

// Which routes a pair may take: the double-precision ones only (half-space,
// convex clipping; any thread), or the exact corefinement too (CGAL: one
// thread, README "Threads").
enum class Routes { kDouble, kAny };

// The moments of a (a mesh) with b (a mesh) at pose, in a's frame: by the
// convex clipping where both are convex and it decides, else exactly
// (nullopt with Routes::kDouble).
std::optional<robust_geometry::IntersectionMoments> mesh_moments(const RigidBody& a, const RigidBody& b,
                                                                 const RigidPose<double>& pose,
                                                                 const DetectionOptions& detection,
                                                                 bool keep_vertices, Routes routes) {
  if (!detection.exact_moments && a.shape->convex && b.shape->convex)
    if (std::optional<robust_geometry::IntersectionMoments> m =
            robust_geometry::convex_intersection_moments(*a.shape->convex, *b.shape->convex, pose, keep_vertices))
      return m;
  if (routes == Routes::kDouble) return std::nullopt;
  robust_geometry::IntersectionOptions options;
  options.assume_valid_solids = true;  // Polyhedron validated both
  options.keep_vertices = keep_vertices;
  return robust_geometry::intersection_moments(a.shape->triangles, b.shape->triangles, pose, options);
}

// The moments of a (a mesh) with b (a mesh or a ground: the half-space
// within the slab's footprint, else the slab's mesh), in a's frame; between
// two meshes with faces near parallel, with the gradient's tangential part
// smoothed (see the header).
// keep_vertices: with the intersection's corners (the support region's).
// nullopt where Routes::kDouble cannot decide.
std::optional<robust_geometry::IntersectionMoments> pair_moments(const RigidBody& a, const RigidBody& b,
                                                                 const DetectionOptions& detection,
                                                                 bool keep_vertices, Routes routes) {
  if (b.ground_w && ground_reach(a, b) == GroundReach::kHalfSpace) {
    const Eigen::Matrix3d R = a.R_w_b();
    const robust_geometry::HalfSpace h_a{R.transpose() * b.ground_w->normal,
                                         b.ground_w->offset - b.ground_w->normal.dot(a.x_w)};
    return robust_geometry::halfspace_intersection_moments(a.shape->triangles, h_a, keep_vertices);
  }
  const RigidPose<double> pose = relative_pose(a, b);
  std::optional<robust_geometry::IntersectionMoments> m = mesh_moments(a, b, pose, detection, keep_vertices, routes);
  // The differences smooth a normal; where the gradient has none (B inside
  // A), they would give the volumes' rounding over the step.
  if (!m || !m->has_volume() || !detection.smooth_normals || !has_contact_normal(*m) || !may_have_flush_faces(a, b))
    return m;
  const double step = 1e-6 * m->ellipsoid_semi_axes.maxCoeff();
  for (int k = 0; k < 3; ++k) {
    std::array<double, 2> volumes{};
    for (int side = 0; side < 2; ++side) {
      const double s = side == 0 ? step : -step;
      const auto shifted = mesh_moments(a, b, translated(pose, s * Eigen::Vector3d::Unit(k)), detection, false, routes);
      if (!shifted) return std::nullopt;
      volumes[std::size_t(side)] = shifted->volume;
    }
    m->gradient[3 + k] = (volumes[0] - volumes[1]) / (2 * step);
  }
  return m;
}

// One pair's detection: `decided` false where Routes::kDouble could not
// decide it; else its contact (none when the bodies only touch), or the
// exception that it raised (kept, so that the pairs' errors are raised in
// their order whatever thread met them).
struct PairOutcome {
  bool decided = false;
  std::optional<VolumeContact> contact;
  std::exception_ptr error;
};

PairOutcome pair_contact(const RigidBody& a, const RigidBody& b, int ia, int ib, const DetectionOptions& options,
                         Routes routes) {
  PairOutcome outcome;
  try {
    std::optional<robust_geometry::IntersectionMoments> m;
    try {
      m = pair_moments(a, b, options, options.patch.region == PatchRegion::kSupport, routes);
      if (!m) return outcome;
      outcome.decided = true;
      // A penetration at the level of rounding is a touch: a mean depth
      // V / |g_v| below 1e-12 of the smaller body's size (the rounding of
      // poses up to 10^3 sizes from the origin; Section 5.7's default keeps
      // 10^6 times more) has a covariance of rounding and no patch.
      if (!m->has_volume() ||
          m->volume <= 1e-12 * std::min(a.shape->bounding_radius, b.shape->bounding_radius) *
                           m->gradient.tail<3>().norm())
        return outcome;
      VolumeContact& c = outcome.contact.emplace();
      c.volume = m->volume;
      c.patch = contact_patch(*m, options.patch);
      c.normal_area = -m->gradient.tail<3>().dot(c.patch.normal_a);
      c.gradient_a = m->gradient;
    } catch (const ComputationError& e) {
      throw ComputationError("contact between " + pair_name(a, b) + ": " + e.what());
    }
    VolumeContact& c = *outcome.contact;
    c.a = ia;
    c.b = ib;
    const Eigen::Matrix3d R = a.R_w_b();
    c.R_w_c = R * c.patch.frame_a;
    c.x_w_c = a.x_w + R * c.patch.centre_a;
  } catch (...) {
    outcome.decided = true;
    outcome.contact.reset();
    outcome.error = std::current_exception();
  }
  return outcome;
}

}  // namespace

Eigen::Matrix3d frame_about_normal(const Eigen::Vector3d& n) {
  int k = 0;
  n.cwiseAbs().minCoeff(&k);
  const Eigen::Vector3d u = (Eigen::Vector3d::Unit(k) - n[k] * n).normalized();
  Eigen::Matrix3d R;
  R << u, n.cross(u), n;
  return R;
}

std::vector<VolumeContact> detect_volume_contacts(const std::vector<RigidBody>& bodies,
                                                  const DetectionOptions& options) {
  std::vector<std::array<int, 2>> pairs;
  for (int i = 0; i < int(bodies.size()); ++i)
    for (int j = i + 1; j < int(bodies.size()); ++j) {
      // The mesh first: a ground is always the second solid.
      const bool swap = bool(bodies[std::size_t(i)].ground_w);
      const int ia = swap ? j : i, ib = swap ? i : j;
      const RigidBody& a = bodies[std::size_t(ia)];
      const RigidBody& b = bodies[std::size_t(ib)];
      if ((a.ground_w && b.ground_w) || !may_touch(a, b)) continue;
      pairs.push_back({ia, ib});
    }
  // The double routes on every core, a pair per task (core/threads.hpp);
  // then, in the pairs' order on this thread, the exact route for the pairs
  // they could not decide. Each pair's result is its own computation's
  // whatever the thread: the contacts are the same bits on any number.
  std::vector<PairOutcome> outcomes(pairs.size());
  const auto run = [&](std::size_t k, Routes routes) {
    const auto [ia, ib] = pairs[k];
    outcomes[k] = pair_contact(bodies[std::size_t(ia)], bodies[std::size_t(ib)], ia, ib, options, routes);
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 1), [&](const tbb::blocked_range<std::size_t>& range) {
    for (std::size_t k = range.begin(); k != range.end(); ++k) run(k, Routes::kDouble);
  });
  std::vector<VolumeContact> contacts;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    if (!outcomes[k].decided) run(k, Routes::kAny);
    if (outcomes[k].error) std::rethrow_exception(outcomes[k].error);
    if (outcomes[k].contact) contacts.push_back(*std::move(outcomes[k].contact));
  }
  return contacts;
}

namespace {

// The gap at a region point p (on A, A's frame) along the contact normal n
// (from A into B): n . (q - p), q the point nearest p of the affine hull of
// the region's entity of B (a vertex, its edge's line, its face's plane),
// B posed in A's frame by E_a_b. The region points are projections onto A of
// points of that entity within the touch tolerance (contact_regions.hpp), so
// the gap is the distance the bodies may still close there.
double gap_at(const Eigen::Vector3d& p, const Eigen::Vector3d& n, const robust_geometry::Polyhedron& b,
              const robust_geometry::Entity& entity_b, const Eigen::Matrix4d& E_a_b) {
  const Eigen::Matrix3d R = E_a_b.topLeftCorner<3, 3>();
  const Eigen::Vector3d t = E_a_b.topRightCorner<3, 1>();
  const auto at = [&](int v) -> Eigen::Vector3d { return R * b.vertex(v) + t; };
  switch (entity_b.kind) {
    case robust_geometry::EntityKind::vertex: return n.dot(at(entity_b.index) - p);
    case robust_geometry::EntityKind::edge: {
      const robust_geometry::Edge& e = b.edge(entity_b.index);
      const Eigen::Vector3d q0 = at(e.vertices[0]), d = at(e.vertices[1]) - q0;
      return n.dot(q0 + (p - q0).dot(d) / d.squaredNorm() * d - p);
    }
    case robust_geometry::EntityKind::face: {
      const robust_geometry::Plane& plane = b.plane(entity_b.index);
      const Eigen::Vector3d normal = R * plane.normal;
      return -n.dot(normal) * (normal.dot(p) - (plane.offset + normal.dot(t)));
    }
  }
  throw InternalError("gap_at: an entity of unknown kind");
}

}  // namespace

const robust_geometry::BrepIndex& BrepIndexCache::index(const std::vector<RigidBody>& bodies, int k) {
  if (indices_.size() != bodies.size()) indices_.assign(bodies.size(), nullptr);
  auto& slot = indices_[std::size_t(k)];
  if (!slot)
    slot = std::make_shared<const robust_geometry::BrepIndex>(
        robust_geometry::build_brep_index(bodies[std::size_t(k)].shape->polyhedron));
  return *slot;
}

std::vector<PointContact> detect_point_contacts(const std::vector<RigidBody>& bodies, BrepIndexCache& cache,
                                                double touch_tolerance) {
  std::vector<PointContact> contacts;
  robust_geometry::FindContactsOptions options;
  options.intersect.touch_tolerance = touch_tolerance;
  options.cull = false;
  for (int i = 0; i < int(bodies.size()); ++i)
    for (int j = i + 1; j < int(bodies.size()); ++j) {
      const RigidBody& a = bodies[std::size_t(i)];
      const RigidBody& b = bodies[std::size_t(j)];
      if (a.fixed() && b.fixed()) continue;
      // The slab of a ground is large: its own bounding sphere would keep every
      // pair; test the half-space instead (the ground as b).
      if (a.ground_w ? !may_touch(b, a) : !may_touch(a, b)) continue;
      const RigidPose<double> pose_b = relative_pose(a, b);
      const robust_geometry::ContactAnalysis analysis = robust_geometry::find_contacts(
          a.shape->polyhedron, cache.index(bodies, i), b.shape->polyhedron, pose_b, Vector6d::Zero(), {}, options);
      const Eigen::Matrix3d R = a.R_w_b();
      const Eigen::Matrix4d& E_a_b = pose_b.matrix();
      for (const robust_geometry::Contact& contact : analysis.contacts) {
        if (contact.normals.empty()) continue;
        const Eigen::Vector3d& n = contact.normals.front();
        const Eigen::Matrix3d R_w_c = frame_about_normal(R * n);
        for (const Eigen::Vector3d& x : contact.region.points)
          contacts.push_back({i, j, R_w_c, a.x_w + R * x,
                              std::max(0.0, gap_at(x, n, b.shape->polyhedron, contact.region.entity_b, E_a_b))});
      }
    }
  return contacts;
}

}  // namespace contactref::volume_contact
