// Intersection volumes and moments (Bouchard et al., Section 4 and Appendix A,
// Eqs. 14-20) through CGAL's corefinement over exact constructions. The
// definitions and conventions are in intersection_volume.hpp; the Nef oracle
// is in intersection_volume_nef.cpp.
#include "robust_geometry/intersection_volume.hpp"

#include "robust_geometry/coordinate_range.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/Eigenvalues>

#include <CGAL/AABB_face_graph_triangle_primitive.h>
#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/corefinement.h>
#include <CGAL/Polygon_mesh_processing/intersection.h>
#include <CGAL/Polygon_mesh_processing/orientation.h>
#include <CGAL/Polygon_mesh_processing/polygon_soup_to_polygon_mesh.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>
#include <CGAL/Side_of_triangle_mesh.h>

#include "robust_geometry/intersection_volume_detail.hpp"

namespace contactref::robust_geometry {

namespace PMP = CGAL::Polygon_mesh_processing;

const char* to_string(IntersectionKind kind) {
  switch (kind) {
    case IntersectionKind::kDisjoint: return "disjoint";
    case IntersectionKind::kTouching: return "touching";
    case IntersectionKind::kOverlapping: return "overlapping";
  }
  return "unknown";
}

namespace {

using Index = std::size_t;

std::string format_point(const Eigen::Vector3d& p) {
  std::ostringstream out;
  out.precision(17);
  out << "(" << p.x() << ", " << p.y() << ", " << p.z() << ")";
  return out.str();
}

[[noreturn]] void bad_input(const std::string& name, const std::string& what) {
  throw InputError(name + ": " + what);
}

// The triangles as a soup of size_t indices, checked for range and repeats.
std::vector<std::array<Index, 3>> checked_triangles(const TriangleSolid& solid, const std::string& name) {
  std::vector<std::array<Index, 3>> triangles;
  triangles.reserve(solid.triangles.size());
  for (Index t = 0; t < solid.triangles.size(); ++t) {
    const std::array<int, 3>& tri = solid.triangles[t];
    std::array<Index, 3> indices{};
    for (Index k = 0; k < 3; ++k) {
      if (tri[k] < 0 || Index(tri[k]) >= solid.vertices.size()) {
        bad_input(name, "triangle " + std::to_string(t) + " has vertex index " + std::to_string(tri[k]) +
                            " out of range [0, " + std::to_string(solid.vertices.size()) + ")");
      }
      indices[k] = Index(tri[k]);
    }
    if (indices[0] == indices[1] || indices[1] == indices[2] || indices[0] == indices[2]) {
      bad_input(name, "triangle " + std::to_string(t) + " repeats a vertex (" + std::to_string(tri[0]) + ", " +
                          std::to_string(tri[1]) + ", " + std::to_string(tri[2]) + ")");
    }
    triangles.push_back(indices);
  }
  return triangles;
}

// Closed, consistently oriented, manifold: every directed edge once, with its
// opposite, and the triangles around every vertex one fan. (Sorted arrays:
// this runs on every call, on meshes of 10^5 triangles and more.)
void check_combinatorics(const std::vector<std::array<Index, 3>>& triangles, const std::string& name) {
  struct Directed {
    Index from, to, triangle;
    bool operator<(const Directed& o) const { return from != o.from ? from < o.from : to < o.to; }
  };
  std::vector<Directed> edges;
  edges.reserve(3 * triangles.size());
  for (Index t = 0; t < triangles.size(); ++t) {
    for (Index k = 0; k < 3; ++k) edges.push_back({triangles[t][k], triangles[t][(k + 1) % 3], t});
  }
  std::sort(edges.begin(), edges.end());
  for (Index i = 1; i < edges.size(); ++i) {
    if (edges[i - 1].from == edges[i].from && edges[i - 1].to == edges[i].to) {
      bad_input(name, "edge (" + std::to_string(edges[i].from) + ", " + std::to_string(edges[i].to) +
                          ") is traversed in the same direction by triangles " +
                          std::to_string(std::min(edges[i - 1].triangle, edges[i].triangle)) + " and " +
                          std::to_string(std::max(edges[i - 1].triangle, edges[i].triangle)) +
                          " (inconsistent orientation, or an edge with more than two triangles)");
    }
  }
  const auto find = [&](Index from, Index to) {
    const auto it = std::lower_bound(edges.begin(), edges.end(), Directed{from, to, 0});
    return it != edges.end() && it->from == from && it->to == to ? it : edges.end();
  };
  for (const Directed& e : edges) {
    if (find(e.to, e.from) == edges.end()) {
      bad_input(name, "the mesh is not closed: edge (" + std::to_string(e.from) + ", " + std::to_string(e.to) +
                          ") of triangle " + std::to_string(e.triangle) + " has no triangle on its other side");
    }
  }
  // Around vertex v, the triangle (v, a, b) of each edge v -> a links a to b;
  // the links must form a single cycle (one fan).
  for (Index first = 0; first < edges.size();) {
    Index last = first;
    while (last < edges.size() && edges[last].from == edges[first].from) ++last;
    const Index v = edges[first].from;
    const auto third = [&](const Directed& e) {
      const std::array<Index, 3>& t = triangles[e.triangle];
      return t[0] != v && t[0] != e.to ? t[0] : (t[1] != v && t[1] != e.to ? t[1] : t[2]);
    };
    const Index start = edges[first].to;
    Index a = start, steps = 0;
    do {
      const auto it = std::lower_bound(edges.begin() + std::ptrdiff_t(first), edges.begin() + std::ptrdiff_t(last),
                                       Directed{v, a, 0});
      if (it == edges.begin() + std::ptrdiff_t(last) || it->to != a) break;
      a = third(*it);
      ++steps;
    } while (a != start && steps <= last - first);
    if (a != start || steps != last - first) {
      bad_input(name, "vertex " + std::to_string(v) +
                          " is non-manifold (its triangles form more than one fan around it)");
    }
    first = last;
  }
}

}  // namespace

void validate_triangle_solid(const TriangleSolid& solid, const std::string& name) {
  using Epick = CGAL::Epick;
  using EpickMesh = CGAL::Surface_mesh<Epick::Point_3>;
  if (solid.triangles.empty()) bad_input(name, "the mesh has no triangles");
  for (Index v = 0; v < solid.vertices.size(); ++v) {
    if (!solid.vertices[v].allFinite()) {
      bad_input(name, "vertex " + std::to_string(v) + " has a non-finite coordinate " +
                          format_point(solid.vertices[v]));
    }
    for (int k = 0; k < 3; ++k)
      if (!supported_coordinate(solid.vertices[v](k)))
        bad_input(name, "vertex " + std::to_string(v) + " " + format_point(solid.vertices[v]) +
                            " has a coordinate outside the supported magnitudes " + kSupportedMagnitudes +
                            "; rescale the model");
  }
  const std::vector<std::array<Index, 3>> triangles = checked_triangles(solid, name);
  std::vector<Epick::Point_3> points;
  points.reserve(solid.vertices.size());
  for (const Eigen::Vector3d& p : solid.vertices) points.emplace_back(p.x(), p.y(), p.z());
  for (Index t = 0; t < triangles.size(); ++t) {
    if (CGAL::collinear(points[triangles[t][0]], points[triangles[t][1]], points[triangles[t][2]])) {
      bad_input(name, "triangle " + std::to_string(t) + " is degenerate (its three vertices are collinear)");
    }
  }
  // With these checks the soup is a closed oriented 2-manifold (what CGAL's
  // is_polygon_soup_a_polygon_mesh would check, at a third of the cost).
  check_combinatorics(triangles, name);
  // Exact predicates on the input doubles (Epick): no tolerance involved.
  EpickMesh mesh;
  PMP::polygon_soup_to_polygon_mesh(points, triangles, mesh);
  if (mesh.number_of_faces() != triangles.size()) throw InternalError(name + ": the mesh lost triangles");
  if (!CGAL::is_closed(mesh)) bad_input(name, "the mesh is not closed");
  std::vector<std::pair<EpickMesh::Face_index, EpickMesh::Face_index>> pairs;
  PMP::self_intersections(mesh, std::back_inserter(pairs));
  if (!pairs.empty()) {
    // polygon_soup_to_polygon_mesh adds the faces in the order of the soup.
    bad_input(name, "triangles " + std::to_string(std::min(pairs.front().first.idx(), pairs.front().second.idx())) +
                        " and " +
                        std::to_string(std::max(pairs.front().first.idx(), pairs.front().second.idx())) +
                        " intersect (self-intersecting surface; " + std::to_string(pairs.size()) +
                        " intersecting pairs in all)");
  }
  // does_bound_a_volume checks that nested components are oriented
  // consistently (it accepts a surface turned inside out); is_outward_oriented
  // then tests the outermost one.
  if (!PMP::does_bound_a_volume(mesh) || !PMP::is_outward_oriented(mesh)) {
    bad_input(name, "the surface does not bound a volume (faces clockwise seen from outside, i.e. inward "
                    "normals, or nested components oriented inconsistently)");
  }
}

namespace detail {

Mesh to_exact_mesh(const TriangleSolid& solid, const RigidPose<double>* pose) {
  std::vector<Point> points;
  points.reserve(solid.vertices.size());
  if (pose == nullptr) {
    for (const Eigen::Vector3d& x : solid.vertices) points.emplace_back(x.x(), x.y(), x.z());
  } else {
    // R x + t in exact arithmetic from the double entries as given (a sum of
    // products of doubles: a dyadic rational), stored as the points' exact
    // values. (A lazy Aff_transformation_3 was measured slower: the integrals
    // need the exact values of most points anyway.)
    const Eigen::Matrix4d& E = pose->matrix();
    for (const Eigen::Vector3d& x : solid.vertices) {
      std::array<Kernel::FT, 3> y;
      for (Eigen::Index i = 0; i < 3; ++i) {
        ExactFT sum(E(i, 3));
        for (Eigen::Index j = 0; j < 3; ++j) sum += ExactFT(E(i, j)) * ExactFT(x(j));
        y[Index(i)] = Kernel::FT(sum);
      }
      points.emplace_back(y[0], y[1], y[2]);
    }
  }
  std::vector<std::array<Index, 3>> triangles;
  triangles.reserve(solid.triangles.size());
  for (const auto& t : solid.triangles) triangles.push_back({Index(t[0]), Index(t[1]), Index(t[2])});
  Mesh mesh;
  PMP::polygon_soup_to_polygon_mesh(points, triangles, mesh);
  return mesh;
}

double round_nearest(const ExactFT& x) {
  const std::pair<double, double> interval = CGAL::to_interval(x);
  double lo = interval.first;
  double hi = interval.second;
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    throw ComputationError("intersection moments: an exact result does not fit in a double");
  }
  if (lo == hi) return lo;  // x is a double
  // CGAL's interval of a GMP rational is the tightest one (two adjacent
  // doubles); should it be wider, walk it down to two adjacent doubles.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (int step = 0; std::nextafter(lo, kInf) != hi; ++step) {
    check_invariant(step <= 64, "intersection moments: to_interval is not tight");
    const double up = std::nextafter(lo, kInf);
    if (ExactFT(up) <= x) {
      lo = up;
    } else {
      hi = up;
    }
  }
  const ExactFT mid = (ExactFT(lo) + ExactFT(hi)) / 2;
  if (x < mid) return lo;
  if (x > mid) return hi;
  return (std::bit_cast<std::uint64_t>(lo) & 1U) == 0 ? lo : hi;  // a tie: the even one
}

