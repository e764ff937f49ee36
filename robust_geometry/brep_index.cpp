#include "robust_geometry/brep_index.hpp"

// The Brep-index (Bouma & Vanecek, Section 4.2, Fig. 10). The paper describes
// the tree, not its construction (it cites [19], [20] for that); what follows
// is the construction this implementation uses, with the argument for each
// step.
//
// 1. The boundary as convex atoms. Each B-rep entity is a relatively open set:
//    a vertex (a point), an edge (an open segment), a face (an open planar
//    polygon, convex or not). A face is cut into convex atoms with the
//    Polyhedron's triangulation: its open triangles and its open diagonals
//    (triangle sides that are not polygon sides), all tagged with the face.
//    The atoms partition the boundary, and each is a convex relatively open
//    set, held as its closure: a point, a segment or a convex polygon.
//
// 2. Pieces. A cell holds the pieces (atom ∩ cell) that are not empty, again
//    as closures. Cutting a piece A by a plane P with the exact signs s_i of
//    its corners: A's relative interior has points above P iff some s_i > 0
//    (A is convex and its relative interior is the set of strictly positive
//    combinations of its corners), and it meets P iff either all s_i = 0
//    (A lies in P) or some s_i > 0 and some s_j < 0 (then A ∩ P is a segment
//    or point through A's relative interior). The closure of (open A) ∩
//    (open halfspace) is the clipped closure (Rockafellar, Thm 6.5), so
//    Sutherland-Hodgman clipping of the closures, with intersection points
//    constructed exactly, is exact. A piece touching P only at its relative
//    boundary goes wholly to one side, as it should. The pieces hold their
//    corners as ids into one table of exact points (brep_pieces.hpp), so
//    that a point's side is evaluated once per cut and a crossing is
//    constructed once per cut and segment.
//
// 3. Leaves. A cell C of dimension d is a leaf iff (a) it holds no piece, or
//    (b) all its pieces carry the same entity x and one of them has dimension
//    d. (b) means C ⊆ x: x ∩ C is then open in C, and if C ⊄ x, C (connected)
//    meets the relative boundary of x, which consists of other entities
//    (edges, vertices), whose atoms would be pieces of C with other tags. A
//    cell holding no piece misses the boundary, so (being connected) it is
//    wholly inside or wholly outside.
//
// 4. Classifying an empty cell. An empty cell is always the above or below
//    child of a cut whose on-child holds a piece (cuts are always made through
//    a piece, item 5). Take a point x of such a piece and the direction u in
//    the parent cell's affine hull that points to the empty side (the cut
//    normal projected onto the cell). Then x + eps u lies in the empty cell
//    for small eps, so the cell's class is the local class of the boundary
//    at x in direction u, which depends only on the entity of x:
//      face f:   inside iff n_f . u < 0;
//      edge e:   inside iff u points into the dihedral wedge (convex edge:
//                n_1 . u < 0 and n_2 . u < 0; reflex edge: either);
//      vertex v: whether u points into the solid's tangent cone at v, by a
//                parity count: follow directions from u to a direction q in
//                the open corner sector of one face f at v (where, just below
//                f, the cone is inside), counting transversal crossings of
//                the other faces' corner sectors; retry with another q if the
//                path meets a sector's side ray or lies in a face plane.
//    All with exact signs. "On the boundary" as an answer would contradict
//    the cell being empty, and throws ComputationError.
//
// 5. Cuts. Support planes of faces wherever one fits, else an auxiliary
//    plane (see brep_index.hpp):
//      3-cell: the support plane of the lowest-index face with a 2D piece;
//      2-cell (in a plane H): a line along a 1D piece that separates (an
//        edge, or a face crossing H): the face's plane, or for an edge the
//        plane of one of its faces that is transversal to H (the other face
//        may lie in H), else the plane through the edge perpendicular to H;
//        if there is no such piece, the only pieces are isolated vertices
//        touching H, cut through by a face plane at the vertex;
//      1-cell (on a line L): a point where a vertex lies, or an edge or a
//        face (not containing L) crosses L.
//    Along an above/below path, a support plane's entity has all its pieces
//    on the plane, so the entities left to separate strictly decrease, and
//    the construction terminates. For a convex solid no cut splits any
//    piece: each face, edge and vertex is cut exactly once (an edge shared
//    with an earlier face lies on that face's plane and so not in the open
//    cell), which gives the paper's v + e + f internal nodes.
//    Balancing cuts go through a point piece (so that the on-child holds a
//    piece, item 4) and must leave pieces on both sides.

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <utility>

#include "robust_geometry/brep_pieces.hpp"
#include "robust_geometry/exact_pieces.hpp"
#include "robust_geometry/filtered_sign.hpp"

