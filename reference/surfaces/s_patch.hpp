#pragma once
// S-patches (Loop & DeRose 1989; Kry's thesis 5.2-5.3, Eqs 5.6-5.20) and their
// use as the replacement of a Loop surface around an extraordinary vertex (EV),
// where Stam's parameterisation degenerates (thesis 5.1.2).
//
// An n-sided S-patch of degree d is S = B o L (Fig 5.6): the embedding L maps
// the regular n-gon of unit area (vertex P_0 on the positive s axis,
// counter-clockwise) into the (n-1)-simplex by
//   alpha_k(p) = det[P_k 1; P_{k+1} 1; p 1]        (5.13, indices mod n)
//   pi_k(p)    = prod_{j != k-1, k} alpha_j(p)      (5.14)
//   l_k(p)     = pi_k(p) / sum_j pi_j(p)            (5.15, 5.16)
// and B is the Bezier simplex sum_{|i|=d} V_i d!/(i_0!...i_{n-1}!) prod l_k^(i_k)
// (5.10-5.12). Edge k (P_k to P_{k+1}) maps onto the simplex edge from vertex
// k to k + 1 with l_{k+1}(P_k (1-u) + P_{k+1} u) = u (5.17), so it is the
// degree-d Bezier curve of the control points V_{(d-j) e_k + j e_{k+1}}. The
// partial derivatives to third order come from forward-mode differentiation
// (jet_arithmetic.hpp; thesis 5.3.1).
//
// Replacing a Loop EV of valence n (5.2.2, Figs 5.7-5.10): the S-patch fills the
// EV corners (0,0), (1/2,0), (0,1/2) of the n faces around the EV; polygon
// vertex P_k is the midpoint of spoke k (the edge from the EV to ring[k]) and
// edge k borders the "centre refinement" of face k = (EV, ring[k], ring[k+1]),
// the middle child (1/2,0), (1/2,1/2), (0,1/2) after one subdivision, a
// regular quartic patch. Its control points are set by C^2 matching against
// the n centre refinements through their blossoms (5.19). Two flaws of the
// thesis's construction are fixed (shared/notes/smooth-contact.md 6.3):
//  - the blossom: each centre refinement is converted to its 15 quartic
//    triangular Bezier points and blossomed by de Casteljau with distinct
//    arguments (triangle_bezier.hpp), not by substituting symmetric means
//    factor by factor, which is wrong for mixed monomials;
//  - the points that several edges want, and for n >= 8 the points that no
//    edge wants: see SharedControlRule.
// What the matching gives (measured in tests/reference/surfaces/s_patch_test.cpp,
// lines "[s-patch]"), with the defaults SPatchMatching{}:
//  - C0 along every edge: the edge curve's control points are the centre
//    refinement's own;
//  - the Loop surface's tangent plane at every corner P_k (Fig 5.10): the
//    S-patch's first derivatives there depend on the two edge curves only;
//  - for n = 6, C1 along the whole edge: with T_k tiling the Loop lattice,
//    neighbouring centre refinements share their 2-jet at the spoke midpoint
//    between them, so they agree on every point at distance 1 of an edge;
//  - for n != 6, not C1 (nor G1) inside the edges: the S-patch's gradient at
//    P_k is fixed by the two edge curves, which meet at the polygon's angle
//    pi (n - 2) / n where the Loop lattice's meet at 2 pi / 3, so no affine
//    chart of T_k agrees with both corners of its edge. The normal jumps by up
//    to 0.005 rad (n = 3), 0.004 (4), 0.001-0.004 (5), 0.002 (7), 0.005 (8),
//    0.0075 (9, 10) on the test meshes (the thesis's equilateral placement and
//    first-come-first-served rule: 0.06, 0.04, 0.01-0.03, 0.01, 0.02, 0.03, 0.02);
//  - C2 nowhere (points at distance 2 of two edges conflict even for n = 6);
//  - the shape: the S-patch's centre, which stands for the EV, lies within
//    1% of the Loop limit position of the EV (relative to the distance of the
//    spoke midpoints from it; the thesis's choices: 3% to 26%, the surface
//    "only slightly flatter than the original" of its Fig 5.5).
#include <memory>
#include <string>
#include <vector>

#include "reference/surfaces/jet_arithmetic.hpp"
#include "reference/surfaces/loop_surface.hpp"

