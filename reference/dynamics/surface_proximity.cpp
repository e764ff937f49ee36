#include "reference/dynamics/surface_proximity.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <atomic>
#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/bvh/detail/BV_splitter.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/narrowphase/detail/traversal/collision_node.h>
#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>
#include <fcl/narrowphase/detail/traversal/distance/mesh_distance_traversal_node.h>
#include <limits>
#include <map>
#include <sstream>

#include "reference/spatial/pose.hpp"
#include "reference/surfaces/bezier_patch.hpp"

namespace contactref::dynamics {

namespace detail {
struct FclModel {
  fcl::BVHModel<fcl::OBBRSSd> bvh;
  // Per bounding volume (FCL's node index): the patch that all its
  // triangles belong to, or -1 when they belong to several.
  std::vector<int> node_patch;
  // Per bounding volume: the largest distance bound of its triangles (the
  // tessellation's distance to the smooth surface there).
  std::vector<double> node_bound;
  // Per patch: the largest distance bound of its triangles.
  std::vector<double> patch_bound;
  // Per bounding volume: its RSS, for bounding_volume_gap.
  std::vector<SweptRectangle> rectangles;
};

namespace {
// The half width of a swept rectangle's projection onto a unit vector whose
// components along the rectangle's sides are w0 and w1.
double half_width(const SweptRectangle& v, double w0, double w1) {
  return v.half0 * std::abs(w0) + v.half1 * std::abs(w1) + v.radius;
}
}  // namespace

double bounding_volume_gap(const SweptRectangle& a, const SweptRectangle& b, const Mat3<double>& R_a_b,
                           const Vec3<double>& p_a_b, double enough) {
  const Vec3<double> D = R_a_b * b.centre + p_a_b - a.centre;  // centre to centre, a's frame
  // Along b's normal (b is flat along it: its radius alone).
  const Vec3<double> n_b = R_a_b * b.axes.col(2);
  const double along_b = std::abs(n_b.dot(D)) - b.radius - half_width(a, n_b.dot(a.axes.col(0)), n_b.dot(a.axes.col(1)));
  if (along_b >= enough) return along_b;
  // Along a's normal.
  const Vec3<double> n_a_in_b = R_a_b.transpose() * a.axes.col(2);
  const double along_a = std::abs(a.axes.col(2).dot(D)) - a.radius -
                         half_width(b, n_a_in_b.dot(b.axes.col(0)), n_a_in_b.dot(b.axes.col(1)));
  double gap = std::max({0.0, along_a, along_b});
  if (gap >= enough) return gap;
  // Along the line of the centres.
  const double length = D.norm();
  if (length > 0) {
    const Vec3<double> w = D / length, w_in_b = R_a_b.transpose() * w;
    const double along_centres = length - half_width(a, w.dot(a.axes.col(0)), w.dot(a.axes.col(1))) -
                                 half_width(b, w_in_b.dot(b.axes.col(0)), w_in_b.dot(b.axes.col(1)));
    gap = std::max(gap, along_centres);
  }
  return gap;
}
MotionBound::MotionBound(const Mat4<double>& from, const Mat4<double>& to)
    : turn_matrix_(to.topLeftCorner<3, 3>() - from.topLeftCorner<3, 3>()),
      shift_(to.topRightCorner<3, 1>() - from.topRightCorner<3, 1>()),
      turn_(std::sqrt(std::max(0.0, 3 - (from.topLeftCorner<3, 3>().transpose() * to.topLeftCorner<3, 3>()).trace()) +
                      16 * std::numeric_limits<double>::epsilon())) {}

double MotionBound::of(const Vec3<double>& centre, double reach) const {
  return ((turn_matrix_ * centre + shift_).norm() + turn_ * reach) * (1 + 16 * std::numeric_limits<double>::epsilon());
}
}  // namespace detail

namespace {

using surfaces::Mat2;
using surfaces::Patch;
using surfaces::PatchComplex;
using surfaces::PatchJet;
using surfaces::Vec2;

template <class T>
double to_double(const T& x) {
  return static_cast<double>(x);
}
template <class T, int R, int C>
Eigen::Matrix<double, R, C> to_double(const Eigen::Matrix<T, R, C>& x) {
  return x.unaryExpr([](const T& v) { return static_cast<double>(v); });
}

// ---------------------------------------------------------------------------
// The tessellation bound.
//
// Let T be a triangle of a patch's parameter domain with vertices p_0, p_1,
// p_2, x = sum_i l_i p_i in T (l_i >= 0, sum l_i = 1) and L(x) = sum_i l_i c(p_i)
// the tessellation triangle's point over x. Taylor's formula with the integral
// remainder about x, for the vector-valued c:
//   c(p_i) = c(x) + Dc(x) (p_i - x) + R_i,  |R_i| <= M |p_i - x|^2 / 2,
//   M = sup over T and unit w of |D^2c[w, w]|.
// sum_i l_i (p_i - x) = 0, so L(x) - c(x) = sum_i l_i R_i and
//   |L(x) - c(x)| <= (M / 2) sum_i l_i |p_i - x|^2.
// With z the centre and r the radius of T's smallest enclosing circle,
// sum_i l_i |p_i - x|^2 = sum_i l_i |p_i - z|^2 - |x - z|^2 <= r^2, hence
//   |L(x) - c(x)| <= e_T = M r^2 / 2   for every x in T:                  (B1)
// the tessellation point L(x) is within e_T of the surface point c(x) and the
// other way round; the triangles cover the (band of the) domain, so
// bound() = max_T e_T holds both ways.
// M: D^2c[w, w] = w_s^2 c_ss + 2 w_s w_t c_st + w_t^2 c_tt, so for unit w
//   |D^2c[w, w]| <= |w|^T B |w| <= lambda_max(B) = m2,
//   B = [[|c_ss|, |c_st|], [|c_st|, |c_tt|]].                              (B2)
// Over T: every y in T has a vertex p_i with |y - p_i| <= r (the inequality
// above with x = y), and D^2c(y) - D^2c(p_i) = int_0^1 D^3c[., ., y - p_i], so
//   M <= max_i m2(p_i) + r sup_T m3,                                       (B3)
//   m3 = |D^3c|_F = sqrt(|c_sss|^2 + 3|c_sst|^2 + 3|c_stt|^2 + |c_ttt|^2)
// (|D^3c[w, w, z]| <= |D^3c|_F for unit w, z, by Cauchy-Schwarz). m3 is a
// convex function of D^3c, so sup_T m3 = max_i m3(p_i) wherever D^3c is
// affine on T. Hence, per kind of patch:
//  - Loop: each of Stam's pieces is a quartic polynomial (D^3c affine), and
//    the triangulation (the face split in 2 x 2, then split in four as
//    needed, and the dyadic rings about an extraordinary vertex) never
//    straddles a piece; the jets are taken from
//    the piece of T's centroid (Patch::evaluate_piece): (B1)-(B3) are a
//    bound;
//  - bicubic Bezier: M is taken instead from the control net, the Bernstein
//    coefficients of c_ss, c_st, c_tt (6 D_ss P, 9 D_st P, 6 D_tt P, which
//    bound the polynomials by the convex hull property) in (B2): a bound;
//  - planes: D^2c = 0, e_T = 0;
//  - analytic charts (ellipsoid, torus; their only bounded charts): D^3c is
//    not affine, but every fourth partial derivative is dominated by a second
//    one at the same point: each component is a product of sines and cosines
//    of s and of t (times constants), and d^2/ds^2 of one negates it or, for
//    a component without s, zeroes it (the same for t). Taking two
//    derivatives off the parameter with at least two (s if i >= 2, else t),
//    |c_(i,j)| <= |c_(i',j')| componentwise for i + j = 4, i' + j' = 2; for the
//    ellipsoid every component is negated, c_(i,j) = -c_(i',j'), an identity
//    that any linear map keeps; the torus's domination is kept by rigid maps
//    (the atlas's charts, scene rotations). A second partial is at most M
//    (|D^2c[e, e']| <= M by polarisation), so m4 <= 4 M (the Frobenius norm
//    of the 16 ordered fourth partials), sup_T m3 <= max_i m3(p_i) + 4 r M as
//    in (B3), and M <= max_i m2(p_i) + r max_i m3(p_i) + 4 r^2 M:
//      M <= (max_i m2(p_i) + r max_i m3(p_i)) / (1 - 4 r^2)   (r < 1/2).   (B4)
// About an extraordinary vertex E, Stam's pieces are the dyadic rings
// between 2^-(k+1) and 2^-k of the corner triangle (three triangles each),
// infinitely many: the rings are tessellated by their own triangles with
// (B1)-(B3) until the ring's largest distance from c(E) (its vertices' plus
// its triangles' bounds) is at most the target; the innermost triangle
// (E, ...) is then bounded by that distance: every point of it and of the
// surface over it is within it of c(E), assuming that the surface inside a
// ring is no farther from c(E) than the ring (the inner region is the image
// of the ring's outer triangle under the subdivision, whose eigen-components
// all shrink by a factor lambda < 1 about the limit point; checked by dense
// sampling near the extraordinary vertices of the bowl in the tests).
// ---------------------------------------------------------------------------

template <class T>
double m2_of(const PatchJet<T>& jet) {
  const double a = to_double(T(jet.c_ss().norm())), b = to_double(T(jet.c_st().norm())),
               c = to_double(T(jet.c_tt().norm()));
  return 0.5 * (a + c) + std::sqrt(0.25 * (a - c) * (a - c) + b * b);  // lambda_max of B (B2)
}

template <class T>
double m3_of(const PatchJet<T>& jet) {
  return std::sqrt(to_double(T(jet.c_sss().squaredNorm() + 3 * jet.c_sst().squaredNorm() +
                               3 * jet.c_stt().squaredNorm() + jet.c_ttt().squaredNorm())));
}

// The radius of the smallest circle that holds the triangle: half the longest
// edge for a right or obtuse triangle, the circumradius otherwise.
double enclosing_radius(const std::array<Vec2<double>, 3>& p) {
  for (int k = 0; k < 3; ++k) {
    const Vec2<double>& a = p[std::size_t(k)];
    const Vec2<double>& b = p[std::size_t((k + 1) % 3)];
    const Vec2<double>& c = p[std::size_t((k + 2) % 3)];
    if ((a - c).dot(b - c) <= 0) return 0.5 * (a - b).norm();  // obtuse or right at c
  }
  const double ab = (p[0] - p[1]).norm(), bc = (p[1] - p[2]).norm(), ca = (p[2] - p[0]).norm();
  const Vec2<double> e1 = p[1] - p[0], e2 = p[2] - p[0];
  const double area2 = std::abs(e1.x() * e2.y() - e1.y() * e2.x());
  return ab * bc * ca / (2 * area2);
}

// (B2) over a bicubic Bezier patch from its control net.
template <class T>
double bezier_net_m2(const surfaces::BezierPatch<T>& patch) {
  const auto& P = patch.control_points();
  const auto at = [&](int i, int j) { return P[std::size_t(4 * i + j)]; };
  double ss = 0, st = 0, tt = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      if (i < 2) ss = std::max(ss, to_double(T(6 * (at(i + 2, j) - 2 * at(i + 1, j) + at(i, j)).norm())));
      if (j < 2) tt = std::max(tt, to_double(T(6 * (at(i, j + 2) - 2 * at(i, j + 1) + at(i, j)).norm())));
      if (i < 3 && j < 3)
        st = std::max(st, to_double(T(9 * (at(i + 1, j + 1) - at(i + 1, j) - at(i, j + 1) + at(i, j)).norm())));
    }
  return 0.5 * (ss + tt) + std::sqrt(0.25 * (ss - tt) * (ss - tt) + st * st);
}

// A plane: an unbounded chart with no second or third derivatives and the
// same first derivatives at three points (PlanePatch, or a transformed one).
template <class T>
bool is_plane(const Patch<T>& patch) {
  const surfaces::Domain<T>& domain = patch.domain();
  const auto unbounded = [](const surfaces::Interval<T>& range) {
    using std::isinf;
    return !range.periodic && isinf(range.lo) && isinf(range.hi);
  };
  if (domain.is_polygon() || !unbounded(domain.s) || !unbounded(domain.t)) return false;
  const PatchJet<T> a = patch.evaluate(T(0), T(0)), b = patch.evaluate(T(1), T(0)), c = patch.evaluate(T(0), T(1));
  for (const PatchJet<T>* jet : {&a, &b, &c})
    if (!jet->d.rightCols(surfaces::kJetSize - 3).isZero(0) || jet->d.col(1) != a.d.col(1) || jet->d.col(2) != a.d.col(2))
      return false;
  return true;
}

// An infinite circular cylinder: an unbounded chart with s periodic and
// c(s, t) = o + t a + R (cos(s) e1 + sin(s) e2), e1, e2 and a / |a|
// orthonormal (CylinderPatch, or a rigidly moved one), read off at (0, 0)
// (c_ss = -R e1, c_s = R e2, c_t = a) and checked at four more points to
// 1e-12 of its size; nullopt for any other patch.
template <class T>
std::optional<typename SurfaceHierarchy<T>::Rod> rod_of(const Patch<T>& patch) {
  const surfaces::Domain<T>& domain = patch.domain();
  using std::abs;
  using std::isinf;
  if (domain.is_polygon() || !domain.s.periodic || domain.t.periodic || !isinf(domain.t.lo) || !isinf(domain.t.hi))
    return std::nullopt;
  const PatchJet<T> base = patch.evaluate(T(0), T(0));
  typename SurfaceHierarchy<T>::Rod rod;
  rod.radius = base.c_ss().norm();
  rod.axis = base.c_t();
  if (!(rod.radius > T(0)) || !(rod.axis.norm() > T(0))) return std::nullopt;
  rod.origin = base.c() + base.c_ss();
  rod.e1 = -base.c_ss() / rod.radius;
  rod.e2 = base.c_s() / rod.radius;
  const T size = rod.radius + rod.origin.norm() + rod.axis.norm();
  const T tolerance = T(1e-12) * size;
  const Vec3<T> unit_axis = rod.axis / rod.axis.norm();
  if (abs(T(rod.e2.norm() - T(1))) > T(1e-12) || abs(rod.e1.dot(rod.e2)) > T(1e-12) ||
      abs(rod.e1.dot(unit_axis)) > T(1e-12) || abs(rod.e2.dot(unit_axis)) > T(1e-12))
    return std::nullopt;
  for (const auto& [s, t] : {std::pair<double, double>{1, 1}, {2.5, -2}, {4, 0.5}, {-1, 3}}) {
    const PatchJet<T> jet = patch.evaluate(T(s), T(t));
    using std::cos;
    using std::sin;
    const Vec3<T> radial = rod.radius * (T(cos(T(s))) * rod.e1 + T(sin(T(s))) * rod.e2);
    const Vec3<T> tangent = rod.radius * (T(cos(T(s))) * rod.e2 - T(sin(T(s))) * rod.e1);
    if ((jet.c() - rod.origin - T(t) * rod.axis - radial).norm() > tolerance || (jet.c_s() - tangent).norm() > tolerance ||
        (jet.c_t() - rod.axis).norm() > tolerance || (jet.c_ss() + radial).norm() > tolerance ||
        jet.c_st().norm() > tolerance || jet.c_tt().norm() > tolerance)
      return std::nullopt;
  }
  return rod;
}

// The tessellation of one patch: a coarse grid of its domain (or band),
// each triangle split in four, recursively, until its bound (B1) is at most
// the target. The children of a triangle lie in its polynomial piece, so a
// grid aligned with Loop's pieces stays aligned. A triangle at an
// extraordinary vertex becomes its fan of dyadic rings. Triangles of
// different depths meet with T-junctions: the bound holds per parameter
// point (every x of the domain is in one triangle T, and |c(x) - L_T(x)| <=
// e_T), which is all that it needs.
template <class T>
class PatchTessellator {
 public:
  // `room`: how many more triangles the hierarchy may take (its cap).
  PatchTessellator(const PatchComplex<T>& complex, int f, double target, std::size_t room)
      : complex_(complex), f_(f), patch_(*complex.patches[std::size_t(f)]), target_(target), room_(room) {
    if (const auto* bezier = dynamic_cast<const surfaces::BezierPatch<T>*>(&patch_)) net_m2_ = bezier_net_m2(*bezier);
    for (const auto& corner : patch_.singular_corners())
      singular_.push_back(patch_.domain().polygon[std::size_t(corner.corner)]);
    if (patch_.domain().is_polygon()) {
      build_polygon();
    } else {
      build_chart();
    }
  }

