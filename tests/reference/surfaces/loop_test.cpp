// Loop subdivision surfaces: the derived regular basis and eigenstructures
// against closed forms (shared/notes/references.md section 2), every
// derivative against 50-digit central differences on every kind of face,
// continuity across shared edges, limit positions and normals at vertices
// against the limit and tangent masks, double against 50 digits, and the
// mesh checks.
#include <gtest/gtest.h>

#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>

#include "reference/surfaces/loop_rules.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/unit_normal.hpp"
#include "tests/kit/patch_derivatives.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scratch_dir.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref::surfaces {
namespace {

TriangleMesh test_mesh(const std::string& name) {
  return read_triangle_mesh(contactref::test::source_dir() / "validation/fixtures/meshes" / name);
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(LoopRegularBasis, IsAPartitionOfUnityWithDenominator12) {
  const auto& basis = loop_regular_basis<Real50>();
  for (int m = 0; m < kQuarticTerms; ++m) {
    // The sum of all basis functions is 1: constant term 1, every other 0.
    EXPECT_LT(abs(basis.col(m).sum() - (m == 0 ? 1 : 0)), Real50("1e-45")) << "monomial " << m;
    // Stam's box-spline basis functions are integer polynomials over 12.
    for (int k = 0; k < 12; ++k) {
      const Real50 twelve = 12 * basis(k, m);
      EXPECT_LT(abs(twelve - round(twelve)), Real50("1e-40")) << k << " " << m << " " << twelve;
    }
  }
  // Basis functions are non-negative on the face.
  test::Rng rng(test::kSeed + 200);
  for (int n = 0; n < 50; ++n) {
    const double u = fixtures::uniform(rng, 0, 1), v = fixtures::uniform(rng, 0, 1 - u);
    const Eigen::Matrix<double, 12, 1> values = quartic_jets(loop_regular_basis<double>(), u, v).col(0);
    EXPECT_GE(values.minCoeff(), -1e-15);
  }
}

// quartic_jets' Taylor shift against the monomials differentiated one by one
// (d^(i+j) u^a v^b = a!/(a-i)! b!/(b-j)! u^(a-i) v^(b-j)), in T, at points in
// and beyond the unit triangle. Bound: 40 multiply-adds per entry, each
// rounding at most the sum of the terms' magnitudes, against the 15 terms'
// magnitude sum (|u|, |v| <= 2, |c| <= 1, so that sum is under 15 4^4 3!).
template <class T>
void check_taylor_shift(std::uint64_t seed) {
  test::Rng rng(seed);
  for (int n = 0; n < 50; ++n) {
    QuarticCoefficients<T> c;
    for (Eigen::Index r = 0; r < 3; ++r)
      for (int m = 0; m < kQuarticTerms; ++m) c(r, m) = T(fixtures::uniform(rng, -1, 1));
    const T u = T(fixtures::uniform(rng, -2, 2)), v = T(fixtures::uniform(rng, -2, 2));
    const auto jets = quartic_jets(c, u, v);
    for (int k = 0; k < kJetSize; ++k) {
      const int i = kJetOrders[std::size_t(k)][0], j = kJetOrders[std::size_t(k)][1];
      Vec3<T> expected = Vec3<T>::Zero();
      for (int m = 0; m < kQuarticTerms; ++m) {
        const int a = kQuarticMonomials[std::size_t(m)][0], b = kQuarticMonomials[std::size_t(m)][1];
        if (a < i || b < j) continue;
        T factor(1);
        for (int x = 0; x < i; ++x) factor *= T(a - x);
        for (int x = 0; x < j; ++x) factor *= T(b - x);
        for (int x = 0; x < a - i; ++x) factor *= u;
        for (int x = 0; x < b - j; ++x) factor *= v;
        expected += factor * c.col(m);
      }
      const T error = (Vec3<T>(jets.col(k)) - expected).cwiseAbs().maxCoeff();
      EXPECT_LT(error, test::tolerance<T>(40, 15 * 256 * 6)) << "jet column " << k << " at " << u << ", " << v;
    }
  }
}

// substitute_linear against the chain rule it replaces: q = p(M .) has, at
// (x, y), the jet of p at M (x, y) carried by AffineJetMap(M). Random M with
// entries in [-2, 2] and integer ones of the Loop corner maps scaled by 2^10.
template <class T>
void check_linear_substitution(std::uint64_t seed) {
  test::Rng rng(seed);
  std::vector<Mat2<T>> maps;
  for (int n = 0; n < 20; ++n) {
    Mat2<T> M;
    M << T(fixtures::uniform(rng, -2, 2)), T(fixtures::uniform(rng, -2, 2)), T(fixtures::uniform(rng, -2, 2)),
        T(fixtures::uniform(rng, -2, 2));
    maps.push_back(M);
  }
  Mat2<T> corner;
  corner << T(0), T(1024), T(-1024), T(-1024);  // (a, b) = (v, 1 - u - v), times 2^10
  maps.push_back(corner);
  for (const Mat2<T>& M : maps) {
    QuarticCoefficients<T> p;
    for (Eigen::Index r = 0; r < 3; ++r)
      for (int m = 0; m < kQuarticTerms; ++m) p(r, m) = T(fixtures::uniform(rng, -1, 1));
    const T scale = M.cwiseAbs().maxCoeff();
    const Vec2<T> x = Vec2<T>(T(fixtures::uniform(rng, -1, 1)), T(fixtures::uniform(rng, -1, 1))) / scale;
    const Vec2<T> st = M * x;
    const PatchJet<T> expected = AffineJetMap<T>(M)(quartic_jet(p, st.x(), st.y()));
    const PatchJet<T> actual = quartic_jet(substitute_linear(p, M), x.x(), x.y());
    for (int k = 0; k < kJetSize; ++k) {
      const int order = kJetOrders[std::size_t(k)][0] + kJetOrders[std::size_t(k)][1];
      // A derivative of order p scales like |M|^p; the sums behind each
      // coefficient have at most 2^4 terms, each through about 10 roundings.
      const T size = std::pow(double(scale), order) * 15 * 256 * 6;
      const T error = (Vec3<T>(actual.d.col(k)) - Vec3<T>(expected.d.col(k))).cwiseAbs().maxCoeff();
      EXPECT_LT(error, test::tolerance<T>(16 * 10 + 40, 1) * size) << "jet column " << k << " with M =\n" << M;
    }
  }
}

TEST(QuarticJets, TaylorShiftEqualsTheMonomialDerivatives) {
  check_taylor_shift<double>(test::kSeed + 220);
  check_taylor_shift<Real50>(test::kSeed + 221);
}

TEST(QuarticJets, LinearSubstitutionCarriesTheChainRule) {
  check_linear_substitution<double>(test::kSeed + 222);
  check_linear_substitution<Real50>(test::kSeed + 223);
}

TEST(LoopEigenstructure, EigenvaluesMatchTheClosedForms) {
  for (int N = 3; N <= 12; ++N) {
    const auto& eig = loop_eigenstructure<Real50>(N);
    const Real50 lambda1 = Real50(3) / 8 + cos(2 * boost::math::constants::pi<Real50>() / N) / 4;
    std::vector<Real50> expected = {Real50(1), lambda1 * lambda1};  // 1 and lambda_c = 5/8 - N beta = lambda1^2
    EXPECT_LT(abs(Real50(5) / 8 - N * loop_beta<Real50>(N) - lambda1 * lambda1), Real50("1e-45"));
    for (int k = 1; k < N; ++k) expected.push_back(Real50(3) / 8 + cos(2 * boost::math::constants::pi<Real50>() * k / N) / 4);
    std::vector<bool> used(std::size_t(eig.eigenvalues.size()), false);
    for (const Real50& value : expected) {
      bool found = false;
      for (Eigen::Index j = 0; j < eig.eigenvalues.size() && !found; ++j) {
        if (!used[std::size_t(j)] && abs(eig.eigenvalues(j) - value) < Real50("1e-40")) used[std::size_t(j)] = found = true;
      }
      EXPECT_TRUE(found) << "valence " << N << ": eigenvalue " << value << " missing";
    }
    EXPECT_LT(abs(eig.eigenvalues(0) - 1), Real50("1e-45"));
    EXPECT_LT(eig.eigenvalues(1), Real50(1)) << "valence " << N;
    // Double eigenstructure agrees with the 50-digit one.
    const auto& eig_double = loop_eigenstructure<double>(N);
    for (Eigen::Index j = 0; j < eig.eigenvalues.size(); ++j)
      EXPECT_NEAR(eig_double.eigenvalues(j), double(eig.eigenvalues(j)), 1e-13) << N << " " << j;
  }
}

TEST(LoopEigenstructure, LimitMaskIsTheDominantLeftEigenvector) {
  for (int N = 3; N <= 12; ++N) {
    const auto& eig = loop_eigenstructure<Real50>(N);
    const Real50 w = loop_limit_edge_weight<Real50>(N);
    EXPECT_LT(abs(eig.limit_mask(0) - (1 - N * w)), Real50("1e-40")) << N;
    for (int i = 1; i <= N; ++i) EXPECT_LT(abs(eig.limit_mask(i) - w), Real50("1e-40")) << N;
    for (int i = N + 1; i < N + 6; ++i) EXPECT_LT(abs(eig.limit_mask(i)), Real50("1e-40")) << N;
  }
  // The table of references.md section 2 (valence 6: 1/2 and 1/12; valence 3: 0.4 and 0.2).
  EXPECT_NEAR(double(loop_limit_edge_weight<Real50>(6)), 1.0 / 12, 1e-15);
  EXPECT_NEAR(double(loop_limit_edge_weight<Real50>(3)), 0.2, 1e-15);
  EXPECT_NEAR(double(loop_limit_edge_weight<Real50>(10)), 0.043759, 5e-7);
}
#endif  // CONTACTREF_HAS_REAL50

struct MeshCase {
  const char* file;
  int regular, extraordinary, split;  // expected face kinds
};

const MeshCase kMeshes[] = {
    {"icosphere1.obj", 20, 60, 0},
    {"icosahedron.obj", 0, 0, 20},
    {"bowl_b2.obj", 0, 6, 8},
    {"valences_3_to_10.obj", -1, -1, -1},
};

// Points in the face: random interior points, points near each corner and
// near the middle of each edge.
[[maybe_unused]] std::vector<std::pair<double, double>> face_points(test::Rng& rng) {
  // (2e-6, 1e-6) is beyond the extraordinary patches' cached levels (2^-10).
  std::vector<std::pair<double, double>> points = {{1e-3, 2e-3}, {2e-6, 1e-6}, {0.997, 1e-3}, {2e-3, 0.996}, {0.31, 0.33}, {0.49, 0.02}};
  for (int n = 0; n < 3; ++n) {
    const double u = fixtures::uniform(rng, 0.01, 0.98);
    points.emplace_back(u, fixtures::uniform(rng, 0.005, 0.99 - u));
  }
  return points;
}

TEST(LoopSurface, FaceKindsAreAsExpected) {
  for (const MeshCase& c : kMeshes) {
    if (c.regular < 0) continue;
    const LoopSurface<double> surface(test_mesh(c.file), c.file);
    int counts[3] = {0, 0, 0};
    for (int f = 0; f < surface.face_count(); ++f) ++counts[int(surface.kind(f))];
    EXPECT_EQ(counts[0], c.regular) << c.file;
    EXPECT_EQ(counts[1], c.extraordinary) << c.file;
    EXPECT_EQ(counts[2], c.split) << c.file;
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(LoopSurface, DerivativesMatch50DigitFiniteDifferences) {
  test::Rng rng(test::kSeed + 201);
  for (const MeshCase& c : kMeshes) {
    const LoopSurface<Real50> surface(test_mesh(c.file), c.file);
    // Every face of the small meshes; every fifth face of the large one.
    const int stride = surface.face_count() > 100 ? 5 : 1;
    for (int f = 0; f < surface.face_count(); f += stride) {
      for (const auto& [u, v] : face_points(rng)) {
        // Near an EV the third derivatives grow like 2^(3n) lambda^n; scale 1e3.
        EXPECT_TRUE(test::derivatives_match_finite_differences(surface.patch(f), Real50(u), Real50(v), 1e3)) << c.file;
      }
    }
  }
}

// The fifth difference of c along six equispaced collinear points.
Vec3<Real50> fifth_difference(const Patch<Real50>& patch, const Vec2<Real50>& a, const Vec2<Real50>& b) {
  static constexpr int kBinomial[6] = {1, -5, 10, -10, 5, -1};
  Vec3<Real50> sum = Vec3<Real50>::Zero();
  for (int k = 0; k <= 5; ++k) {
    const Vec2<Real50> x = a + (b - a) * Real50(k) / 5;
    sum += Real50(kBinomial[k]) * patch.evaluate(x.x(), x.y()).c();
  }
  return sum;
}

// Independent check of smooth_piece: a Loop patch is a quartic polynomial on
// each piece, so the fifth difference along any segment inside the piece
// vanishes (to 50-digit round-off), while a segment across the piece's
// boundary (from its centroid to beyond an edge's midpoint) sees the jump of
// the third derivatives. Every face of each kind, random points and directions.
TEST(LoopSurface, SmoothPiecesAreExactlyThePolynomialPieces) {
  test::Rng rng(test::kSeed + 207);
  const LoopSurface<Real50> surface(test_mesh("bowl_b2.obj"), "bowl");
  int crossings_seen = 0;
  for (int f = 0; f < surface.face_count(); ++f) {
    for (const auto& [u, v] : face_points(rng)) {
      const Vec2<Real50> x(u, v);
      const Vec2<Real50> direction(fixtures::uniform(rng, -1, 1), fixtures::uniform(rng, -1, 1));
      const std::vector<Vec2<Real50>> piece = surface.patch(f).smooth_piece(x.x(), x.y(), direction);
      ASSERT_EQ(piece.size(), 3u);
      const Domain<Real50> piece_domain = Domain<Real50>::make_polygon(piece);
      const Vec2<Real50> centroid = (piece[0] + piece[1] + piece[2]) / 3;
      const Real50 size = (piece[1] - piece[0]).norm();
      // The point moved a little along the direction is in the piece (closed), which lies in the face.
      const Vec2<Real50> probe = x + direction * (size * Real50("1e-6") / direction.norm());
      EXPECT_TRUE(piece_domain.contains(probe.x(), probe.y(), Real50("1e-30"))) << surface.patch(f).describe();
      for (const Vec2<Real50>& corner : piece) EXPECT_TRUE(surface.patch(f).domain().contains(corner.x(), corner.y(), Real50("1e-40")));
      const Real50 scale = surface.patch(f).evaluate(centroid.x(), centroid.y()).c().norm();
      for (std::size_t k = 0; k < 3; ++k) {
        // Inside: between points shrunk 10% towards the centroid.
        const Vec2<Real50> a = centroid + (piece[k] - centroid) * Real50("0.9");
        const Vec2<Real50> b = centroid + (piece[(k + 1) % 3] - centroid) * Real50("0.9");
        EXPECT_LT(fifth_difference(surface.patch(f), a, b).norm(), Real50("1e-40") * scale) << surface.patch(f).describe();
        // Across edge k, when the far point is still in the face.
        const Vec2<Real50> beyond = centroid + ((piece[k] + piece[(k + 1) % 3]) / 2 - centroid) * Real50("1.8");
        if (!surface.patch(f).domain().contains(beyond.x(), beyond.y())) continue;
        const Real50 across = fifth_difference(surface.patch(f), centroid, beyond).norm();
        // The third derivatives jump by O(1) relative to the piece's size.
        if (across > Real50("1e-12") * scale * pow(size, 5)) ++crossings_seen;
      }
    }
  }
  // The control: the bowl's faces are all split or extraordinary, so many
  // segments cross a piece boundary, and the difference sees it.
  EXPECT_GT(crossings_seen, 20);
}
#endif  // CONTACTREF_HAS_REAL50

TEST(LoopSurface, PositionAndTangentPlaneAreContinuousAcrossEdges) {
  for (const MeshCase& c : kMeshes) {
    const LoopSurface<double> surface(test_mesh(c.file), c.file);
    const Domain<double>& domain = surface.patch(0).domain();
    double worst_position = 0, worst_normal = 0;
    for (int f = 0; f < surface.face_count(); ++f) {
      for (int e = 0; e < 3; ++e) {
        const EdgeLink link = surface.complex().links[std::size_t(f)][std::size_t(e)];
        const auto& a = domain.polygon[std::size_t(e)];
        const auto& b = domain.polygon[std::size_t((e + 1) % 3)];
        const auto& a2 = domain.polygon[std::size_t(link.edge)];
        const auto& b2 = domain.polygon[std::size_t((link.edge + 1) % 3)];
        for (double alpha : {0.01, 0.13, 0.5, 0.77, 0.99}) {
          const Vec2<double> x = a + alpha * (b - a);
          const double beta = PatchComplex<double>::neighbour_fraction(alpha);
          const Vec2<double> y = a2 + beta * (b2 - a2);
          const auto jet1 = surface.patch(f).evaluate(x.x(), x.y());
          const auto jet2 = surface.patch(link.patch).evaluate(y.x(), y.y());
          worst_position = std::max(worst_position, (jet1.c() - jet2.c()).norm());
          const Vec3<double> n1 = jet1.c_s().cross(jet1.c_t()).normalized(), n2 = jet2.c_s().cross(jet2.c_t()).normalized();
          worst_normal = std::max(worst_normal, n1.cross(n2).norm());
          EXPECT_GT(n1.dot(n2), 0) << c.file << " face " << f << " edge " << e;
        }
      }
    }
    // Control meshes are of unit size: a jump is round-off of a few hundred operations.
    EXPECT_LT(worst_position, test::tolerance<double>(1024)) << c.file;
    EXPECT_LT(worst_normal, test::tolerance<double>(1024)) << c.file;
    std::cerr << "[continuity] " << c.file << ": largest position jump " << worst_position << ", normal jump " << worst_normal
              << "\n";
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(LoopSurface, PatchesApproachTheLimitMasksAtVertices) {
  for (const MeshCase& c : kMeshes) {
    const LoopSurface<Real50> surface(test_mesh(c.file), c.file);
    const Domain<Real50>& domain = surface.patch(0).domain();
    for (int f = 0; f < surface.face_count(); ++f) {
      for (int corner = 0; corner < 3; ++corner) {
        const int vertex = surface.topology().face(f)[std::size_t(corner)];
        // 1e-20 from the corner along the bisector (level n = 67): the position is
        // within lambda_1^n <= 0.6^67 ~ 1e-15 of the limit and the normal within
        // (lambda_3 / lambda_1)^n <= 0.78^67 ~ 1e-7 of the limit normal (valences
        // <= 10). Closer, the 50-digit round-off of the O(2^n) derivative sums
        // would dominate the vanishing tangents of low valences.
        const Vec2<Real50> toward = domain.polygon[std::size_t((corner + 1) % 3)] + domain.polygon[std::size_t((corner + 2) % 3)] -
                                    2 * domain.polygon[std::size_t(corner)];
        const Vec2<Real50> x = domain.polygon[std::size_t(corner)] + Real50("1e-20") * toward;
        const auto jet = surface.patch(f).evaluate(x.x(), x.y());
        EXPECT_TRUE(test::matrices_near(Vec3<Real50>(jet.c()), surface.limit_position(vertex), Real50("1e-13"))) << c.file;
        const Vec3<Real50> n = jet.c_s().cross(jet.c_t()).normalized();
        EXPECT_LT(n.cross(surface.limit_normal(vertex).normalized()).norm(), Real50("1e-6")) << c.file << " vertex " << vertex;
        EXPECT_GT(n.dot(surface.limit_normal(vertex)), 0) << c.file;
      }
    }
  }
}

TEST(LoopSurface, DoubleAgreesWith50Digits) {
  test::Rng rng(test::kSeed + 202);
  for (const MeshCase& c : kMeshes) {
    const LoopSurface<double> in_double(test_mesh(c.file), c.file);
    const LoopSurface<Real50> in_50(test_mesh(c.file), c.file);
    double worst = 0;
    for (int f = 0; f < in_double.face_count(); f += 3) {
      for (const auto& [u, v] : face_points(rng)) {
        const auto d = in_double.patch(f).evaluate(u, v).d.cast<Real50>().eval();
        const auto r = in_50.patch(f).evaluate(Real50(u), Real50(v)).d;
        worst = std::max(worst, double((d - r).cwiseAbs().maxCoeff() / std::max(Real50(1), r.cwiseAbs().maxCoeff())));
      }
    }
    // Stam's sum over K <= 16 eigen-components of about 64 roundings each, with
    // eigenvector conditioning |V| |V^-1| <= 50 (48 for valence 4, the worst).
    EXPECT_LT(worst, test::tolerance<double>(16 * 64, 50)) << c.file;
    std::cerr << "[double vs 50 digits] " << c.file << ": " << worst << "\n";
  }
}
#endif  // CONTACTREF_HAS_REAL50

TEST(LoopSurface, EvaluationAtAnExtraordinaryVertexIsAClearError) {
  const LoopSurface<double> surface(test_mesh("icosphere1.obj"), "icosphere1");
  for (int f = 0; f < surface.face_count(); ++f) {
    if (surface.kind(f) != LoopPatchKind::kExtraordinary) continue;
    for (int corner = 0; corner < 3; ++corner) {
      if (surface.topology().valence(surface.topology().face(f)[std::size_t(corner)]) == 6) continue;
      const Vec2<double> x = surface.patch(f).domain().polygon[std::size_t(corner)];
      EXPECT_THROW(surface.patch(f).evaluate(x.x(), x.y()), ComputationError);
    }
  }
}

// Issue 10 item 14: the points where the CLI prints the limit position and
// normal instead of derivatives are exactly the corners at extraordinary
// vertices, where the patch's evaluation throws.
TEST(LoopSurface, ExtraordinaryVertexAtNamesExactlyTheExtraordinaryCorners) {
  const double corners[3][2] = {{0, 0}, {1, 0}, {0, 1}};
  for (const MeshCase& c : kMeshes) {
    const LoopSurface<double> surface(test_mesh(c.file), c.file);
    for (int f = 0; f < surface.face_count(); ++f) {
      for (std::size_t k = 0; k < 3; ++k) {
        const int vertex = surface.topology().face(f)[k];
        const bool extraordinary = surface.topology().valence(vertex) != 6;
        EXPECT_EQ(surface.extraordinary_vertex_at(f, corners[k][0], corners[k][1]), extraordinary ? vertex : -1);
        if (extraordinary) {
          EXPECT_THROW(surface.patch(f).evaluate(corners[k][0], corners[k][1]), ComputationError);
        }
      }
      EXPECT_EQ(surface.extraordinary_vertex_at(f, 0.25, 0.25), -1);
      EXPECT_EQ(surface.extraordinary_vertex_at(f, 0x1p-60, 0), -1);
    }
  }
}

// The normal `surface eval` prints: the same unit vector for tangents at any
// scale (exact: scaling by powers of two commutes with every rounding), none
// for parallel tangents. The unscaled cross product overflows at 2^600 and
// underflows to zero at 2^-600.
TEST(UnitNormal, IsScaleInvariantAndAbsentForParallelTangents) {
  const Vec3<double> a(0.3, -1.2, 0.5), b(0.7, 0.4, -0.9);
  const std::optional<Vec3<double>> reference = unit_normal(a, b);
  ASSERT_TRUE(reference.has_value());
  EXPECT_NEAR(reference->norm(), 1.0, 4 * std::numeric_limits<double>::epsilon());
  EXPECT_GT(reference->dot(a.cross(b)), 0);
  for (int e : {-1000, -600, 600, 1000}) {
    const std::optional<Vec3<double>> scaled = unit_normal(Vec3<double>(std::ldexp(1.0, e) * a), Vec3<double>(b));
    ASSERT_TRUE(scaled.has_value()) << e;
    EXPECT_EQ(*scaled, *reference) << e;
    EXPECT_EQ(*unit_normal(Vec3<double>(std::ldexp(1.0, e) * a), Vec3<double>(std::ldexp(1.0, e) * b)), *reference) << e;
  }
  EXPECT_FALSE(unit_normal(a, Vec3<double>(-2 * a)).has_value());
  EXPECT_FALSE(unit_normal(a, Vec3<double>(Vec3<double>::Zero())).has_value());
}

std::string mesh_error(const std::string& obj) {
  try {
    const LoopSurface<double> surface(triangle_mesh(contactref::parse_obj(obj, "test.obj")), "test.obj");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string fmt_vertex(double x, double y, double z) {
  std::ostringstream out;
  out.precision(17);
  out << "v " << x << " " << y << " " << z << "\n";
  return out.str();
}

const char* kTetrahedronVertices = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";

TEST(LoopSurfaceInput, BadMeshesAreRejectedByName) {
  const std::string tet = kTetrahedronVertices;
  EXPECT_NE(mesh_error(tet + "f 1 3 2\nf 1 2 4\nf 2 3 4\n").find("test.obj:5: edge 0-2 has only one face (face 0): the surface is open"), std::string::npos);
  EXPECT_NE(mesh_error(tet + "f 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 3 4\n").find("test.obj:8: faces 0 and 3 are inconsistently oriented"), std::string::npos);
  EXPECT_NE(mesh_error(tet + "f 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\nf 1 2 2\n").find("test.obj:9: face 4 (vertices 0, 1, 1) repeats vertex 1"),
            std::string::npos);
  EXPECT_NE(mesh_error("v 0 0 nan\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n").find("test.obj:1: coordinate 'nan' is not finite"),
            std::string::npos);
  EXPECT_NE(mesh_error("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n").find("degenerate (zero area)"),
            std::string::npos);
  EXPECT_NE(mesh_error(tet + "f 1 3 2\nf 1 2 4\nf 2 3 9\nf 3 1 4\n").find("test.obj:7: face 2: vertex index 9 is out of range (1..4)"),
            std::string::npos);
  EXPECT_NE(mesh_error(tet + "f 1 3 2 4\n").find("test.obj:5: face 0 has 4 corners; a Loop control mesh takes triangles only"), std::string::npos);
  EXPECT_NE(mesh_error(tet + "f 1 x 2\n").find("test.obj:5: 'x' is not a vertex index"), std::string::npos);
  // Two tetrahedra sharing only vertex 1: a non-manifold vertex.
  const std::string bowtie = tet + "v 0 0 -1\nv -1 0 0\nv 0 -1 0\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\nf 1 6 7\nf 1 5 6\nf 6 5 7\nf 7 5 1\n";
  EXPECT_NE(mesh_error(bowtie).find("test.obj:1: vertex 0 is non-manifold"), std::string::npos) << mesh_error(bowtie);
  // A tetrahedron (valence 3 everywhere) is a valid control mesh.
  EXPECT_EQ(mesh_error(tet + "f 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n"), "no error");
}

// Issue 10 item 13 (R10): Geomview OFF may end a face line with its colour;
// the reader ignores it, as robust_geometry's OFF reader does.
TEST(LoopSurfaceInput, OffColourFieldsAfterAFaceAreIgnored) {
  const std::string vertices = "OFF\n4 4 6\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n";
  const TriangleMesh plain = triangle_mesh(contactref::parse_off(vertices + "3 0 2 1\n3 0 1 3\n3 1 2 3\n3 2 0 3\n", "plain.off"));
  const TriangleMesh coloured =
      triangle_mesh(contactref::parse_off(vertices + "3 0 2 1 255 0 0\n3 0 1 3 0 255 0 255\n3 1 2 3 0.5 0.5 0.5\n3 2 0 3\n", "coloured.off"));
  EXPECT_EQ(coloured.faces, plain.faces);
  EXPECT_EQ(coloured.vertices, plain.vertices);
  EXPECT_NO_THROW(LoopSurface<double>(coloured, "coloured.off"));
}

// Issue 10 item 13 (R11): a subnormal coordinate is a finite number (the old
// reader called it "not a number"); beyond the largest double is not finite.
TEST(LoopSurfaceInput, SubnormalCoordinatesAreNumbers) {
  const TriangleMesh mesh = triangle_mesh(contactref::parse_obj("v 5e-324 0 -4.9e-324\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "tiny.obj"));
  EXPECT_EQ(mesh.vertices[0].x(), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(mesh.vertices[0].z(), -std::numeric_limits<double>::denorm_min());
  EXPECT_NE(mesh_error("v 1e400 0 0\n").find("test.obj:1: coordinate '1e400' overflows a double"), std::string::npos)
      << mesh_error("v 1e400 0 0\n");
}

// Issue 10 item 13: coordinates near 1e200 are not "degenerate (zero area)"
// (the old area test squared them and overflowed); the face test works on
// coordinates scaled by a power of two, so it is the same at every scale.
TEST(LoopSurfaceInput, TheZeroAreaTestDoesNotDependOnTheScale) {
  for (double scale : {0x1p-1000, 1.0, 1e200, 0x1p1020}) {
    std::string tet;
    for (const char* v : {"0 0 0", "1 0 0", "0 1 0", "0 0 1"}) {
      std::istringstream in(v);
      double x, y, z;
      in >> x >> y >> z;
      tet += fmt_vertex(scale * x, scale * y, scale * z);
    }
    EXPECT_EQ(mesh_error(tet + "f 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n"), "no error") << scale;
    // With vertex 4 on the line of vertices 1 and 2, face 1 2 4 stays degenerate.
    std::string flat = tet.substr(0, tet.rfind("v ")) + fmt_vertex(2 * scale, 0, 0);
    EXPECT_NE(mesh_error(flat + "f 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n").find("degenerate (zero area)"), std::string::npos)
        << scale;
  }
}

// Issue 10 item 13 (R9): the extension is checked first, then that the path
// is a regular file, before any byte is read (/dev/zero would never end).
TEST(LoopSurfaceInput, OnlyRegularMeshFilesAreRead) {
  const auto error_of = [](const std::filesystem::path& path) -> std::string {
    try {
      read_triangle_mesh(path);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error_of("/dev/zero").find("/dev/zero: unknown mesh file format ''"), std::string::npos) << error_of("/dev/zero");
  const auto dir = contactref::test::scratch_dir();
  const auto link = dir / "contactref_zero_mesh.off";
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/zero", link);
  EXPECT_NE(error_of(link).find("cannot open the mesh file (not a regular file)"), std::string::npos) << error_of(link);
  const auto folder = dir / "contactref_folder_mesh.obj";
  std::filesystem::create_directories(folder);
  EXPECT_NE(error_of(folder).find("cannot open the mesh file (not a regular file)"), std::string::npos) << error_of(folder);
  EXPECT_NE(error_of(dir / "contactref_no_such_mesh.obj").find("(no such file)"), std::string::npos);
}

TEST(LoopSurfaceInput, ValenceAboveTheMaximumIsRejected) {
  // A bipyramid with a ring of 30: apexes of valence 30.
  std::string obj = "v 0 0 1\nv 0 0 -1\n";
  const int n = 30;
  for (int i = 0; i < n; ++i) obj += "v " + std::to_string(std::cos(2 * M_PI * i / n)) + " " + std::to_string(std::sin(2 * M_PI * i / n)) + " 0\n";
  for (int i = 0; i < n; ++i) {
    const int a = 3 + i, b = 3 + (i + 1) % n;
    obj += "f 1 " + std::to_string(a) + " " + std::to_string(b) + "\nf 2 " + std::to_string(b) + " " + std::to_string(a) + "\n";
  }
  EXPECT_NE(mesh_error(obj).find("vertex 0 has valence 30"), std::string::npos) << mesh_error(obj);
}

}  // namespace
}  // namespace contactref::surfaces