namespace contactref::robust_geometry {

using namespace detail;

namespace {

Location location_of(const Tag& tag) {
  switch (tag.kind) {
    case Kind::vertex: return {Region::vertex, tag.index};
    case Kind::edge: return {Region::edge, tag.index};
    case Kind::face: break;
  }
  return {Region::face, tag.index};
}

// The direction n1 x n2 of the line where two planes meet, not constructed
// (nine lazy numbers a line, a third of those a build made): a source
// (filtered_sign.hpp).
struct Cross {
  Vec n1, n2;
  template <class Read>
  auto operator()(const Read& r) const {
    return cross(read(n1, r), read(n2, r));
  }
};
using Line = Derived<Cross>;

// A cell's plane, line and vertices on its line are shared by its
// descendants: held once by the Builder (in deques and a vector, which
// never move them or are indexed), pointed to by the cells, so that a split
// copies pointers.
struct Cell {
  int dim = 3;
  const Vec* normal = nullptr;  // dim 2: the normal of the plane holding the cell (set once it is to be cut)
  const Line* line = nullptr;   // dim 1: the direction of the line holding the cell (set once it is to be cut)
  // dim 2 and 1: the faces whose support planes hold the cell, known from
  // the cuts that made it (-1 for an auxiliary or balancing plane): the
  // exact zeros of n_f . line and n_f x normal for these faces are then
  // known without evaluating them, which only rationals could.
  std::array<int, 2> faces{-1, -1};
  // dim 1: vertices known to lie on the line (sorted): the points of its
  // pieces carried by a vertex (a == b). A face with two of them holds the
  // line; the direction from one to another is the line's.
  int line_vertices_first = 0, line_vertices_count = 0;  // in Builder::line_vertices_
  std::vector<BrepPiece> pieces;  // corners in Builder::table_
};

struct Cut {
  XPlane plane;
  CutKind kind;
  int face;
  int axis = -1;  // balancing: the plane's normal is this axis's unit vector
};

// The corner of face `face` at a vertex v: the directions ea and eb to the
// previous and the next vertex of the face, and the turn sign(n . (eb x ea)):
// > 0 a convex corner (the face's sector sweeps counter-clockwise about n
// from eb to ea through less than pi), < 0 reflex, 0 straight.
struct Corner {
  int face;
  int turn;
  int v, a, b;  // the corner's vertex and the vertices ea and eb point to
};

// The vector from one point to another: a recipe for a Derived vector
// (filtered_sign.hpp).
struct Difference {
  Approximated to, from;
  template <class Read>
  auto operator()(const Read& r) const {
    return minus(to(r), from(r));
  }
};
using CornerSide = Derived<Difference>;

class Builder {
 public:
  Builder(const Polyhedron& polyhedron, const BrepIndexOptions& options)
      : polyhedron_(polyhedron), options_(options) {
    points_.reserve(std::size_t(polyhedron.vertex_count()));
    for (int v = 0; v < polyhedron.vertex_count(); ++v) points_.push_back(exact_vertex(polyhedron, v));
    face_planes_.reserve(std::size_t(polyhedron.face_count()));
    face_normal_approximations_.reserve(std::size_t(polyhedron.face_count()));
    // The Polyhedron's exact support planes, outward: n = (b - a) x (c - a)
    // through its plane vertices a, b, c (CGAL's Plane_3 through three
    // points), read as four lazy numbers rather than built again from the
    // vertices (about 25 lazy numbers a face).
    for (int f = 0; f < polyhedron.face_count(); ++f) {
      const auto& plane = polyhedron.exact_plane(f);
      face_planes_.push_back({{plane.a(), plane.b(), plane.c()}, plane.d()});
      face_normal_approximations_.push_back(read(face_planes_.back().n, Approximate{}));
    }
    // An edge's convexity is found where step 4 first asks for it: most
    // edges never border an empty cell.
    edge_convexity_.assign(std::size_t(polyhedron.edge_count()), kUnknownConvexity);
    face_turns_.assign(std::size_t(polyhedron.face_count()), kUnknownTurn);
    counted_.assign(std::size_t(polyhedron.vertex_count() + polyhedron.edge_count() + polyhedron.face_count()), 0);
    // The triangles of each face (for edge_convexity), grouped by face.
    const auto& triangles = polyhedron.triangles();
    face_triangles_.assign(std::size_t(polyhedron.face_count()) + 1, 0);
    for (const Triangle& t : triangles) ++face_triangles_[std::size_t(t.face) + 1];
    std::partial_sum(face_triangles_.begin(), face_triangles_.end(), face_triangles_.begin());
    triangles_by_face_.resize(triangles.size());
    std::vector<int> next(face_triangles_.begin(), face_triangles_.end() - 1);
    for (std::size_t t = 0; t < triangles.size(); ++t)
      triangles_by_face_[std::size_t(next[std::size_t(triangles[t].face)]++)] = int(t);
  }

  void build(std::vector<BrepIndexNode>& nodes, std::vector<BrepIndexCut>& cuts, std::vector<XPlane>& planes) {
    Cell root;
    root.dim = 3;
    root.pieces = table_.atoms(polyhedron_, points_);  // step 1
    // Room for a balanced index (the bumpy cubes' have 3.0-4.5 internal
    // nodes per face; an unbalanced one up to 17.6, and grows past it):
    // growing by doubling copied and freed blocks of up to 64 MB at 99k faces,
    // and on this project's VMs an unmapping of that size makes every page
    // touched next slow again (a cold build 1.66-1.75 s, 1.34-1.36 with room).
    const auto internal = 5 * std::size_t(polyhedron_.face_count());
    nodes.reserve(3 * internal + 1);
    cuts.reserve(internal);
    planes.reserve(internal);
    nodes.push_back(BrepIndexNode{});
    std::vector<std::pair<int, Cell>> work;
    work.emplace_back(0, std::move(root));
    while (!work.empty()) {
      auto [index, cell] = std::move(work.back());
      work.pop_back();
      const Cut cut = choose_cut(cell, index);
      std::array<Cell, 3> children = split(cell, cut);
      recycle(std::move(cell.pieces));
      if (children[1].pieces.empty())
        fail(index, "the cut plane misses every piece of the cell (the on-child is empty)");
      nodes[std::size_t(index)].cut = int(cuts.size());
      cuts.push_back(describe(cut));
      planes.push_back(cut.plane);
      const int depth = nodes[std::size_t(index)].depth;
      // The on-child last: the empty siblings are classified from its pieces.
      for (const std::size_t k : {std::size_t(0), std::size_t(2), std::size_t(1)}) {
        const int child = int(nodes.size());
        BrepIndexNode node;
        node.depth = depth + 1;
        node.dimension = children[k].dim;
        nodes.push_back(node);
        nodes[std::size_t(index)].children[k] = child;
        if (children[k].pieces.empty()) {
          nodes[std::size_t(child)].location =
              classify_empty(cell, cut, k == 0 ? 1 : -1, children[1].pieces, child);
        } else if (auto location = homogeneous(children[k], child)) {
          nodes[std::size_t(child)].location = *location;
        } else {
          // A new plane or line only for a cell still to cut: most
          // on-children are leaves, which never ask for it.
          if (k == 1 && cell.dim == 3) children[1].normal = &normals_.emplace_back(cut.plane.n);
          if (k == 1 && cell.dim == 2) enter_line(children[1], cell, cut);
          work.emplace_back(child, std::move(children[k]));
          continue;
        }
        recycle(std::move(children[k].pieces));
      }
    }
  }