  std::vector<Vec2<T>> params;
  std::vector<Vec3<double>> points;
  std::vector<std::array<int, 3>> triangles;
  std::vector<double> bounds;

 private:
  // Splits in four per level below the coarse grid: 2^-12 of a triangle's
  // side is far below any bound a simulation asks for; a patch that needs
  // more is a ComputationError (a curvature the target cannot follow).
  static constexpr int kMaxDepth = 12;
  static constexpr int kMaxRings = 60;

  bool is_singular(const Vec2<T>& x) const {
    return std::any_of(singular_.begin(), singular_.end(), [&](const Vec2<T>& corner) { return corner == x; });
  }

  // The surface point at x; at an extraordinary vertex (where Stam's patch is
  // not evaluated) the limit of the points approaching it, at 2^-digits of
  // the domain (below the round-off of the position: the patch converges to
  // it as lambda^levels).
  Vec3<T> position(const Vec2<T>& x) const {
    if (!is_singular(x)) return patch_.evaluate(x.x(), x.y()).c();
    Vec2<T> centre = Vec2<T>::Zero();
    for (const Vec2<T>& corner : patch_.domain().polygon) centre += corner;
    centre /= T(int(patch_.domain().polygon.size()));
    using std::ldexp;
    const Vec2<T> near = x + ldexp(T(1), -std::numeric_limits<T>::digits) * (centre - x);
    return patch_.evaluate(near.x(), near.y()).c();
  }

  // The vertex at x, shared by every triangle of this patch that has it.
  int vertex(const Vec2<T>& x) {
    const auto key = std::make_pair(to_double(x.x()), to_double(x.y()));
    const auto found = vertex_ids_.find(key);
    if (found != vertex_ids_.end()) return found->second;
    params.push_back(x);
    points.push_back(to_double(position(x)));
    const int id = int(params.size()) - 1;
    vertex_ids_.emplace(key, id);
    return id;
  }

  // e_T of (B1)-(B4).
  double triangle_bound(const std::array<Vec2<T>, 3>& p) const {
    const std::array<Vec2<double>, 3> pd{to_double(p[0]), to_double(p[1]), to_double(p[2])};
    const double r = enclosing_radius(pd);
    if (net_m2_) return 0.5 * r * r * *net_m2_;
    const Vec2<T> centroid = (p[0] + p[1] + p[2]) / T(3);
    double m2 = 0, m3 = 0;
    for (const Vec2<T>& x : p) {
      const PatchJet<T> jet = patch_.evaluate_piece(x.x(), x.y(), centroid);
      m2 = std::max(m2, m2_of(jet));
      m3 = std::max(m3, m3_of(jet));
    }
    if (patch_.domain().is_polygon()) return 0.5 * r * r * (m2 + r * m3);  // (B3), D^3c affine
    if (!(4 * r * r < 1)) return std::numeric_limits<double>::infinity();  // (B4) needs r < 1/2: refine
    return 0.5 * r * r * (m2 + r * m3) / (1 - 4 * r * r);                  // (B4)
  }

  void add_triangle(const std::array<Vec2<T>, 3>& p, double bound) {
    if (triangles.size() == room_) {
      std::ostringstream os;
      os << "surface proximity: " << patch_.describe() << " (patch " << f_ << ") takes the tessellation past its cap of "
         << "triangles for a bound of " << target_ << " m (a curvature the bound cannot follow within the cap)";
      throw ComputationError(os.str());
    }
    triangles.push_back({vertex(p[0]), vertex(p[1]), vertex(p[2])});
    bounds.push_back(bound);
  }

  // A triangle (counter-clockwise), refined until its bound is at most the
  // target; a triangle with an extraordinary vertex becomes its fan.
  void refine(const std::array<Vec2<T>, 3>& p, int depth) {
    for (int k = 0; k < 3; ++k)
      if (is_singular(p[std::size_t(k)])) {
        add_extraordinary_fan(p[std::size_t(k)], p[std::size_t((k + 1) % 3)], p[std::size_t((k + 2) % 3)]);
        return;
      }
    refine(p, triangle_bound(p), depth);
  }
  void refine(const std::array<Vec2<T>, 3>& p, double bound, int depth) {
    if (bound <= target_) {
      add_triangle(p, bound);
      return;
    }
    if (depth == kMaxDepth) {
      std::ostringstream os;
      os << "surface proximity: " << patch_.describe() << " (patch " << f_ << ") needs triangles below 2^-"
         << kMaxDepth << " of its coarse grid for a tessellation bound of " << target_ << " m (bound " << bound
         << " m near (" << to_double(p[0]).transpose() << "))";
      throw ComputationError(os.str());
    }
    const Vec2<T> a = (p[1] + p[2]) / T(2), b = (p[2] + p[0]) / T(2), c = (p[0] + p[1]) / T(2);
    for (const auto& child : {std::array<Vec2<T>, 3>{p[0], c, b}, std::array<Vec2<T>, 3>{c, p[1], a},
                              std::array<Vec2<T>, 3>{b, a, p[2]}, std::array<Vec2<T>, 3>{a, b, c}})
      refine(child, depth + 1);
  }

