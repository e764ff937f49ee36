#pragma once
// Internal to robust_geometry (includes CGAL's exact kernel): exact vectors
// and planes, filtered plane-side signs, and the convex pieces of a B-rep's
// boundary that the Brep-index (brep_index.cpp) and Intersect
// (contact_regions.cpp) cut by planes (Bouma & Vanecek, Section 4.3,
// SplitRegions).
//
// A piece is the closure of a relatively open convex set tagged with the B-rep
// entity it belongs to: a point (dim 0), a segment (dim 1, two points) or a
// convex polygon (dim 2, its corners in order). The boundary of a Polyhedron
// is partitioned into convex atoms (atoms()): its vertices, its edges, and its
// faces' open triangles and open diagonals (triangle sides that are not
// polygon sides), all tagged with their face.
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>

#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "robust_geometry/polyhedron.hpp"

namespace contactref::robust_geometry::detail {

using Epeck = CGAL::Exact_predicates_exact_constructions_kernel;
using FT = Epeck::FT;
using Vec = std::array<FT, 3>;

inline Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec add(const Vec& a, const Vec& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec mul(const FT& s, const Vec& a) { return {s * a[0], s * a[1], s * a[2]}; }
inline Vec neg(const Vec& a) { return {-a[0], -a[1], -a[2]}; }
inline FT dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
// The exact sign (-1, 0, 1). Plane-side tests are signs of n . x + d computed
// with the exact number type, not through Epeck's Plane_3::has_on /
// oriented_side, which trip a GCC 12 -Wmaybe-uninitialized false positive
// inside CGAL in the sanitizer build (warnings are errors).
inline int sign(const FT& x) { return static_cast<int>(CGAL::sign(x)); }
// Exact lexicographic order of vectors, and exact equality.
inline bool lexicographic_less(const Vec& a, const Vec& b) {
  for (std::size_t k = 0; k < 3; ++k) {
    if (a[k] < b[k]) return true;
    if (b[k] < a[k]) return false;
  }
  return false;
}
inline bool same(const Vec& a, const Vec& b) { return !lexicographic_less(a, b) && !lexicographic_less(b, a); }
inline bool is_zero(const Vec& a) { return sign(a[0]) == 0 && sign(a[1]) == 0 && sign(a[2]) == 0; }
// sign(a . b), filtered: interval arithmetic on Epeck's approximations first,
// exact rationals only where the interval holds 0 (filtered_sign.hpp, which
// also takes vectors derived from these without constructing them).
int dot_sign(const Vec& a, const Vec& b);
// sign(m . u) for u = (N . N) n - (n . N) N (n projected onto the plane
// normal to N, times N . N), filtered the same way, without constructing u:
// the sign of (N . N)(m . n) - (n . N)(m . N).
int projected_dot_sign(const Vec& m, const Vec& n, const Vec& N);
// is_zero(cross(a, b)), filtered the same way, with no lazy construction.
bool parallel(const Vec& a, const Vec& b);
// sign(a . (b x c)), filtered the same way, with no lazy construction.
int triple_sign(const Vec& a, const Vec& b, const Vec& c);
// sign(n . (e x w)) for w = (m . u) q - (m . q) u, the direction where the
// path from u to q crosses the plane normal to m (up to the sign of m . u),
// filtered the same way, without constructing w: the sign of
// (m . u) (n . (e x q)) - (m . q) (n . (e x u)).
int crossing_triple_sign(const Vec& n, const Vec& e, const Vec& m, const Vec& u, const Vec& q);
Vec exact_point(const Eigen::Vector3d& p);
// Vertex v of p, exactly (its own frame).
Vec exact_vertex(const Polyhedron& p, int v);
Eigen::Vector3d to_double(const Vec& p);
// to_double after evaluating each coordinate exactly: within an ulp.
Eigen::Vector3d rounded(const Vec& p);
// max_k |v_k|.
FT max_abs(const Vec& v);
// v / max_abs(v), exactly (v not zero): one component is +-1 and the others
// lie in [-1, 1], so that rounding it to double neither overflows nor loses
// the direction to underflow, whatever the magnitude of v (a cross product of
// edges of solids at 2^256 is near 2^513, one at 2^-280 near 2^-560).
Vec scaled_to_unit_box(const Vec& v);
// The unit vector along v (not zero), without negative zeros:
// scaled_to_unit_box rounded to double (each component within half an ulp),
// then normalised (its length is in [1, sqrt(3)]).
Eigen::Vector3d unit_vector(const Vec& v);

// The plane n . x + d = 0; "above" is n . x + d > 0.
struct XPlane {
  Vec n;
  FT d;
};
inline FT value(const XPlane& plane, const Vec& x) { return dot(plane.n, x) + plane.d; }
XPlane plane_through(const Vec& normal, const Vec& x);
// sign(value(plane, x)), filtered: interval arithmetic on Epeck's
// approximations first, exact rationals only where the interval holds 0.
int side(const XPlane& plane, const Vec& x);
// The point where segment [p, q] meets the plane, given the plane's values vp
// and vq at p and q (of opposite signs).
Vec crossing(const Vec& p, const Vec& q, const FT& vp, const FT& vq);

enum class Kind { vertex = 0, edge = 1, face = 2 };
const char* kind_name(Kind kind);
struct Tag {
  Kind kind;
  int index;
  friend bool operator==(const Tag&, const Tag&) = default;
  friend bool operator<(const Tag& a, const Tag& b) {
    return a.kind != b.kind ? int(a.kind) < int(b.kind) : a.index < b.index;
  }
};

struct Piece {
  Tag tag;
  int dim;
  std::vector<Vec> points;
  // Empty, or parallel to points: where each point came from before any
  // tolerance projection (contact_regions.cpp). A corner keeps its original
  // when it is projected; a point constructed where a cut crosses the piece
  // gets the same affine combination of the two corners' originals.
  std::vector<Vec> originals = {};
};

// The convex atoms of the boundary of `polyhedron` (see above) of the
// entities for which keep(tag) holds (all if keep is empty), their corners
// as vertex indices: vertices, edges, triangles, then diagonals.
struct Atom {
  Tag tag;
  int dim;
  std::array<int, 3> vertices;  // the first dim + 1
  std::span<const int> corners() const { return {vertices.data(), std::size_t(dim + 1)}; }
};
std::vector<Atom> atom_corners(const Polyhedron& polyhedron, const std::function<bool(const Tag&)>& keep = {});

// The same atoms as pieces, each vertex mapped through `points` (the
// polyhedron's vertices, exact, possibly moved rigidly).
std::vector<Piece> atoms(const Polyhedron& polyhedron, const std::vector<Vec>& points,
                         const std::function<bool(const Tag&)>& keep = {});

// SplitRegions for one piece: appends to above / on / below the parts of the
// piece (relatively open, held as closures) on each side of `plane`, given the
// side of each of its corners (signs[i] in {-1, 0, 1}). A corner with sign 0
// appears in the on-part as on_points[i] (the corner itself when the signs are
// exact; its projection onto the plane under a tolerance); crossings are
// constructed exactly. With corners strictly on both sides the piece is split;
// otherwise it goes whole to one side, or, all signs 0, to `on` with
// on_points as its corners. The parts carry originals when the piece does.
void split_piece(const Piece& piece, const XPlane& plane, const std::vector<int>& signs,
                 const std::vector<Vec>& on_points, std::vector<Piece>& above, std::vector<Piece>& on,
                 std::vector<Piece>& below);

// An on-part whose corners were projected onto a plane under a tolerance can
// have coinciding points (a sliver collapses) or points off the line it should
// lie on (by up to the tolerance). Returns the piece with repeated points
// removed and, where its points no longer span its dimension, reduced to the
// point or the farthest pair of points (exact); originals follow their points
// (of coinciding points, the first one's). Exact signs need none of this.
Piece normalised(Piece piece);

}  // namespace contactref::robust_geometry::detail