 private:
  const Vec& point(int v) const { return points_[std::size_t(v)]; }
  const XPlane& face_plane(int f) const { return face_planes_[std::size_t(f)]; }
  // Vertex v and face f's normal with their interval approximations kept in
  // contiguous tables (vertex v is point v of table_): sources
  // (filtered_sign.hpp) whose intervals are read without touching the lazy
  // numbers' nodes.
  Approximated vertex(int v) const { return {point(v), table_.approximation(v)}; }
  Approximated face_normal(int f) const {
    return {face_plane(f).n, face_normal_approximations_[std::size_t(f)]};
  }

  [[noreturn]] void fail(int node, const std::string& what) const {
    throw ComputationError(polyhedron_.name() + ": Brep-index construction, node " + std::to_string(node) +
                                   ": " + what);
  }

  std::span<const int> line_vertices(const Cell& cell) const {
    return {line_vertices_.data() + cell.line_vertices_first, std::size_t(cell.line_vertices_count)};
  }

  // Whether vertex v is known to lie on the 1-cell's line.
  bool on_line(int v, const Cell& cell) const {
    const std::span<const int> on = line_vertices(cell);
    return std::binary_search(on.begin(), on.end(), v);
  }

  // Whether face f's support plane is known to hold the cell (dim 1 or 2),
  // with no evaluation.
  bool in_known_plane(int f, const Cell& cell) const {
    if (cell.faces[0] == f || cell.faces[1] == f) return true;
    if (cell.line_vertices_count < 2) return false;
    const auto& face = polyhedron_.face(f);
    return std::count_if(face.begin(), face.end(), [&](int v) { return on_line(v, cell); }) >= 2;
  }

  // Whether face f's support plane cuts the cell's affine hull transversally.
  bool transversal(int f, const Cell& cell) const {
    if (in_known_plane(f, cell)) return false;
    return transversal(face_plane(f).n, cell);
  }

  // The line of a 1-cell, the on-child of 2-cell `parent` cut by `cut`, and
  // the vertices on it.
  void enter_line(Cell& cell, const Cell& parent, const Cut& cut) {
    cell.line = &lines_.emplace_back(Cross{*parent.normal, cut.plane.n});
    std::vector<int>& on = line_vertices_;
    const auto first = on.end() - on.begin();
    for (const BrepPiece& p : cell.pieces)
      for (const int id : table_.corners(p))
        if (const Carrier& c = table_.carrier(id); c.known() && c.a == c.b) on.push_back(c.a);
    std::sort(on.begin() + first, on.end());
    on.erase(std::unique(on.begin() + first, on.end()), on.end());
    cell.line_vertices_first = int(first);
    cell.line_vertices_count = int(on.end() - on.begin() - first);
  }

  // Whether plane normal n cuts the cell's affine hull transversally.
  static bool transversal(const Vec& n, const Cell& cell) {
    switch (cell.dim) {
      case 3: return true;
      case 2: return !parallel(n, *cell.normal);
      case 1: return dot_sign_of(source(n), *cell.line) != 0;
      default: return false;
    }
  }

  // The direction u = sign * along, sign = +-1: held so that its sign tests
  // construct nothing (the projection's multiple of n or of the line is
  // folded into sign; in a 2-cell, `along` is the cut normal, projected onto
  // the cell's plane only in vector(); in a 1-cell, `along` is its line). It
  // lies in the cell's known planes (in_known_plane), to which its dot
  // product with their normals is 0, known.
  struct Direction {
    const Vec* cut_normal;  // dim 3, 2: along the cut normal
    const Line* line;       // dim 1: along the cell's line
    int sign;
    const Cell& cell;
    const Builder& builder;
    // sign(n_f . u) for face f.
    int face_dot_sign(int f) const {
      if (builder.in_known_plane(f, cell)) return 0;
      const Approximated n_f = builder.face_normal(f);
      if (cell.dim == 2) return sign * projected_dot_sign_of(n_f, source(*cut_normal), source(*cell.normal));
      if (cell.dim == 1) return sign * dot_sign_of(n_f, *line);
      return sign * dot_sign_of(n_f, source(*cut_normal));
    }
    // u in the reader's numbers (filtered_sign.hpp): a source.
    template <class Read>
    auto vector(const Read& r) const {
      auto u = line ? decltype(read(*cut_normal, r))((*line)(r)) : read(*cut_normal, r);
      if (cell.dim == 2) {
        const auto N = read(*cell.normal, r);
        u = minus(times(dot(N, N), u), times(dot(u, N), N));
      }
      return sign > 0 ? u : negated(u);
    }
  };

  // A positive multiple of the projection of n onto the cell's direction
  // space (u with n . u > 0 whenever n is transversal), on side `side` (+1
  // the projection, -1 its opposite). In a 1-cell on line L it is
  // (n . L) L, so the direction of sign(n . L) L.
  Direction direction(const Vec& n, const Cell& cell, int side) const {
    switch (cell.dim) {
      case 3:
      case 2: return {&n, nullptr, side, cell, *this};
      default: return {nullptr, cell.line, side * dot_sign_of(source(n), *cell.line), cell, *this};
    }
  }

  // Step 3.
  std::optional<Location> homogeneous(const Cell& cell, int node) const {
    const Tag tag = cell.pieces.front().tag;
    const bool same = std::all_of(cell.pieces.begin(), cell.pieces.end(), [&](const BrepPiece& p) { return p.tag == tag; });
    const bool full = std::any_of(cell.pieces.begin(), cell.pieces.end(), [&](const BrepPiece& p) { return p.dim == cell.dim; });
    if (same && full) return location_of(tag);
    if (cell.dim == 0) fail(node, "two entities meet at one point");
    return std::nullopt;
  }