  // The rings of Stam's pieces about the extraordinary vertex e of the corner
  // triangle (e, q1, q2), counter-clockwise, each refined, until a ring's
  // reach from c(e) is at most the target; then the innermost triangle.
  void add_extraordinary_fan(const Vec2<T>& e, const Vec2<T>& q1, const Vec2<T>& q2) {
    const Vec3<double> limit = to_double(position(e));
    T scale(1);
    for (int ring = 0;; ++ring) {
      const Vec2<T> a = e + scale * (q1 - e), b = e + scale * (q2 - e);
      const Vec2<T> a_half = e + scale / 2 * (q1 - e), b_half = e + scale / 2 * (q2 - e), m = (a + b) / T(2);
      double reach = 0;  // the ring's largest distance from c(e): its vertices' and its triangles' bounds
      for (const Vec2<T>& x : {a, b, a_half, b_half, m}) reach = std::max(reach, (to_double(position(x)) - limit).norm());
      double ring_bound = 0;
      for (const auto& tri : {std::array<Vec2<T>, 3>{a_half, a, m}, std::array<Vec2<T>, 3>{b_half, m, b},
                              std::array<Vec2<T>, 3>{a_half, m, b_half}}) {
        const double bound = triangle_bound(tri);
        refine(tri, bound, 0);
        ring_bound = std::max(ring_bound, bound);
      }
      reach += ring_bound;
      if (reach <= target_ || ring + 1 == kMaxRings) {
        add_triangle({e, a_half, b_half}, reach);
        return;
      }
      scale /= 2;
    }
  }

  // A polygon domain: the triangle itself, or a fan from the centroid, each
  // split into 2 x 2 (aligned with Loop's split faces), then refined.
  void build_polygon() {
    const std::vector<Vec2<T>>& polygon = patch_.domain().polygon;
    std::vector<std::array<Vec2<T>, 3>> bases;
    if (polygon.size() == 3) {
      bases.push_back({polygon[0], polygon[1], polygon[2]});
    } else {
      Vec2<T> centre = Vec2<T>::Zero();
      for (const Vec2<T>& x : polygon) centre += x;
      centre /= T(int(polygon.size()));
      for (std::size_t k = 0; k < polygon.size(); ++k) bases.push_back({centre, polygon[k], polygon[(k + 1) % polygon.size()]});
    }
    for (const auto& p : bases) {
      const Vec2<T> a = (p[1] + p[2]) / T(2), b = (p[2] + p[0]) / T(2), c = (p[0] + p[1]) / T(2);
      for (const auto& child : {std::array<Vec2<T>, 3>{p[0], c, b}, std::array<Vec2<T>, 3>{c, p[1], a},
                                std::array<Vec2<T>, 3>{b, a, p[2]}, std::array<Vec2<T>, 3>{a, b, c}})
        refine(child, 0);
    }
  }

  // A chart: its band (an atlas) or its domain, as a grid of squares of side
  // at most pi / 4, each split into two triangles, then refined.
  void build_chart() {
    const surfaces::Domain<T>& domain = patch_.domain();
    using std::isfinite;
    const auto range = [&](const surfaces::Interval<T>& interval, bool band) {
      if (!isfinite(interval.lo) || !isfinite(interval.hi)) {
        throw InputError("surface proximity: " + patch_.describe() + " (patch " + std::to_string(f_) +
                         ") is unbounded and not a plane: it cannot be tessellated");
      }
      return band ? std::make_pair(T(interval.lo + complex_.chart_margin), T(interval.hi - complex_.chart_margin))
                  : std::make_pair(interval.lo, interval.hi);
    };
    // Named values, not structured bindings: a lambda may not capture those
    // before C++20 in clang 14 (the sanitizers' build).
    const std::pair<T, T> s_range = range(domain.s, complex_.is_atlas()), t_range = range(domain.t, false);
    const T s0 = s_range.first, s1 = s_range.second, t0 = t_range.first, t1 = t_range.second;
    const double step = boost::math::constants::pi<double>() / 4;
    const int ns = std::max(1, int(std::ceil(to_double(T(s1 - s0)) / step)));
    const int nt = std::max(1, int(std::ceil(to_double(T(t1 - t0)) / step)));
    const auto at = [&](int i, int j) {
      return Vec2<T>(s0 + T(i) / T(ns) * (s1 - s0), t0 + T(j) / T(nt) * (t1 - t0));
    };
    for (int i = 0; i < ns; ++i)
      for (int j = 0; j < nt; ++j) {
        refine({at(i, j), at(i + 1, j), at(i + 1, j + 1)}, 0);
        refine({at(i, j), at(i + 1, j + 1), at(i, j + 1)}, 0);
      }
  }

  const PatchComplex<T>& complex_;
  int f_;
  const Patch<T>& patch_;
  double target_;
  std::size_t room_;
  std::optional<double> net_m2_;
  std::vector<Vec2<T>> singular_;
  std::map<std::pair<double, double>, int> vertex_ids_;
};

// ---------------------------------------------------------------------------
// Newton's method on the two surfaces (Nelson et al. 1999; notes 3.5).

template <class T>
struct BodyPose {
  const PatchComplex<T>& complex;
  Mat3<T> R;
  Vec3<T> p;
};

// A patch's point, first and second derivatives in world coordinates.
template <class T>
struct WorldJet {
  Vec3<T> c, c_s, c_t, c_ss, c_st, c_tt;
};

template <class T>
WorldJet<T> world_jet(const BodyPose<T>& body, int patch, const Vec2<T>& x) {
  const PatchJet<T> jet = body.complex.patches[std::size_t(patch)]->evaluate(x.x(), x.y());
  return {body.R * jet.c() + body.p, body.R * jet.c_s(), body.R * jet.c_t(),
          body.R * jet.c_ss(), body.R * jet.c_st(), body.R * jet.c_tt()};
}

template <class T>
std::string pair_name(const PatchComplex<T>& complex1, int patch1, const PatchComplex<T>& complex2, int patch2) {
  return complex1.patches[std::size_t(patch1)]->describe() + " (patch " + std::to_string(patch1) + " of body 1) and " +
         complex2.patches[std::size_t(patch2)]->describe() + " (patch " + std::to_string(patch2) + " of body 2)";
}

enum class Settled { kInside, kCrossed, kBlocked };

// Moves a Newton iterate from `from` to `to` on `patch`, keeping it where the
// parameters are valid: a polygon's iterate stops at the edge it leaves and
// continues on the neighbour across it (PatchComplex::links: fraction alpha
// along edge e is 1 - alpha along the neighbour's edge), or is blocked where
// the edge has none; it keeps 2^-(digits/2) of the domain away from an
// extraordinary vertex (where Stam's patch is not evaluated); a chart's
// periodic parameters wrap, its bounded ones are clamped, and an atlas's
// iterate that leaves its chart's band continues on the chart whose band
// holds the point best (Patch::parameters_of).
template <class T>
Settled settle(const PatchComplex<T>& complex, int& patch, const Vec2<T>& from, Vec2<T>& to) {
  using std::ldexp;
  const Patch<T>& p = *complex.patches[std::size_t(patch)];
  const surfaces::Domain<T>& domain = p.domain();
  if (domain.is_polygon()) {
    Settled settled = Settled::kInside;
    if (!domain.contains(to.x(), to.y())) {
      T fraction(1);
      std::size_t edge = 0;
      for (std::size_t k = 0; k < domain.polygon.size(); ++k) {
        const T side_to = domain.edge_side(k, to);
        if (!(side_to < T(0))) continue;
        using std::max;
        const T side_from = max(T(0), domain.edge_side(k, from));
        const T alpha = side_from / (side_from - side_to);
        if (alpha < fraction) fraction = alpha, edge = k;
      }
      to = from + fraction * (to - from);
      const surfaces::EdgeLink& link = complex.links[std::size_t(patch)][edge];
      settled = Settled::kBlocked;
      if (link.patch >= 0) {
        const Vec2<T>& a = domain.polygon[edge];
        const Vec2<T>& b = domain.polygon[(edge + 1) % domain.polygon.size()];
        using std::clamp;
        const T alpha = clamp(T((to - a).dot(b - a) / (b - a).squaredNorm()), T(0), T(1));
        const std::vector<Vec2<T>>& next = complex.patches[std::size_t(link.patch)]->domain().polygon;
        const Vec2<T>& a2 = next[std::size_t(link.edge)];
        const Vec2<T>& b2 = next[std::size_t(link.edge + 1) % next.size()];
        patch = link.patch;
        to = a2 + PatchComplex<T>::neighbour_fraction(alpha) * (b2 - a2);
        settled = Settled::kCrossed;
      }
    }
    const Patch<T>& now = *complex.patches[std::size_t(patch)];
    const T floor = ldexp(T(1), -std::numeric_limits<T>::digits / 2);
    for (const auto& corner : now.singular_corners()) {
      const Vec2<T>& e = now.domain().polygon[std::size_t(corner.corner)];
      if ((to - e).norm() < floor) {
        Vec2<T> centre = Vec2<T>::Zero();
        for (const Vec2<T>& x : now.domain().polygon) centre += x;
        centre /= T(int(now.domain().polygon.size()));
        to = e + floor * (centre - e).normalized();
      }
    }
    return settled;
  }
  const auto keep = [](const surfaces::Interval<T>& range, T& value, const T& margin) {
    using std::floor;
    using std::isfinite;
    if (range.periodic) {
      const T period = range.hi - range.lo;
      value -= period * floor((value - range.lo) / period);
    } else if (isfinite(range.lo) && isfinite(range.hi)) {
      using std::clamp;
      value = clamp(value, T(range.lo + margin), T(range.hi - margin));
    }
  };
  // A bounded chart parameter stays off its ends (an ellipsoid's poles) by
  // half the atlas's margin, or by 2^-(digits/2) without an atlas.
  const T margin = complex.is_atlas() ? T(complex.chart_margin / 2) : ldexp(T(1), -std::numeric_limits<T>::digits / 2);
  keep(domain.s, to.x(), margin);
  keep(domain.t, to.y(), margin);
  if (!complex.is_atlas() || complex.band_distance(patch, to.x()) >= T(0)) return Settled::kInside;
  const Vec3<T> point = p.evaluate(to.x(), to.y()).c();
  int best = -1;
  Vec2<T> best_x;
  T best_band = complex.band_distance(patch, to.x());
  for (int g = 0; g < int(complex.patches.size()); ++g) {
    if (g == patch) continue;
    const std::optional<Vec2<T>> x = complex.patches[std::size_t(g)]->parameters_of(point);
    if (x && complex.band_distance(g, x->x()) > best_band) best = g, best_x = *x, best_band = complex.band_distance(g, x->x());
  }
  if (best < 0) return Settled::kInside;
  patch = best;
  to = best_x;
  return Settled::kCrossed;
}

// The size of a Newton step allowed in a patch's parameters: a quarter of its
// domain (the iterates do not jump across the surface); unbounded for a plane.
template <class T>
T step_limit(const Patch<T>& patch) {
  const surfaces::Domain<T>& domain = patch.domain();
  if (domain.is_polygon()) {
    T size(0);
    for (const Vec2<T>& a : domain.polygon)
      for (const Vec2<T>& b : domain.polygon) {
        using std::max;
        size = max(size, T((a - b).norm()));
      }
    return size / 4;
  }
  using std::isfinite;
  using std::min;
  T size = std::numeric_limits<T>::infinity();
  if (isfinite(domain.s.hi - domain.s.lo)) size = domain.s.hi - domain.s.lo;
  if (isfinite(domain.t.hi - domain.t.lo)) size = min(size, T(domain.t.hi - domain.t.lo));
  return size / 4;
}

template <class T>
BodyPose<T> pose_of(const SurfaceHierarchy<T>& body, const Mat4<T>& E_w_b) {
  return {body.complex(), spatial::rotation_of<T>(E_w_b), spatial::translation_of<T>(E_w_b)};
}

// The parameters of a point x on tessellation triangle `tri` (barycentric
// coordinates from the world vertices; the nearest vertex for a degenerate
// triangle, as at an ellipsoid's pole).
template <class T>
Vec2<T> parameters_on(const SurfaceHierarchy<T>& body, const BodyPose<T>& pose, int tri, const Vec3<double>& x_w) {
  const auto& triangle = body.triangles()[std::size_t(tri)];
  std::array<Vec3<double>, 3> v;
  std::array<Vec2<double>, 3> q;
  const Mat3<double> R = to_double(pose.R);
  const Vec3<double> p = to_double(pose.p);
  for (std::size_t k = 0; k < 3; ++k) {
    v[k] = R * body.vertices()[std::size_t(triangle.vertices[k])] + p;
    q[k] = body.vertex_parameters()[std::size_t(triangle.vertices[k])];
  }
  const Vec3<double> e1 = v[1] - v[0], e2 = v[2] - v[0], w = x_w - v[0];
  Mat2<double> G;
  G << e1.dot(e1), e1.dot(e2), e1.dot(e2), e2.dot(e2);
  const double det = G.determinant();
  if (!(det > 1e-12 * G(0, 0) * G(1, 1))) {  // degenerate: nearest vertex
    std::size_t nearest = 0;
    for (std::size_t k = 1; k < 3; ++k)
      if ((v[k] - x_w).norm() < (v[nearest] - x_w).norm()) nearest = k;
    return q[nearest].cast<T>();
  }
  const Vec2<double> l = G.inverse() * Vec2<double>(e1.dot(w), e2.dot(w));
  return (q[0] + l.x() * (q[1] - q[0]) + l.y() * (q[2] - q[0])).template cast<T>();
}

// The world size of the query's coordinates, for round-off margins.
template <class T>
double world_scale(const SurfaceHierarchy<T>& body, const Mat4<T>& E_w_b) {
  const double rod = body.rod() ? to_double(T(body.rod()->radius + body.rod()->origin.norm())) : 0.0;
  return to_double(T(spatial::translation_of<T>(E_w_b).norm())) + body.sphere_radius() + rod;
}

// The round-off of a polyhedral distance: FCL transforms the vertices
// (3 products and sums per coordinate) and takes differences, dot products
// and a square root of coordinates at most `scale` in magnitude: a few tens
// of roundings of that size; 128 of them bound it.
double polyhedral_roundoff(double scale) { return 128 * std::numeric_limits<double>::epsilon() * scale; }

fcl::Transform3d fcl_transform(const Mat3<double>& R, const Vec3<double>& p) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = R;
  tf.translation() = p;
  return tf;
}

