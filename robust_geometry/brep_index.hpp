#pragma once
// The Brep-index (Bouma & Vanecek, Section 4.2 and Fig. 10): a ternary MSP
// (multidimensional space partitioning) tree over a Polyhedron.
//
// Every node stands for a cell: a relatively open convex set of dimension
// 3, 2, 1 or 0 (the root: all of space, dimension 3). An internal node holds a
// cut plane P and three children, in this order:
//   above: the cell's points with n . x + d > 0 (n the plane's normal; the
//          paper: "above is the halfspace in the direction of the cut plane
//          normal"), same dimension as the cell;
//   on:    the points with n . x + d = 0, one dimension less (the cut plane
//          is always transversal to the cell's affine hull);
//   below: the points with n . x + d < 0, same dimension.
// Each cell is a finite intersection of open halfspaces with the planes of
// its "on" ancestors, so cells are convex and the leaves partition space.
//
// A leaf is a cell that lies in one piece of the partition of space into
//   outside, inside (the open solid), the open faces, the open edges and the
//   vertices of the B-rep.
// Its Location says which; its dimension is the cell's (0-3), which is at most
// the entity's: a face leaf can be a 2-cell (part of the face), a 1-cell (a
// cut line crossing the face) or a 0-cell; an edge leaf a 1- or 0-cell; a
// vertex leaf a 0-cell; inside and outside leaves have any dimension (an
// "outside" 2-cell is a part of a cut plane outside the solid). Exactly: the
// tree is split until every cell is homogeneous, and no further.
//
// Construction (the paper gives only the idea; see brep_index.cpp):
//   - a 3-cell is cut by the support plane of a face with a piece in it
//     (lowest face index first);
//   - a 2-cell is cut by a plane through a line that separates its boundary
//     pieces: the support plane of a face crossing it, or of a face of an
//     edge lying in it; a 1-cell is cut through a point (a vertex, or where
//     an edge or face crosses the line), again by a face's support plane;
//     where no support plane is transversal (an edge between two coplanar
//     faces, say), by an auxiliary plane through the line or point
//     perpendicular to the cell;
//   - with options.balance, a cell whose number of entities still to separate
//     exceeds options.balance_threshold is first cut by an axis-aligned plane
//     through the median of the points (vertices, or where edges and faces
//     cross the cell) in it, along the axis of largest spread, if that plane
//     leaves boundary on both sides: the paper's "initial cuts that are not
//     support planes of the faces" that "split the object roughly in half".
// For a convex solid without balancing and without coplanar adjacent faces
// this gives exactly v + e + f internal nodes: one per face (3-cells), edge
// (2-cells) and vertex (1-cells). (Coplanar adjacent faces share one cut and
// their flat edges need auxiliary cuts: the count differs.)
//
// Every decision is exact: plane-side tests are signs of n . x + d evaluated
// with CGAL's exact number type (Epeck's FT), on the input points and on
// points constructed exactly where a cut crosses a piece of the boundary. No
// tolerance is involved. CGAL stays out of this header (the exact cut planes
// are reached through a forward-declared CGAL type, as in polyhedron.hpp).
#include <Eigen/Core>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "robust_geometry/polyhedron.hpp"