  // Step 2: the three children of `cell` cut by `cut` (above, on, below).
  // The cell's pieces move to its children; a piece is copied only where
  // the cut splits it.
  std::array<Cell, 3> split(Cell& cell, const Cut& cut) {
    const XPlane& plane = cut.plane;
    std::array<Cell, 3> out;
    for (Cell& c : out) {
      c.dim = cell.dim;
      c.normal = cell.normal;
      c.line = cell.line;
      c.faces = cell.faces;
      c.line_vertices_first = cell.line_vertices_first;
      c.line_vertices_count = cell.line_vertices_count;
      c.pieces = spare_list();
    }
    out[1].dim = cell.dim - 1;
    out[1].faces[cell.dim == 3 ? 0 : 1] = cut.kind == CutKind::support ? cut.face : -1;
    std::vector<int>& signs = signs_;
    table_.begin_cut(plane);
    const auto side_of_cut = [&](int id) { return side_of(cut, id); };
    for (const BrepPiece& piece : cell.pieces) {
      // A piece of the cut's face, or of one of its edges or vertices, lies
      // in the face's support plane exactly (faces are exactly planar): no
      // side test needed, and these are the tests whose filter fails.
      if (cut.kind == CutKind::support && in_closure_of_face(piece.tag, cut.face)) {
        out[1].pieces.push_back(piece);
        continue;
      }
      signs.clear();
      for (const int id : table_.corners(piece)) signs.push_back(table_.side(id, side_of_cut));
      const bool above = std::any_of(signs.begin(), signs.end(), [](int s) { return s > 0; });
      const bool below = std::any_of(signs.begin(), signs.end(), [](int s) { return s < 0; });
      if (above && below)
        table_.split(piece, signs, out[0].pieces, out[1].pieces, out[2].pieces);
      else  // whole, to its side (all signs 0: on the plane, as it is)
        out[above ? 0 : below ? 2 : 1].pieces.push_back(piece);
    }
    cell.pieces.clear();
    return out;
  }

  // Whether the entity tagged is face f, an edge of f or a vertex of f:
  // looked up in f's own lists, which stay in cache through a split, not in
  // the entity's.
  bool in_closure_of_face(const Tag& tag, int f) const {
    const auto has = [](const std::vector<int>& list, int x) { return std::find(list.begin(), list.end(), x) != list.end(); };
    switch (tag.kind) {
      case Kind::face: return tag.index == f;
      case Kind::edge: return has(polyhedron_.face_edges(f), tag.index);
      case Kind::vertex: return has(polyhedron_.face(f), tag.index);
    }
    return false;
  }

  // Whether both vertices of the carrier are vertices of face f: then the
  // point it carries lies in f's support plane (faces are exactly planar).
  bool in_face_plane(const Carrier& carrier, int f) const {
    if (!carrier.known()) return false;
    const auto& face = polyhedron_.face(f);
    const auto has = [&](int v) { return std::find(face.begin(), face.end(), v) != face.end(); };
    return has(carrier.a) && (carrier.b == carrier.a || has(carrier.b));
  }

  // side(cut.plane, x) for point `id` of the table, x, read from the table's
  // copy of its interval approximation first.
  //  - Zero, without evaluation, where the carrier puts x in the plane of
  //    the cut's face: a vertex of the face, or a crossing of an earlier cut
  //    with an edge or diagonal of the face (or with a segment between two of
  //    its vertices), tested against the face's plane; no filter decides
  //    these, and the crossings' exact values are rationals.
  //  - A point held exactly in doubles (the input's vertices, and many cut
  //    points) against a face's support plane: CGAL's orientation of the
  //    face's three plane vertices and the point, the same sign (n = (b - a)
  //    x (c - a), n . (x - a)), from a static filter with an exact fallback
  //    in doubles' expansions rather than in rationals.
  //  - Against a balancing plane x_k + d = 0: sign(x_k + d), one sum.
  int side_of(const Cut& cut, int id) const {
    const Approximated x{table_.point(id), table_.approximation(id)};
    if (cut.kind == CutKind::balancing)
      return filtered_sign([&](const auto& r) {
        using N = std::decay_t<decltype(r(cut.plane.d))>;
        return N(x(r)[std::size_t(cut.axis)] + r(cut.plane.d));
      });
    if (cut.kind == CutKind::support) {
      if (in_face_plane(table_.carrier(id), cut.face)) return 0;
      const auto& [ax, ay, az] = x.approximation;
      if (ax.is_point() && ay.is_point() && az.is_point()) {
        const auto& [a, b, c] = polyhedron_.plane_vertices(cut.face);
        return int(CGAL::orientation(input_point(a), input_point(b), input_point(c),
                                     CGAL::Epick::Point_3(ax.inf(), ay.inf(), az.inf())));
      }
    }
    return side_of_plane(cut.plane.n, cut.plane.d, x);
  }

  CGAL::Epick::Point_3 input_point(int v) const {
    const Eigen::Vector3d& x = polyhedron_.vertex(v);
    return {x.x(), x.y(), x.z()};
  }

  // Whether piece p is one of the cell's entities still to separate (step 5):
  // in a 3-cell a 2D piece; in a 2-cell a 1D piece of an edge or of a face
  // crossing the plane; in a 1-cell a point (not of a face holding the line).
  bool to_separate(const BrepPiece& p, const Cell& cell) const {
    switch (cell.dim) {
      case 3: return p.dim == 2;
      case 2:
        return p.dim == 1 &&
               (p.tag.kind == Kind::edge || (p.tag.kind == Kind::face && transversal(p.tag.index, cell)));
      case 1: return p.dim == 0 && (p.tag.kind != Kind::face || transversal(p.tag.index, cell));
      default: return false;
    }
  }