namespace contactref::surfaces {

// The regular n-gon of unit area centred at the origin, vertex 0 on the
// positive s axis, counter-clockwise (thesis 5.2.1): circumradius
// sqrt(2 / (n sin(2 pi / n))).
template <class T>
std::vector<Vec2<T>> s_patch_polygon(int sides);

// The multi-indices i (|i| = d, Eqs 5.8, 5.9) of an n-sided S-patch of degree d,
// each written as its argument bag: the non-decreasing list of d polygon
// vertices with vertex k repeated i_k times; in lexicographic order.
// C(n + d - 1, d) bags.
std::vector<std::vector<int>> s_patch_bags(int sides, int degree);

template <class T>
class SPatch final : public Patch<T> {
 public:
  // control[m] is V_i for bag m of s_patch_bags(sides, degree). Throws
  // InputError for sides < 3, degree < 1, a wrong number of control points or a
  // non-finite one.
  SPatch(int sides, int degree, std::vector<Vec3<T>> control, std::string name);

  // S = B o L and its partial derivatives at (s, t). Points just outside the
  // polygon are accepted (an integrator stage may cross an edge slightly),
  // up to outside_margin() beyond an edge's line; farther out is refused
  // (InputError).
  PatchJet<T> evaluate(const T& s, const T& t) const override;
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override;

  int sides() const { return int(domain_.polygon.size()); }
  int degree() const { return degree_; }
  const std::vector<std::vector<int>>& bags() const { return bags_; }
  const std::vector<Vec3<T>>& control_points() const { return control_; }
  // The embedding L (5.16): l_k at (s, t) with its derivatives, k = 0..n-1.
  std::vector<TaylorJet<T>> embedding(const T& s, const T& t) const;

  // A tenth of the inradius, and for n >= 5 at most half the distance to the
  // points where the lines of edges k and k + 2 meet: sum_j pi_j vanishes on a
  // curve through them (the adjoint of the polygon; for n = 3, 4 it is
  // constant), ever closer to the polygon as n grows.
  const T& outside_margin() const { return outside_margin_; }

