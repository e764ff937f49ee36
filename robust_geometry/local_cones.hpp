#pragma once
// Internal to robust_geometry (includes CGAL's exact kernel): the local
// geometry of a posed polyhedron at its entities, exactly. Bouma & Vanecek,
// Section 3: the tangent cones K_i(p) of Eqs. 3-4, and the local cones whose
// separating directions give the contact normals of Condition 8.
//
// Every cone has its apex at the origin (the contact point p). A convex cone
// is held both ways: its facets, {d : m . d <= 0 for every m} (an
// H-representation, not necessarily irredundant), and rays that generate it
// (a V-representation: the extreme rays, and a line as its two directions).
// n is in the polar cone {n : n . d <= 0 on the cone} iff n . r <= 0 for
// every ray r.
//
// The tangent cone of a solid at a point of entity x, as a union of convex
// pieces (convex_pieces):
//   face: the halfspace of its outward normal;
//   edge: convex: the wedge of its two faces' halfspaces (one piece); reflex:
//     their union (two pieces); flat (coplanar faces): one halfspace;
//   vertex: convex (no reflex edge): the intersection of its faces'
//     halfspaces (one piece); otherwise the cells of the arrangement of its
//     faces' support planes that lie in the solid. A cell is a sign vector
//     over the planes; it exists iff the sum of the rays of its closure
//     satisfies its strict inequalities (that sum is interior when the cell is
//     open and not empty, and stays in a lower-dimensional closure otherwise).
//     A cell lies in the solid iff its interior point d does: the segment from
//     d to a point x of the open sector of a face f at the vertex crosses the
//     sectors of the other faces c times, and d is inside iff (n_f . d < 0)
//     xor (c odd) (just before x, the side of f's plane that d is on decides;
//     each crossing of a sector flips inside and outside). Segments through a
//     sector's boundary line or through the apex are degenerate and another
//     x is taken (finitely many are degenerate).
#include <Eigen/Core>
#include <map>
#include <optional>
#include <vector>

#include "robust_geometry/contact_regions.hpp"
#include "robust_geometry/exact_pieces.hpp"

namespace contactref::robust_geometry::detail {

struct ConvexCone {
  std::vector<Vec> facets;  // {d : m . d <= 0 for every m}
  std::vector<Vec> rays;    // generators, each scaled_to_unit_box, distinct
};

// The rays generating {d : m . d <= 0 for every row m} (no rows: all of
// space): the extreme rays, with a line of the cone as its two directions;
// empty when the cone is {0}. Exact (signs filtered by intervals).
std::vector<Vec> cone_rays(const std::vector<Vec>& rows);
// The convex cone {d : m . d <= 0 for every m in facets}, both ways.
ConvexCone halfspaces(std::vector<Vec> facets);
// Whether n lies in the polar cone of `cone` (n . r <= 0 for every ray).
bool in_polar(const Vec& n, const ConvexCone& cone);
// Whether 0 lies in the convex hull of the rows, exactly (Gordan: iff no d
// has m . d > 0 for every row; Caratheodory: iff 1 to 4 rows contain 0 in
// their hull).
bool zero_in_hull(const std::vector<Vec>& rows);

// The local geometry of one solid in A's frame: exact outward face normals
// (rotated by the pose's R for B), vertices, edge convexity and vertex
// convexity, each computed when first asked for (a contact touches a few
// entities of a large solid).
class LocalGeometry {
 public:
  LocalGeometry(const Polyhedron& p, const RigidPose<double>& pose);

  const Vec& normal(int f) const;
  const Vec& point(int v) const;
  // sign(n_1 . w_2), w_2 pointing from the edge into face 2: < 0 convex,
  // > 0 reflex, 0 flat.
  int convexity(int e) const;
  const Polyhedron& polyhedron() const { return p_; }
  bool convex_vertex(int v) const;
  // Convex neighbourhood (Eq. 7): a face, a convex or flat edge, a convex vertex.
  bool convex(const Entity& x) const;
  // The tangent cone at a point of x as a union of convex pieces (see above).
  // ComputationError if no cell of a vertex's arrangement can be
  // classified (every segment degenerate: not expected to happen).
  std::vector<ConvexCone> convex_pieces(const Entity& x) const;
  // The outward normals of the faces at x.
  std::vector<Vec> face_normals(const Entity& x) const;
  Vec edge_direction(int e) const;
  // Whether entity x lies in the boundary of entity y (x a vertex of edge or
  // face y, or an edge of face y).
  bool in_boundary(const Entity& x, const Entity& y) const;

 private:
  Vec rotate(const Vec& x) const;
  std::vector<ConvexCone> arrangement_pieces(int v) const;
  bool inside_at_vertex(int v, const Vec& d) const;
  // Where y (in face f's plane, relative to vertex v) is with respect to the
  // open sector of face f at v: 1 inside, -1 outside, 0 on one of the lines
  // of its sides (treated as degenerate by the caller).
  int sector_side(int f, int v, const Vec& y) const;
  // A point of the open sector of face f at v, one for each t > 0.
  Vec sector_point(int f, int v, int t) const;
  // The directions from v to the previous and next corners of face f.
  std::array<Vec, 2> sector_sides(int f, int v) const;

  const Polyhedron& p_;
  Eigen::Matrix4d pose_;  // the pose's entries, applied exactly
  mutable std::vector<std::optional<Vec>> normals_;
  mutable std::vector<std::optional<Vec>> points_;
  mutable std::vector<std::optional<int>> convexity_;
  mutable std::map<int, std::vector<ConvexCone>> vertex_pieces_;  // non-convex vertices
};

}  // namespace contactref::robust_geometry::detail
