#pragma once
// Collision detection between two smooth surfaces (issue 30 item 3; Kry &
// Pai Section 3.7, last paragraph: "sphere trees built from polyhedral
// approximations of our models ... a few Newton iterations, as described in
// [Nelson et al. 1999], to find a better approximation of the contact point
// on the smooth surfaces"; notes smooth-contact.md Section 3.5).
//
//  - SurfaceHierarchy: once per body, in its body frame, a tessellation of
//    every patch whose distance to the smooth surface is at most bound()
//    both ways (derived in surface_proximity.cpp, "The tessellation bound"),
//    and FCL's bounding-volume hierarchy (OBBRSS) over it. A body whose one
//    patch is an unbounded plane is a half-space instead, and one whose one
//    patch is an infinite circular cylinder a rod; neither is tessellated.
//  - closest_points: one traversal of both hierarchies (FCL's, its pruning
//    replaced) finds the nearest triangle pair of every pair of patches
//    that come within their triangles' bounds of the polyhedral distance,
//    and none when the bodies are beyond query_distance; Newton's method on
//    the smooth surfaces (in T, world coordinates through the poses) from
//    the nearest of them, then from the others within their patches' bounds
//    of the best distance found (the global pair's own triangles are among
//    them), gives the closest pair (or the deepest pair of a slight
//    interpenetration), checked to be the global one within the bounds.
//  - distance_lower_bound: a lower bound of the polyhedral distance less both
//    bounds (and its round-off): never above the smooth surfaces' distance,
//    for conservative advancement.
// Body 2 is the fixed one; body 1 moves. Frames as in Kry & Pai: E_w_1 is the
// pose of body 1 in the world.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "reference/surfaces/patch_complex.hpp"

namespace contactref::dynamics {

namespace detail {
struct FclModel;  // FCL's BVHModel, kept out of this header (surface_proximity.cpp)

// A bounding volume of FCL's RSS kind (a rectangle swept by a sphere): the
// rectangle's centre, its axes (columns: its sides, then its normal), its
// half sides, the sphere's radius, and its reach from the centre (half the
// diagonal plus the radius, rounded up: every point of it is that near).
struct SweptRectangle {
  Vec3<double> centre;
  Mat3<double> axes;
  double half0, half1, radius, reach;
};

// A lower bound (>= 0) of the distance between swept rectangles a and b, b
// placed in a's frame by rotation R_a_b and translation p_a_b: their
// projections' gap along b's normal, a's normal and the line of their
// centres (projection does not lengthen a segment, so the distance between
// any point of a and any of b is at least each gap; a volume projects onto a
// unit w within w . centre +- (half0 |w . side0| + half1 |w . side1| +
// radius)). As tight as FCL's RSS distance between flat volumes facing each
// other across a gap, at a fraction of its cost. It returns as soon as a
// gap reaches `enough` (the caller's pruning threshold), skipping the other
// axes.
double bounding_volume_gap(const SweptRectangle& a, const SweptRectangle& b, const Mat3<double>& R_a_b,
                           const Vec3<double>& p_a_b, double enough);

// How far a point within `reach` of `centre` (in a body's frame) can move
// between two poses of the body, `from` and `to` (in any one frame): the
// point is x = c + y, |y| <= rho, so
//   |X_to x - X_from x| <= |(R_to - R_from) c + t_to - t_from| + |R_to - R_from|_2 rho,
// where |R_to - R_from|_2 = |I - R_from^T R_to|_2 = 2 sin(theta / 2)
// = sqrt(3 - tr(R_from^T R_to)), theta the angle between them. The root's
// argument is padded by 16 roundings (a rotation's trace near 3 cancels),
// and the bound by 16 roundings of itself. ProximityCache keeps a front
// pair by it.
class MotionBound {
 public:
  MotionBound(const Mat4<double>& from, const Mat4<double>& to);
  double of(const Vec3<double>& centre, double reach) const;

 private:
  Mat3<double> turn_matrix_;  // R_to - R_from
  Vec3<double> shift_;        // t_to - t_from
  double turn_;               // |R_to - R_from|_2, padded
};
}  // namespace detail

template <class T>
class SurfaceHierarchy {
 public:
  // A tessellation triangle: three vertices (indices into vertices(), whose
  // parameters on `patch` are in vertex_parameters()) and the triangle's own
  // distance bound.
  struct Triangle {
    int patch = -1;
    std::array<int, 3> vertices{};
    double bound = 0;  // m
  };

