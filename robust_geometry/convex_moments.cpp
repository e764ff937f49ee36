// Two convex polyhedra's intersection moments by half-space clipping, in
// double; the algorithm and its predicates are in convex_moments.hpp.
#include "robust_geometry/convex_moments.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <numeric>

#include <Eigen/Geometry>

#include "core/errors.hpp"
#include "robust_geometry/convexity.hpp"
#include "robust_geometry/moment_sums.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Vector3d;

// A face of Omega: its corners loops[begin, begin + size), its outward unit
// normal, whether it lies on one of B's planes (a face of B, or a section by
// one of B's planes) and whether it is flush with a plane of the other solid.
struct Face {
  int begin = 0, size = 0;
  Vector3d normal = Vector3d::Zero();
  bool from_b = false;
  bool flush = false;
};

// A convex polytope in coordinates y relative to o.
struct Polytope {
  std::vector<Vector3d> points;
  std::vector<int> loops;
  std::vector<Face> faces;

  void clear() {
    points.clear();
    loops.clear();
    faces.clear();
  }
};

enum class Clip { kKept, kCut, kEmpty, kThin, kUndecided };

// Where a corner lies against a plane: inside, in the band, outside.
enum Side : signed char { kIn = -1, kOn = 0, kOut = 1 };

class Clipper {
 public:
  explicit Clipper(double tau) : tau_(tau) {}

  // p ∩ {n · y <= d} into p (n unit, a face plane of B if from_b, else of A).
  Clip clip(Polytope& p, const Vector3d& n, double d, bool from_b) {
    const std::size_t count = p.points.size();
    s_.resize(count);
    double s_min = std::numeric_limits<double>::infinity(), s_max = -s_min;
    for (std::size_t i = 0; i < count; ++i) {
      s_[i] = n.dot(p.points[i]) - d;
      s_min = std::min(s_min, s_[i]);
      s_max = std::max(s_max, s_[i]);
    }
    if (s_min > tau_) return Clip::kEmpty;
    if (s_max <= tau_) {  // nothing outside: mark the other solid's faces flush with the plane
      if (s_max >= -tau_)
        for (Face& f : p.faces)
          if (f.from_b != from_b && f.normal.dot(n) > 0 && all_on(p, f)) f.flush = true;
      return Clip::kKept;
    }
    if (s_min >= -tau_) return Clip::kThin;  // nothing inside: Omega within the band

    side_.resize(count);
    for (std::size_t i = 0; i < count; ++i) side_[i] = s_[i] > tau_ ? kOut : (s_[i] < -tau_ ? kIn : kOn);
    next_.clear();
    index_.assign(count, -1);
    const auto keep = [&](int i) {
      int& k = index_[std::size_t(i)];
      if (k < 0) {
        k = int(next_.points.size());
        next_.points.push_back(p.points[std::size_t(i)]);
      }
      return k;
    };
    section_.clear();
    bool coincident = false;  // a face of Omega already lies on the plane
    for (const Face& f : p.faces) {
      Face g = f;
      g.begin = int(next_.loops.size());
      bool on_plane = true;
      for (int k = 0; k < f.size; ++k) {
        const int i = p.loops[std::size_t(f.begin + k)], j = p.loops[std::size_t(f.begin + (k + 1) % f.size)];
        const Side si = side_[std::size_t(i)], sj = side_[std::size_t(j)];
        on_plane = on_plane && si == kOn;
        if (si != kOut) next_.loops.push_back(keep(i));
        if (si * sj == -1) {  // one inside, one outside: the cut, from the inside end
          const int in = si == kIn ? i : j, out = si == kIn ? j : i;
          const double t = s_[std::size_t(in)] / (s_[std::size_t(in)] - s_[std::size_t(out)]);
          const Vector3d& y_in = p.points[std::size_t(in)];
          next_.loops.push_back(int(next_.points.size()));
          if (si == kIn) section_.push_back(int(next_.points.size()));  // once per cut edge
          next_.points.push_back(y_in + t * (p.points[std::size_t(out)] - y_in));
        }
      }
      g.size = int(next_.loops.size()) - g.begin;
      if (g.size < 3) {
        next_.loops.resize(std::size_t(g.begin));
        continue;
      }
      if (on_plane) {
        if (g.normal.dot(n) < 0) return Clip::kUndecided;  // a face on the plane, facing it
        coincident = true;
        if (g.from_b != from_b) g.flush = true;
      }
      next_.faces.push_back(g);
    }
    for (std::size_t i = 0; i < count; ++i)
      if (side_[i] == kOn) section_.push_back(keep(int(i)));
    if (!coincident && section_.size() >= 3) add_section(n, from_b);
    std::swap(p, next_);
    return Clip::kCut;
  }