void ExactSum::add(ExactFT x) {
  partial_.emplace_back(std::move(x), 0);
  while (partial_.size() >= 2 && partial_[partial_.size() - 1].second == partial_[partial_.size() - 2].second) {
    auto top = std::move(partial_.back());
    partial_.pop_back();
    partial_.back().first += top.first;
    ++partial_.back().second;
  }
}

ExactFT ExactSum::total() const {
  ExactFT sum(0);
  for (auto it = partial_.rbegin(); it != partial_.rend(); ++it) sum += it->first;
  return sum;
}

namespace {

using ExactVector = std::array<ExactFT, 3>;

ExactVector coordinates(const ExactPoint& p) { return {p.x(), p.y(), p.z()}; }

template <class N>
std::array<N, 3> cross(const std::array<N, 3>& a, const std::array<N, 3>& b) {
  return {N(a[1] * b[2] - a[2] * b[1]), N(a[2] * b[0] - a[0] * b[2]), N(a[0] * b[1] - a[1] * b[0])};
}

constexpr std::array<std::array<Index, 2>, 6> kPairs{{{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}}};

// The per-triangle polynomials of MomentAccumulator, in any exact ring N
// (rationals for the rational evaluation, integers for the certified one):
//   d, d s (3), d (Σ p p^T + s s^T) (6 in kPairs order).
template <class N>
void boundary_terms(const std::array<N, 3>& p0, const std::array<N, 3>& p1, const std::array<N, 3>& p2, N& d,
                    std::array<N, 3>& ds, std::array<N, 6>& dss) {
  const std::array<N, 3> p1xp2 = cross(p1, p2);
  d = p0[0] * p1xp2[0] + p0[1] * p1xp2[1] + p0[2] * p1xp2[2];
  const std::array<N, 3> s{N(p0[0] + p1[0] + p2[0]), N(p0[1] + p1[1] + p2[1]), N(p0[2] + p1[2] + p2[2])};
  for (Index i = 0; i < 3; ++i) ds[i] = d * s[i];
  for (Index k = 0; k < kPairs.size(); ++k) {
    const Index i = kPairs[k][0], j = kPairs[k][1];
    dss[k] = d * (p0[i] * p0[j] + p1[i] * p1[j] + p2[i] * p2[j] + s[i] * s[j]);
  }
}

//   n2 = (p1 - p0) × (p2 - p0) (twice the vector area), s × n2.
template <class N>
void gradient_terms(const std::array<N, 3>& p0, const std::array<N, 3>& p1, const std::array<N, 3>& p2,
                    std::array<N, 3>& n2, std::array<N, 3>& sxn2) {
  const std::array<N, 3> e1{N(p1[0] - p0[0]), N(p1[1] - p0[1]), N(p1[2] - p0[2])};
  const std::array<N, 3> e2{N(p2[0] - p0[0]), N(p2[1] - p0[1]), N(p2[2] - p0[2])};
  n2 = cross(e1, e2);
  const std::array<N, 3> s{N(p0[0] + p1[0] + p2[0]), N(p0[1] + p1[1] + p2[1]), N(p0[2] + p1[2] + p2[2])};
  sxn2 = cross(s, n2);
}

// A closed interval with exact rational ends.
struct Interval {
  ExactFT lo, hi;
};
Interval operator+(const Interval& a, const Interval& b) { return {a.lo + b.lo, a.hi + b.hi}; }
Interval operator-(const Interval& a, const Interval& b) { return {a.lo - b.hi, a.hi - b.lo}; }
Interval operator*(const Interval& a, const Interval& b) {
  const std::array<ExactFT, 4> p{a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {*std::min_element(p.begin(), p.end()), *std::max_element(p.begin(), p.end())};
}
Interval operator*(const ExactFT& c, const Interval& a) {
  return CGAL::is_negative(c) ? Interval{c * a.hi, c * a.lo} : Interval{c * a.lo, c * a.hi};
}
// Division by an interval of positive numbers.
Interval operator/(const Interval& a, const Interval& b) {
  const std::array<ExactFT, 4> q{a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
  return {*std::min_element(q.begin(), q.end()), *std::max_element(q.begin(), q.end())};
}

// The double every number of the interval rounds to, or false.
bool rounds_to(const Interval& x, double& out) {
  const double lo = round_nearest(x.lo);
  if (round_nearest(x.hi) != lo) return false;
  out = lo;
  return true;
}

}  // namespace

void MomentAccumulator::add_boundary_triangle(const ExactPoint& p0, const ExactPoint& p1, const ExactPoint& p2) {
  boundary_.push_back({&p0, &p1, &p2});
}

void MomentAccumulator::add_gradient_triangle(GradientPart part, const ExactPoint& p0, const ExactPoint& p1,
                                              const ExactPoint& p2) {
  gradient_[Index(part)].push_back({&p0, &p1, &p2});
}

IntersectionMoments MomentAccumulator::finish(bool solids_meet, bool rational_only) const {
  IntersectionMoments result;
  result.boundary_triangles = boundary_.size();
  if (rational_only || !finish_certified(result)) {
    result = IntersectionMoments();
    result.boundary_triangles = boundary_.size();
    result.rational_evaluation = true;
    finish_rational(result);
  }
  if (result.kind != IntersectionKind::kOverlapping) {
    result.kind = solids_meet ? IntersectionKind::kTouching : IntersectionKind::kDisjoint;
    result.boundary_triangles = 0;
    return result;
  }
  fill_principal_shape(result);
  return result;
}

// The rational evaluation: every polynomial in GMP rationals, summed pairwise.
// Sets kind to kOverlapping when V > 0 (the caller decides the other kinds).
void MomentAccumulator::finish_rational(IntersectionMoments& result) const {
  ExactSum d_sum;
  std::array<ExactSum, 3> ds_sum;
  std::array<ExactSum, 6> dss_sum;
  ExactFT d;
  std::array<ExactFT, 3> ds;
  std::array<ExactFT, 6> dss;
  for (const Triangle& t : boundary_) {
    boundary_terms(coordinates(*t[0]), coordinates(*t[1]), coordinates(*t[2]), d, ds, dss);
    if (CGAL::is_zero(d)) continue;  // a triangle in a plane through the origin adds nothing
    d_sum.add(d);
    for (Index i = 0; i < 3; ++i) ds_sum[i].add(ds[i]);
    for (Index k = 0; k < 6; ++k) dss_sum[k].add(dss[k]);
  }
  // Gradient per part: angular Σ s × n2 / 6, linear Σ n2 / 2.
  std::array<std::array<ExactFT, 6>, 3> parts;
  for (Index part = 0; part < 3; ++part) {
    std::array<ExactSum, 6> sums;
    std::array<ExactFT, 3> n2, sxn2;
    for (const Triangle& t : gradient_[part]) {
      gradient_terms(coordinates(*t[0]), coordinates(*t[1]), coordinates(*t[2]), n2, sxn2);
      for (Index i = 0; i < 3; ++i) {
        sums[i].add(sxn2[i]);
        sums[3 + i].add(n2[i]);
      }
    }
    for (Index i = 0; i < 3; ++i) {
      parts[part][i] = sums[i].total() / 6;
      parts[part][3 + i] = sums[3 + i].total() / 2;
    }
  }
  for (Eigen::Index i = 0; i < 6; ++i) {
    const Index k = Index(i);
    result.gradient_interior(i) = round_nearest(parts[0][k]);
    result.gradient_touching(i) = round_nearest(parts[1][k]);
    result.gradient_flush(i) = round_nearest(parts[2][k]);
    result.gradient(i) = round_nearest(parts[0][k] + (parts[1][k] + parts[2][k]) / 2);
  }

  const ExactFT volume = d_sum.total() / 6;  // Eq. 14
  check_invariant(!CGAL::is_negative(volume), "intersection moments: the exact volume is negative (an orientation error)");
  if (CGAL::is_zero(volume)) return;
  result.kind = IntersectionKind::kOverlapping;
  result.volume = round_nearest(volume);
  // Eq. 15: c = ∫ r / V with ∫ r = Σ d s / 24.
  std::array<ExactFT, 3> c;
  for (Index i = 0; i < 3; ++i) {
    c[i] = ds_sum[i].total() / 24 / volume;
    result.centroid(Eigen::Index(i)) = round_nearest(c[i]);
  }
  // C = ∫ r r^T - V c c^T with ∫ r r^T = Σ d (Σ p p^T + s s^T) / 120;
  // Eq. 16: M = tr(C) I - C.
  std::array<ExactFT, 6> C;
  for (Index k = 0; k < kPairs.size(); ++k) {
    const Index i = kPairs[k][0], j = kPairs[k][1];
    C[k] = dss_sum[k].total() / 120 - volume * c[i] * c[j];
  }
  for (Index k = 0; k < kPairs.size(); ++k) {
    const Eigen::Index i = Eigen::Index(kPairs[k][0]), j = Eigen::Index(kPairs[k][1]);
    // M_ii = C_jj + C_kk, M_ij = -C_ij.
    const ExactFT M = i == j ? ExactFT(C[0] + C[1] + C[2] - C[k]) : ExactFT(-C[k]);
    result.covariance(i, j) = result.covariance(j, i) = round_nearest(C[k]);
    result.second_moment(i, j) = result.second_moment(j, i) = round_nearest(M);
  }
}

// The certified evaluation.
//
// Fixed point: o is a double near the centre of all the triangles' points,
// and each coordinate x becomes the integer X = round((x - o) 2^k), so that
// |X - x̂| <= 1/2 with x̂ = (x - o) 2^k exactly, and |X| <= U. k puts U near
// 2^192. Every polynomial above is then evaluated exactly in integers. A
// polynomial of degree m with q monomials (coefficients ±1, after expansion)
// changes under these roundings by at most
//   q ((U + 1/2)^m - U^m) <= q m (U + 1/2)^(m-1) / 2 <= q m (U + 1)^(m-1) / 2:
//   d:                      q = 6,  m = 3  ->   9 (U+1)^2
//   d s_i:                  q = 18, m = 4  ->  36 (U+1)^3
//   d (Σ p p^T + s s^T)_ij: q = 72, m = 5  -> 180 (U+1)^4
//   n2_i:                   q = 6,  m = 2  ->   6 (U+1)
//   (s × n2)_i:             q = 36, m = 3  ->  54 (U+1)^2
// and a sum over T triangles by T times that: an exact integer bound B, so
// the exact scaled sum lies in [Σ - B, Σ + B]. The quotients (c, C, M) and
// the shift back to the origin (c = o + c', ∫ x × n = ∫ x' × n + o × ∫ n; V
// and C do not change under the shift) are then evaluated in interval
// arithmetic with rational ends, and each result is accepted only if both
// ends round to the same double: it is then the exact value rounded to
// nearest. With 192 bits the intervals are narrower than 1e-40 relative
// unless the intersection is extremely thin against its extent, so the
// rational fallback is for the rare value that lies nearly on a rounding
// boundary (e.g. an exactly representable one: a volume of exactly 1).
bool MomentAccumulator::finish_certified(IntersectionMoments& result) const {
  using Int = CGAL::Fraction_traits<ExactFT>::Numerator_type;
  using Decompose = CGAL::Fraction_traits<ExactFT>::Decompose;
  constexpr int kBits = 192;

  // Unique points (the triangles of a mesh share them, by address).
  std::unordered_map<const ExactPoint*, Index> index;
  std::vector<const ExactPoint*> points;
  const auto collect = [&](const std::vector<Triangle>& triangles) {
    for (const Triangle& t : triangles)
      for (const ExactPoint* p : t)
        if (index.emplace(p, points.size()).second) points.push_back(p);
  };
  collect(boundary_);
  for (const auto& part : gradient_) collect(part);
  if (points.empty()) return true;  // nothing: V = 0, gradient 0

  // The centre o (doubles, so dyadic) and the extent L (only to choose k).
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector3d hi = -lo;
  for (const ExactPoint* p : points) {
    for (Eigen::Index i = 0; i < 3; ++i) {
      const std::pair<double, double> x = CGAL::to_interval(p->cartesian(int(i)));
      lo(i) = std::min(lo(i), x.first);
      hi(i) = std::max(hi(i), x.second);
    }
  }
  const Eigen::Vector3d o = lo + (hi - lo) / 2;
  if (!o.allFinite()) return false;
  const double extent = std::max((hi - o).cwiseAbs().maxCoeff(), (o - lo).cwiseAbs().maxCoeff());
  const int k = kBits - (extent > 0 ? std::ilogb(extent) : 0) - 1;
  const Int two_k = CGAL::ipower(Int(2), std::abs(k));  // 2^|k|

  // X = round((x - o) 2^k), from x = n / den and o = on / od without any gcd:
  // (x - o) 2^k = (n od - on den) 2^k / (den od).
  std::array<Int, 3> o_num, o_den;
  for (Index i = 0; i < 3; ++i) Decompose()(ExactFT(o(Eigen::Index(i))), o_num[i], o_den[i]);
  std::vector<std::array<Int, 3>> fixed(points.size());
  Int U(0);
  for (Index v = 0; v < points.size(); ++v) {
    for (Index i = 0; i < 3; ++i) {
      Int n, den;
      Decompose()(points[v]->cartesian(int(i)), n, den);
      Int num = n * o_den[i] - o_num[i] * den;
      den *= o_den[i];
      if (k >= 0) {
        num *= two_k;
      } else {
        den *= two_k;
      }
      // Nearest integer (ties away from zero): sign(num) floor((2|num| + den) / (2 den)).
      const bool negative = CGAL::is_negative(num);
      Int q = CGAL::div(Int(2 * CGAL::abs(num) + den), Int(2 * den));
      if (negative) q = -q;
      if (CGAL::abs(q) > U) U = CGAL::abs(q);
      fixed[v][i] = std::move(q);
    }
  }
  const auto at = [&](const ExactPoint* p) -> const std::array<Int, 3>& { return fixed[index.at(p)]; };

  // Exact integer sums.
  Int d_sum(0);
  std::array<Int, 3> ds_sum{Int(0), Int(0), Int(0)};
  std::array<Int, 6> dss_sum{Int(0), Int(0), Int(0), Int(0), Int(0), Int(0)};
  {
    Int d;
    std::array<Int, 3> ds;
    std::array<Int, 6> dss;
    for (const Triangle& t : boundary_) {
      boundary_terms(at(t[0]), at(t[1]), at(t[2]), d, ds, dss);
      d_sum += d;
      for (Index i = 0; i < 3; ++i) ds_sum[i] += ds[i];
      for (Index j = 0; j < 6; ++j) dss_sum[j] += dss[j];
    }
  }
  std::array<std::array<Int, 6>, 3> gradient_sum;  // per part: Σ s × n2 (3), Σ n2 (3)
  for (Index part = 0; part < 3; ++part) {
    gradient_sum[part].fill(Int(0));
    std::array<Int, 3> n2, sxn2;
    for (const Triangle& t : gradient_[part]) {
      gradient_terms(at(t[0]), at(t[1]), at(t[2]), n2, sxn2);
      for (Index i = 0; i < 3; ++i) {
        gradient_sum[part][i] += sxn2[i];
        gradient_sum[part][3 + i] += n2[i];
      }
    }
  }

  // The error bounds (integers, see above).
  const Int u1 = U + 1;
  const Int T(static_cast<unsigned long>(boundary_.size()));
  const Int bound_d = 9 * T * u1 * u1;
  const Int bound_ds = 36 * T * u1 * u1 * u1;
  const Int bound_dss = 180 * T * u1 * u1 * u1 * u1;

  // Back to true units: a sum of degree m is scaled by 2^(k m).
  const ExactFT scale = k >= 0 ? ExactFT(two_k) : ExactFT(1) / ExactFT(two_k);  // 2^k
  const ExactFT scale2 = scale * scale, scale3 = scale2 * scale;
  const auto interval = [](const Int& sum, const Int& bound, const ExactFT& divisor) {
    return Interval{ExactFT(Int(sum - bound)) / divisor, ExactFT(Int(sum + bound)) / divisor};
  };

  // Gradient per part: angular Σ s × n2 / 6 (degree 3), linear Σ n2 / 2
  // (degree 2), then the shift: ∫ x × n = ∫ x' × n + o × ∫ n.
  std::array<std::array<Interval, 6>, 3> parts;
  for (Index part = 0; part < 3; ++part) {
    const Int Tp(static_cast<unsigned long>(gradient_[part].size()));
    const Int bound_n2 = 6 * Tp * u1;
    const Int bound_sxn2 = 54 * Tp * u1 * u1;
    std::array<Interval, 3> linear, angular;
    for (Index i = 0; i < 3; ++i) {
      linear[i] = interval(gradient_sum[part][3 + i], bound_n2, ExactFT(2) * scale2);
      angular[i] = interval(gradient_sum[part][i], bound_sxn2, ExactFT(6) * scale3);
    }
    for (Index i = 0; i < 3; ++i) {
      const Index j = (i + 1) % 3, l = (i + 2) % 3;
      const ExactFT oj(o(Eigen::Index(j))), ol(o(Eigen::Index(l)));
      parts[part][i] = angular[i] + (oj * linear[l] - ol * linear[j]);
      parts[part][3 + i] = linear[i];
    }
  }
  const ExactFT half(ExactFT(1) / 2);
  for (Eigen::Index i = 0; i < 6; ++i) {
    const Index m = Index(i);
    if (!rounds_to(parts[0][m], result.gradient_interior(i)) || !rounds_to(parts[1][m], result.gradient_touching(i)) ||
        !rounds_to(parts[2][m], result.gradient_flush(i)) ||
        !rounds_to(parts[0][m] + half * (parts[1][m] + parts[2][m]), result.gradient(i))) {
      return false;
    }
  }

  if (boundary_.empty()) return true;  // V = 0 exactly
  // Eq. 14: V = S0 / 6 with S0 = Σ d.
  const Interval S0 = interval(d_sum, bound_d, scale3);
  if (!CGAL::is_positive(S0.lo)) return false;  // V <= 0 or undecided: the rational evaluation decides
  result.kind = IntersectionKind::kOverlapping;
  if (!rounds_to(ExactFT(1) / 6 * S0, result.volume)) return false;
  // Eq. 15: c = o + c', c' = S1 / (4 S0) with S1 = Σ d s.
  std::array<Interval, 3> S1;
  for (Index i = 0; i < 3; ++i) {
    S1[i] = interval(ds_sum[i], bound_ds, scale3 * scale);
    const Interval c = Interval{ExactFT(o(Eigen::Index(i))), ExactFT(o(Eigen::Index(i)))} + S1[i] / (ExactFT(4) * S0);
    if (!rounds_to(c, result.centroid(Eigen::Index(i)))) return false;
  }
  // C = S2 / 120 - S1 S1^T / (96 S0) (shift-invariant); Eq. 16: M_ii = C_jj + C_ll, M_ij = -C_ij.
  std::array<Interval, 6> C;
  for (Index m = 0; m < kPairs.size(); ++m) {
    const Index i = kPairs[m][0], j = kPairs[m][1];
    const Interval S2 = interval(dss_sum[m], bound_dss, scale3 * scale2);
    C[m] = ExactFT(1) / 120 * S2 - (S1[i] * S1[j]) / (ExactFT(96) * S0);
  }
  for (Index m = 0; m < kPairs.size(); ++m) {
    const Eigen::Index i = Eigen::Index(kPairs[m][0]), j = Eigen::Index(kPairs[m][1]);
    const Interval M = i == j ? C[(m + 1) % 3] + C[(m + 2) % 3] : ExactFT(-1) * C[m];
    double c_value = 0, m_value = 0;
    if (!rounds_to(C[m], c_value) || !rounds_to(M, m_value)) return false;
    result.covariance(i, j) = result.covariance(j, i) = c_value;
    result.second_moment(i, j) = result.second_moment(j, i) = m_value;
  }
  return true;
}

}  // namespace detail

void fill_principal_shape(IntersectionMoments& result) {
  // Eq. 20 divides by V: an overlap whose volume rounds to 0 in double (a
  // positive exact volume below 2^-1074), or whose moments overflowed, has no
  // representable shape (issue 10, item 6: it gave NaN cuboid dimensions).
  if (!(result.volume > 0) || !std::isfinite(result.volume) || !result.centroid.allFinite() ||
      !result.covariance.allFinite()) {
    std::ostringstream out;
    out << "intersection moments: the overlap's volume (" << result.volume << ") or its moments are not "
        << "representable in double (they under- or overflow); rescale the solids";
    throw ComputationError(out.str());
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(result.covariance);
  if (eigen.info() != Eigen::Success) {
    throw ComputationError("intersection moments: the eigen-decomposition of the second moment failed");
  }
  Eigen::Matrix3d axes = eigen.eigenvectors();  // increasing eigenvalues
  for (Eigen::Index k = 0; k < 2; ++k) {
    Eigen::Index largest = 0;
    axes.col(k).cwiseAbs().maxCoeff(&largest);
    if (axes(largest, k) < 0) axes.col(k) = -axes.col(k);
  }
  axes.col(2) = axes.col(0).cross(axes.col(1));
  result.principal_axes = axes;
  const double trace = eigen.eigenvalues().sum();
  for (Eigen::Index k = 0; k < 3; ++k) {
    // C is positive semi-definite; a flat intersection can round an
    // eigenvalue to a tiny negative number.
    const double ck = std::max(0.0, eigen.eigenvalues()(k));
    result.principal_covariances(k) = ck;
    result.principal_moments(k) = trace - eigen.eigenvalues()(k);        // I_k = C_j + C_l (Eqs. 17-19)
    result.cuboid_dimensions(k) = std::sqrt(12.0 * ck / result.volume);  // Eq. 20
    result.ellipsoid_semi_axes(k) = std::sqrt(5.0 * ck / result.volume);  // constant 1/5
  }
}

namespace detail {

namespace {

// The triangles of a mesh face as exact points (faces are triangles).
std::array<const ExactPoint*, 3> exact_triangle(const Mesh& mesh, Mesh::Face_index f) {
  std::array<const ExactPoint*, 3> p{};
  Index k = 0;
  for (Mesh::Vertex_index v : CGAL::vertices_around_face(mesh.halfedge(f), mesh)) {
    check_invariant(k < 3, "intersection moments: a face of the intersection is not a triangle");
    p[k++] = &CGAL::exact(mesh.point(v));
  }
  check_invariant(k == 3, "intersection moments: a face of the intersection is not a triangle");
  return p;
}

// Records, for the faces of the corefinement's output, whether they were
// copied from B, and counts the coplanar face pairs CGAL meets.
struct OriginState {
  const Mesh* b = nullptr;
  std::vector<char> from_b;  // by output face index
  std::size_t coplanar_pairs = 0;
};

struct OriginVisitor : PMP::Corefinement::Default_visitor<Mesh> {
  OriginState* state = nullptr;
  explicit OriginVisitor(OriginState* s) : state(s) {}
  void after_face_copy(Mesh::Face_index /*source*/, const Mesh& source_mesh, Mesh::Face_index target,
                       Mesh& /*target_mesh*/) const {
    if (state->from_b.size() <= target.idx()) state->from_b.resize(target.idx() + 1, 0);
    state->from_b[target.idx()] = &source_mesh == state->b ? 1 : 0;
  }
  void start_handling_intersection_of_coplanar_faces(std::size_t n) const { state->coplanar_pairs += n; }
};

// Where a face of one corefined mesh lies with respect to the other solid.
enum class FaceSide { kOutside, kInside, kOnOppositeNormal, kOnSameNormal };

// Classifies each face of `mesh` (corefined with `other`) by an interior
// point, its centroid: after corefinement a face is entirely inside, outside,
// or on ∂other (its interior cannot cross ∂other, whose intersection with it
// has been inserted as edges). A centroid on ∂other lies on a coplanar face
// of `other` (located exactly through an AABB tree), whose normal gives the
// orientation. With boundary_only, faces off ∂other are reported kOutside
// without the (costlier) inside test.
std::vector<FaceSide> classify_faces(const Mesh& mesh, const Mesh& other, bool boundary_only) {
  using Primitive = CGAL::AABB_face_graph_triangle_primitive<Mesh>;
  using Tree = CGAL::AABB_tree<CGAL::AABB_traits<Kernel, Primitive>>;
  Tree tree(faces(other).first, faces(other).second, other);
  std::unique_ptr<CGAL::Side_of_triangle_mesh<Mesh, Kernel>> side;
  if (!boundary_only) side = std::make_unique<CGAL::Side_of_triangle_mesh<Mesh, Kernel>>(other);
  std::vector<FaceSide> sides(mesh.number_of_faces(), FaceSide::kOutside);
  std::vector<Primitive::Id> hits;
  for (Mesh::Face_index f : mesh.faces()) {
    std::array<Point, 3> p;
    Index k = 0;
    for (Mesh::Vertex_index v : CGAL::vertices_around_face(mesh.halfedge(f), mesh)) p[k++ % 3] = mesh.point(v);
    const Point q = CGAL::centroid(p[0], p[1], p[2]);
    hits.clear();
    tree.all_intersected_primitives(q, std::back_inserter(hits));
    bool on_boundary = false;
    for (Mesh::Face_index g : hits) {
      std::array<Point, 3> r;
      Index m = 0;
      for (Mesh::Vertex_index v : CGAL::vertices_around_face(other.halfedge(g), other)) r[m++ % 3] = other.point(v);
      if (!CGAL::coplanar(r[0], r[1], r[2], p[0]) || !CGAL::coplanar(r[0], r[1], r[2], p[1]) ||
          !CGAL::coplanar(r[0], r[1], r[2], p[2])) {
        continue;
      }
      const CGAL::Sign sign = CGAL::sign(CGAL::normal(p[0], p[1], p[2]) * CGAL::normal(r[0], r[1], r[2]));
      sides[f.idx()] = sign == CGAL::POSITIVE ? FaceSide::kOnSameNormal : FaceSide::kOnOppositeNormal;
      on_boundary = true;
      break;
    }
    if (!on_boundary && !boundary_only) {
      const CGAL::Bounded_side where = (*side)(q);
      check_invariant(where != CGAL::ON_BOUNDARY,
                      "intersection moments: a face centroid lies on the other surface but on no coplanar face "
                      "(a corefinement invariant)");
      sides[f.idx()] = where == CGAL::ON_BOUNDED_SIDE ? FaceSide::kInside : FaceSide::kOutside;
    }
  }
  return sides;
}

void add_b_gradient_on_boundary(const Mesh& b, const std::vector<FaceSide>& sides, MomentAccumulator& acc) {
  for (Mesh::Face_index f : b.faces()) {
    const FaceSide s = sides[f.idx()];
    if (s != FaceSide::kOnOppositeNormal && s != FaceSide::kOnSameNormal) continue;
    const auto p = exact_triangle(b, f);
    acc.add_gradient_triangle(s == FaceSide::kOnOppositeNormal ? GradientPart::kTouching : GradientPart::kFlush,
                              *p[0], *p[1], *p[2]);
  }
}

}  // namespace

}  // namespace detail

IntersectionMoments intersection_moments(const TriangleSolid& a, const TriangleSolid& b,
                                         const RigidPose<double>& pose_b) {
  return intersection_moments(a, b, pose_b, IntersectionOptions());
}

IntersectionMoments intersection_moments(const TriangleSolid& a, const TriangleSolid& b,
                                         const RigidPose<double>& pose_b, const IntersectionOptions& options) {
  using namespace detail;
  if (!options.assume_valid_solids) {
    validate_triangle_solid(a, "intersection_moments: solid A");
    validate_triangle_solid(b, "intersection_moments: solid B");
  }
  Mesh mesh_a = to_exact_mesh(a, nullptr);
  Mesh mesh_b = to_exact_mesh(b, &pose_b);

  Mesh out;
  OriginState state;
  state.b = &mesh_b;
  bool manifold = false;
  OriginVisitor visitor(&state);
  try {
    // Corefines mesh_a and mesh_b in place (both keep their solids; their
    // faces are split along the intersection curves) and builds A ∩ B.
    manifold = PMP::corefine_and_compute_intersection(mesh_a, mesh_b, out,
                                                      PMP::parameters::visitor(visitor));
  } catch (const std::exception& e) {
    throw ComputationError(std::string("intersection_moments: CGAL corefinement failed: ") + e.what());
  }

  MomentAccumulator acc;
  std::vector<Eigen::Vector3d> vertices;
  const auto keep = [&](const Mesh& mesh, Mesh::Face_index f) {
    if (!options.keep_vertices) return;
    for (Mesh::Vertex_index v : CGAL::vertices_around_face(mesh.halfedge(f), mesh)) {
      const Point& p = mesh.point(v);
      vertices.emplace_back(CGAL::to_double(p.x()), CGAL::to_double(p.y()), CGAL::to_double(p.z()));
    }
  };
  if (manifold) {
    if (options.keep_vertices)
      for (Mesh::Vertex_index v : out.vertices()) {
        const Point& p = out.point(v);
        vertices.emplace_back(CGAL::to_double(p.x()), CGAL::to_double(p.y()), CGAL::to_double(p.z()));
      }
    // The visitor recorded the origins by face index: the output must hold
    // exactly the faces it saw added (collecting garbage would renumber them).
    check_invariant(!out.has_garbage() && state.from_b.size() <= out.number_of_faces(),
                    "intersection_moments: unexpected removed faces in CGAL's corefinement output");
    if (state.from_b.size() < out.number_of_faces()) state.from_b.resize(out.number_of_faces(), 0);
    for (Mesh::Face_index f : out.faces()) {
      const auto p = exact_triangle(out, f);
      acc.add_boundary_triangle(*p[0], *p[1], *p[2]);
      // Faces copied from B are the patches of ∂B strictly inside A (CGAL
      // takes the coplanar patches of an intersection from the first mesh).
      if (state.from_b[f.idx()] != 0) acc.add_gradient_triangle(GradientPart::kInterior, *p[0], *p[1], *p[2]);
    }
    // Patches of ∂B on ∂A exist only where CGAL met coplanar faces.
    if (state.coplanar_pairs > 0) add_b_gradient_on_boundary(mesh_b, classify_faces(mesh_b, mesh_a, true), acc);
  } else {
    // CGAL refuses a non-manifold intersection (pieces of A ∩ B sharing an
    // edge or a vertex). The meshes are corefined all the same: assemble ∂Ω
    // from their classified faces, which is all the integrals need:
    // faces of A inside B, faces of B inside A, and the coplanar patches with
    // equal normals once (from A).
    const std::vector<FaceSide> sides_a = classify_faces(mesh_a, mesh_b, false);
    const std::vector<FaceSide> sides_b = classify_faces(mesh_b, mesh_a, false);
    for (Mesh::Face_index f : mesh_a.faces()) {
      const FaceSide s = sides_a[f.idx()];
      if (s != FaceSide::kInside && s != FaceSide::kOnSameNormal) continue;
      const auto p = exact_triangle(mesh_a, f);
      acc.add_boundary_triangle(*p[0], *p[1], *p[2]);
      keep(mesh_a, f);
    }
    for (Mesh::Face_index f : mesh_b.faces()) {
      if (sides_b[f.idx()] != FaceSide::kInside) continue;
      const auto p = exact_triangle(mesh_b, f);
      acc.add_boundary_triangle(*p[0], *p[1], *p[2]);
      acc.add_gradient_triangle(GradientPart::kInterior, *p[0], *p[1], *p[2]);
      keep(mesh_b, f);
    }
    add_b_gradient_on_boundary(mesh_b, sides_b, acc);
  }
  // Touching or disjoint is decided only when the volume is zero: do the
  // closed solids meet (exact surface-surface test on the corefined meshes)?
  const bool maybe_zero_volume = !manifold || out.number_of_faces() == 0;
  const bool solids_meet = maybe_zero_volume ? PMP::do_intersect(mesh_a, mesh_b) : true;
  IntersectionMoments result = acc.finish(solids_meet, options.rational_only);
  result.non_manifold_intersection = !manifold;
  if (result.has_volume()) result.vertices = std::move(vertices);
  return result;
}

}  // namespace contactref::robust_geometry
