#pragma once
// Intersect (Bouma & Vanecek, Section 4.3): B's edge and face pieces
// classified down A's Brep-index, with the touch-tolerance policy of
// contact_regions.hpp. Internal to contact_regions.cpp and contact_points.cpp.
#include <CGAL/box_intersection_d.h>

#include <set>
#include <vector>

#include "robust_geometry/brep_index.hpp"
#include "robust_geometry/contact_regions.hpp"
#include "robust_geometry/exact_pieces.hpp"

namespace contactref::robust_geometry::detail {

using Box = CGAL::Box_intersection_d::Box_with_info_d<double, 3, int>;

Entity entity_of(const Tag& tag);
Entity entity_of(const Location& location);

// A piece of B that reached a leaf of A's entity.
struct LeafPiece {
  Entity entity_a;
  Piece piece;
};

class Classifier {
 public:
  Classifier(const BrepIndex& index, double tolerance);

  // Pieces of B's edges and faces (vertices: see contact_points.hpp) down the
  // tree into `leaves` and `penetrating`; with a tolerance, their originals
  // are tracked (set here).
  void run(std::vector<Piece> pieces);

  // The exact location of a point (no tolerance).
  Location locate(const Vec& x) const;

  // The entities of A (faces, edges, vertices) with a leaf whose cell may
  // meet the box: a superset of those with a point in the box (a cut the box
  // lies strictly on one side of, by interval arithmetic on the exact
  // plane's approximation, sends it to that side only).
  std::vector<Entity> entities_near(const Box& box) const;

  std::vector<LeafPiece> leaves;
  std::set<Entity> penetrating;
  long plane_tests = 0;

 private:
  int side_within_tolerance(const XPlane& plane, const Vec& m, const FT& mm, const Vec& x0, Vec& x) const;
  void reach_leaf(const Location& location, std::vector<Piece>& pieces);

  const BrepIndex& index_;
  double tolerance_;
  FT eps2_;
  const std::vector<XPlane>& planes_;
};

}  // namespace contactref::robust_geometry::detail