// A certain lower bound of the polyhedral distance between two tessellated
// bodies (FCL, double), to a tolerance: it need not be more precise than the
// tessellations themselves. FCL stops a bounding-volume pair whose distance
// c satisfies both c >= d - abs_err and c (1 + rel_err) >= d, d the smallest
// triangle distance found so far (mesh_distance_traversal_node-inl.h,
// canStop), so every pair it left out is at least
// max(d - abs_err, d / (1 + rel_err)) apart for the d it returns, and d is
// a triangle pair's distance. FCL 0.7's fcl::distance drops both tolerances
// (its traversal node copies them from its request in its constructor,
// before initialize sets the request), so the node is run here directly
// with them set.
template <class T>
double polyhedral_lower_bound(const SurfaceHierarchy<T>& body1, const Mat4<T>& E_w_1, const SurfaceHierarchy<T>& body2,
                              const Mat4<T>& E_w_2, double abs_err) {
  const fcl::Transform3d tf1 = fcl_transform(to_double(spatial::rotation_of<T>(E_w_1)), to_double(spatial::translation_of<T>(E_w_1)));
  const fcl::Transform3d tf2 = fcl_transform(to_double(spatial::rotation_of<T>(E_w_2)), to_double(spatial::translation_of<T>(E_w_2)));
  constexpr double rel_err = 1;
  const fcl::DistanceRequestd request(false, false, rel_err, abs_err);
  fcl::DistanceResultd result;
  fcl::detail::MeshDistanceTraversalNodeOBBRSS<double> node;
  fcl::detail::initialize(node, body1.fcl_model()->bvh, tf1, body2.fcl_model()->bvh, tf2, request, result);
  node.abs_err = abs_err;
  node.rel_err = rel_err;
  fcl::detail::distance(&node, nullptr, 2);
  const double d = std::max(0.0, result.min_distance);
  return std::max(d - abs_err, d / (1 + rel_err));
}

// The seeds of the smooth search, in one traversal of both hierarchies
// (FCL's bounding volumes, visited in the order of its distance traversal;
// a pair is pruned by a lower bound of its triangles' distance, detail::
// bounding_volume_gap, then FCL's RSS distance where that does not prune
// it; from the last query's front when there is a ProximityCache). The
// bounds are each triangle's own, e_t (B1): the smooth surface over a
// triangle is within e_t of it, so
//  - the global pair (distance D*) lies over triangles t1, t2 at most
//    max(D*, 0) + e_t1 + e_t2 apart (where the surfaces cross, D* < 0,
//    their triangles meet; closest_points);
//  - every triangle pair measured bounds D* from above: D* <= d + e_t1 + e_t2.
// The limit is the least of the query distance and those upper bounds, plus
// round-off; a pair of bounding volumes farther apart than the limit plus
// their triangles' largest bounds (FclModel::node_bound) holds no pair
// within the query distance nor the global pair, and is pruned. A seed need
// only be within the tolerance tau(P) = beta(P) of its patch pair P's nearest
// triangle pair (it starts Newton; the tessellations are not known better
// than their bounds), beta(P) the sum of the two patches' largest bounds
// (FclModel::patch_bound): a bounding-volume pair whose triangles all lie on
// P, which already has a seed s_P, is pruned when it is at least s_P -
// tau(P) apart. (Near contact every bounding-volume pair about the contact
// is at distance 0, nearer than any seed: without the tolerance each would
// be searched to its leaves.) Then every triangle pair of P nearer than
// s_P - tau(P) was pruned by the limit, which the pair t* holding the global
// pair (if P holds it) never is, so
//   s_P <= d(t*) + tau(P) <= max(D*, 0) + 2 beta(P) <= limit + 2 beta(P):
// the seeds are those within limit + 2 beta(P), and closest_points starts
// Newton from each within max(D, 0) + 2 beta(P) of the best distance D
// found. (A flat patch, a table's top, has beta 0 on its side: near it the
// search is as narrow as the curved body's own bounds.) For overlapping
// triangles the points are a point of each (fcl::detail::TriangleDistance).
// The last query's seeds (ProximityCache) are measured first, as leaves:
// triangle pairs at this pose like any other, so all of the above holds for
// them.
struct Candidate {
  double distance;
  int tri1, tri2;
  Vec3<double> x1, x2;  // world
  double patch_bounds;  // beta(P) of its patch pair
};

// How far a point of body 1's tessellation can have moved against body 2
// between the relative poses E_2_1 `from` and `to` (detail::MotionBound):
// any point of a bounding volume's triangles lies within its reach of its
// centre, and any point of body 1's within its bounding sphere.
class Motion {
 public:
  template <class T>
  Motion(const SurfaceHierarchy<T>& body1, const Mat4<double>& from, const Mat4<double>& to)
      : bound_(from, to), body_(bound_.of(body1.sphere_centre(), body1.sphere_radius())) {}
  double of(const detail::SweptRectangle& volume) const { return bound_.of(volume.centre, volume.reach); }
  double of_body() const { return body_; }

 private:
  detail::MotionBound bound_;
  double body_;
};

