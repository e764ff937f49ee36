// Analytic patches and bicubic Bezier patches: every derivative against
// 50-digit central differences, normals against the documented orientation,
// Bezier identities (planar net, symmetry, degree elevation by an independent
// de Casteljau evaluation), double against 50 digits, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/transformed_patch.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/patch_derivatives.hpp"
#include "tests/kit/random.hpp"
#include "tests/kit/scratch_dir.hpp"
#include "validation/fixtures/rattleback_net.hpp"

namespace contactref::surfaces {
namespace {

template <class T>
std::vector<std::unique_ptr<Patch<T>>> analytic_patches() {
  std::vector<std::unique_ptr<Patch<T>>> patches;
  patches.push_back(std::make_unique<PlanePatch<T>>());
  patches.push_back(std::make_unique<EllipsoidPatch<T>>(Vec3<T>(T(0.3), T(0.5), T(0.2))));
  patches.push_back(std::make_unique<TorusPatch<T>>(T(0.4), T(0.15)));
  patches.push_back(std::make_unique<CylinderPatch<T>>(T(0.25)));
  patches.push_back(std::make_unique<ParaboloidPatch<T>>(T(2.0), T(-0.5)));
  SceneTransform<T> transform;
  transform.scale = Vec3<T>(T(0.6), T(0.2), T(0.3));
  transform.angle = T(-0.174);
  transform.axis = Vec3<T>(T(0.2), T(0.1), T(1));
  transform.offset = Vec3<T>(T(0.1), T(0), T(0.2));
  patches.push_back(std::make_unique<TransformedPatch<T>>(std::make_unique<TorusPatch<T>>(T(1), T(0.3)), transform));
  return patches;
}

using fixtures::rattleback_net;

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(AnalyticPatches, DerivativesMatch50DigitFiniteDifferences) {
  test::Rng rng(test::kSeed + 100);
  for (const auto& patch : analytic_patches<Real50>()) {
    for (int n = 0; n < 8; ++n) {
      const Real50 s(fixtures::uniform(rng, 0.1, 3.0)), t(fixtures::uniform(rng, -3.0, 3.0));
      EXPECT_TRUE(test::derivatives_match_finite_differences(*patch, s, t));
    }
  }
}
#endif  // CONTACTREF_HAS_REAL50

TEST(AnalyticPatches, NormalsPointOutward) {
  // Ellipsoid: the normal at the bottom point (pi/2, -pi/2) is -z, the point is (0, 0, -c).
  const EllipsoidPatch<double> ellipsoid(Vec3<double>(0.3, 0.5, 0.2));
  const auto bottom = ellipsoid.evaluate(M_PI / 2, -M_PI / 2);
  EXPECT_TRUE(test::matrices_near(Vec3<double>(bottom.c()), Vec3<double>(0, 0, -0.2), test::tolerance<double>(4)));
  const Vec3<double> n = bottom.c_s().cross(bottom.c_t());
  EXPECT_LT(n.normalized().z(), -1 + 1e-12);
  test::Rng rng(test::kSeed + 101);
  for (const auto& patch : analytic_patches<double>()) {
    for (int k = 0; k < 20; ++k) {
      const double s = fixtures::uniform(rng, 0.1, 3.0), t = fixtures::uniform(rng, -3.0, 3.0);
      const auto jet = patch->evaluate(s, t);
      const Vec3<double> normal = jet.c_s().cross(jet.c_t());
      const std::string name = patch->describe();
      if (name == "ellipsoid") {
        EXPECT_GT(normal.dot(jet.c()), 0) << name;
      }
      if (name == "cylinder") {
        EXPECT_GT(normal.dot(Vec3<double>(jet.c().x(), jet.c().y(), 0)), 0) << name;
      }
      if (name == "torus") {
        const Vec3<double> x = jet.c();
        const Vec3<double> tube_centre = Vec3<double>(x.x(), x.y(), 0).normalized() * 0.4;
        EXPECT_GT(normal.dot(x - tube_centre), 0) << name;
      }
      if (name == "plane" || name == "paraboloid") {
        EXPECT_GT(normal.z(), 0) << name;
      }
    }
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(AnalyticPatches, DoubleAgreesWith50Digits) {
  test::Rng rng(test::kSeed + 102);
  const auto in_double = analytic_patches<double>();
  const auto in_50 = analytic_patches<Real50>();
  for (std::size_t p = 0; p < in_double.size(); ++p) {
    for (int k = 0; k < 10; ++k) {
      const double s = fixtures::uniform(rng, 0.1, 3.0), t = fixtures::uniform(rng, -3.0, 3.0);
      // sin/cos of arguments up to 3 and a handful of products: 32 roundings.
      EXPECT_TRUE(test::matrices_near(in_double[p]->evaluate(s, t).d.cast<Real50>().eval(),
                                      in_50[p]->evaluate(Real50(s), Real50(t)).d, Real50(test::tolerance<double>(32))))
          << in_double[p]->describe();
    }
  }
}
#endif  // CONTACTREF_HAS_REAL50

TEST(AnalyticPatches, RejectBadParameters) {
  EXPECT_THROW(EllipsoidPatch<double>(Vec3<double>(1, -1, 1)), InputError);
  EXPECT_THROW(EllipsoidPatch<double>(Vec3<double>(1, std::nan(""), 1)), InputError);
  EXPECT_THROW(TorusPatch<double>(0.1, 0.2), InputError);
  EXPECT_THROW(CylinderPatch<double>(0.0), InputError);
  EXPECT_THROW(ParaboloidPatch<double>(std::numeric_limits<double>::infinity(), 0), InputError);
  SceneTransform<double> bad;
  bad.scale = Vec3<double>(1, 0, 1);
  EXPECT_THROW(TransformedPatch<double>(std::make_unique<PlanePatch<double>>(), bad), InputError);
  bad.scale = Vec3<double>::Ones();
  bad.axis = Vec3<double>::Zero();
  bad.angle = 0.3;
  EXPECT_THROW(TransformedPatch<double>(std::make_unique<PlanePatch<double>>(), bad), InputError);
}

TEST(AnalyticPatches, RegularityCheckNamesThePatchAndPoint) {
  const EllipsoidPatch<double> ellipsoid(Vec3<double>(1, 1, 1));
  EXPECT_NO_THROW(check_regular(ellipsoid.evaluate(1.0, 0.5), ellipsoid, 1.0, 0.5));
  try {
    check_regular(ellipsoid.evaluate(0.0, 0.5), ellipsoid, 0.0, 0.5);  // the pole (1, 0, 0)
    FAIL() << "the pole was accepted";
  } catch (const ComputationError& e) {
    EXPECT_NE(std::string(e.what()).find("ellipsoid is not regular at (s, t) = (0, 0.5)"), std::string::npos) << e.what();
  }
}

// Across the scales where |c_s x c_t| is representable (its square, ~ r^4
// for a sphere of radius r, within double's range), a regular point passes
// and the pole does not, near the squares' underflow and overflow as at 1;
// beyond them the cross product's norm is not representable and every point
// is refused, named, rather than given a frame from a zero or infinite
// normal (at 1e100 the norm overflowed to infinity and was accepted before).
TEST(AnalyticPatches, RegularityCheckHoldsWhereTheNormalIsRepresentableAndRefusesBeyond) {
  for (const double radius : {1e-70, 1e-30, 1.0, 1e30, 1e70}) {
    const EllipsoidPatch<double> ellipsoid(Vec3<double>(radius, radius, radius));
    EXPECT_NO_THROW(check_regular(ellipsoid.evaluate(1.0, 0.5), ellipsoid, 1.0, 0.5)) << radius;
    EXPECT_THROW(check_regular(ellipsoid.evaluate(0.0, 0.5), ellipsoid, 0.0, 0.5), ComputationError) << radius;
  }
  for (const double radius : {1e-100, 1e100}) {
    const EllipsoidPatch<double> ellipsoid(Vec3<double>(radius, radius, radius));
    const std::string error = test::error_of([&] { check_regular(ellipsoid.evaluate(1.0, 0.5), ellipsoid, 1.0, 0.5); });
    EXPECT_TRUE(test::contains(error, "ellipsoid is not regular at (s, t) = (1, 0.5)")) << radius;
    if (radius > 1) EXPECT_TRUE(test::contains(error, "not representable at this patch's scale"));
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
TEST(BezierPatch, DerivativesMatch50DigitFiniteDifferences) {
  const BezierPatch<Real50> patch(rattleback_net<Real50>());
  test::Rng rng(test::kSeed + 103);
  for (int n = 0; n < 10; ++n) {
    EXPECT_TRUE(test::derivatives_match_finite_differences(patch, Real50(fixtures::uniform(rng, 0, 1)),
                                                           Real50(fixtures::uniform(rng, 0, 1)), 10));
  }
  EXPECT_TRUE(test::derivatives_match_finite_differences(patch, Real50(0), Real50(1), 10));  // a corner
}
#endif  // CONTACTREF_HAS_REAL50

TEST(BezierPatch, PlanarNetReproducesThePlane) {
  std::array<Vec3<double>, 16> net;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) net[std::size_t(4 * i + j)] = Vec3<double>(i - 1.5, j - 1.5, 0);
  const BezierPatch<double> patch(net);
  test::Rng rng(test::kSeed + 104);
  for (int n = 0; n < 20; ++n) {
    const double s = fixtures::uniform(rng, 0, 1), t = fixtures::uniform(rng, 0, 1);
    const auto jet = patch.evaluate(s, t);
    // Uniformly spaced collinear control points give the linear map c = (3s - 1.5, 3t - 1.5, 0).
    EXPECT_TRUE(test::matrices_near(Vec3<double>(jet.c()), Vec3<double>(3 * s - 1.5, 3 * t - 1.5, 0), test::tolerance<double>(32)));
    EXPECT_TRUE(test::matrices_near(Vec3<double>(jet.c_s()), Vec3<double>(3, 0, 0), test::tolerance<double>(64)));
    EXPECT_TRUE(test::matrices_near(Vec3<double>(jet.c_t()), Vec3<double>(0, 3, 0), test::tolerance<double>(64)));
    for (int k = 3; k < kJetSize; ++k)
      EXPECT_TRUE(test::matrices_near(Vec3<double>(jet.d.col(k)), Vec3<double>::Zero(), test::tolerance<double>(256), test::kAbsolute));
  }
}

TEST(BezierPatch, SymmetricNetGivesASymmetricSurface) {
  // The rattleback net is symmetric under x -> -x (s -> 1 - s) and y -> -y (t -> 1 - t).
  const BezierPatch<double> patch(rattleback_net<double>());
  test::Rng rng(test::kSeed + 105);
  for (int n = 0; n < 20; ++n) {
    const double s = fixtures::uniform(rng, 0, 1), t = fixtures::uniform(rng, 0, 1);
    const Vec3<double> a = patch.evaluate(s, t).c(), b = patch.evaluate(1 - s, t).c(), c = patch.evaluate(s, 1 - t).c();
    EXPECT_TRUE(test::matrices_near(b, Vec3<double>(-a.x(), a.y(), a.z()), test::tolerance<double>(64)));
    EXPECT_TRUE(test::matrices_near(c, Vec3<double>(a.x(), -a.y(), a.z()), test::tolerance<double>(64)));
  }
}

#if CONTACTREF_HAS_REAL50  // 50 digits: release build only (core/scalar.hpp)
// De Casteljau on a tensor net of any degree: an independent evaluator.
Vec3<Real50> de_casteljau(std::vector<std::vector<Vec3<Real50>>> net, const Real50& s, const Real50& t) {
  std::vector<Vec3<Real50>> column;
  for (auto& row_points : net) {  // reduce along t within each row
    while (row_points.size() > 1) {
      for (std::size_t k = 0; k + 1 < row_points.size(); ++k) row_points[k] = (1 - t) * row_points[k] + t * row_points[k + 1];
      row_points.pop_back();
    }
    column.push_back(row_points[0]);
  }
  while (column.size() > 1) {
    for (std::size_t k = 0; k + 1 < column.size(); ++k) column[k] = (1 - s) * column[k] + s * column[k + 1];
    column.pop_back();
  }
  return column[0];
}

TEST(BezierPatch, DegreeElevationLeavesTheSurfaceUnchanged) {
  const auto net = rattleback_net<Real50>();
  const BezierPatch<Real50> patch(net);
  // Elevate along s to degree 4: Q_i = i/4 P_(i-1) + (1 - i/4) P_i.
  std::vector<std::vector<Vec3<Real50>>> elevated(5, std::vector<Vec3<Real50>>(4));
  for (int i = 0; i <= 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      const Real50 w = Real50(i) / 4;
      const Vec3<Real50> before = i > 0 ? net[std::size_t(4 * (i - 1) + j)] : Vec3<Real50>::Zero();
      const Vec3<Real50> here = i < 4 ? net[std::size_t(4 * i + j)] : Vec3<Real50>::Zero();
      elevated[std::size_t(i)][std::size_t(j)] = w * before + (1 - w) * here;
    }
  }
  test::Rng rng(test::kSeed + 106);
  for (int n = 0; n < 10; ++n) {
    const Real50 s(fixtures::uniform(rng, 0, 1)), t(fixtures::uniform(rng, 0, 1));
    EXPECT_TRUE(test::matrices_near(Vec3<Real50>(patch.evaluate(s, t).c()), de_casteljau(elevated, s, t), Real50(1e-45)));
  }
}
#endif  // CONTACTREF_HAS_REAL50

TEST(BezierPatch, RejectsNonFiniteControlPoints) {
  auto net = rattleback_net<double>();
  net[5].y() = std::nan("");
  try {
    BezierPatch<double> patch(net);
    FAIL() << "NaN accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("control point 5 (row 1, column 1)"), std::string::npos) << e.what();
  }
}

// Issue 10 item 6: a net whose derivatives would overflow is refused.
// bezier_patch.cpp bounds every jet entry by 144 max |P_ij|, attained by duuv
// at (0, 0) when P_ij = L sign(B_i''(0) B_j'(0)) (B''(0) = (6, -12, 6, 0),
// B'(0) = (-3, 3, 0, 0)): at the largest accepted coordinate L = 2^1016 that
// entry is 144 L = 1.125 2^1023, finite; one ulp above L is refused.
TEST(BezierPatch, RefusesNetsWhoseDerivativesWouldOverflow) {
  const double limit = std::ldexp(1.0, 1016);
  const double second[4] = {6, -12, 6, 0}, first[4] = {-3, 3, 0, 0};
  std::array<Vec3<double>, 16> net;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      net[std::size_t(4 * i + j)] = Vec3<double>(i, j, second[i] * first[j] > 0 ? limit : -limit);
  const BezierPatch<double> patch(net);
  EXPECT_EQ(patch.evaluate(0, 0).d(2, jet_index(2, 1)), 144 * limit);
  for (int a = 0; a <= 8; ++a)
    for (int b = 0; b <= 8; ++b) EXPECT_TRUE(patch.evaluate(a / 8.0, b / 8.0).d.allFinite()) << a << " " << b;
  net[5].z() = std::nextafter(limit, 2 * limit);
  try {
    BezierPatch<double> refused(net);
    FAIL() << "a coordinate beyond 2^1016 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("control point 5 (row 1, column 1) has a coordinate"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("would overflow"), std::string::npos) << e.what();
  }
}

// Issue 10 item 13: the net's reader names the file and line, reads
// subnormal coordinates as numbers, and refuses anything but a regular file
// before reading (a link to /dev/zero would never end).
TEST(BezierPatch, ReaderNamesFileAndLineAndReadsOnlyRegularFiles) {
  const auto dir = contactref::test::scratch_dir();
  const auto net_file = dir / "contactref_bezier_reader_net.txt";
  const auto write_net = [&](const std::string& point_5) {
    std::ofstream out(net_file);
    for (int k = 0; k < 16; ++k) out << (k == 5 ? point_5 : std::to_string(k) + " 0 1") << "\n";
  };
  const auto error_of = [&]() -> std::string {
    try {
      read_bezier_net(net_file);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  write_net("5 5e-324 1");
  EXPECT_EQ(error_of(), "no error");
  EXPECT_EQ(read_bezier_net(net_file)[5].y(), std::numeric_limits<double>::denorm_min());
  write_net("5 1e400 1");
  EXPECT_NE(error_of().find(net_file.string() + ":6: coordinate \"1e400\" is not a finite number"), std::string::npos)
      << error_of();
  write_net("5 -1.7e308 1");
  EXPECT_NE(error_of().find(net_file.string() + ":6: control point 5 (row 1, column 1) has a coordinate"),
            std::string::npos)
      << error_of();
  const auto link = dir / "contactref_bezier_reader_zero.txt";
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/zero", link);
  try {
    read_bezier_net(link);
    FAIL() << "/dev/zero read as a net";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace contactref::surfaces