 private:
  int degree_;
  std::vector<std::vector<int>> bags_;
  std::vector<int> first_changed_;  // the first position at which bag m differs from bag m - 1
  std::vector<T> multinomial_;      // d! / (i_0! ... i_{n-1}!) (5.11)
  std::vector<Vec3<T>> control_;
  // The Bernstein weights sum to 1 and their derivatives to 0: summing the
  // control points less their mean keeps the derivatives' cancellation small.
  Vec3<T> centre_;
  std::vector<Vec3<T>> offsets_;
  Domain<T> domain_;
  std::vector<Vec3<T>> alpha_;  // alpha_k(s, t) = alpha_k(0) s + alpha_k(1) t + alpha_k(2) (5.13)
  T outside_margin_;
  std::string name_;
};

// Where the neighbour's parameter triangle T_k is placed against edge k
// (5.19, Fig 5.7). Its corners (s, t) = (0, 0), (1, 0), (0, 1) go to an apex
// outside edge k, to P_{k+1} and to P_k; the apex fixes the affine chart in
// which the S-patch and the neighbour are matched.
enum class NeighbourPlacement {
  // The thesis: the equilateral triangle on edge k (the Loop lattice is
  // equilateral).
  kEquilateral,
  // The apex at P_k + P_{k+1}: T_k is the centre triangle (0, P_k, P_{k+1})
  // reflected through the midpoint of edge k. For a Loop EV this is the chart
  // that maps (0, P_k, P_{k+1}) onto the EV corner (0, 0), (1/2, 0), (0, 1/2)
  // that the S-patch replaces (the centre refinement completes that corner to
  // a parallelogram), so that the n charts agree at the centre, which stands
  // for the EV. For n = 6 both placements coincide.
  kCentreChart,
};

// How a control point that C^2 matching gives to several edges, or to none,
// is set. The distance of bag i from edge k is d - i_k - i_{k+1}, the number of
// its arguments off that edge; edge k wants the points within distance 2 of it
// (thesis 5.2.2).
enum class SharedControlRule {
  // The thesis: first come, first served in edge order 0, 1, ..., except that
  // a point on an edge (distance 0) comes from the patch across that edge.
  kFirstComeFirstServed,
  // The nearest edges decide and their blossoms are averaged. An edge's C^j
  // needs its points within distance j, so this disturbs the lowest orders
  // least: the C1 of edge k is disturbed only by points that another edge wants
  // at distance 0 (its edge curve) or 1 (averaged, half each). The thesis's
  // rule lets an edge that wants a point at distance 2 set it before an edge
  // that needs it at distance 1, which breaks C1 even for n = 6.
  kNearestAveraged,
};

// Both placements and both rules are kept so that the tests can measure the
// thesis's choices against these defaults (s_patch_test.cpp, [s-patch] lines).
struct SPatchMatching {
  NeighbourPlacement placement = NeighbourPlacement::kCentreChart;
  SharedControlRule rule = SharedControlRule::kNearestAveraged;
};
inline constexpr SPatchMatching kThesisMatching{NeighbourPlacement::kEquilateral,
                                                SharedControlRule::kFirstComeFirstServed};

// The corners of T_k: {apex, P_{k+1}, P_k}.
template <class T>
std::array<Vec2<T>, 3> s_patch_neighbour_triangle(int sides, int edge, NeighbourPlacement placement);

// The quartic S-patch C^2-matched to n quartic neighbours given in monomial
// form in their own parameters (neighbours[k] across edge k, placed by
// s_patch_neighbour_triangle): V_i = f_e*(P_0 (i_0 times), ..., P_{n-1}) (5.19)
// for the edge e chosen by `matching.rule`. Bags within distance 2 of no edge
// (four pairwise non-adjacent vertices, n >= 8) take the average of all n
// neighbours' blossoms: they do not affect the C^2 data of any edge, and like
// every other choice here the average reproduces a common polynomial exactly.
// Throws InputError for fewer than 3 neighbours.
template <class T>
SPatch<T> match_s_patch(const std::vector<QuarticCoefficients<T>>& neighbours, const SPatchMatching& matching,
                        const std::string& name);

// The centre refinements of the n faces around `vertex` of a Loop surface, in
// the child parameters of loop_eigenstructure (pick[2]): face k = (vertex,
// ring[k], ring[k+1]) with ring = topology().ring(vertex), child (0, 0), (1, 0),
// (0, 1) at the EV-local points (1/2, 1/2), (0, 1/2), (1/2, 0). Throws
// InputError unless every neighbour of `vertex` is regular (valence 6), i.e.
// unless `vertex` is the only EV of each of its faces.
template <class T>
std::vector<QuarticCoefficients<T>> loop_centre_refinements(const LoopSurface<T>& surface, int vertex);

// A Loop surface's EV replaced by an S-patch, with the n neighbouring Loop
// patches cut to the quadrilaterals that tile the rest of their faces.
//  - quads[k]: face faces[k]'s Loop patch in its EV-local parameters (a, b) (the
//    EV at (0, 0), ring[k] at (1, 0), ring[k+1] at (0, 1)) over the
//    quadrilateral (0, 1), (0, 1/2), (1/2, 0), (1, 0) (notes 5.2).
//  - Edge k of the S-patch (P_k to P_{k+1}) is edge 1 of quads[k] ((0, 1/2) to
//    (1/2, 0)): the point at fraction u along the S-patch edge is at fraction
//    g(u) = 1 - u along the quadrilateral's, (a, b) = ((1 - u) / 2, u / 2), as in
//    PatchComplex::neighbour_fraction.
//  - Edge 0 of quads[k] (on the spoke to ring[k+1]) is edge 2 of quads[k+1],
//    also with g(u) = 1 - u; edge 3 of quads[k] (ring[k] to ring[k+1]) is the
//    face's edge from ring[k] to ring[k+1], shared with the face across it
//    (g(u) = 1 - u along that face's own edge).
template <class T>
struct LoopSPatchReplacement {
  int vertex = -1;
  std::vector<int> ring;   // topology().ring(vertex)
  std::vector<int> faces;  // faces[k] = (vertex, ring[k], ring[k+1])
  std::unique_ptr<SPatch<T>> s_patch;
  std::vector<std::unique_ptr<Patch<T>>> quads;
};

template <class T>
LoopSPatchReplacement<T> replace_loop_vertex(const LoopSurface<T>& surface, int vertex,
                                             const SPatchMatching& matching = {});

}  // namespace contactref::surfaces