template <class T>
class SeedNode final : public fcl::detail::MeshDistanceTraversalNodeOBBRSS<double> {
 public:
  using FrontPair = typename ProximityCache<T>::FrontPair;
  using Work = typename ProximityCache<T>::Work;
  // `query`: the query distance; `roundoff`: the polyhedral distances'.
  SeedNode(const SurfaceHierarchy<T>& body1, const SurfaceHierarchy<T>& body2, double query, double roundoff)
      : body1_(body1),
        body2_(body2),
        model1_(*body1.fcl_model()),
        model2_(*body2.fcl_model()),
        patches2_(body2.complex().patches.size()),
        slot_(body1.complex().patches.size() * patches2_, -1),
        limit_(query + roundoff),
        roundoff_(roundoff) {}
  // The last query's seeds (ProximityCache), measured before the traversal
  // (after fcl::detail::initialize, which sets the transforms).
  void warm_start(const std::vector<std::array<int, 2>>& triangle_pairs) const {
    for (const auto& [id1, id2] : triangle_pairs) consider(id1, id2);
  }
  // The traversal from the roots (`last_front` empty) or from the last
  // query's front (ProximityCache): a pair whose clearance, less how far the
  // triangles of its body 1 volume can have moved against body 2 since,
  // still prunes it is kept untested; the others are tested again, and
  // descended if they can no longer be pruned. Its own front goes to
  // `front`.
  void traverse(const std::vector<FrontPair>& last_front, const Motion& motion, std::vector<FrontPair>& front) const {
    front.clear();
    if (last_front.empty()) {
      descend(0, 0, 0.0, front);
      return;
    }
    for (const FrontPair& pair : last_front) {
      // The body's motion first (one subtraction), then the volume's own.
      const int slot = slot_of(pair.volume1, pair.volume2);
      double kept = pair.clearance - motion.of_body();
      if (!prunes(pair.volume1, pair.volume2, slot, kept))
        kept = pair.clearance - motion.of(model1_.rectangles[std::size_t(pair.volume1)]);
      if (prunes(pair.volume1, pair.volume2, slot, kept)) {
        front.push_back({pair.volume1, pair.volume2, kept});
        ++work_.kept;
        continue;
      }
      const Test test = test_pair(pair.volume1, pair.volume2);
      if (test.pruned)
        front.push_back({pair.volume1, pair.volume2, test.clearance});
      else
        descend(pair.volume1, pair.volume2, test.clearance, front);
    }
  }
  // The seeds within the final limit plus 2 beta(P), nearest first.
  std::vector<Candidate> seeds() const {
    std::vector<Candidate> within;
    for (const Candidate& candidate : found_)
      if (candidate.distance <= limit_ + 2 * candidate.patch_bounds) within.push_back(candidate);
    std::sort(within.begin(), within.end(), [](const Candidate& a, const Candidate& b) { return a.distance < b.distance; });
    return within;
  }
  const Work& work() const { return work_; }

 private:
  // A lower bound of the distance between the triangles of two bounding
  // volumes, and whether it prunes them.
  struct Test {
    double clearance;
    bool pruned;
  };

  // The patch pair's index in found_ when b1 and b2 each lie on one patch
  // and their pair has a seed, else -1.
  int slot_of(int b1, int b2) const {
    const int p1 = model1_.node_patch[std::size_t(b1)], p2 = model2_.node_patch[std::size_t(b2)];
    return p1 < 0 || p2 < 0 ? -1 : slot_[std::size_t(p1) * patches2_ + std::size_t(p2)];
  }
  // How far apart the triangles of b1 and b2 may be and still hold a pair
  // within the limit (their largest bounds above it).
  double reach(int b1, int b2) const {
    return limit_ + model1_.node_bound[std::size_t(b1)] + model2_.node_bound[std::size_t(b2)];
  }
  // The seed rule's threshold for the patch pair in found_[slot]: s_P - tau(P).
  double seed_rule(int slot) const {
    const Candidate& seed = found_[std::size_t(slot)];
    return seed.distance - seed.patch_bounds;
  }
  // A pair whose triangles are at least `clearance` apart is pruned beyond
  // its reach, or when its patch pair has a seed less than the tolerance
  // farther than that (the seed rule above).
  bool prunes(int b1, int b2, int slot, double clearance) const {
    return clearance > reach(b1, b2) || (slot >= 0 && seed_rule(slot) <= clearance);
  }
  // bounding_volume_gap, then, unless that already prunes the pair, the
  // larger of it and FCL's RSS distance.
  Test test_pair(int b1, int b2) const {
    ++work_.volume_tests;
    const int slot = slot_of(b1, b2);
    const double seed_rule = slot >= 0 ? this->seed_rule(slot) : std::numeric_limits<double>::infinity();
    if (seed_rule <= 0) return {0.0, true};  // no distance is below 0
    const double clearance =
        detail::bounding_volume_gap(model1_.rectangles[std::size_t(b1)], model2_.rectangles[std::size_t(b2)],
                                    this->tf.linear(), this->tf.translation(), std::min(seed_rule, reach(b1, b2)));
    if (prunes(b1, b2, slot, clearance)) return {clearance, true};
    ++work_.rss_tests;
    const double rss = std::max(clearance, fcl::detail::MeshDistanceTraversalNodeOBBRSS<double>::BVTesting(b1, b2));
    return {rss, prunes(b1, b2, slot, rss)};
  }
  // Triangle id1 of body 1 against id2 of body 2: a seed of their patch
  // pair if it is the pair's nearest so far, within their reach; an upper
  // bound of the global distance, which lowers the limit.
  void consider(int id1, int id2) const {
    ++work_.triangle_tests;
    const fcl::Triangle& t1 = this->tri_indices1[id1];
    const fcl::Triangle& t2 = this->tri_indices2[id2];
    fcl::Vector3d p1, p2;  // both in body 1's frame
    const double d = fcl::detail::TriangleDistance<double>::triDistance(
        this->vertices1[t1[0]], this->vertices1[t1[1]], this->vertices1[t1[2]], this->vertices2[t2[0]],
        this->vertices2[t2[1]], this->vertices2[t2[2]], this->tf.linear(), this->tf.translation(), p1, p2);
    const auto& triangle1 = body1_.triangles()[std::size_t(id1)];
    const auto& triangle2 = body2_.triangles()[std::size_t(id2)];
    const double bounds = triangle1.bound + triangle2.bound;
    if (d > limit_ + bounds) return;
    limit_ = std::min(limit_, d + bounds + 2 * roundoff_);
    const Candidate candidate{d, id1, id2, this->tf1 * p1, this->tf1 * p2,
                              model1_.patch_bound[std::size_t(triangle1.patch)] +
                                  model2_.patch_bound[std::size_t(triangle2.patch)]};
    int& slot = slot_[std::size_t(triangle1.patch) * patches2_ + std::size_t(triangle2.patch)];
    if (slot < 0) {
      slot = int(found_.size());
      found_.push_back(candidate);
    } else if (d < found_[std::size_t(slot)].distance) {
      found_[std::size_t(slot)] = candidate;
    }
  }

  // FCL's distanceRecurse (traversal_recurse-inl.h) for a pair that cannot
  // be pruned (a pair of leaves: their triangles measured), keeping the
  // pairs where it stops with their clearances: the larger volume is split,
  // and the nearer child pair visited first (it lowers the ceiling sooner).
  void descend(int b1, int b2, double clearance, std::vector<FrontPair>& front) const {
    if (this->isFirstNodeLeaf(b1) && this->isSecondNodeLeaf(b2)) {
      consider(this->model1->getBV(b1).primitiveId(), this->model2->getBV(b2).primitiveId());
      front.push_back({b1, b2, clearance});
      return;
    }
    std::array<FrontPair, 2> children;
    if (this->firstOverSecond(b1, b2))
      children = {{{this->getFirstLeftChild(b1), b2, 0.0}, {this->getFirstRightChild(b1), b2, 0.0}}};
    else
      children = {{{b1, this->getSecondLeftChild(b2), 0.0}, {b1, this->getSecondRightChild(b2), 0.0}}};
    std::array<Test, 2> tests = {test_pair(children[0].volume1, children[0].volume2),
                                 test_pair(children[1].volume1, children[1].volume2)};
    if (tests[1].clearance < tests[0].clearance) std::swap(children[0], children[1]), std::swap(tests[0], tests[1]);
    for (std::size_t k = 0; k < 2; ++k) {
      children[k].clearance = tests[k].clearance;
      if (tests[k].pruned)
        front.push_back(children[k]);
      else
        descend(children[k].volume1, children[k].volume2, tests[k].clearance, front);
    }
  }

  const SurfaceHierarchy<T>& body1_;
  const SurfaceHierarchy<T>& body2_;
  const detail::FclModel& model1_;
  const detail::FclModel& model2_;
  std::size_t patches2_;
  mutable std::vector<int> slot_;  // per patch pair: its index in found_, or -1
  mutable std::vector<Candidate> found_;
  mutable double limit_;  // min(query, the least upper bound of D*) + round-off
  double roundoff_;
  mutable Work work_;
};

// The seeds (SeedNode), from the roots, or from the cache's seeds and front,
// which are then replaced by this query's (an empty front when it outgrew
// its bound: ProximityCache).
template <class T>
std::vector<Candidate> seed_pairs(const SurfaceHierarchy<T>& body1, const Mat4<T>& E_w_1,
                                  const SurfaceHierarchy<T>& body2, const Mat4<T>& E_w_2, double query,
                                  double roundoff, ProximityCache<T>* cache) {
  fcl::Transform3d tf1 = fcl_transform(to_double(spatial::rotation_of<T>(E_w_1)), to_double(spatial::translation_of<T>(E_w_1)));
  fcl::Transform3d tf2 = fcl_transform(to_double(spatial::rotation_of<T>(E_w_2)), to_double(spatial::translation_of<T>(E_w_2)));
  const fcl::DistanceRequestd request(true);
  fcl::DistanceResultd result;
  SeedNode<T> node(body1, body2, query, roundoff);
  fcl::detail::initialize(node, body1.fcl_model()->bvh, tf1, body2.fcl_model()->bvh, tf2, request, result);
  std::vector<typename ProximityCache<T>::FrontPair> front;
  if (cache) front.reserve(2 * cache->front_from_roots);  // the front's bound over a run
  const Mat4<double> E_2_1 = to_double(Mat4<T>(spatial::pose_inverse<T>(E_w_2) * E_w_1));  // body 1 in body 2's frame
  const bool from_roots = !cache || cache->front.empty();
  if (cache) {
    node.warm_start(cache->triangle_pairs);
    node.traverse(cache->front, Motion(body1, cache->E_2_1, E_2_1), front);
  } else {
    node.traverse({}, Motion(body1, E_2_1, E_2_1), front);
  }
  std::vector<Candidate> seeds = node.seeds();
  if (cache) {
    cache->triangle_pairs.clear();
    for (const Candidate& seed : seeds) cache->triangle_pairs.push_back({seed.tri1, seed.tri2});
    if (from_roots) cache->front_from_roots = front.size();
    if (front.size() > 2 * cache->front_from_roots) front.clear();
    cache->front = std::move(front);
    cache->E_2_1 = E_2_1;
    cache->work = node.work();
  }
  return seeds;
}

