// S-patches (Loop & DeRose 1989; Kry's thesis 5.2-5.3): the jet arithmetic and
// the quartic blossom against closed forms, the embedding's edge-preserving
// property (5.17), every derivative against 50-digit central differences,
// reproduction of a common quartic by the matching (5.19), continuity against
// the Loop surface on real meshes, double against 50 digits, and bad input.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <functional>
#include <iomanip>
#include <map>
#include <sstream>

#include "reference/surfaces/s_patch.hpp"
#include "reference/surfaces/triangle_bezier.hpp"
#include "tests/kit/patch_derivatives.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref::surfaces {
namespace {

TriangleMesh test_mesh(const std::string& name) {
  return read_triangle_mesh(contactref::test::source_dir() / "validation/fixtures/meshes" / name);
}

// A random point of the S-patch polygon (a random convex combination of the
// centre and two consecutive vertices).
template <class T>
Vec2<T> random_polygon_point(const SPatch<T>& patch, test::Rng& rng) {
  const auto& P = patch.domain().polygon;
  const auto k = std::size_t(fixtures::uniform(rng, 0, double(P.size()) - 1e-9));
  const double a = fixtures::uniform(rng, 0, 1), b = fixtures::uniform(rng, 0, 1 - a);
  return T(a) * P[k] + T(b) * P[(k + 1) % P.size()];
}

// Control points near the plane z = 0 over the polygon: V_i at the bag's mean
// vertex plus a seeded perturbation, so that the patch is regular.
template <class T>
std::vector<Vec3<T>> near_planar_control(int sides, test::Rng& rng) {
  const std::vector<Vec2<T>> P = s_patch_polygon<T>(sides);
  std::vector<Vec3<T>> control;
  for (const auto& bag : s_patch_bags(sides, 4)) {
    Vec2<T> mean = Vec2<T>::Zero();
    for (int k : bag) mean += P[std::size_t(k)] / T(4);
    control.push_back(Vec3<T>(mean.x(), mean.y(), T(0)) + test::random_vector3<T>(rng, 0.2));
  }
  return control;
}

TEST(JetArithmetic, ProductsAndReciprocalsGiveTheDerivativesOfClosedForms) {
  // g = 1 + s + 2t at (s, t) = (0.3, -0.2): d^(i+j)/ds^i dt^j of g^3 and of 1/g
  // by the power rule (the independent reference).
  const double g0 = 1 + 0.3 - 0.4;
  const TaylorJet<double> g = TaylorJet<double>::affine(g0, 1, 2);
  const TaylorJet<double> cube = g * g * g, inverse = reciprocal(g), one = g * inverse;
  for (int k = 0; k < kJetSize; ++k) {
    const int i = kJetOrders[std::size_t(k)][0], j = kJetOrders[std::size_t(k)][1], p = i + j;
    double falling = 1, rising = 1;  // 3!/(3-p)! and p!
    for (int x = 0; x < p; ++x) falling *= 3 - x, rising *= x + 1;
    const double chain = std::pow(2.0, j);  // d/dt brings a factor 2 per order
    // A handful of products of O(1) numbers: a few roundings each.
    EXPECT_NEAR(cube.derivative(i, j), falling * chain * std::pow(g0, 3 - p), test::tolerance<double>(64))
        << i << " " << j;
    EXPECT_NEAR(inverse.derivative(i, j), std::pow(-1.0, p) * rising * chain / std::pow(g0, p + 1),
                test::tolerance<double>(256))
        << i << " " << j;
    EXPECT_NEAR(one.derivative(i, j), k == 0 ? 1.0 : 0.0, test::tolerance<double>(256)) << i << " " << j;
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
// The polar form of s^a t^b as a quartic (notes 6.3):
// a! b! (4-a-b)! / 4! times the sum over disjoint ordered index sets I, J
// (|I| = a, |J| = b) of prod_{r in I} s_r prod_{r in J} t_r.
Real50 monomial_polar_form(int a, int b, const std::array<Vec2<Real50>, 4>& x) {
  Real50 sum = 0;
  for (int code = 0; code < 81; ++code) {  // each argument: 0 unused, 1 in I, 2 in J
    int c = code, in_i = 0, in_j = 0;
    Real50 product = 1;
    for (std::size_t r = 0; r < 4; ++r, c /= 3) {
      if (c % 3 == 1) product *= x[r].x(), ++in_i;
      if (c % 3 == 2) product *= x[r].y(), ++in_j;
    }
    if (in_i == a && in_j == b) sum += product;
  }
  const int factorial[] = {1, 1, 2, 6, 24};
  return sum * factorial[a] * factorial[b] * factorial[4 - a - b] / 24;
}

// The fix of the thesis's blossom (5.3): mixed monomials s^a t^b (a, b >= 1)
// included, where the thesis's factor-wise substitution of symmetric means is
// not the polar form (notes 6.3).
TEST(QuarticBlossom, DeCasteljauWithDistinctArgumentsIsThePolarFormOfEveryMonomial) {
  test::Rng rng(test::kSeed + 500);
  for (int trial = 0; trial < 4; ++trial) {
    std::array<Vec2<Real50>, 4> x;
    std::array<Vec3<Real50>, 4> barycentric;
    for (std::size_t r = 0; r < 4; ++r) {  // anywhere near the triangle, also outside
      x[r] = Vec2<Real50>(fixtures::uniform(rng, -1, 2), fixtures::uniform(rng, -1, 2));
      barycentric[r] = Vec3<Real50>(1 - x[r].x() - x[r].y(), x[r].x(), x[r].y());
    }
    for (int m = 0; m < kQuarticTerms; ++m) {
      QuarticCoefficients<Real50> monomial = QuarticCoefficients<Real50>::Zero();
      monomial(0, m) = 1;
      const Real50 blossom = quartic_blossom(quartic_bezier_from_monomials(monomial), barycentric)(0);
      const int a = kQuarticMonomials[std::size_t(m)][0], b = kQuarticMonomials[std::size_t(m)][1];
      // A few dozen 50-digit roundings of O(10) numbers.
      EXPECT_TRUE(test::scalars_near(blossom, monomial_polar_form(a, b, x), Real50("1e-45")))
          << "s^" << a << " t^" << b;
    }
  }
}
#endif  // CONTACTREF_HAS_REAL50

TEST(SPatchEmbedding, IsEdgePreservingAndPseudoAffine) {
  test::Rng rng(test::kSeed + 501);
  for (int n = 3; n <= 10; ++n) {
    const SPatch<double> patch(n, 1, std::vector<Vec3<double>>(std::size_t(n), Vec3<double>::Zero()), "embedding");
    const auto& P = patch.domain().polygon;
    // The domain: a regular n-gon of unit area, P_0 on the positive s axis, counter-clockwise.
    double area = 0;
    for (int k = 0; k < n; ++k)
      area += P[std::size_t(k)].x() * P[std::size_t((k + 1) % n)].y() -
              P[std::size_t((k + 1) % n)].x() * P[std::size_t(k)].y();
    EXPECT_NEAR(area / 2, 1.0, test::tolerance<double>(4 * n));
    EXPECT_NEAR(P[0].y(), 0.0, 0.0);
    EXPECT_GT(P[0].x(), 0.0);
    // (5.17): l_{k+1}(P_k (1-u) + P_{k+1} u) = u, l_k = 1 - u and every other l_j = 0:
    // L maps edge k onto the simplex edge from vertex k to k + 1.
    for (int k = 0; k < n; ++k) {
      for (double u : {0.0, 0.1, 0.37, 0.5, 0.9, 1.0}) {
        const Vec2<double> p = (1 - u) * P[std::size_t(k)] + u * P[std::size_t((k + 1) % n)];
        const auto l = patch.embedding(p.x(), p.y());
        for (int j = 0; j < n; ++j) {
          const double expected = j == (k + 1) % n ? u : j == k ? 1 - u : 0;
          // The alpha's vanish at p to round-off of its coordinates; the ratios of
          // products of n - 2 of them are exact to a few dozen roundings.
          EXPECT_NEAR(l[std::size_t(j)].value(), expected, test::tolerance<double>(16 * n))
              << n << " " << k << " " << u << " " << j;
        }
      }
    }
    // Pseudo-affine (Wachspress coordinates reproduce linear functions; the
    // property that lets the matching reproduce a common polynomial):
    // sum_k l_k(p) P_k = p, so its gradient is the identity and its higher
    // derivatives vanish.
    for (int trial = 0; trial < 5; ++trial) {
      const Vec2<double> p = random_polygon_point(patch, rng);
      const auto l = patch.embedding(p.x(), p.y());
      for (int c = 0; c < kJetSize; ++c) {
        Vec2<double> sum = Vec2<double>::Zero();
        for (int k = 0; k < n; ++k) sum += l[std::size_t(k)].c[std::size_t(c)] * P[std::size_t(k)];
        const Vec2<double> expected = c == 0   ? p
                                      : c == 1 ? Vec2<double>(1, 0)
                                      : c == 2 ? Vec2<double>(0, 1)
                                               : Vec2<double>(0, 0);
        // n jets of (n - 2) products and a reciprocal, 35 roundings each,
        // amplified by 1 / sum_j pi_j <= 1e2 at these points (measured).
        EXPECT_TRUE(test::matrices_near(sum, expected, test::tolerance<double>(35.0 * n * n, 1e2), test::kAbsolute))
            << n << " column " << c;
      }
    }
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(SPatch, DerivativesMatch50DigitFiniteDifferences) {
  test::Rng rng(test::kSeed + 502);
  for (int n : {3, 4, 5, 7, 10}) {
    const SPatch<Real50> patch(n, 4, near_planar_control<Real50>(n, rng), "random");
    const auto& P = patch.domain().polygon;
    std::vector<Vec2<Real50>> points = {Real50("0.999") * P[1], Real50("0.999") * (P[1] + P[2]) / 2,
                                        Vec2<Real50>(0, 0)};
    for (int k = 0; k < 3; ++k) points.push_back(random_polygon_point(patch, rng));
    // Near a corner the derivatives grow with n (the third derivatives of the
    // l_k reach 2e3 at 0.999 P_1 for n = 10); the bound grows with the jet.
    for (const auto& p : points) EXPECT_TRUE(test::derivatives_match_finite_differences(patch, p.x(), p.y())) << n;
  }
}

// The quartic F (3 x 15 monomial coefficients in the polygon's (s, t)) seen
// from the neighbour across edge k: f_k(x, y) = F(apex + x (P_{k+1} - apex) +
// y (P_k - apex)), by interpolation at the 15 points (i/4, j/4) (an
// independent route: no blossom).
QuarticCoefficients<Real50> neighbour_view(const QuarticCoefficients<Real50>& F,
                                           const std::array<Vec2<Real50>, 3>& triangle) {
  Eigen::Matrix<Real50, 15, 15> vandermonde;
  Eigen::Matrix<Real50, 15, 3> values;
  for (int m = 0; m < kQuarticTerms; ++m) {
    const Real50 x = Real50(kQuarticMonomials[std::size_t(m)][0]) / 4,
                 y = Real50(kQuarticMonomials[std::size_t(m)][1]) / 4;
    const Vec2<Real50> p = triangle[0] + x * (triangle[1] - triangle[0]) + y * (triangle[2] - triangle[0]);
    values.row(m) = quartic_jet(F, p.x(), p.y()).c().transpose();
    for (int c = 0; c < kQuarticTerms; ++c)
      vandermonde(m, c) = pow(x, kQuarticMonomials[std::size_t(c)][0]) * pow(y, kQuarticMonomials[std::size_t(c)][1]);
  }
  return Eigen::FullPivLU<Eigen::Matrix<Real50, 15, 15>>(vandermonde).solve(values).transpose();
}

template <class T>
void expect_reproduction(const SPatchMatching& matching, double bound, test::Rng& rng) {
  for (int n = 3; n <= 10; ++n) {
    QuarticCoefficients<Real50> F;
    for (int m = 0; m < kQuarticTerms; ++m) F.col(m) = test::random_vector3<Real50>(rng, 1.0);
    std::vector<QuarticCoefficients<T>> neighbours;
    for (int k = 0; k < n; ++k)
      neighbours.push_back(
          neighbour_view(F, s_patch_neighbour_triangle<Real50>(n, k, matching.placement)).template cast<T>());
    const SPatch<T> patch = match_s_patch(neighbours, matching, "reproduction");
    const QuarticCoefficients<T> F_T = F.template cast<T>();
    std::vector<Vec2<T>> points = {patch.domain().polygon[0],
                                   (patch.domain().polygon[1] + patch.domain().polygon[2]) / T(2)};
    for (int k = 0; k < 4; ++k) points.push_back(random_polygon_point(patch, rng));
    for (const auto& p : points) {
      const PatchJet<T> expected = quartic_jet(F_T, p.x(), p.y());
      EXPECT_TRUE(test::matrices_near(patch.evaluate(p.x(), p.y()).d, expected.d, T(bound)))
          << n << " at " << p.transpose();
    }
  }
}

TEST(SPatchMatching, ReproducesACommonQuarticWithItsDerivatives) {
  // Every neighbour is the same quartic F: each blossom value is F's, so every
  // control point is (5.19) and S = F o (sum_k l_k P_k) = F.
  test::Rng rng(test::kSeed + 503);
  for (const SPatchMatching& matching : {SPatchMatching{}, kThesisMatching}) {
    // 50 digits: the Vandermonde solve (condition ~1e4) and the evaluation.
    expect_reproduction<Real50>(matching, 1e-40, rng);
    // Double: the neighbours' coefficients are rounded (1e-16 relative), the
    // conversion, blossoms and the Bernstein sum over <= 715 bags each add a
    // few hundred roundings of O(10) numbers, and the third derivatives of
    // the embedding amplify them by ~1e2 (measured worst 2e-12).
    expect_reproduction<double>(matching, test::tolerance<double>(1e3, 1e2), rng);
  }
}
#endif  // CONTACTREF_HAS_REAL50

// Jumps across the S-patch / Loop edges of one replacement, in the matching
// parameterisation: the Loop quadrilateral's jet is carried to the polygon's
// (s, t) through the affine chart of T_k (the placement used).
// Also the shape: the distance of the S-patch's centre (which stands for the
// EV) from the Loop surface's limit position of the EV, relative to the
// distance of the first corner (a spoke midpoint) from it.
struct Jumps {
  double position = 0, first = 0, second = 0, normal = 0, corner_normal = 0, centre = 0;
  void merge(const Jumps& o) {
    position = std::max(position, o.position), first = std::max(first, o.first), second = std::max(second, o.second);
    normal = std::max(normal, o.normal), corner_normal = std::max(corner_normal, o.corner_normal);
    centre = std::max(centre, o.centre);
  }
};

double angle(const Vec3<double>& a, const Vec3<double>& b) { return std::atan2(a.cross(b).norm(), a.dot(b)); }
Vec3<double> normal(const PatchJet<double>& jet) { return jet.c_s().cross(jet.c_t()); }

Jumps measure(const LoopSPatchReplacement<double>& replacement, NeighbourPlacement placement,
              const Vec3<double>& limit) {
  Jumps jumps;
  const SPatch<double>& S = *replacement.s_patch;
  const int n = S.sides();
  const auto& P = S.domain().polygon;
  const PatchJet<double> centre = S.evaluate(0, 0), corner = S.evaluate(P[0].x(), P[0].y());
  jumps.centre = (centre.c() - limit).norm() / (corner.c() - limit).norm();
  for (int k = 0; k < n; ++k) {
    // The chart (s, t) -> EV-local (a, b) of face k: apex -> (1/2, 1/2),
    // P_{k+1} -> (0, 1/2), P_k -> (1/2, 0).
    const auto triangle = s_patch_neighbour_triangle<double>(n, k, placement);
    Mat2<double> X, A;
    X << triangle[1] - triangle[0], triangle[2] - triangle[0];
    A << -0.5, 0, 0, -0.5;
    const AffineJetMap<double> chart(Mat2<double>(A * X.inverse()));
    for (int i = 0; i <= 16; ++i) {
      const double u = i / 16.0;  // along S-patch edge k; 1 - u along the quadrilateral's edge 1
      const Vec2<double> p = (1 - u) * P[std::size_t(k)] + u * P[std::size_t((k + 1) % n)];
      const PatchJet<double> s = S.evaluate(p.x(), p.y());
      const PatchJet<double> loop = chart(replacement.quads[std::size_t(k)]->evaluate((1 - u) / 2, u / 2));
      jumps.position = std::max(jumps.position, (s.c() - loop.c()).norm());
      jumps.first = std::max(jumps.first,
                             (s.d.middleCols<2>(1) - loop.d.middleCols<2>(1)).norm() / loop.d.middleCols<2>(1).norm());
      jumps.second = std::max(jumps.second,
                              (s.d.middleCols<3>(3) - loop.d.middleCols<3>(3)).norm() / loop.d.middleCols<3>(3).norm());
      const double a = angle(normal(s), normal(loop));
      jumps.normal = std::max(jumps.normal, a);
      if (i == 0 || i == 16) jumps.corner_normal = std::max(jumps.corner_normal, a);
    }
  }
  return jumps;
}

// Vertices whose faces have no other EV: every EV of the mesh that has only
// regular neighbours, and up to 8 regular vertices (n = 6).
std::vector<int> replaceable_vertices(const MeshTopology& topology) {
  std::vector<int> vertices;
  int regular = 0;
  for (int v = 0; v < topology.vertex_count(); ++v) {
    bool isolated = true;
    for (int w : topology.ring(v)) isolated = isolated && topology.valence(w) == 6;
    if (!isolated || (topology.valence(v) == 6 && ++regular > 8)) continue;
    vertices.push_back(v);
  }
  return vertices;
}

TEST(SPatchReplacement, ContinuityWithTheLoopSurface) {
  // The Loop side is Stam's evaluation: its round-off is the bound of
  // loop_test's double-vs-50-digit comparison, 16 x 64 roundings with
  // eigenvector conditioning 50; positions are O(1) (unit-size meshes).
  const double derivative_bound = test::tolerance<double>(16 * 64, 50);
  test::Rng rng(test::kSeed + 504);
  for (const char* file : {"icosphere1.obj", "valences_3_to_10_split.obj"}) {
    const LoopSurface<double> surface(test_mesh(file), file);
    const std::vector<int> vertices = replaceable_vertices(surface.topology());
    // The defaults, the thesis's choices (with the correct blossom), and each
    // change alone.
    const std::pair<const char*, SPatchMatching> constructions[] = {
        {"centre chart, nearest averaged (default)", SPatchMatching{}},
        {"thesis: equilateral, first come first served", kThesisMatching},
        {"equilateral, nearest averaged", {NeighbourPlacement::kEquilateral, SharedControlRule::kNearestAveraged}},
        {"centre chart, first come first served",
         {NeighbourPlacement::kCentreChart, SharedControlRule::kFirstComeFirstServed}}};
    for (const auto& [label, matching] : constructions) {
      std::map<int, std::pair<int, Jumps>> by_valence;
      for (int v : vertices) {
        const auto replacement = replace_loop_vertex(surface, v, matching);
        const Jumps jumps = measure(replacement, matching.placement, surface.limit_position(v));
        const int n = replacement.s_patch->sides();
        by_valence[n].first += 1;
        by_valence[n].second.merge(jumps);
        if (matching.rule != SharedControlRule::kNearestAveraged ||
            matching.placement != NeighbourPlacement::kCentreChart)
          continue;
        // What the construction guarantees: C0 (the edge curves are the centre
        // refinements'), the Loop tangent plane at the corners (Fig 5.10), and
        // for n = 6 C1 along the whole edge (the neighbours agree on every
        // point at distance 1).
        EXPECT_LT(jumps.position, test::tolerance<double>(1024)) << file << " vertex " << v;
        EXPECT_LT(jumps.corner_normal, derivative_bound) << file << " vertex " << v;
        if (n == 6) {
          EXPECT_LT(jumps.first, derivative_bound) << file << " vertex " << v;
          EXPECT_LT(jumps.normal, derivative_bound) << file << " vertex " << v;
        }
        // Regular inside, and oriented like the Loop surface (limit normal at the EV).
        const SPatch<double>& S = *replacement.s_patch;
        for (int trial = 0; trial < 8; ++trial) {
          const Vec2<double> p = random_polygon_point(S, rng);
          const PatchJet<double> jet = S.evaluate(p.x(), p.y());
          EXPECT_NO_THROW(check_regular(jet, S, p.x(), p.y()));
          EXPECT_GT(normal(jet).dot(surface.limit_normal(v)), 0) << file << " vertex " << v;
        }
      }
      for (const auto& [n, entry] : by_valence) {
        const Jumps& j = entry.second;
        std::ostringstream line;
        line << std::setprecision(2) << "[s-patch] " << file << " n=" << n << " (" << entry.first << " vertices), "
             << label << ": C0 " << j.position << ", C1 " << j.first << ", C2 " << j.second
             << " (relative, in the chart of T_k); normal " << j.normal << " rad along the edges, " << j.corner_normal
             << " rad at the corners; centre off the EV's limit by " << j.centre << "\n";
        std::cerr << line.str();
      }
    }
  }
}

TEST(SPatchReplacement, QuadrilateralsMeetEachOtherAndTheFacesAcross) {
  const LoopSurface<double> surface(test_mesh("valences_3_to_10_split.obj"), "valences_3_to_10_split");
  for (int v : replaceable_vertices(surface.topology())) {
    const auto replacement = replace_loop_vertex(surface, v);
    const int n = int(replacement.quads.size());
    for (int k = 0; k < n; ++k) {
      const Patch<double>& quad = *replacement.quads[std::size_t(k)];
      const Patch<double>& next = *replacement.quads[std::size_t((k + 1) % n)];
      ASSERT_EQ(quad.domain().polygon.size(), 4u);
      // Quadrilateral edge 0 ((0, 1) to (0, 1/2)) against the next one's edge 2
      // ((1/2, 0) to (1, 0)) at fraction 1 - u: the same points of spoke k + 1.
      for (double u : {0.0, 0.3, 1.0}) {
        const auto a = quad.evaluate(0, 1 - u / 2), b = next.evaluate(0.5 + (1 - u) / 2, 0);
        EXPECT_LT((a.c() - b.c()).norm(), test::tolerance<double>(1024)) << v << " " << k;
        EXPECT_LT(angle(normal(a), normal(b)), test::tolerance<double>(16 * 64, 50)) << v << " " << k;
      }
      // Edge 3 ((1, 0) to (0, 1), from ring[k] to ring[k+1]) against the face
      // across it, at fraction 1 - u along that face's edge.
      const MeshTopology& topology = surface.topology();
      const int across = topology.twin(
          topology.half_edge(replacement.ring[std::size_t(k)], replacement.ring[std::size_t((k + 1) % n)]));
      const auto& triangle = surface.patch(across / 3).domain().polygon;
      const Vec2<double>& from = triangle[std::size_t(across % 3)];
      const Vec2<double>& to = triangle[std::size_t((across + 1) % 3)];
      for (double u : {0.0, 0.4, 1.0}) {
        const Vec2<double> x = from + (1 - u) * (to - from);
        const auto a = quad.evaluate(1 - u, u), b = surface.patch(across / 3).evaluate(x.x(), x.y());
        EXPECT_LT((a.c() - b.c()).norm(), test::tolerance<double>(1024)) << v << " " << k;
        EXPECT_LT(angle(normal(a), normal(b)), test::tolerance<double>(16 * 64, 50)) << v << " " << k;
      }
    }
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(SPatch, DoubleAgreesWith50Digits) {
  test::Rng rng(test::kSeed + 505);
  // The evaluation: the same control points (built in double, exact in 50 digits).
  const LoopSurface<double> surface(test_mesh("valences_3_to_10_split.obj"), "valences_3_to_10_split");
  std::map<int, bool> done;
  double worst = 0;
  for (int v : replaceable_vertices(surface.topology())) {
    const int n = surface.topology().valence(v);
    if (done[n]) continue;
    done[n] = true;
    const auto replacement = replace_loop_vertex(surface, v);
    const SPatch<double>& S = *replacement.s_patch;
    std::vector<Vec3<Real50>> control;
    for (const auto& x : S.control_points()) control.push_back(x.cast<Real50>());
    const SPatch<Real50> S50(n, 4, control, "50 digits");
    for (int trial = 0; trial < 4; ++trial) {
      const Vec2<double> p = random_polygon_point(S, rng);
      const auto d = S.evaluate(p.x(), p.y()).d.cast<Real50>().eval();
      const auto r = S50.evaluate(Real50(p.x()), Real50(p.y())).d;
      worst = std::max(worst, double((d - r).cwiseAbs().maxCoeff() / std::max(Real50(1), r.cwiseAbs().maxCoeff())));
    }
  }
  // Each Bernstein monomial is d + 1 jet products after the embedding's n
  // products and reciprocal, about 35 roundings each, summed over <= 715 bags:
  // about a thousand roundings. Near the boundary the third derivatives of the
  // single terms exceed their sum by up to ~1e2 (they cancel; the control
  // points are summed less their mean to keep this small). Measured worst 5e-14.
  EXPECT_LT(worst, test::tolerance<double>(1024, 1e2));
  std::cerr << "[s-patch] double vs 50 digits, evaluation: " << worst << "\n";

  // The construction, from the Loop surface of icosphere1 in double and in 50 digits.
  const LoopSurface<double> sphere(test_mesh("icosphere1.obj"), "icosphere1");
  const LoopSurface<Real50> sphere50(test_mesh("icosphere1.obj"), "icosphere1");
  const auto in_double = replace_loop_vertex(sphere, 0);
  const auto in_50 = replace_loop_vertex(sphere50, 0);
  double worst_control = 0;
  for (std::size_t m = 0; m < in_double.s_patch->control_points().size(); ++m) {
    const Vec3<Real50> d = in_double.s_patch->control_points()[m].cast<Real50>();
    worst_control = std::max(worst_control, double((d - in_50.s_patch->control_points()[m]).norm()));
  }
  // The centre refinement is pick[2] (12 x K) times the control points and the
  // regular basis (rational entries), then a few dozen blossom roundings.
  EXPECT_LT(worst_control, test::tolerance<double>(1024));
  std::cerr << "[s-patch] double vs 50 digits, control points from icosphere1: " << worst_control << "\n";
}
#endif  // CONTACTREF_HAS_REAL50

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SPatchInput, BadInputIsRejectedByName) {
  const auto has = [](const std::string& message, const std::string& part) {
    return message.find(part) != std::string::npos
               ? ::testing::AssertionSuccess()
               : ::testing::AssertionFailure() << "\"" << message << "\" lacks \"" << part << "\"";
  };
  EXPECT_TRUE(has(error_of([] { SPatch<double>(2, 4, {}, "p"); }), "needs at least 3 sides, not 2"));
  EXPECT_TRUE(has(error_of([] { SPatch<double>(4, 0, {}, "p"); }), "degree must be at least 1, not 0"));
  EXPECT_TRUE(
      has(error_of([] { SPatch<double>(4, 4, std::vector<Vec3<double>>(34), "p"); }), "has 35 control points, not 34"));
  std::vector<Vec3<double>> control(35, Vec3<double>::Zero());
  control[7].y() = std::nan("");
  EXPECT_TRUE(has(error_of([&] { SPatch<double>(4, 4, control, "p"); }), "p: control point 7 is not finite"));
  control[7].y() = 0;
  const SPatch<double> square(4, 4, control, "square");
  EXPECT_TRUE(has(error_of([&] { square.evaluate(0.8, 0); }), "square: (s, t) = (0.8, 0) is outside the 4-gon"));
  // Along the ray through vertex P_0, the margin beyond the adjacent edges'
  // lines is reached at P_0 (1 + margin / (R cos(pi / n))). Within it the
  // weights l_k stay bounded (the denominator sum_j pi_j stays away from zero;
  // measured within [-0.5, 1.9] up to n = 24, the largest Loop valence);
  // beyond it, the point is refused.
  for (int n = 3; n <= kMaxLoopValence; ++n) {
    const SPatch<double> patch(n, 1, std::vector<Vec3<double>>(std::size_t(n), Vec3<double>::Zero()), "p");
    const Vec2<double> P0 = patch.domain().polygon[0];
    const double reach = patch.outside_margin() / (P0.norm() * std::cos(M_PI / n));
    const Vec2<double> inside = (1 + 0.99 * reach) * P0, outside = (1 + 1.01 * reach) * P0;
    for (const TaylorJet<double>& l : patch.embedding(inside.x(), inside.y())) {
      EXPECT_GT(l.value(), -1) << n;
      EXPECT_LT(l.value(), 2) << n;
    }
    EXPECT_TRUE(has(error_of([&] { patch.evaluate(outside.x(), outside.y()); }),
                    "is outside the " + std::to_string(n) + "-gon"));
  }
  EXPECT_TRUE(
      has(error_of([] {
            match_s_patch<double>({QuarticCoefficients<double>::Zero(), QuarticCoefficients<double>::Zero()}, {}, "m");
          }),
          "at least 3 neighbours, not 2"));
  // bowl_b2: every EV has an EV neighbour.
  const LoopSurface<double> bowl(test_mesh("bowl_b2.obj"), "bowl");
  EXPECT_TRUE(has(error_of([&] { replace_loop_vertex(bowl, 0); }), "S-patch replacement of vertex 0: its neighbour"));
  EXPECT_TRUE(has(error_of([&] { replace_loop_vertex(bowl, 0); }), "has a second extraordinary vertex"));
  EXPECT_TRUE(has(error_of([&] { replace_loop_vertex(bowl, 99); }), "no vertex 99"));
}

}  // namespace
}  // namespace contactref::surfaces
