// Mass properties of closed surfaces: the triangle rule against the closed
// form of monomial integrals, analytic charts against the closed forms of the
// solid ellipsoid and torus (double to round-off, 50 digits to show spectral
// convergence), Loop surfaces against the sphere and torus they approximate
// (observed convergence order ~2 under mesh refinement), the
// extraordinary-vertex truncation against much deeper sums (within the
// reported error_bound), invariance of the limit surface under subdivision of
// its control mesh and under rigid motions (exact identities), double against
// 50 digits, and bad input. Every comparison with an exact value checks the
// bounds that error_bound implies (mass_properties.hpp).
#include "reference/surfaces/mass_properties.hpp"

#include <gtest/gtest.h>

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/factorials.hpp>
#include <cmath>
#include <functional>
#include <map>

#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/loop_subdivision.hpp"
#include "reference/surfaces/transformed_patch.hpp"
#include "tests/kit/tolerance.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref::surfaces {
namespace {

template <class T>
T pi() {
  return boost::math::constants::pi<T>();
}

TriangleMesh test_mesh(const std::string& name) {
  return read_triangle_mesh(contactref::test::source_dir() / "validation/fixtures/meshes" / name);
}

// The icosahedron split `level` times, each edge midpoint projected to the
// unit sphere: every vertex on the sphere, the 12 original ones of valence 5.
TriangleMesh icosphere(int level) {
  TriangleMesh mesh = test_mesh("icosahedron.obj");
  for (int l = 0; l < level; ++l) {
    std::map<std::pair<int, int>, int> midpoint;
    const auto middle = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      auto [it, inserted] = midpoint.emplace(key, int(mesh.vertices.size()));
      if (inserted) {
        mesh.vertices.push_back((mesh.vertices[std::size_t(a)] + mesh.vertices[std::size_t(b)]).normalized());
      }
      return it->second;
    };
    std::vector<std::array<int, 3>> faces;
    for (const auto& [a, b, c] : mesh.faces) {
      const int ab = middle(a, b), bc = middle(b, c), ca = middle(c, a);
      faces.push_back({a, ab, ca});
      faces.push_back({ab, b, bc});
      faces.push_back({ca, bc, c});
      faces.push_back({ab, bc, ca});
    }
    mesh.faces = faces;
  }
  return mesh;
}