// FCL's split rule made patch-aligned: a node whose triangles lie on several
// patches is split between patches (the patches ordered along the node's
// longest axis by their triangles' mean centroid, split near half the
// triangles), so that below the first few levels every node lies on one
// patch, where FCL's own rule (the mean along the longest axis) splits it.
// Then the seeds' pruning by patch pair (SeedNode) applies after a few
// levels instead of near the leaves. FCL's BVHModel::recursiveBuildTree
// calls computeRule on a node's triangles, then apply on each triangle's
// centroid in the same order (true: right): between patches the answers
// are computed in computeRule and handed out in that order.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-virtual-dtor"  // FCL's base; held and deleted as PatchSplitter
class PatchSplitter final : public fcl::detail::BVSplitterBase<fcl::OBBRSSd> {
 public:
  explicit PatchSplitter(std::vector<int> triangle_patch)
      : triangle_patch_(std::move(triangle_patch)), within_(fcl::detail::SPLIT_METHOD_MEAN) {}
  void set(fcl::Vector3d* vertices, fcl::Triangle* triangles, fcl::BVHModelType type) override {
    vertices_ = vertices, triangles_ = triangles;
    within_.set(vertices, triangles, type);
  }
  void computeRule(const fcl::OBBRSSd& bv, unsigned int* indices, int count) override {
    answers_.clear();
    next_ = 0;
    const fcl::Vector3d axis = bv.obb.axis.col(0);
    std::map<int, std::pair<double, int>> patches;  // patch: (sum of its centroids along the axis, its triangles)
    for (int i = 0; i < count; ++i) {
      const fcl::Triangle& t = triangles_[indices[i]];
      std::pair<double, int>& patch = patches[triangle_patch_[indices[i]]];
      patch.first += axis.dot(vertices_[t[0]] + vertices_[t[1]] + vertices_[t[2]]) / 3;
      ++patch.second;
    }
    if (patches.size() == 1) {
      within_.computeRule(bv, indices, count);
      return;
    }
    std::vector<std::pair<double, int>> order;  // (mean along the axis, patch)
    for (const auto& [patch, sum] : patches) order.emplace_back(sum.first / sum.second, patch);
    std::sort(order.begin(), order.end());
    // The first `split` patches go left: about half the triangles, at least one patch on each side.
    std::size_t split = 1;
    int left = patches[order.front().second].second;
    while (split + 1 < order.size() && left + patches[order[split].second].second / 2 <= count / 2)
      left += patches[order[split++].second].second;
    std::map<int, bool> right;
    for (std::size_t k = 0; k < order.size(); ++k) right[order[k].second] = k >= split;
    answers_.reserve(std::size_t(count));
    for (int i = 0; i < count; ++i) answers_.push_back(right[triangle_patch_[indices[i]]]);
  }
  bool apply(const fcl::Vector3d& q) const override {
    if (answers_.empty()) return within_.apply(q);
    return next_ < answers_.size() ? answers_[next_++] : true;  // more calls than triangles: the check after the build fails
  }
  void clear() override { within_.clear(); }

 private:
  std::vector<int> triangle_patch_;
  fcl::detail::BVSplitter<fcl::OBBRSSd> within_;
  fcl::Vector3d* vertices_ = nullptr;
  fcl::Triangle* triangles_ = nullptr;
  std::vector<bool> answers_;
  mutable std::size_t next_ = 0;
};
#pragma GCC diagnostic pop

// FclModel::node_patch and node_bound of node `b` and its subtree.
template <class Triangle>
void mark_nodes(detail::FclModel& model, const std::vector<Triangle>& triangles, int b) {
  const fcl::BVNode<fcl::OBBRSSd>& node = model.bvh.getBV(b);
  int& patch = model.node_patch[std::size_t(b)];
  double& bound = model.node_bound[std::size_t(b)];
  if (node.isLeaf()) {
    const Triangle& triangle = triangles[std::size_t(node.primitiveId())];
    patch = triangle.patch, bound = triangle.bound;
  } else {
    mark_nodes(model, triangles, node.leftChild());
    mark_nodes(model, triangles, node.rightChild());
    const std::size_t left = std::size_t(node.leftChild()), right = std::size_t(node.rightChild());
    patch = model.node_patch[left] == model.node_patch[right] ? model.node_patch[left] : -1;
    bound = std::max(model.node_bound[left], model.node_bound[right]);
  }
}

// A half-space's plane in the world: its outward normal and a point on it.
template <class T>
std::pair<Vec3<double>, Vec3<double>> world_plane(const SurfaceHierarchy<T>& plane, const Mat4<T>& E_w_plane) {
  const Mat3<double> R_plane = to_double(spatial::rotation_of<T>(E_w_plane));
  return {R_plane * to_double(plane.plane_normal()),
          R_plane * to_double(plane.plane_origin()) + to_double(spatial::translation_of<T>(E_w_plane))};
}

// A tessellated body against an analytic one (a half-space or a rod): the
// polyhedral distance (exact against the analytic surface, in world
// coordinates) and the body's vertex nearest to it, the seed of Newton.
struct Support {
  double distance;
  int vertex;
};

// Against a half-space: the body's support in -n (its lowest vertex over
// the plane; the height is linear, so no triangle reaches lower).
template <class T>
Support support_over_plane(const SurfaceHierarchy<T>& plane, const Mat4<T>& E_w_plane, const SurfaceHierarchy<T>& body,
                           const Mat4<T>& E_w_body) {
  const auto [n_w, o_w] = world_plane(plane, E_w_plane);
  const Vec3<double> n_b = to_double(spatial::rotation_of<T>(E_w_body)).transpose() * n_w;  // n in the body's frame
  const double offset = n_w.dot(to_double(spatial::translation_of<T>(E_w_body)) - o_w);
  Support support{std::numeric_limits<double>::infinity(), -1};
  const std::vector<Vec3<double>>& vertices = body.vertices();
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const double h = n_b.dot(vertices[i]);
    if (h < support.distance) support = {h, int(i)};
  }
  support.distance += offset;
  return support;
}

// A rod's axis in the world: a point, the unit direction, and the unit
// radial directions of s = 0 and s = pi / 2.
struct WorldAxis {
  Vec3<double> origin, direction, e1, e2;
  double radius;
  // A world point's coordinates across the axis (along e1, e2).
  Vec2<double> across(const Vec3<double>& x_w) const {
    const Vec3<double> y = x_w - origin;
    return {y.dot(e1), y.dot(e2)};
  }
};

template <class T>
WorldAxis world_axis(const SurfaceHierarchy<T>& rod, const Mat4<T>& E_w_rod) {
  const Mat3<double> R = to_double(spatial::rotation_of<T>(E_w_rod));
  const typename SurfaceHierarchy<T>::Rod& r = *rod.rod();
  return {R * to_double(r.origin) + to_double(spatial::translation_of<T>(E_w_rod)),
          (R * to_double(r.axis)).normalized(), R * to_double(r.e1), R * to_double(r.e2), to_double(r.radius)};
}

// The distance from the origin to the segment ab (2D).
double origin_to_segment(const Vec2<double>& a, const Vec2<double>& b) {
  const Vec2<double> e = b - a;
  const double length2 = e.squaredNorm();
  const double t = length2 > 0 ? std::clamp(-a.dot(e) / length2, 0.0, 1.0) : 0.0;
  return (a + t * e).norm();
}

// The distance from the origin to the triangle abc (2D; 0 inside).
double origin_to_triangle(const Vec2<double>& a, const Vec2<double>& b, const Vec2<double>& c) {
  const auto cross = [](const Vec2<double>& u, const Vec2<double>& v) { return u.x() * v.y() - u.y() * v.x(); };
  const double area = cross(b - a, c - a);
  const double wa = cross(b, c), wb = cross(c, a), wc = cross(a, b);  // the origin's barycentric weights times area
  if (area != 0 && wa * area >= 0 && wb * area >= 0 && wc * area >= 0) return 0;
  return std::min({origin_to_segment(a, b), origin_to_segment(b, c), origin_to_segment(c, a)});
}

// Against a rod: the distance from its axis to the nearest triangle (the
// distance across the axis from its point to the triangle projected along
// it) less the radius, and the vertex nearest to the axis.
template <class T>
Support support_about_axis(const SurfaceHierarchy<T>& rod, const Mat4<T>& E_w_rod, const SurfaceHierarchy<T>& body,
                           const Mat4<T>& E_w_body) {
  const WorldAxis axis = world_axis(rod, E_w_rod);
  const Mat3<double> R = to_double(spatial::rotation_of<T>(E_w_body));
  const Vec3<double> p = to_double(spatial::translation_of<T>(E_w_body));
  std::vector<Vec2<double>> across;
  across.reserve(body.vertices().size());
  Support support{std::numeric_limits<double>::infinity(), -1};
  double nearest = std::numeric_limits<double>::infinity();
  for (const Vec3<double>& v : body.vertices()) {
    across.push_back(axis.across(R * v + p));
    if (across.back().norm() < nearest) nearest = across.back().norm(), support.vertex = int(across.size()) - 1;
  }
  for (const typename SurfaceHierarchy<T>::Triangle& t : body.triangles()) {
    support.distance = std::min(support.distance, origin_to_triangle(across[std::size_t(t.vertices[0])],
                                                                     across[std::size_t(t.vertices[1])],
                                                                     across[std::size_t(t.vertices[2])]));
  }
  support.distance -= axis.radius;
  return support;
}

template <class T>
Support support_of(const SurfaceHierarchy<T>& analytic, const Mat4<T>& E_w_analytic, const SurfaceHierarchy<T>& body,
                   const Mat4<T>& E_w_body) {
  return analytic.is_half_space() ? support_over_plane(analytic, E_w_analytic, body, E_w_body)
                                  : support_about_axis(analytic, E_w_analytic, body, E_w_body);
}

// The distance from the analytic surface to the body's bounding sphere
// (world; negative when they meet).
template <class T>
double sphere_clearance(const SurfaceHierarchy<T>& analytic, const Mat4<T>& E_w_analytic,
                        const SurfaceHierarchy<T>& body, const Mat4<T>& E_w_body) {
  const Vec3<double> centre_w = to_double(spatial::rotation_of<T>(E_w_body)) * body.sphere_centre() +
                                to_double(spatial::translation_of<T>(E_w_body));
  if (analytic.is_half_space()) {
    const auto [n_w, o_w] = world_plane(analytic, E_w_analytic);
    return n_w.dot(centre_w - o_w) - body.sphere_radius();
  }
  const WorldAxis axis = world_axis(analytic, E_w_analytic);
  return axis.across(centre_w).norm() - axis.radius - body.sphere_radius();
}

template <class T>
double sphere_distance(const SurfaceHierarchy<T>& body1, const Mat4<T>& E_w_1, const SurfaceHierarchy<T>& body2,
                       const Mat4<T>& E_w_2) {
  const auto centre = [](const SurfaceHierarchy<T>& body, const Mat4<T>& E) {
    return Vec3<double>(to_double(spatial::rotation_of<T>(E)) * body.sphere_centre() + to_double(spatial::translation_of<T>(E)));
  };
  return (centre(body1, E_w_1) - centre(body2, E_w_2)).norm() - body1.sphere_radius() - body2.sphere_radius();
}