  // Tessellates every patch finely enough that every point of the
  // tessellation is within bound() <= target_bound of the smooth surface and
  // vice versa (surface_proximity.cpp, "The tessellation bound"). An atlas's
  // charts are tessellated within their bands only (PatchComplex::
  // band_distance), which together cover the surface. A complex whose only
  // patch is a plane (surfaces::PlanePatch, or any unbounded patch with
  // constant first derivatives) is a half-space, and one whose only patch is
  // an infinite circular cylinder with outward normals (surfaces::
  // CylinderPatch, or a rigidly moved one) is a solid rod; neither is
  // tessellated. `complex` must outlive the hierarchy. InputError for
  // target_bound not finite and > 0, an empty complex, a plane or a cylinder
  // beside other patches, a cylinder whose normals point to its axis (the
  // inside of a pipe), or another unbounded patch (a paraboloid).
  // ComputationError if a patch needs triangles smaller than 2^-12 of its
  // coarse grid's, or the whole more than max_triangles (a curvature the
  // target cannot follow; the default cap, 4M triangles, keeps a hierarchy
  // within about a gigabyte).
  static constexpr std::size_t kMaxTriangles = std::size_t(1) << 22;
  SurfaceHierarchy(const surfaces::PatchComplex<T>& complex, double target_bound,
                   std::size_t max_triangles = kMaxTriangles);
  ~SurfaceHierarchy();
  SurfaceHierarchy(SurfaceHierarchy&&) noexcept;
  SurfaceHierarchy& operator=(SurfaceHierarchy&&) noexcept;

  double bound() const { return bound_; }
  // A number that no other hierarchy built in this process has had (moving
  // a hierarchy keeps it): a ProximityCache names its hierarchies by it,
  // not by their address, which a new hierarchy may take.
  std::uint64_t serial() const { return serial_; }
  const surfaces::PatchComplex<T>& complex() const { return *complex_; }
  bool is_half_space() const { return half_space_; }
  // The rod's surface (body frame): c(s, t) = origin + t axis + radius
  // (cos(s) e1 + sin(s) e2), e1, e2 and axis / |axis| orthonormal.
  struct Rod {
    Vec3<T> origin, axis, e1, e2;
    T radius;
  };
  const std::optional<Rod>& rod() const { return rod_; }
  // A half-space or a rod: no tessellation, distances in closed form.
  bool is_analytic() const { return half_space_ || rod_.has_value(); }

  // The tessellation (body frame); empty for a half-space or a rod.
  const std::vector<Vec3<double>>& vertices() const { return vertices_; }
  const std::vector<surfaces::Vec2<double>>& vertex_parameters() const { return vertex_parameters_; }
  const std::vector<int>& vertex_patches() const { return vertex_patches_; }
  const std::vector<Triangle>& triangles() const { return triangles_; }
  // A sphere (body frame) that holds the smooth surface: bound() included.
  const Vec3<double>& sphere_centre() const { return sphere_centre_; }
  double sphere_radius() const { return sphere_radius_; }
  // The half-space's plane (body frame): c(u, v) = origin + u c_u + v c_v,
  // and its outward unit normal c_u x c_v / |c_u x c_v|.
  const Vec3<T>& plane_origin() const { return plane_origin_; }
  const Vec3<T>& plane_normal() const { return plane_normal_; }
  const Vec3<T>& plane_c_u() const { return plane_c_u_; }
  const Vec3<T>& plane_c_v() const { return plane_c_v_; }

  const detail::FclModel* fcl_model() const { return model_.get(); }  // null for a half-space or a rod