// The torus ((R + r cos t) cos s, (R + r cos t) sin s, r sin t) sampled on an
// n_s x n_t grid, each cell cut along the same diagonal: every vertex has
// valence 6, so every Loop face is regular. Faces follow (s, t)
// counter-clockwise: outward, as the chart's c_s x c_t.
TriangleMesh torus_mesh(double R, double r, int n_s, int n_t) {
  TriangleMesh mesh;
  for (int i = 0; i < n_s; ++i) {
    for (int j = 0; j < n_t; ++j) {
      const double s = 2 * pi<double>() * i / n_s, t = 2 * pi<double>() * j / n_t;
      mesh.vertices.emplace_back((R + r * std::cos(t)) * std::cos(s), (R + r * std::cos(t)) * std::sin(s), r * std::sin(t));
    }
  }
  const auto id = [&](int i, int j) { return ((i + n_s) % n_s) * n_t + (j + n_t) % n_t; };
  for (int i = 0; i < n_s; ++i) {
    for (int j = 0; j < n_t; ++j) {
      mesh.faces.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      mesh.faces.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  }
  return mesh;
}

// Closed forms of the solids, centred at the origin.
template <class T>
struct Solid {
  T volume;
  Mat3<T> inertia;  // for unit density
};

// Ellipsoid with semi-axes a, b, c: V = 4/3 pi a b c, I = V/5 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2).
template <class T>
Solid<T> ellipsoid_solid(const Vec3<T>& axes) {
  const T a2 = axes.x() * axes.x(), b2 = axes.y() * axes.y(), c2 = axes.z() * axes.z();
  const T volume = 4 * pi<T>() * axes.prod() / 3;
  return {volume, Vec3<T>(b2 + c2, a2 + c2, a2 + b2).asDiagonal() * (volume / 5)};
}

// Torus about z with radii R > r. In coordinates (rho, phi, theta) about the
// tube's centre circle, dV = (R + rho cos phi) rho d rho d phi d theta, so
// (Pappus) V = 2 pi^2 R r^2, \int (x^2 + y^2) dV = 2 pi \int\int (R + rho cos phi)^3 rho
// = V (R^2 + 3 r^2 / 4) and \int z^2 dV = 2 pi \int\int rho^2 sin^2 phi (R + rho cos phi) rho
// = V r^2 / 4, so I_zz = V (R^2 + 3 r^2 / 4), I_xx = I_yy = V (R^2 / 2 + 5 r^2 / 8)
// (as in the standard tables of moments of inertia).
template <class T>
Solid<T> torus_solid(const T& R, const T& r) {
  const T volume = 2 * pi<T>() * pi<T>() * R * r * r;
  const T diameter = volume * (R * R / 2 + 5 * r * r / 8), axis = volume * (R * R + 3 * r * r / 4);
  return {volume, Vec3<T>(diameter, diameter, axis).asDiagonal()};
}

// The relative errors of a result against a solid centred at the origin:
// volume, |centre of mass| / size, |inertia - expected|_F / |expected|_F.
template <class T>
Vec3<T> relative_errors(const MassProperties<T>& result, const Solid<T>& solid, const T& density, const T& size) {
  using std::abs;
  return Vec3<T>(abs(result.volume - solid.volume) / solid.volume, result.centre_of_mass.norm() / size,
                 (result.inertia_com - density * solid.inertia).norm() / (density * solid.inertia).norm());
}

// True when `result` is within the bounds that its error_bound E implies
// (mass_properties.hpp) of the exact values V, c, I: |dV| <= E,
// |dc| <= 7/4 R E / V, |dI|_F <= 13 density R^2 E.
template <class T>
::testing::AssertionResult within_error_bound(const MassProperties<T>& result, const T& volume, const Vec3<T>& centre,
                                              const Mat3<T>& inertia, const T& density, const T& R) {
  using std::abs;
  const T E = result.error_bound;
  const T dV = abs(result.volume - volume), dc = (result.centre_of_mass - centre).norm(),
          dI = (result.inertia_com - inertia).norm();
  if (dV <= E && dc <= 7 * R * E / (4 * volume) && dI <= 13 * density * R * R * E) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "E = " << E << ": |dV| = " << dV << ", |dc| = " << dc << " (bound "
                                       << 7 * R * E / (4 * volume) << "), |dI| = " << dI << " (bound "
                                       << 13 * density * R * R * E << ")";
}

// R of mass_properties.hpp for a Loop surface: the largest distance from the
// control points' centroid to a control point.
double control_radius(const TriangleMesh& mesh) {
  Vec3<double> centroid = Vec3<double>::Zero();
  for (const auto& x : mesh.vertices) centroid += x;
  centroid /= double(mesh.vertices.size());
  double radius = 0;
  for (const auto& x : mesh.vertices) radius = std::max(radius, (x - centroid).norm());
  return radius;
}

// The observed orders log2(e_k / e_{k+1}) of successive errors (h halves).
std::vector<Vec3<double>> observed_orders(const std::vector<Vec3<double>>& errors) {
  std::vector<Vec3<double>> orders;
  for (std::size_t k = 1; k < errors.size(); ++k)
    orders.push_back((errors[k - 1].array() / errors[k].array()).log() / std::log(2.0));
  return orders;
}

// A chart's error_bound once its rules have converged is round-off only,
// (2n + 256) eps \oint |x.n| dA / 3 with n <= max_nodes = 256 nodes per
// parameter, and \oint |x.n| dA / 3 <= 2 V for these solids (= V for the
// ellipsoid, star-shaped about its centre; 1.43 V for the torus below, where
// x.n = R cos t + r changes sign).
template <class T>
T chart_round_off(const T& volume) {
  return test::tolerance<T>(2 * 256 + 256, 2.0) * volume;
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
// The closed form \int_T u^i v^j du dv = i! j! / (i + j + 2)! over the unit
// triangle, in 50 digits: matched for every i + j <= 18 to within 1024 eps
// (100 positive terms, each with at most ~20 roundings in its node, weight
// and powers), and missed by far more at degree 19 (u^19), so the degree of
// exactness is 18.
TEST(MassPropertiesRule, TriangleRuleIsExactToDegree18) {
  const TriangleRule<Real50> rule = triangle_rule<Real50>();
  EXPECT_EQ(rule.points.size(), 100u);
  const auto relative_error = [&](unsigned i, unsigned j) {
    Real50 sum = 0;
    for (std::size_t k = 0; k < rule.points.size(); ++k)
      sum += rule.weights[k] * pow(rule.points[k].x(), i) * pow(rule.points[k].y(), j);
    using boost::math::factorial;
    const Real50 exact = factorial<Real50>(i) * factorial<Real50>(j) / factorial<Real50>(i + j + 2);
    return Real50(abs(sum - exact) / exact);
  };
  Real50 worst = 0;
  for (unsigned degree = 0; degree <= 18; ++degree)
    for (unsigned j = 0; j <= degree; ++j) worst = std::max(worst, relative_error(degree - j, j));
  EXPECT_LE(worst, test::tolerance<Real50>(1024));
  const Real50 degree_19 = relative_error(19, 0);
  std::cerr << "[mass] triangle rule: worst relative error to degree 18 " << double(worst) << ", u^19 " << double(degree_19)
            << "\n";
  EXPECT_GT(degree_19, Real50(1e6) * test::tolerance<Real50>(1024));
}
#endif  // CONTACTREF_HAS_REAL50

TEST(MassPropertiesChart, EllipsoidAndTorusMatchTheirClosedFormsToRoundOffInDouble) {
  const Vec3<double> axes(1.3, 0.9, 0.6);
  const double R = 1.0, r = 0.35, density = 7.8;
  struct Case {
    const char* name;
    std::unique_ptr<Patch<double>> chart;
    Solid<double> solid;
    double radius;  // R of mass_properties.hpp
  };
  Case cases[] = {{"ellipsoid", std::make_unique<EllipsoidPatch<double>>(axes), ellipsoid_solid(axes), axes.x()},
                  {"torus", std::make_unique<TorusPatch<double>>(R, r), torus_solid(R, r), R + r}};
  for (const Case& c : cases) {
    const auto result = mass_properties(*c.chart, density);
    const Vec3<double> errors = relative_errors(result, c.solid, density, c.radius);
    std::cerr << "[mass] " << c.name << " chart, double: relative errors volume " << errors(0) << ", centre " << errors(1)
              << ", inertia " << errors(2) << "; error_bound / V " << result.error_bound / c.solid.volume << "\n";
    EXPECT_TRUE(within_error_bound(result, c.solid.volume, Vec3<double>(Vec3<double>::Zero()),
                                   Mat3<double>(density * c.solid.inertia), density, c.radius))
        << c.name;
    EXPECT_LE(result.error_bound, chart_round_off(c.solid.volume)) << c.name;
    EXPECT_DOUBLE_EQ(result.mass, density * result.volume);
  }
}

// The scene transform c' = Q c + offset moves the centre of mass to offset and
// turns the inertia into Q I Q^T (closed form of the transformed solid).
TEST(MassPropertiesChart, TransformedEllipsoidHasTheMovedCentreAndRotatedInertia) {
  const Vec3<double> axes(1.3, 0.9, 0.6);
  SceneTransform<double> transform;
  transform.angle = 0.7;
  transform.axis = Vec3<double>(1, -2, 0.5);
  transform.offset = Vec3<double>(0.4, -1.1, 2.0);
  const Mat3<double> Q = transform.linear_part();
  const TransformedPatch<double> chart(std::make_unique<EllipsoidPatch<double>>(axes), transform);
  const auto result = mass_properties<double>(chart, 1.0);
  const Solid<double> solid = ellipsoid_solid(axes);
  // R: the origin is the coordinate origin, |offset| + a away at most.
  EXPECT_TRUE(within_error_bound(result, solid.volume, transform.offset, Mat3<double>(Q * solid.inertia * Q.transpose()), 1.0,
                                 transform.offset.norm() + axes.x()));
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
// Gauss-Legendre along the ellipsoid's s converges faster than any algebraic
// order: each doubling of the nodes divides the error by more than 2^40
// until the 50-digit round-off (an order-p rule divides it by 2^p). The torus'
// integrands are trigonometric polynomials, which the midpoint rule
// integrates exactly: round-off at once.
TEST(MassPropertiesChart, ConvergesSpectrallyIn50Digits) {
  const Vec3<Real50> axes(Real50("1.3"), Real50("0.9"), Real50("0.6"));
  const Solid<Real50> solid = ellipsoid_solid(axes);
  Real50 previous = 1;
  for (int nodes : {8, 16, 32}) {
    MassPropertiesOptions<Real50> options;
    options.tolerance = 0;
    options.max_nodes = nodes;
    const auto result = mass_properties(EllipsoidPatch<Real50>(axes), Real50(1), options);
    const Vec3<Real50> errors = relative_errors(result, solid, Real50(1), axes.x());
    std::cerr << "[mass] ellipsoid chart, 50 digits, " << nodes << " nodes per parameter: relative errors volume "
              << double(errors(0)) << ", inertia " << double(errors(2)) << "; error_bound / V "
              << double(result.error_bound / solid.volume) << "\n";
    EXPECT_TRUE(within_error_bound(result, solid.volume, Vec3<Real50>(Vec3<Real50>::Zero()), solid.inertia, Real50(1), axes.x()));
    const Real50 error = errors.maxCoeff();
    if (nodes > 8) {
      EXPECT_TRUE(error <= previous * Real50(std::ldexp(1.0, -40)) || error <= chart_round_off(Real50(1))) << nodes;
    }
    previous = error;
  }
  const Real50 R(1), r("0.35");
  MassPropertiesOptions<Real50> options;
  options.tolerance = Real50("1e-45");
  const auto result = mass_properties(TorusPatch<Real50>(R, r), Real50(1), options);
  const Solid<Real50> torus = torus_solid(R, r);
  const Vec3<Real50> errors = relative_errors(result, torus, Real50(1), R + r);
  std::cerr << "[mass] torus chart, 50 digits: relative errors volume " << double(errors(0)) << ", inertia "
            << double(errors(2)) << "\n";
  EXPECT_TRUE(within_error_bound(result, torus.volume, Vec3<Real50>(Vec3<Real50>::Zero()), torus.inertia, Real50(1), R + r));
  EXPECT_LE(result.error_bound, chart_round_off(torus.volume));
}
#endif  // CONTACTREF_HAS_REAL50

// The Loop limit surface of an icosphere lies in the convex hull of its
// control points, inside the unit ball, and deviates from the sphere by
// O(h^2) (h the edge length, halved per level): the volume and inertia errors
// behave like C h^2 (1 + O(h)), so the observed order tends to 2 (measured
// 1.85, 1.96, 1.99). The centre of mass is zero by the icosahedral symmetry,
// up to round-off (within error_bound). Truncation at 1e-8 about the EVs is
// far below the measured errors (>= 1e-3).
TEST(MassPropertiesLoop, IcosphereConvergesToTheUnitSphereAtOrderTwo) {
  const Solid<double> sphere = ellipsoid_solid(Vec3<double>(1, 1, 1));
  MassPropertiesOptions<double> options;
  options.tolerance = 1e-8;
  std::vector<Vec3<double>> errors;
  for (int level = 1; level <= 4; ++level) {
    const TriangleMesh mesh = icosphere(level);
    const auto result = mass_properties(LoopSurface<double>(mesh, "icosphere"), 1.0, options);
    errors.push_back(relative_errors(result, sphere, 1.0, 1.0));
    std::cerr << "[mass] icosphere level " << level << " (" << mesh.faces.size() << " faces): relative errors volume "
              << errors.back()(0) << ", centre " << errors.back()(1) << ", inertia " << errors.back()(2) << "\n";
    EXPECT_LT(result.volume, sphere.volume) << level;
    EXPECT_LE(result.centre_of_mass.norm(), 7 * control_radius(mesh) * result.error_bound / (4 * result.volume)) << level;
  }
  const std::vector<Vec3<double>> orders = observed_orders(errors);
  for (std::size_t k = 0; k < orders.size(); ++k) {
    std::cerr << "[mass] icosphere levels " << k + 1 << " -> " << k + 2 << ": observed order volume " << orders[k](0)
              << ", inertia " << orders[k](2) << "\n";
  }
  for (std::size_t k = orders.size() - 2; k < orders.size(); ++k) {
    EXPECT_GE(orders[k](0), 1.8) << k;
    EXPECT_GE(orders[k](2), 1.8) << k;
  }
}

// A torus sampled on a grid whose every vertex has valence 6: all faces
// regular, integrated exactly. The limit surface deviates from the torus by
// O(h^2): observed order -> 2 (measured 1.77, 1.94, 1.98).
TEST(MassPropertiesLoop, TorusMeshConvergesToTheTorusAtOrderTwo) {
  const double R = 1.0, r = 0.5;
  const Solid<double> torus = torus_solid(R, r);
  std::vector<Vec3<double>> errors;
  for (int k = 0; k < 4; ++k) {
    const TriangleMesh mesh = torus_mesh(R, r, 12 << k, 6 << k);
    const auto result = mass_properties(LoopSurface<double>(mesh, "torus"), 1.0);
    errors.push_back(relative_errors(result, torus, 1.0, R + r));
    std::cerr << "[mass] torus mesh " << (12 << k) << " x " << (6 << k) << ": relative errors volume " << errors.back()(0)
              << ", centre " << errors.back()(1) << ", inertia " << errors.back()(2) << "\n";
    EXPECT_LE(result.centre_of_mass.norm(), 7 * control_radius(mesh) * result.error_bound / (4 * result.volume)) << k;
  }
  const std::vector<Vec3<double>> orders = observed_orders(errors);
  for (std::size_t k = 0; k < orders.size(); ++k) {
    std::cerr << "[mass] torus meshes " << k << " -> " << k + 1 << ": observed order volume " << orders[k](0)
              << ", inertia " << orders[k](2) << "\n";
  }
  for (std::size_t k = orders.size() - 2; k < orders.size(); ++k) {
    EXPECT_GE(orders[k](0), 1.8) << k;
    EXPECT_GE(orders[k](2), 1.8) << k;
  }
}

// A torus mesh with seeded random vertex displacements (a generic body, all
// faces regular, so error_bound is round-off only).
TriangleMesh bumpy_torus() {
  TriangleMesh mesh = torus_mesh(1.0, 0.45, 12, 6);
  test::Rng rng(test::kSeed + 700);
  for (auto& x : mesh.vertices) x += test::random_vector3<double>(rng, 0.08);
  return mesh;
}

// A result of the Loop surface of a test mesh with its truncation at most
// 1e-6 relative: the reference of the tests below (computed once).
const MassProperties<double>& deep_result(const std::string& file) {
  static std::map<std::string, MassProperties<double>> results;
  auto it = results.find(file);
  if (it == results.end()) {
    MassPropertiesOptions<double> options;
    options.tolerance = 1e-6;
    it = results.emplace(file, mass_properties(LoopSurface<double>(test_mesh(file), file), 1.0, options)).first;
  }
  return it->second;
}

// Summing the dyadic rings about the EVs to depth L against a much deeper
// sum (error_bound 100 times smaller): the difference is within the depth-L
// error_bound, and that bound is not loose by more than a factor 10 (it is
// ~2.2 times the true error: the doubled geometric tail). icosphere1:
// isolated valence-5 EVs; valences_3_to_10: EVs of valences 3 to 10, split
// faces.
TEST(MassPropertiesLoop, ExtraordinaryTruncationIsWithinTheErrorBound) {
  for (const char* file : {"icosphere1.obj", "valences_3_to_10.obj"}) {
    const TriangleMesh mesh = test_mesh(file);
    const LoopSurface<double> surface(mesh, file);
    const MassProperties<double>& reference = deep_result(file);
    for (int depth : {3, 6}) {
      MassPropertiesOptions<double> options;
      options.tolerance = 0;
      options.max_depth = depth;
      const auto result = mass_properties(surface, 1.0, options);
      const double error = std::abs(result.volume - reference.volume);
      std::cerr << "[mass] " << file << ", EV rings to depth " << depth << ": |volume - deep volume| " << error
                << ", error_bound " << result.error_bound << "\n";
      EXPECT_LT(reference.error_bound, result.error_bound / 100);
      EXPECT_TRUE(within_error_bound(result, reference.volume, reference.centre_of_mass, reference.inertia_com, 1.0,
                                     control_radius(mesh)))
          << file << " depth " << depth;
      EXPECT_GT(error, result.error_bound / 10) << file << " depth " << depth;
    }
  }
}

// One step of Loop subdivision (loop_subdivision.hpp) of a control mesh.
TriangleMesh loop_subdivided(const TriangleMesh& mesh) {
  const SubdivisionStep<double> step = loop_subdivide<double>(MeshTopology(int(mesh.vertices.size()), mesh.faces, false, "mesh"));
  TriangleMesh subdivided;
  for (std::size_t v = 0; v < step.weights.size(); ++v) subdivided.vertices.push_back(step.apply(int(v), mesh.vertices));
  subdivided.faces = step.faces;
  return subdivided;
}

// One step of Loop subdivision of the control mesh leaves the limit surface
// unchanged, but not its decomposition into polynomial pieces, so both
// results are within the sum of their error_bounds:
//  - bumpy torus (all faces regular): each face becomes four quartics on
//    quarter triangles, so the bounds are round-off only (this catches a wrong
//    piece or parameter map, and rules of degree <= 9, not <= 13: the
//    integrands' high-degree terms are small; the rule's degree is tested above);
//  - valences_3_to_10: split faces become sixteen faces with at most one EV
//    each, EV faces four whose rings are one level shallower.
TEST(MassPropertiesLoop, SubdividingTheControlMeshLeavesTheResultUnchanged) {
  const TriangleMesh torus = bumpy_torus();
  auto result = mass_properties(LoopSurface<double>(loop_subdivided(torus), "subdivided bumpy torus"), 1.0);
  const auto original = mass_properties(LoopSurface<double>(torus, "bumpy torus"), 1.0);
  std::cerr << "[mass] bumpy torus against its Loop subdivision: |dV| " << std::abs(result.volume - original.volume)
            << ", error_bounds " << original.error_bound << " + " << result.error_bound << "\n";
  result.error_bound += original.error_bound;
  EXPECT_TRUE(within_error_bound(result, original.volume, original.centre_of_mass, original.inertia_com, 1.0,
                                 control_radius(torus)));

  const TriangleMesh mesh = test_mesh("valences_3_to_10.obj");
  MassPropertiesOptions<double> options;
  options.tolerance = 1e-6;
  result = mass_properties(LoopSurface<double>(loop_subdivided(mesh), "subdivided"), 1.0, options);
  const MassProperties<double>& reference = deep_result("valences_3_to_10.obj");
  std::cerr << "[mass] valences_3_to_10 against its Loop subdivision: |dV| " << std::abs(result.volume - reference.volume)
            << ", error_bounds " << reference.error_bound << " + " << result.error_bound << "\n";
  result.error_bound += reference.error_bound;
  EXPECT_TRUE(within_error_bound(result, reference.volume, reference.centre_of_mass, reference.inertia_com, 1.0,
                                 control_radius(mesh)));
}

// Moving the mesh by x -> Q x + t moves the Loop surface the same way, so the
// volume is unchanged, the centre moves to Q c + t and the inertia becomes
// Q I Q^T: an exact identity, so the two results differ by their round-off,
// within the sum of their error_bounds. (The moved vertices carry a rounding
// of at most 4 eps (|x| + |t|) each, which moves the volume by far less than
// the 256 roundings per term in error_bound.)
TEST(MassPropertiesLoop, RigidMotionMovesTheCentreAndRotatesTheInertia) {
  const TriangleMesh mesh = bumpy_torus();
  test::Rng rng(test::kSeed + 701);
  const Mat3<double> Q = test::random_rotation<double>(rng);
  const Vec3<double> t = test::random_vector3<double>(rng, 2.0);
  TriangleMesh moved = mesh;
  for (auto& x : moved.vertices) x = Q * x + t;
  const double density = 3.0;
  const auto original = mass_properties(LoopSurface<double>(mesh, "bumpy torus"), density);
  auto result = mass_properties(LoopSurface<double>(moved, "moved bumpy torus"), density);
  std::cerr << "[mass] bumpy torus moved: |dV| " << std::abs(result.volume - original.volume) << ", |dc| "
            << (result.centre_of_mass - (Q * original.centre_of_mass + t)).norm() << ", |dI| "
            << (result.inertia_com - Q * original.inertia_com * Q.transpose()).norm() << ", error_bound "
            << result.error_bound << "\n";
  result.error_bound += original.error_bound;
  EXPECT_TRUE(within_error_bound(result, original.volume, Vec3<double>(Q * original.centre_of_mass + t),
                                 Mat3<double>(Q * original.inertia_com * Q.transpose()), density, control_radius(moved)));
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
// The double result against the 50-digit one of the same mesh: within the
// double error_bound (the 50-digit round-off is 1e-33 times smaller).
TEST(MassPropertiesLoop, DoubleAgreesWith50DigitsWithinTheErrorBound) {
  const TriangleMesh mesh = bumpy_torus();
  const double density = 3.0;
  const auto in_double = mass_properties(LoopSurface<double>(mesh, "bumpy torus"), density);
  const auto in_50 = mass_properties(LoopSurface<Real50>(mesh, "bumpy torus"), Real50(density));
  std::cerr << "[mass] bumpy torus, double against 50 digits: |dV| " << std::abs(in_double.volume - double(in_50.volume))
            << ", error_bound " << in_double.error_bound << "\n";
  EXPECT_TRUE(within_error_bound(in_double, double(in_50.volume), Vec3<double>(in_50.centre_of_mass.cast<double>()),
                                 Mat3<double>(in_50.inertia_com.cast<double>()), density, control_radius(mesh)));
}
#endif  // CONTACTREF_HAS_REAL50

template <class F>
void expect_input_error(F&& call, const std::string& needle) {
  try {
    call();
    ADD_FAILURE() << "no InputError (expected one mentioning '" << needle << "')";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
  }
}

TEST(MassProperties, RejectsBadDensityAndOptions) {
  const LoopSurface<double> surface(torus_mesh(1.0, 0.5, 12, 6), "torus");
  const EllipsoidPatch<double> chart(Vec3<double>(1, 2, 3));
  for (double density : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    expect_input_error([&] { mass_properties(surface, density); }, "density");
    expect_input_error([&] { mass_properties<double>(chart, density); }, "density");
  }
  for (int depth : {1, kMaxRingDepth + 1}) {
    MassPropertiesOptions<double> options;
    options.max_depth = depth;
    expect_input_error([&] { mass_properties(surface, 1.0, options); }, "max_depth");
  }
  for (double tolerance : {-1e-300, 1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    MassPropertiesOptions<double> options;
    options.tolerance = tolerance;
    expect_input_error([&] { mass_properties(surface, 1.0, options); }, "tolerance");
  }
}

// Issue 10 item 6: results beyond the range of double end in a
// ComputationError naming the surface and the quantity, never inf or NaN.
// The torus mesh scaled by 1e154 has volume ~1e462 m^3 (beyond 1.8e308); at
// density 1.7e308 the unscaled torus (volume ~ 4.9 m^3) has a mass of ~8e308 kg.
TEST(MassProperties, OverflowIsAComputationErrorNamingTheQuantity) {
  const auto expect_overflow = [](const std::function<void()>& call, const std::string& needle) {
    try {
      call();
      ADD_FAILURE() << "no error; expected " << needle;
    } catch (const ComputationError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("big torus", 0), 0u) << e.what();  // starts with the surface's name
    }
  };
  TriangleMesh big = torus_mesh(1.0, 0.5, 12, 6);
  for (Vec3<double>& x : big.vertices) x *= 1e154;
  expect_overflow([&] { mass_properties(LoopSurface<double>(big, "big torus"), 1.0); }, "the volume overflows");
  const LoopSurface<double> torus(torus_mesh(1.0, 0.5, 12, 6), "big torus");
  expect_overflow([&] { mass_properties(torus, 1.7e308); }, "the mass (density times volume) overflows");
}

TEST(MassProperties, RejectsAnInsideOutSurfaceAndAnOpenChart) {
  TriangleMesh mesh = torus_mesh(1.0, 0.5, 12, 6);
  for (auto& face : mesh.faces) std::swap(face[1], face[2]);
  expect_input_error([&] { mass_properties(LoopSurface<double>(mesh, "reversed torus"), 1.0); }, "inside out");
  expect_input_error([&] { mass_properties<double>(CylinderPatch<double>(1.0), 1.0); }, "not a closed chart");
}

}  // namespace
}  // namespace contactref::surfaces