  // The entities still to separate in a cell: the first one to cut along
  // (the least Tag: vertices, edges, faces, then by index) with its first
  // piece in the cell, and their number, counted up to limit + 1 (limit < 0:
  // not counted), all that the balancing rule asks. One pass: an entity is
  // counted where its mark is not this call's.
  struct Candidates {
    const BrepPiece* first = nullptr;
    int count = 0;
  };
  Candidates candidates(const Cell& cell, int limit) const {
    Candidates out;
    ++counting_;
    const auto take = [&](const BrepPiece& p) {
      if (!out.first || p.tag < out.first->tag) out.first = &p;
      if (out.count > limit) return;
      std::uint32_t& mark = counted_[entity_id(p.tag)];
      if (mark != counting_) {
        mark = counting_;
        ++out.count;
      }
    };
    for (const BrepPiece& p : cell.pieces)
      if (to_separate(p, cell)) take(p);
    if (!out.first && cell.dim == 2)  // only isolated vertices touching the plane
      for (const BrepPiece& p : cell.pieces)
        if (p.dim == 0 && p.tag.kind == Kind::vertex) take(p);
    return out;
  }

  // A number per entity: vertices, then edges, then faces.
  std::size_t entity_id(const Tag& tag) const {
    switch (tag.kind) {
      case Kind::vertex: return std::size_t(tag.index);
      case Kind::edge: return std::size_t(polyhedron_.vertex_count() + tag.index);
      case Kind::face: break;
    }
    return std::size_t(polyhedron_.vertex_count() + polyhedron_.edge_count() + tag.index);
  }

  Cut choose_cut(const Cell& cell, int node) {
    const Candidates c = candidates(cell, options_.balance ? options_.balance_threshold : -1);
    if (options_.balance && cell.dim >= 1 && c.count > options_.balance_threshold)
      if (auto cut = balancing_cut(cell)) return *cut;
    if (!c.first)
      fail(node, "a " + std::to_string(cell.dim) + "-cell that is not homogeneous has nothing to cut along");
    return cut_through(c.first->tag, *c.first, cell, node);
  }

  // The direction of a 1-cell's line, constructed (for an auxiliary cut).
  static Vec line_vector(const Cell& cell) { return cross(cell.line->recipe().n1, cell.line->recipe().n2); }

  // Step 5: a plane through the entity's piece, transversal to the cell.
  Cut cut_through(const Tag& tag, const BrepPiece& piece, const Cell& cell, int node) const {
    const auto support = [&](int f) -> std::optional<Cut> {
      if (transversal(f, cell)) return Cut{face_plane(f), CutKind::support, f};
      return std::nullopt;
    };
    switch (tag.kind) {
      case Kind::face:
        if (auto cut = support(tag.index)) return *cut;
        break;
      case Kind::edge: {
        const Edge& e = polyhedron_.edge(tag.index);
        for (const int f : e.faces)
          if (auto cut = support(f)) return *cut;
        if (cell.dim == 2) {  // both faces lie in the cell's plane: a flat edge
          const Vec& p0 = point(e.vertices[0]);
          return {plane_through(cross(*cell.normal, sub(point(e.vertices[1]), p0)), p0), CutKind::auxiliary, -1};
        }
        // A 1-cell on a line crossing an edge between two coplanar faces, in
        // their plane.
        if (cell.dim == 1) return {plane_through(line_vector(cell), table_.point(table_.corners(piece).front())), CutKind::auxiliary, -1};
        break;
      }
      case Kind::vertex: {
        for (const int f : polyhedron_.vertex_faces(tag.index))
          if (auto cut = support(f)) return *cut;
        // A 1-cell along a line in the plane of all of v's faces through v
        // (v where coplanar faces meet). In a 2-cell some face of v is
        // transversal: were all of them in the cell's plane, they would
        // have 2D pieces around v and v would not be cut alone.
        if (cell.dim == 1) return {plane_through(line_vector(cell), point(tag.index)), CutKind::auxiliary, -1};
        break;
      }
    }
    fail(node, std::string("no plane through ") + kind_name(tag.kind) + " " + std::to_string(tag.index) +
                   " is transversal to the " + std::to_string(cell.dim) + "-cell");
  }