 private:
  const surfaces::PatchComplex<T>* complex_;
  double bound_ = 0;
  bool half_space_ = false;
  std::optional<Rod> rod_;
  std::vector<Vec3<double>> vertices_;
  std::vector<surfaces::Vec2<double>> vertex_parameters_;
  std::vector<int> vertex_patches_;
  std::vector<Triangle> triangles_;
  Vec3<double> sphere_centre_ = Vec3<double>::Zero();
  double sphere_radius_ = 0;
  Vec3<T> plane_origin_ = Vec3<T>::Zero(), plane_normal_ = Vec3<T>::UnitZ();
  Vec3<T> plane_c_u_ = Vec3<T>::UnitX(), plane_c_v_ = Vec3<T>::UnitY();
  std::unique_ptr<detail::FclModel> model_;
  std::uint64_t serial_;
};

template <class T>
struct SurfaceClosestPoints {
  T distance;  // signed: > 0 apart, < 0 interpenetrating (along normal_w)
  int patch1 = -1, patch2 = -1;
  surfaces::Vec2<T> st, uv;  // parameters on patch1 (body 1) and patch2 (body 2)
  Vec3<T> p1_w, p2_w;        // the points, world
  Vec3<T> normal_w;          // unit, body 2's outward normal at p2 (from body 2 towards body 1)
  int newton_iterations = 0;
};

// Temporal coherence between the queries of one pair of bodies (the
// simulator's flight queries come a step apart):
//  - the triangle pairs that seeded the last query. closest_points measures
//    them first at the new pose (their triangle distances there), which
//    lowers its search's ceiling and gives their patch pairs a seed at once;
//  - the last traversal's front: the bounding-volume pairs where it stopped
//    (pruned, or a pair of leaves), a cut of the two hierarchies' product
//    tree (every pair of triangles lies under exactly one of them), each
//    with a lower bound of its triangles' distance at the last pose. The
//    next traversal starts from them instead of the roots. A pair whose
//    bound, less how far its triangles on body 1 can have moved against
//    body 2 since (bounded from the two relative poses, for body 1's
//    bounding sphere and then for the pair's own volume), still prunes it is
//    kept without a test; the others are tested again and descended if they
//    can no longer be pruned. So the pairs above the front that every query
//    near contact descends are not tested again, nor most of the front
//    while the bodies move little. A query that finds nothing within its
//    distance keeps its front too (the bodies approaching each other test
//    it again rather than descend from the roots each time), unless the
//    bounding spheres decided it (far apart: the next starts from the
//    roots); a query whose front has grown to more than twice the last front
//    that a traversal from the roots left (after jumps between distant
//    poses, where nothing is kept and a deep front costs more than a fresh
//    traversal) leaves it empty: the front stays within that over a run.
// A query with a cache keeps every guarantee of one without (each seed is a
// triangle pair at the new pose, within the tolerance of its patch pair's
// nearest, and every pair of triangles is visited or pruned by a lower
// bound of its distance); its Newton may start from other seeds than a cold
// query's and so differ from it in round-off. The cache holds the pair of
// hierarchies it was filled for (their serials), and starts again when given
// another.
template <class T>
struct ProximityCache {
  struct FrontPair {
    int volume1, volume2;  // body 1's and body 2's bounding volumes (FCL's node indices)
    double clearance;      // m: at most their triangles' distance at E_2_1
  };
  // The last query's work, for benchmarks and tests.
  struct Work {
    long volume_tests = 0;    // bounding-volume pairs tested (a cheap lower bound first)
    long rss_tests = 0;       // of which also by FCL's RSS distance
    long triangle_tests = 0;  // triangle pairs measured (the last seeds among them)
    long kept = 0;            // front pairs kept without a test (the motion bound)
    long newton_runs = 0;     // seeds that Newton started from
  };
  std::uint64_t body1 = 0, body2 = 0;  // the hierarchies' serials (0: none)
  std::vector<std::array<int, 2>> triangle_pairs;  // (body 1's, body 2's triangle)
  std::vector<FrontPair> front;
  Mat4<double> E_2_1 = Mat4<double>::Identity();  // body 1's pose in body 2's frame at the last query
  std::size_t front_from_roots = 0;                // the size of the last front a traversal from the roots left
  Work work;
};

// nullopt when the bodies are certainly farther apart than query_distance
// (every triangle pair's distance minus the two triangles' bounds): that
// case costs a bounding-sphere test or one pruned traversal, never a surface
// evaluation. Otherwise the global closest pair on the smooth surfaces (or
// the deepest pair, when the bodies interpenetrate slightly), refined by
// Newton from the nearest triangle pair and from every other patch pair's
// nearest within twice its two patches' largest triangle bounds of the best
// distance (the least kept). ComputationError naming the patches
// if Newton does not converge from the nearest pair, converges to a pair
// whose normals are not anti-parallel, or to a pair farther apart than the
// polyhedral distance plus both bounds (not the global minimum). `cache`,
// when given, is read and then refilled (ProximityCache).
template <class T>
std::optional<SurfaceClosestPoints<T>> closest_points(const SurfaceHierarchy<T>& body1, const Mat4<T>& E_w_1,
                                                      const SurfaceHierarchy<T>& body2, const Mat4<T>& E_w_2,
                                                      const T& query_distance, ProximityCache<T>* cache = nullptr);

// A certain lower bound on the smooth surfaces' distance D (for conservative
// advancement): never above D, and at least min(D / 2 - 1.5 B, D - 3 B) less
// the polyhedral distance's round-off, B the bounds' sum (a factor two far
// apart, where it is cheap, and 3 B near contact); 0 if that is negative.
// Against a half-space or a rod: at least D - 2 B less round-off.
template <class T>
T distance_lower_bound(const SurfaceHierarchy<T>& body1, const Mat4<T>& E_w_1, const SurfaceHierarchy<T>& body2,
                       const Mat4<T>& E_w_2);

// Newton's method for the closest (or deepest) pair from a given start
// (patch1 at st0, patch2 at uv0), the refinement that closest_points uses
// (added to the brief's interface: the contact re-establishment may start
// from a known pair). Solves, for (s, t, u, v),
//   n2 . c_s = n2 . c_t = (c - d) . d_u = (c - d) . d_v = 0,
// the notes' (c - d) . c_s = (c - d) . c_t = 0 divided by the signed distance
// (c - d = sigma n2 at a solution), so that it stays regular at contact and
// through it. Moves across patch edges (PatchComplex::links) and between an
// atlas's charts as the iterates go. `step_lengths`, when given, receives
// the length of each Newton step in (s, t, u, v) (for the convergence-order
// test). ComputationError naming the patches if it does not converge within
// 50 iterations, or ends on a boundary edge without a neighbour.
template <class T>
SurfaceClosestPoints<T> newton_closest_points(const SurfaceHierarchy<T>& body1, const Mat4<T>& E_w_1, int patch1,
                                              const surfaces::Vec2<T>& st0, const SurfaceHierarchy<T>& body2,
                                              const Mat4<T>& E_w_2, int patch2, const surfaces::Vec2<T>& uv0,
                                              std::vector<T>* step_lengths = nullptr);

}  // namespace contactref::dynamics