 private:
  bool all_on(const Polytope& p, const Face& f) const {
    for (int k = 0; k < f.size; ++k)
      if (std::abs(s_[std::size_t(p.loops[std::size_t(f.begin + k)])]) > tau_) return false;
    return true;
  }

  // The section's corners (section_, in next_) ordered counter-clockwise
  // about n: the face that the plane adds.
  void add_section(const Vector3d& n, bool from_b) {
    Vector3d centre = Vector3d::Zero();
    for (int i : section_) centre += next_.points[std::size_t(i)];
    centre /= double(section_.size());
    const Vector3d u = n.unitOrthogonal(), v = n.cross(u);
    angle_.resize(section_.size());
    for (std::size_t k = 0; k < section_.size(); ++k) {
      const Vector3d r = next_.points[std::size_t(section_[k])] - centre;
      angle_[k] = std::atan2(r.dot(v), r.dot(u));
    }
    order_.resize(section_.size());
    std::iota(order_.begin(), order_.end(), std::size_t(0));
    std::sort(order_.begin(), order_.end(), [&](std::size_t x, std::size_t y) { return angle_[x] < angle_[y]; });
    Face g;
    g.begin = int(next_.loops.size());
    g.size = int(section_.size());
    g.normal = n;
    g.from_b = from_b;
    for (std::size_t k : order_) next_.loops.push_back(section_[k]);
    next_.faces.push_back(g);
  }

  double tau_;
  std::vector<double> s_;
  std::vector<Side> side_;
  std::vector<int> index_, section_;
  std::vector<double> angle_;
  std::vector<std::size_t> order_;
  Polytope next_;
};

// The solids touch, or overlap by no more than the band resolves.
IntersectionMoments touching() {
  IntersectionMoments m;
  m.kind = IntersectionKind::kTouching;
  return m;
}

}  // namespace

ConvexPolyhedron::ConvexPolyhedron(const Polyhedron& polyhedron)
    : ConvexPolyhedron(is_convex(polyhedron) ? polyhedron
                                             : throw InputError("\"" + polyhedron.name() +
                                                                "\": the polyhedron is not convex (a reflex edge "
                                                                "or face corner)"),
                       Convex{}) {}

std::optional<ConvexPolyhedron> ConvexPolyhedron::if_convex(const Polyhedron& polyhedron) {
  if (!is_convex(polyhedron)) return std::nullopt;
  return ConvexPolyhedron(polyhedron, Convex{});
}

ConvexPolyhedron::ConvexPolyhedron(const Polyhedron& polyhedron, Convex)
    : name_(polyhedron.name()), vertices_(polyhedron.vertices()) {
  for (int f = 0; f < polyhedron.face_count(); ++f) {
    face_begin_.push_back(int(loops_.size()));
    const std::vector<int>& face = polyhedron.face(f);
    loops_.insert(loops_.end(), face.begin(), face.end());
    planes_.push_back(polyhedron.plane(f));
  }
  face_begin_.push_back(int(loops_.size()));
}