  // An axis-aligned plane through the median point piece, along the axis of
  // largest spread, that leaves pieces strictly on both sides.
  std::optional<Cut> balancing_cut(const Cell& cell) {
    std::vector<const Vec*>& points = median_points_;
    points.clear();
    for (const BrepPiece& p : cell.pieces)
      if (p.dim == 0) points.push_back(&table_.point(table_.corners(p).front()));
    if (points.empty()) return std::nullopt;
    std::array<double, 3> spread{};
    std::array<int, 3> axes{0, 1, 2};
    for (std::size_t k = 0; k < 3; ++k) {
      double lo = CGAL::to_double((*points.front())[k]), hi = lo;
      for (const Vec* p : points) {
        const double x = CGAL::to_double((*p)[k]);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
      spread[k] = hi - lo;
    }
    std::stable_sort(axes.begin(), axes.end(), [&](int a, int b) { return spread[std::size_t(a)] > spread[std::size_t(b)]; });
    for (const int axis : axes) {
      const std::size_t k = std::size_t(axis);
      Vec normal{FT(0), FT(0), FT(0)};
      normal[k] = FT(1);
      if (!transversal(normal, cell)) continue;
      const auto middle = points.begin() + std::ptrdiff_t(points.size() / 2);
      std::nth_element(points.begin(), middle, points.end(), [&](const Vec* a, const Vec* b) { return (*a)[k] < (*b)[k]; });
      const Cut cut{{normal, -(**middle)[k]}, CutKind::balancing, -1, axis};
      if (on_both_sides(cell, cut)) return cut;
    }
    return std::nullopt;
  }

  // Whether the cell has piece points strictly on both sides of the plane
  // (stops at the first pair found).
  bool on_both_sides(const Cell& cell, const Cut& cut) {
    bool above = false, below = false;
    table_.begin_cut(cut.plane);
    const auto side_of_plane = [&](int id) { return side_of(cut, id); };
    for (const BrepPiece& p : cell.pieces)
      for (const int id : table_.corners(p)) {
        const int s = table_.side(id, side_of_plane);
        above = above || s > 0;
        below = below || s < 0;
        if (above && below) return true;
      }
    return false;
  }

  BrepIndexCut describe(const Cut& cut) const {
    BrepIndexCut out;
    out.kind = cut.kind;
    out.face = cut.face;
    const Eigen::Vector3d n(CGAL::to_double(cut.plane.n[0]), CGAL::to_double(cut.plane.n[1]),
                            CGAL::to_double(cut.plane.n[2]));
    const double norm = n.norm();
    out.normal = n / norm;
    out.offset = CGAL::to_double(cut.plane.d) / norm;
    return out;
  }

  // Step 4. Returns inside or outside, the class of the empty child on side
  // `side` (+1 above, -1 below) of the cut in `cell`. A piece of the cut's
  // own face f needs no evaluation: u is `side` times a positive multiple of
  // n_f's projection onto the cell, so n_f . u has the sign of `side` (the
  // cut is transversal to the cell).
  Location classify_empty(const Cell& cell, const Cut& cut, int side, const std::vector<BrepPiece>& on,
                          int node) const {
    const Direction u = direction(cut.plane.n, cell, side);
    const auto face_side = [&](int f) {
      return cut.kind == CutKind::support && f == cut.face ? side : u.face_dot_sign(f);
    };
    for (const Kind kind : {Kind::face, Kind::edge, Kind::vertex})
      for (const BrepPiece& piece : on) {
        if (piece.tag.kind != kind) continue;
        const int s = kind == Kind::face   ? face_side(piece.tag.index)
                      : kind == Kind::edge ? local_edge(piece.tag.index, u)
                                           : local_vertex(piece.tag.index, u, node);
        if (s == 0)
          fail(node, std::string("an empty cell borders ") + kind_name(kind) + " " + std::to_string(piece.tag.index) +
                         " along the boundary");
        return {s < 0 ? Region::inside : Region::outside, -1};
      }
    fail(node, "an empty cell with no piece on its cut");
  }

  // Edge convexity: sign(n_1 . w_2), w_2 the direction from the edge into
  // face 2 (its left side, seen from outside): < 0 convex, > 0 reflex,
  // 0 flat (coplanar faces). Evaluated as sign(n_1 . (c - p_0)), c the third
  // vertex of face 2's triangle on the edge: c - p_0 = alpha w_2 + beta
  // (p_1 - p_0) with alpha > 0 (the triangle lies in face 2 beside the edge)
  // and n_1 . (p_1 - p_0) = 0, so the sign is the same; it is the
  // orientation of face 1's plane vertices and c, on the input points.
  int edge_convexity(int e) const {
    int& convexity = edge_convexity_[std::size_t(e)];
    if (convexity == kUnknownConvexity) {
      const Edge& edge = polyhedron_.edge(e);
      const auto& [a, b, c] = polyhedron_.plane_vertices(edge.faces[0]);
      convexity = int(CGAL::orientation(input_point(a), input_point(b), input_point(c),
                                        input_point(opposite_vertex(edge, edge.faces[1]))));
    }
    return convexity;
  }

  // The vertex facing the edge in the triangle of face f (one of the
  // edge's faces) that has the edge as a side.
  int opposite_vertex(const Edge& edge, int f) const {
    const auto& [p0, p1] = edge.vertices;
    for (int t = face_triangles_[std::size_t(f)]; t < face_triangles_[std::size_t(f) + 1]; ++t) {
      const auto& v = polyhedron_.triangles()[std::size_t(triangles_by_face_[std::size_t(t)])].vertices;
      const auto has = [&](int x) { return std::find(v.begin(), v.end(), x) != v.end(); };
      if (has(p0) && has(p1))
        for (const int x : v)
          if (x != p0 && x != p1) return x;
    }
    throw ComputationError(polyhedron_.name() + ": Brep-index construction: no triangle of face " + std::to_string(f) +
                           " has edge " + std::to_string(edge.vertices[0]) + "-" + std::to_string(edge.vertices[1]));
  }

  // The corners of the faces around vertex v, into `corners`.
  void vertex_corners(int v, std::vector<Corner>& corners) const {
    corners.clear();
    for (const int f : polyhedron_.vertex_faces(v)) {
      const auto& face = polyhedron_.face(f);
      const std::size_t k = face.size();
      const std::size_t i = std::size_t(std::find(face.begin(), face.end(), v) - face.begin());
      const int a = face[(i + k - 1) % k], b = face[(i + 1) % k];
      // sign(n . (eb x ea)) is the orientation of (v, b, a) in the face's
      // plane against that of its plane vertices, which give n: two exact
      // predicates on the input points, no construction.
      const CGAL::Orientation turn = CGAL::coplanar_orientation(input_point(v), input_point(b), input_point(a));
      corners.push_back({f, turn == CGAL::COLLINEAR ? 0 : turn == face_turn(f) ? 1 : -1, v, a, b});
    }
  }

  // The orientation of face f's plane vertices in its plane, found on the
  // first call (the corners of a face's vertices share it).
  CGAL::Orientation face_turn(int f) const {
    std::int8_t& turn = face_turns_[std::size_t(f)];
    if (turn == kUnknownTurn) {
      const auto& [pa, pb, pc] = polyhedron_.plane_vertices(f);
      turn = std::int8_t(CGAL::coplanar_orientation(input_point(pa), input_point(pb), input_point(pc)));
    }
    return CGAL::Orientation(turn);
  }

  // The local class at a point of edge e in direction u: -1 inside, +1
  // outside, 0 on the boundary.
  int local_edge(int e, const Direction& u) const {
    const Edge& edge = polyhedron_.edge(e);
    const int s1 = u.face_dot_sign(edge.faces[0]);
    const int s2 = u.face_dot_sign(edge.faces[1]);
    const int convexity = edge_convexity(e);
    if (convexity < 0) return s1 > 0 || s2 > 0 ? 1 : s1 < 0 && s2 < 0 ? -1 : 0;  // inside: below both planes
    if (convexity > 0) return s1 < 0 || s2 < 0 ? -1 : s1 > 0 && s2 > 0 ? 1 : 0;  // inside: below either
    return s1;                                                                    // flat: one plane
  }

  // Whether direction w (in the plane of the corner's face, w != 0) lies in
  // the face's corner sector: strictly inside, or in its closure; given
  // side_a = sign(n . (ea x w)) and side_b = sign(n . (eb x w)).
  static bool in_sector(const Corner& c, int side_a, int side_b, bool strict) {
    if (c.turn > 0) {
      const int s1 = side_b, s2 = -side_a;
      return strict ? s1 > 0 && s2 > 0 : s1 >= 0 && s2 >= 0;
    }
    if (c.turn < 0) {
      const int s1 = side_a, s2 = -side_b;
      return strict ? !(s1 >= 0 && s2 >= 0) : !(s1 > 0 && s2 > 0);
    }
    return strict ? side_b > 0 : side_b >= 0;
  }

  // The corner's sides ea and eb, as sources (filtered_sign.hpp).
  std::array<CornerSide, 2> corner_sides(const Corner& c) const {
    return {CornerSide(Difference{vertex(c.a), vertex(c.v)}), CornerSide(Difference{vertex(c.b), vertex(c.v)})};
  }

  // The local class at vertex v in direction u (-1 inside, +1 outside, 0 on
  // the boundary): step 4's parity count over the corner sectors of v. The
  // directions u, ea, eb and q are not constructed: their signs are
  // evaluated from their recipes (filtered_sign.hpp).
  int local_vertex(int v, const Direction& direction, int node) const {
    std::vector<Corner>& corners = corners_;
    vertex_corners(v, corners);
    const Derived u([&](const auto& r) { return direction.vector(r); });
    std::vector<std::array<CornerSide, 2>>& sides = corner_sides_;
    sides.clear();
    for (const Corner& c : corners) sides.push_back(corner_sides(c));
    // sign(n_f . u) for each corner's face f, once: every path below asks for
    // them, and where u lies in a face's plane only the exact path decides.
    std::vector<int>& u_sides = u_sides_;
    u_sides.clear();
    for (const Corner& c : corners) u_sides.push_back(direction.face_dot_sign(c.face));
    // In a 1-cell, u runs along the line through v: parallel to a corner's
    // side towards another vertex on the line.
    const auto along = [&](int w) { return direction.cell.dim == 1 && on_line(w, direction.cell); };
    // Where u is known parallel to a corner's side, their orientation is a
    // zero, not evaluated (only rationals could).
    for (std::size_t k = 0; k < corners.size(); ++k) {
      const Corner& c = corners[k];
      if (u_sides[k] != 0) continue;
      const Approximated n = face_normal(c.face);
      const auto& [ea, eb] = sides[k];
      const int side_a = along(c.a) ? 0 : triple_sign_of(n, ea, u), side_b = along(c.b) ? 0 : triple_sign_of(n, eb, u);
      if (in_sector(c, side_a, side_b, false)) return 0;
    }
    // Directions q strictly inside a corner sector, for parameters lambda =
    // i / m in (0, 1), each scaled by m > 0 (only q's direction matters):
    // convex: lambda ea + (1 - lambda) eb; reflex: the negative of that;
    // straight: n x eb + (2 lambda - 1) eb.
    for (int m = 2; m <= 12; ++m)
      for (int i = 1; i < m; ++i) {
        if (std::gcd(i, m) != 1) continue;
        for (std::size_t k = 0; k < corners.size(); ++k) {
          if (u_sides[k] == 0) continue;  // no side of the corner's plane to arrive from
          const Corner& c = corners[k];
          const Approximated n = face_normal(c.face);
          // References, not a structured binding: the lambda captures them
          // (C++20 allows capturing bindings; Debian's clang, the sanitizer
          // build's compiler, does not yet).
          const CornerSide& ea = sides[k][0];
          const CornerSide& eb = sides[k][1];
          const Derived q([&](const auto& r) {
            if (c.turn == 0) return plus(times(m, cross(n(r), eb(r))), times(2 * i - m, eb(r)));
            const auto sum = plus(times(i, ea(r)), times(m - i, eb(r)));
            return c.turn > 0 ? sum : negated(sum);
          });
          if (auto s = parity(corners, sides, u_sides, k, u, q)) return *s;
        }
      }
    fail(node, "no generic path from the direction to a face of vertex " + std::to_string(v));
  }

  // Follows s(t) = (1 - t) u + t q, t in [0, 1), q strictly inside the
  // sector of corner k, whose plane u is off (u_sides[k] != 0); nullopt
  // where the path is not generic. u_sides: sign(n_f . u) per corner; u and
  // q: sources (filtered_sign.hpp).
  template <class U, class Q>
  std::optional<int> parity(const std::vector<Corner>& corners, const std::vector<std::array<CornerSide, 2>>& sides,
                            const std::vector<int>& u_sides, std::size_t k, const U& u, const Q& q) const {
    if (parallel_of(u, q)) return std::nullopt;  // the path would pass through direction 0
    int crossings = 0;
    for (std::size_t j = 0; j < corners.size(); ++j) {
      if (j == k) continue;  // the path meets corner k's plane only at its end
      const Corner& g = corners[j];
      const Approximated n = face_normal(g.face);
      const int sa = u_sides[j], sb = dot_sign_of(n, q);
      if (sa == 0 && sb == 0) return std::nullopt;  // the path lies in g's plane
      if (sa * sb >= 0) continue;  // no crossing in (0, 1): u is not in g's sector, q not in g's
      // The crossing u + a / (a - b) (q - u) = (a q - b u) / (a - b), with
      // a = n . u and b = n . q of opposite signs, so that a - b has sa's
      // sign: w = sa (a q - b u) is a positive multiple of it, its
      // orientations against the corner's sides evaluated without
      // constructing it.
      const auto& [ea, eb] = sides[j];
      const int side_a = sa * crossing_triple_sign_of(n, ea, n, u, q);
      const int side_b = sa * crossing_triple_sign_of(n, eb, n, u, q);
      if (in_sector(g, side_a, side_b, true))
        ++crossings;
      else if (in_sector(g, side_a, side_b, false))
        return std::nullopt;  // through a side ray of the sector
    }
    // Just before q the path is on side u_sides[k] of corner k's face, near
    // the open face: inside iff that side is below. Each crossing flips.
    const bool inside = (u_sides[k] < 0) != (crossings % 2 == 1);
    return inside ? -1 : 1;
  }

  const Polyhedron& polyhedron_;
  BrepIndexOptions options_;
  std::vector<Vec> points_;
  std::vector<XPlane> face_planes_;
  std::vector<Vec3<Approximation>> face_normal_approximations_;  // by face
  PieceTable table_;  // the cells' pieces' corners
  static constexpr int kUnknownConvexity = 2;
  mutable std::vector<int> edge_convexity_;           // by edge, kUnknownConvexity until asked for
  // Face f's triangles: triangles_by_face_[face_triangles_[f], face_triangles_[f + 1]).
  std::vector<int> face_triangles_, triangles_by_face_;
  // candidates' marks, by entity_id: the call that last counted the entity.
  mutable std::vector<std::uint32_t> counted_;
  mutable std::uint32_t counting_ = 0;
  static constexpr std::int8_t kUnknownTurn = 2;
  mutable std::vector<std::int8_t> face_turns_;       // by face, kUnknownTurn until asked for
  // local_vertex's buffers.
  mutable std::vector<Corner> corners_;
  mutable std::vector<std::array<CornerSide, 2>> corner_sides_;
  mutable std::vector<int> u_sides_;
  std::vector<int> signs_;                            // split's buffer
  std::vector<const Vec*> median_points_;             // balancing_cut's buffer
  // The cells' shared geometry (see Cell).
  std::deque<Vec> normals_;
  std::deque<Line> lines_;
  std::vector<int> line_vertices_;
  // Piece lists of finished cells, for new cells to reuse: a build makes
  // about 10^6 cells, most with a handful of pieces. The few long lists
  // (near the root) are freed rather than kept.
  static constexpr std::size_t kLongList = 4096;
  std::vector<std::vector<BrepPiece>> spare_lists_;
  std::vector<BrepPiece> spare_list() {
    if (spare_lists_.empty()) return {};
    std::vector<BrepPiece> list = std::move(spare_lists_.back());
    spare_lists_.pop_back();
    return list;
  }
  void recycle(std::vector<BrepPiece>&& list) {
    if (list.capacity() == 0 || list.capacity() > kLongList) return;
    list.clear();
    spare_lists_.push_back(std::move(list));
  }
};

}  // namespace

struct BrepIndex::Exact {
  std::vector<XPlane> planes;
  // CGAL's form of the planes, built on the first exact_cut_plane call (a
  // fifth of a build when it was built with the index, for one test's use).
  mutable std::once_flag cgal_once;
  mutable std::vector<Epeck::Plane_3> cgal_planes;
};

const char* to_string(Region region) {
  switch (region) {
    case Region::outside: return "outside";
    case Region::inside: return "inside";
    case Region::face: return "face";
    case Region::edge: return "edge";
    case Region::vertex: return "vertex";
  }
  return "?";
}

std::string to_string(const Location& location) {
  std::string out = to_string(location.region);
  if (location.entity >= 0) {
    out += ' ';
    out += std::to_string(location.entity);
  }
  return out;
}

int BrepIndex::locate(const Eigen::Vector3d& point) const {
  if (!point.allFinite()) throw InputError("Brep-index query: the point has a coordinate that is not finite");
  const Vec x = exact_point(point);
  int i = 0;
  while (!nodes_[std::size_t(i)].is_leaf()) {
    const BrepIndexNode& node = nodes_[std::size_t(i)];
    const int s = side(exact_->planes[std::size_t(node.cut)], x);
    i = node.children[s > 0 ? 0 : s == 0 ? 1 : 2];
  }
  return i;
}

Location BrepIndex::classify(const Eigen::Vector3d& point) const { return nodes_[std::size_t(locate(point))].location; }

const std::vector<XPlane>& exact_cut_planes(const BrepIndex& index) { return index.exact_->planes; }

const CGAL::Plane_3<CGAL::Epeck>& BrepIndex::exact_cut_plane(int c) const {
  std::call_once(exact_->cgal_once, [this] {
    for (const XPlane& p : exact_->planes) exact_->cgal_planes.emplace_back(p.n[0], p.n[1], p.n[2], p.d);
  });
  return exact_->cgal_planes[std::size_t(c)];
}

BrepIndex build_brep_index(const Polyhedron& polyhedron, const BrepIndexOptions& options) {
  if (options.balance_threshold < 0)
    throw InputError(polyhedron.name() + ": Brep-index option balance_threshold must be >= 0 (it is " +
                             std::to_string(options.balance_threshold) + ")");
  BrepIndex index;
  index.options_ = options;
  auto exact = std::make_shared<BrepIndex::Exact>();
  Builder(polyhedron, options).build(index.nodes_, index.cuts_, exact->planes);
  index.exact_ = std::move(exact);

  BrepIndexStatistics& s = index.statistics_;
  double leaf_depths = 0, node_depths = 0, solid_depths = 0;
  int solid_leaves = 0;
  for (const BrepIndexNode& node : index.nodes_) {
    node_depths += node.depth;
    if (!node.is_leaf()) {
      ++s.internal_nodes;
      continue;
    }
    ++s.leaves;
    s.max_depth = std::max(s.max_depth, node.depth);
    leaf_depths += node.depth;
    ++s.leaves_by_region[std::size_t(node.location.region)];
    ++s.leaves_by_dimension[std::size_t(node.dimension)][std::size_t(node.location.region)];
    if (node.dimension == 3) {
      solid_depths += node.depth;
      ++solid_leaves;
    }
  }
  s.mean_depth = leaf_depths / s.leaves;
  s.mean_node_depth = node_depths / double(index.nodes_.size());
  s.mean_solid_leaf_depth = solid_depths / solid_leaves;
  for (const BrepIndexCut& cut : index.cuts_) {
    if (cut.kind == CutKind::support) ++s.support_cuts;
    if (cut.kind == CutKind::auxiliary) ++s.auxiliary_cuts;
    if (cut.kind == CutKind::balancing) ++s.balancing_cuts;
  }
  return index;
}

}  // namespace contactref::robust_geometry