namespace contactref::robust_geometry {

namespace detail {
struct XPlane;  // robust_geometry/exact_pieces.hpp
}

// Where a point is with respect to a solid. The order is that of the
// statistics arrays below.
enum class Region { outside = 0, inside = 1, face = 2, edge = 3, vertex = 4 };
inline constexpr int kRegionCount = 5;
const char* to_string(Region region);

// A classification: the region and, for face, edge and vertex, the index of
// the entity in the Polyhedron (-1 for inside and outside).
struct Location {
  Region region = Region::outside;
  int entity = -1;
  friend bool operator==(const Location&, const Location&) = default;
};
std::string to_string(const Location& location);  // "inside", "face 3", ...

struct BrepIndexOptions {
  // Add balancing cuts (axis-aligned, not support planes) before the support
  // planes, in every cell of dimension 1 to 3 that has more than
  // balance_threshold entities left to separate (3-cells: faces with a 2D
  // piece; 2-cells: lines to cut along; 1-cells: points to cut at).
  bool balance = false;
  int balance_threshold = 4;  // >= 0; InputError otherwise
};

enum class CutKind {
  support,    // the support plane of a face (BrepIndexCut::face), outward normal
  auxiliary,  // through an edge line or a vertex, perpendicular to the cell
  balancing   // axis-aligned, through the median point (options.balance)
};

// An internal node's cut plane, rounded to double for display: unit normal
// and offset, the plane being normal . x + offset = 0. The exact plane is
// BrepIndex::exact_cut_plane.
struct BrepIndexCut {
  CutKind kind = CutKind::support;
  int face = -1;  // for CutKind::support
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();
  double offset = 0;
};

struct BrepIndexNode {
  int depth = 0;      // edges from the root (the root has depth 0)
  int dimension = 3;  // of the cell
  // Internal nodes: the children (above, on, below) and the index of the cut
  // in BrepIndex::cuts(); leaves: children -1 and cut -1.
  std::array<int, 3> children{-1, -1, -1};
  int cut = -1;
  Location location;  // leaves only
  bool is_leaf() const { return cut < 0; }
};

// Depth: the number of internal nodes on the path from the root to a node,
// which is the number of plane tests a point query makes to reach it.
struct BrepIndexStatistics {
  int internal_nodes = 0;
  int leaves = 0;  // 2 internal_nodes + 1 (ternary tree)
  int max_depth = 0;
  // The mean depth of the leaves (each leaf counted once, whatever its
  // dimension). This is our reading of the paper's "average depth", which
  // the paper does not define; mean_node_depth and mean_solid_leaf_depth are
  // the two other plausible readings, reported beside it.
  double mean_depth = 0;
  double mean_node_depth = 0;        // over all nodes, internal and leaves
  double mean_solid_leaf_depth = 0;  // over the 3-dimensional leaves only
  int support_cuts = 0;
  int auxiliary_cuts = 0;
  int balancing_cuts = 0;
  std::array<int, kRegionCount> leaves_by_region{};  // indexed by int(Region)
  // leaves_by_dimension[d][int(region)]: leaves whose cell has dimension d.
  std::array<std::array<int, kRegionCount>, 4> leaves_by_dimension{};
};

class BrepIndex {
 public:
  // Exact point location: descends from the root with the exact sign of each
  // cut plane at the point (the point read as the doubles it is).
  // InputError if the point is not finite.
  Location classify(const Eigen::Vector3d& point) const;
  // The leaf reached by classify (for inspecting its depth and dimension).
  int locate(const Eigen::Vector3d& point) const;

  const std::vector<BrepIndexNode>& nodes() const { return nodes_; }  // root: nodes()[0]
  const BrepIndexNode& node(int i) const { return nodes_[std::size_t(i)]; }
  const std::vector<BrepIndexCut>& cuts() const { return cuts_; }
  // The exact cut plane of cut c (positive side: above). Include
  // <CGAL/Exact_predicates_exact_constructions_kernel.h> to use it.
  const CGAL::Plane_3<CGAL::Epeck>& exact_cut_plane(int c) const;
  const BrepIndexStatistics& statistics() const { return statistics_; }
  const BrepIndexOptions& options() const { return options_; }

 private:
  friend BrepIndex build_brep_index(const Polyhedron&, const BrepIndexOptions&);
  // The exact cut planes in exact_pieces.hpp's form, for Intersect.
  friend const std::vector<detail::XPlane>& exact_cut_planes(const BrepIndex& index);
  struct Exact;  // the exact cut planes
  std::vector<BrepIndexNode> nodes_;
  std::vector<BrepIndexCut> cuts_;
  BrepIndexStatistics statistics_;
  BrepIndexOptions options_;
  std::shared_ptr<const Exact> exact_;  // immutable, so copies share it
};

// Builds the Brep-index of a (valid) polyhedron. InputError for bad
// options (naming the field); ComputationError if an exact invariant
// of the construction fails (it names the node and the entity), which would
// be a bug.
BrepIndex build_brep_index(const Polyhedron& polyhedron, const BrepIndexOptions& options = {});

}  // namespace contactref::robust_geometry