// The parameters of a world point's foot point on an analytic surface: on a
// plane, its orthogonal projection; on a rod, the point across the axis
// (s its angle from e1 towards e2, t its position along the axis).
template <class T>
Vec2<T> foot_parameters(const SurfaceHierarchy<T>& analytic, const Mat4<T>& E_w_analytic, const Vec3<T>& x_w) {
  const Vec3<T> x = spatial::rotation_of<T>(E_w_analytic).transpose() * (x_w - spatial::translation_of<T>(E_w_analytic));
  if (analytic.is_half_space()) {
    Eigen::Matrix<T, 3, 2> A;
    A << analytic.plane_c_u(), analytic.plane_c_v();
    return Mat2<T>(A.transpose() * A).partialPivLu().solve(Vec2<T>(A.transpose() * (x - analytic.plane_origin())));
  }
  const typename SurfaceHierarchy<T>::Rod& rod = *analytic.rod();
  const Vec3<T> y = x - rod.origin;
  using std::atan2;
  return {atan2(T(y.dot(rod.e2)), T(y.dot(rod.e1))), T(y.dot(rod.axis) / rod.axis.squaredNorm())};
}

template <class T>
void check_not_both_analytic(const SurfaceHierarchy<T>& body1, const SurfaceHierarchy<T>& body2) {
  if (body1.is_analytic() && body2.is_analytic())
    throw InputError("surface proximity: both bodies are planes or rods (one must be tessellated)");
}

template <class T>
void check_global(const SurfaceClosestPoints<T>& result, double polyhedral, double bounds, double roundoff,
                  const SurfaceHierarchy<T>& body1, const SurfaceHierarchy<T>& body2) {
  if (to_double(result.distance) <= polyhedral + bounds + roundoff) return;
  std::ostringstream os;
  os << "surface proximity: Newton converged between "
     << pair_name(body1.complex(), result.patch1, body2.complex(), result.patch2) << " to a pair at distance "
     << result.distance << " m, farther than the polyhedral distance " << polyhedral << " m plus the bounds "
     << bounds << " m: not the closest pair";
  throw ComputationError(os.str());
}

}  // namespace

// ---------------------------------------------------------------------------

namespace {
std::atomic<std::uint64_t> next_serial{1};  // the next SurfaceHierarchy's
}  // namespace

template <class T>
SurfaceHierarchy<T>::SurfaceHierarchy(const PatchComplex<T>& complex, double target_bound, std::size_t max_triangles)
    : complex_(&complex), serial_(next_serial++) {
  if (!std::isfinite(target_bound) || !(target_bound > 0))
    throw InputError("surface proximity: target_bound must be finite and > 0 (m)");
  if (complex.patches.empty()) throw InputError("surface proximity: the patch complex has no patch");
  for (std::size_t f = 0; f < complex.patches.size(); ++f) {
    if (!is_plane(*complex.patches[f])) continue;
    if (complex.patches.size() != 1)
      throw InputError("surface proximity: patch " + std::to_string(f) + " is an unbounded plane beside other patches");
    const PatchJet<T> jet = complex.patches[f]->evaluate(T(0), T(0));
    half_space_ = true;
    plane_origin_ = jet.c();
    plane_c_u_ = jet.c_s();
    plane_c_v_ = jet.c_t();
    plane_normal_ = plane_c_u_.cross(plane_c_v_).normalized();
    return;
  }
  for (std::size_t f = 0; f < complex.patches.size(); ++f) {
    std::optional<Rod> rod = rod_of(*complex.patches[f]);
    if (!rod) continue;
    if (complex.patches.size() != 1)
      throw InputError("surface proximity: patch " + std::to_string(f) + " is an infinite cylinder beside other patches");
    // Outward normals, c_s x c_t = R |a| e2 x a / |a|, along +e1 at (0, 0).
    if (!(rod->e2.cross(rod->axis).dot(rod->e1) > T(0)))
      throw InputError("surface proximity: patch " + std::to_string(f) +
                       " is the inside of a cylinder (its normals point to the axis): only a solid rod is supported");
    rod_ = std::move(rod);
    return;
  }
  for (int f = 0; f < int(complex.patches.size()); ++f) {
    const PatchTessellator<T> tessellation(complex, f, target_bound, max_triangles - triangles_.size());
    const int base = int(vertices_.size());
    for (std::size_t i = 0; i < tessellation.points.size(); ++i) {
      vertices_.push_back(tessellation.points[i]);
      vertex_parameters_.push_back(to_double(tessellation.params[i]));
      vertex_patches_.push_back(f);
    }
    for (std::size_t k = 0; k < tessellation.triangles.size(); ++k) {
      const auto& ids = tessellation.triangles[k];
      triangles_.push_back({f, {base + ids[0], base + ids[1], base + ids[2]}, tessellation.bounds[k]});
      bound_ = std::max(bound_, tessellation.bounds[k]);
    }
  }
  for (const Vec3<double>& x : vertices_) sphere_centre_ += x;
  sphere_centre_ /= double(vertices_.size());
  for (const Vec3<double>& x : vertices_) sphere_radius_ = std::max(sphere_radius_, (x - sphere_centre_).norm());
  sphere_radius_ += bound_;

  model_ = std::make_unique<detail::FclModel>();
  std::vector<fcl::Vector3d> points(vertices_.begin(), vertices_.end());
  std::vector<fcl::Triangle> triangles;
  triangles.reserve(triangles_.size());
  for (const Triangle& t : triangles_)
    triangles.emplace_back(std::size_t(t.vertices[0]), std::size_t(t.vertices[1]), std::size_t(t.vertices[2]));
  std::vector<int> triangle_patch;
  triangle_patch.reserve(triangles_.size());
  for (const Triangle& t : triangles_) triangle_patch.push_back(t.patch);
  model_->bvh.bv_splitter = std::make_shared<PatchSplitter>(triangle_patch);
  model_->bvh.beginModel(int(triangles.size()), int(points.size()));
  model_->bvh.addSubModel(points, triangles);
  model_->bvh.endModel();
  model_->node_patch.assign(std::size_t(model_->bvh.getNumBVs()), -1);
  model_->node_bound.assign(std::size_t(model_->bvh.getNumBVs()), 0.0);
  mark_nodes(*model_, triangles_, 0);
  model_->patch_bound.assign(complex.patches.size(), 0.0);
  for (const Triangle& t : triangles_)
    model_->patch_bound[std::size_t(t.patch)] = std::max(model_->patch_bound[std::size_t(t.patch)], t.bound);
  for (int b = 0; b < model_->bvh.getNumBVs(); ++b) {
    const fcl::BVNode<fcl::OBBRSSd>& node = model_->bvh.getBV(b);
    const fcl::RSSd& rss = node.bv.rss;
    const double reach = (std::hypot(rss.l[0], rss.l[1]) / 2 + rss.r) * (1 + 4 * std::numeric_limits<double>::epsilon());
    model_->rectangles.push_back({rss.center(), rss.axis, rss.l[0] / 2, rss.l[1] / 2, rss.r, reach});
  }
  // Patch-aligned (PatchSplitter): the nodes on several patches are the
  // inner nodes of a binary tree whose leaves are the patches.
  const auto multi_patch = std::count(model_->node_patch.begin(), model_->node_patch.end(), -1);
  if (multi_patch != std::ptrdiff_t(complex.patches.size()) - 1) {
    throw ComputationError("surface proximity: FCL's hierarchy is not patch-aligned (" + std::to_string(multi_patch) +
                           " nodes on several patches for " + std::to_string(complex.patches.size()) +
                           " patches): its build no longer calls the split rule as PatchSplitter expects");
  }
}

template <class T>
SurfaceHierarchy<T>::~SurfaceHierarchy() = default;
template <class T>
SurfaceHierarchy<T>::SurfaceHierarchy(SurfaceHierarchy&&) noexcept = default;
template <class T>
SurfaceHierarchy<T>& SurfaceHierarchy<T>::operator=(SurfaceHierarchy&&) noexcept = default;