std::optional<IntersectionMoments> convex_intersection_moments(const ConvexPolyhedron& a, const ConvexPolyhedron& b,
                                                               const RigidPose<double>& pose_b, bool keep_vertices) {
  const Eigen::Matrix4d& E = pose_b.matrix();
  const Eigen::Matrix3d R = E.topLeftCorner<3, 3>();
  const Vector3d t = E.topRightCorner<3, 1>();
  std::vector<Vector3d> b_in_a;  // B's corners in A's frame
  b_in_a.reserve(b.vertices().size());
  for (const Vector3d& x : b.vertices()) b_in_a.push_back(R * x + t);
  // o: the centre of the overlap of the bounding boxes (A's frame).
  Eigen::AlignedBox3d box_a, box_b;
  for (const Vector3d& x : a.vertices()) box_a.extend(x);
  for (const Vector3d& x : b_in_a) box_b.extend(x);
  const Eigen::AlignedBox3d overlap = box_a.intersection(box_b);
  const Vector3d o = overlap.isEmpty() ? Vector3d((box_a.center() + box_b.center()) / 2) : overlap.center();
  double extent = 0;
  for (const std::vector<Vector3d>* corners : std::initializer_list<const std::vector<Vector3d>*>{&a.vertices(), &b_in_a})
    for (const Vector3d& x : *corners) extent = std::max(extent, (x - o).cwiseAbs().maxCoeff());
  const double tau = 32 * std::numeric_limits<double>::epsilon() * std::sqrt(3.0) * extent;

  // Omega starts as the solid with more corners and is cut by the other's
  // planes: O(planes of one x corners of the other) either way round, and the
  // polytope being cut stays as small as it can.
  const bool start_b = b.vertices().size() > a.vertices().size();
  const ConvexPolyhedron &start = start_b ? b : a, &cutter = start_b ? a : b;
  // A normal of one solid's face in A's frame.
  const auto to_a = [&](const Vector3d& n_own, bool own_b) -> Vector3d { return own_b ? Vector3d(R * n_own) : n_own; };
  Polytope omega;
  for (const Vector3d& x : start_b ? b_in_a : a.vertices()) omega.points.push_back(x - o);
  omega.loops = start.loops();
  for (int f = 0; f < start.face_count(); ++f) {
    Face face;
    face.begin = start.face_begin(f);
    face.size = start.face_begin(f + 1) - face.begin;
    face.normal = to_a(start.plane(f).normal, start_b);
    face.from_b = start_b;
    omega.faces.push_back(face);
  }
  Clipper clipper(tau);
  for (int j = 0; j < cutter.face_count(); ++j) {
    const Vector3d n = to_a(cutter.plane(j).normal, !start_b);
    const double d = cutter.plane(j).offset + (start_b ? -n.dot(o) : n.dot(t - o));
    switch (clipper.clip(omega, n, d, !start_b)) {
      case Clip::kEmpty: return IntersectionMoments();  // kDisjoint
      case Clip::kThin: return touching();
      case Clip::kUndecided: return std::nullopt;
      case Clip::kKept:
      case Clip::kCut: break;
    }
  }

  detail::PairwiseMomentSums pieces;
  detail::MomentSums interior, flush;
  double boundary_area = 0;
  for (const Face& f : omega.faces) {
    const Vector3d& y0 = omega.points[std::size_t(omega.loops[std::size_t(f.begin)])];
    for (int k = 1; k + 1 < f.size; ++k) {
      const Vector3d& y1 = omega.points[std::size_t(omega.loops[std::size_t(f.begin + k)])];
      const Vector3d& y2 = omega.points[std::size_t(omega.loops[std::size_t(f.begin + k + 1)])];
      pieces.add_piece(y0, y1, y2);
      boundary_area += (y1 - y0).cross(y2 - y0).norm() / 2;
      // B's boundary inside A, or on A's boundary with the same normal.
      if (f.flush) flush.add_gradient(y0, y1, y2);
      else if (f.from_b) interior.add_gradient(y0, y1, y2);
    }
  }
  const detail::MomentSums total = pieces.total();
  const double volume = total.volume / 6;
  if (!(volume > 64 * tau * boundary_area)) return touching();

  IntersectionMoments result;
  result.kind = IntersectionKind::kOverlapping;
  result.boundary_triangles = pieces.pieces();
  detail::set_volume_moments(result, total, o);
  // The gradient about A's origin: ∫ x × n = ∫ y × n + o × ∫ n.
  const auto about_origin = [&](const detail::MomentSums& sums) {
    Vector6d g = sums.gradient_about_o();
    g.head<3>() += o.cross(g.tail<3>());
    return g;
  };
  result.gradient_interior = about_origin(interior);
  result.gradient_flush = about_origin(flush);
  result.gradient = result.gradient_interior + result.gradient_flush / 2;
  if (keep_vertices)
    for (const Vector3d& y : omega.points) result.vertices.push_back(o + y);
  return result;
}

}  // namespace contactref::robust_geometry