template <class T>
SurfaceClosestPoints<T> newton_closest_points(const SurfaceHierarchy<T>& body1, const Mat4<T>& E_w_1, int patch1,
                                              const Vec2<T>& st0, const SurfaceHierarchy<T>& body2,
                                              const Mat4<T>& E_w_2, int patch2, const Vec2<T>& uv0,
                                              std::vector<T>* step_lengths) {
  constexpr int kMaxIterations = 50;
  // Three blocked steps in a row: the iterate pushes against an edge with no
  // neighbour (an open patch whose closest point is on its boundary).
  constexpr int kMaxBlocked = 3;
  const BodyPose<T> pose1 = pose_of(body1, E_w_1), pose2 = pose_of(body2, E_w_2);
  Vec2<T> x1 = st0, x2 = uv0;
  settle(pose1.complex, patch1, x1, x1);
  settle(pose2.complex, patch2, x2, x2);
  // Converged when both points move less than sqrt(eps) of the bodies' size
  // in a step; one more step then takes them to round-off (quadratic
  // convergence).
  using std::sqrt;
  const T size(std::max(body1.sphere_radius(), body2.sphere_radius()));
  const T converged_step = sqrt(epsilon<T>()) * size;
  bool polish = false;
  int blocked = 0;
  for (int iteration = 1;; ++iteration) {
    if (iteration > kMaxIterations) {
      throw ComputationError("surface proximity: Newton's method for the closest points of " +
                             pair_name(pose1.complex, patch1, pose2.complex, patch2) + " did not converge in " +
                             std::to_string(kMaxIterations) + " iterations");
    }
    const WorldJet<T> c = world_jet(pose1, patch1, x1), d = world_jet(pose2, patch2, x2);
    const Vec3<T> N = d.c_s.cross(d.c_t);
    const T N_norm = N.norm();
    const Vec3<T> n = N / N_norm;
    const Mat3<T> project = (Mat3<T>::Identity() - n * n.transpose()) / N_norm;
    const Vec3<T> n_u = project * (d.c_ss.cross(d.c_t) + d.c_s.cross(d.c_st));
    const Vec3<T> n_v = project * (d.c_st.cross(d.c_t) + d.c_s.cross(d.c_tt));
    const Vec3<T> gap = c.c - d.c;
    const Vec4<T> F(n.dot(c.c_s), n.dot(c.c_t), gap.dot(d.c_s), gap.dot(d.c_t));
    Mat4<T> J;
    J << n.dot(c.c_ss), n.dot(c.c_st), n_u.dot(c.c_s), n_v.dot(c.c_s),                                //
        n.dot(c.c_st), n.dot(c.c_tt), n_u.dot(c.c_t), n_v.dot(c.c_t),                                 //
        c.c_s.dot(d.c_s), c.c_t.dot(d.c_s), gap.dot(d.c_ss) - d.c_s.dot(d.c_s), gap.dot(d.c_st) - d.c_t.dot(d.c_s),  //
        c.c_s.dot(d.c_t), c.c_t.dot(d.c_t), gap.dot(d.c_st) - d.c_s.dot(d.c_t), gap.dot(d.c_tt) - d.c_t.dot(d.c_t);
    const Eigen::FullPivLU<Mat4<T>> lu(J);
    Vec4<T> step = lu.solve(Vec4<T>(-F));
    if (!lu.isInvertible() || !step.allFinite() || !J.allFinite()) {
      throw ComputationError("surface proximity: Newton's method for the closest points of " +
                             pair_name(pose1.complex, patch1, pose2.complex, patch2) +
                             " met a singular system (conforming surfaces or a degenerate parameterisation)");
    }
    if (step_lengths) step_lengths->push_back(step.norm());
    const T moved = std::max(T((c.c_s * step(0) + c.c_t * step(1)).norm()), T((d.c_s * step(2) + d.c_t * step(3)).norm()));
    // Damping: no step longer than a quarter of a patch's domain.
    using std::max;
    const T scale = max({T(1), T(step.template head<2>().norm() / step_limit(*pose1.complex.patches[std::size_t(patch1)])),
                         T(step.template tail<2>().norm() / step_limit(*pose2.complex.patches[std::size_t(patch2)]))});
    step /= scale;
    Vec2<T> next1 = x1 + step.template head<2>(), next2 = x2 + step.template tail<2>();
    const Settled settled1 = settle(pose1.complex, patch1, x1, next1);
    const Settled settled2 = settle(pose2.complex, patch2, x2, next2);
    x1 = next1, x2 = next2;
    blocked = (settled1 == Settled::kBlocked || settled2 == Settled::kBlocked) ? blocked + 1 : 0;
    if (blocked >= kMaxBlocked) {
      throw ComputationError("surface proximity: the closest points of " +
                             pair_name(pose1.complex, patch1, pose2.complex, patch2) +
                             " lie on a boundary edge without a neighbour (an open patch)");
    }
    if (polish) {
      const WorldJet<T> c_end = world_jet(pose1, patch1, x1), d_end = world_jet(pose2, patch2, x2);
      const Vec3<T> n1 = c_end.c_s.cross(c_end.c_t).normalized(), n2 = d_end.c_s.cross(d_end.c_t).normalized();
      if (!(n1.dot(n2) < T(0))) {
        throw ComputationError("surface proximity: Newton's method for the closest points of " +
                               pair_name(pose1.complex, patch1, pose2.complex, patch2) +
                               " converged to a pair whose normals are parallel, not anti-parallel (not a closest pair)");
      }
      SurfaceClosestPoints<T> result;
      result.patch1 = patch1, result.patch2 = patch2;
      result.st = x1, result.uv = x2;
      result.p1_w = c_end.c, result.p2_w = d_end.c;
      result.normal_w = n2;
      result.distance = (c_end.c - d_end.c).dot(n2);
      result.newton_iterations = iteration;
      return result;
    }
    // A step that crosses an edge or a chart's band keeps the point (on the
    // shared edge, or the same point in the other chart): it may converge.
    if (moved <= converged_step && scale == T(1) && blocked == 0) polish = true;
  }
}

template <class T>
std::optional<SurfaceClosestPoints<T>> closest_points(const SurfaceHierarchy<T>& body1, const Mat4<T>& E_w_1,
                                                      const SurfaceHierarchy<T>& body2, const Mat4<T>& E_w_2,
                                                      const T& query_distance, ProximityCache<T>* cache) {
  const double query = to_double(query_distance);
  check_not_both_analytic(body1, body2);
  const double roundoff = polyhedral_roundoff(world_scale(body1, E_w_1) + world_scale(body2, E_w_2));
  if (body1.is_analytic() || body2.is_analytic()) {
    // The polyhedral distance to the analytic surface is exact (support_of):
    // Newton from the body's nearest vertex and its foot point.
    const bool analytic_is_2 = body2.is_analytic();
    const SurfaceHierarchy<T>& analytic = analytic_is_2 ? body2 : body1;
    const SurfaceHierarchy<T>& body = analytic_is_2 ? body1 : body2;
    const Mat4<T>& E_analytic = analytic_is_2 ? E_w_2 : E_w_1;
    const Mat4<T>& E_body = analytic_is_2 ? E_w_1 : E_w_2;
    if (sphere_clearance(analytic, E_analytic, body, E_body) > query) return std::nullopt;
    const Support support = support_of(analytic, E_analytic, body, E_body);
    if (support.distance - body.bound() - roundoff > query) return std::nullopt;
    const int patch = body.vertex_patches()[std::size_t(support.vertex)];
    const Vec2<T> x = body.vertex_parameters()[std::size_t(support.vertex)].template cast<T>();
    const Vec3<T> x_w = spatial::rotation_of<T>(E_body) * body.vertices()[std::size_t(support.vertex)].template cast<T>() +
                        spatial::translation_of<T>(E_body);
    const Vec2<T> foot = foot_parameters(analytic, E_analytic, x_w);
    SurfaceClosestPoints<T> result = analytic_is_2 ? newton_closest_points(body1, E_w_1, patch, x, body2, E_w_2, 0, foot)
                                                   : newton_closest_points(body1, E_w_1, 0, foot, body2, E_w_2, patch, x);
    check_global(result, support.distance, body.bound(), roundoff, body1, body2);
    return result;
  }
  if (cache && (cache->body1 != body1.serial() || cache->body2 != body2.serial())) {
    *cache = ProximityCache<T>();
    cache->body1 = body1.serial(), cache->body2 = body2.serial();
  }
  if (sphere_distance(body1, E_w_1, body2, E_w_2) > query) {
    if (cache) cache->triangle_pairs.clear(), cache->front.clear(), cache->work = {};  // nothing near: the next query starts afresh
    return std::nullopt;
  }
  const double bounds = body1.bound() + body2.bound();
  // The global pair lies within its triangles' bounds of them, so they are
  // at most max(D, 0) + bounds apart, D the global distance (where the
  // surfaces cross, D < 0, their triangles meet), and D <= d + bounds, d the
  // polyhedral distance: none exist when d is beyond query + bounds (then
  // D > query). Each patch pair P that may hold the global pair has a seed
  // within max(D, 0) + 2 beta(P) (seed_pairs, with each triangle's own
  // bound, beta(P) <= bounds). Newton from the nearest seed gives D; then
  // from every other seed within max(D, 0) + 2 beta(P), nearest first, each
  // result lowering D; the check at the end (D <= the nearest seed's
  // distance + bounds) only loosens by the seeds' tolerance. (The nearest
  // seed alone may lie on another feature as near to within the bounds, or
  // on another crossing: a tumbling body's base above the other, or through
  // it, while its rim is deeper.) Where Newton fails from a farther seed (no
  // closest pair there: the inside of a bowl's rim facing away from a table
  // below it), that pair is not the global one.
  const std::vector<Candidate> seeds = seed_pairs(body1, E_w_1, body2, E_w_2, query, roundoff, cache);
  if (seeds.empty()) return std::nullopt;
  const BodyPose<T> pose1 = pose_of(body1, E_w_1), pose2 = pose_of(body2, E_w_2);
  const auto newton_from = [&](const Candidate& seed) {
    const int patch1 = body1.triangles()[std::size_t(seed.tri1)].patch;
    const int patch2 = body2.triangles()[std::size_t(seed.tri2)].patch;
    return newton_closest_points(body1, E_w_1, patch1, parameters_on(body1, pose1, seed.tri1, seed.x1), body2, E_w_2,
                                 patch2, parameters_on(body2, pose2, seed.tri2, seed.x2));
  };
  SurfaceClosestPoints<T> best = newton_from(seeds.front());
  if (cache) cache->work.newton_runs = 1;
  for (std::size_t k = 1; k < seeds.size(); ++k) {
    const double reach = std::max(0.0, to_double(best.distance)) + roundoff;
    if (seeds[k].distance > reach + 2 * bounds) break;  // nor any farther seed
    if (seeds[k].distance > reach + 2 * seeds[k].patch_bounds) continue;
    if (cache) ++cache->work.newton_runs;
    try {
      SurfaceClosestPoints<T> result = newton_from(seeds[k]);
      if (result.distance < best.distance) best = result;
    } catch (const ComputationError&) {  // no closest pair near this seed (above)
    }
  }
  check_global(best, seeds.front().distance, bounds, roundoff, body1, body2);
  return best;
}

template <class T>
T distance_lower_bound(const SurfaceHierarchy<T>& body1, const Mat4<T>& E_w_1, const SurfaceHierarchy<T>& body2,
                       const Mat4<T>& E_w_2) {
  check_not_both_analytic(body1, body2);
  const double roundoff = polyhedral_roundoff(world_scale(body1, E_w_1) + world_scale(body2, E_w_2));
  double lower = 0;
  if (body2.is_analytic()) {
    lower = support_of(body2, E_w_2, body1, E_w_1).distance - body1.bound();
  } else if (body1.is_analytic()) {
    lower = support_of(body1, E_w_1, body2, E_w_2).distance - body2.bound();
  } else {
    // First to a factor of two (abs_err infinite: lower = d / 2), which prunes
    // early for bodies far apart (conservative advancement then moves them at
    // least half-way); where d / 2 is below twice the bounds' sum (within
    // four of contact), again to the bounds' sum.
    const double bounds = body1.bound() + body2.bound();
    lower = polyhedral_lower_bound(body1, E_w_1, body2, E_w_2, std::numeric_limits<double>::infinity());
    if (lower < 2 * bounds) lower = polyhedral_lower_bound(body1, E_w_1, body2, E_w_2, bounds);
    lower -= bounds;
  }
  return T(std::max(0.0, lower - roundoff));
}

#define CONTACTREF_INSTANTIATE(T)                                                                                        \
  template class SurfaceHierarchy<T>;                                                                                    \
  template std::optional<SurfaceClosestPoints<T>> closest_points<T>(                                                     \
      const SurfaceHierarchy<T>&, const Mat4<T>&, const SurfaceHierarchy<T>&, const Mat4<T>&, const T&,                  \
      ProximityCache<T>*);                                                                                               \
  template T distance_lower_bound<T>(const SurfaceHierarchy<T>&, const Mat4<T>&, const SurfaceHierarchy<T>&,             \
                                     const Mat4<T>&);                                                                    \
  template SurfaceClosestPoints<T> newton_closest_points<T>(const SurfaceHierarchy<T>&, const Mat4<T>&, int,             \
                                                            const Vec2<T>&, const SurfaceHierarchy<T>&, const Mat4<T>&,  \
                                                            int, const Vec2<T>&, std::vector<T>*);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
