// The support region of the contact patch (reference/volume_contact/
// support_region.hpp) against independent references:
//  - the hull: interior and repeated points dropped, counter-clockwise, with
//    the shoelace area and centroid of hand-made polygons;
//  - the mean distance from the centroid: a square against the closed form
//    (s/6)(sqrt 2 + ln(1 + sqrt 2)) (the uniformly loaded square of issue 29),
//    a 256-gon against the disk's 2R/3 with the polygon's own error, and
//    irregular polygons against a quadrature in another decomposition
//    (vertical slices with the inner integral in closed form and Boost's
//    tanh-sinh outside, where the code fans triangles in polar coordinates);
//  - the projection: inside points stay, outside ones go to the closest of
//    20,000 boundary samples;
//  - the spin bound mu f_n m (1 - gamma): the whole bound at the centroid,
//    none on the boundary, and at any p the mean distance of the scaled copy
//    of the region that the header's pressure covers, computed as a region of
//    its own (its centroid is p, it lies in R);
//  - bad input.
#include "reference/volume_contact/support_region.hpp"

#include <gtest/gtest.h>

#include <boost/math/quadrature/tanh_sinh.hpp>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "tests/kit/errors.hpp"

namespace contactref::volume_contact {
namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// ∫_R |x - c| dA by vertical slices: for each x, the chord [y_lo, y_hi] of
// the convex polygon, the inner integral of sqrt(u^2 + w^2) du in closed form
// (u sqrt(u^2 + w^2) + w^2 asinh(u / |w|)) / 2, and the outer one by
// tanh-sinh between consecutive vertex abscissae and c_x (where the
// integrand's derivative is singular).
double sliced_distance_integral(const std::vector<Eigen::Vector2d>& polygon, const Eigen::Vector2d& c) {
  const auto chord = [&](double x) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      const Eigen::Vector2d& a = polygon[i];
      const Eigen::Vector2d& b = polygon[(i + 1) % polygon.size()];
      if ((a.x() - x) * (b.x() - x) > 0 || a.x() == b.x()) continue;
      const double y = a.y() + (b.y() - a.y()) * (x - a.x()) / (b.x() - a.x());
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
    return std::pair<double, double>(lo, hi);
  };
  const auto primitive = [](double u, double w) {
    return w == 0 ? u * std::abs(u) / 2 : (u * std::hypot(u, w) + w * w * std::asinh(u / std::abs(w))) / 2;
  };
  const auto slice = [&](double x) {
    const auto [lo, hi] = chord(x);
    return primitive(hi - c.y(), x - c.x()) - primitive(lo - c.y(), x - c.x());
  };
  std::vector<double> breaks{c.x()};
  for (const Eigen::Vector2d& v : polygon) breaks.push_back(v.x());
  std::sort(breaks.begin(), breaks.end());
  boost::math::quadrature::tanh_sinh<double> integrator;
  double total = 0;
  for (std::size_t i = 0; i + 1 < breaks.size(); ++i)
    if (breaks[i + 1] > breaks[i]) total += integrator.integrate(slice, breaks[i], breaks[i + 1], 1e-14);
  return total;
}

std::vector<Eigen::Vector2d> regular_polygon(int n, double radius) {
  std::vector<Eigen::Vector2d> p;
  for (int k = 0; k < n; ++k) {
    const double angle = 2 * std::numbers::pi * k / n;
    p.emplace_back(radius * std::cos(angle), radius * std::sin(angle));
  }
  return p;
}

TEST(SupportRegion, TheHullDropsInteriorAndRepeatedPointsAndHasTheShoelaceAreaAndCentroid) {
  // The trapezoid (0,0) (4,0) (3,2) (1,2): area 6, centroid (2, 8/9) (its
  // two triangles and the rectangle between them).
  const std::vector<Eigen::Vector2d> corners{{0, 0}, {4, 0}, {3, 2}, {1, 2}};
  std::vector<Eigen::Vector2d> points{{2, 1}, {3, 2}, {1, 1}, {0, 0}, {2, 0}, {4, 0}, {1, 2}, {0, 0}, {2, 2}};
  const SupportRegion region = support_region(points);
  ASSERT_EQ(region.vertices.size(), 4u);  // (2,0) and (2,2) lie on edges, (2,1) and (1,1) inside
  for (std::size_t i = 0; i < 4; ++i) {  // counter-clockwise: every turn to the left
    EXPECT_GT(cross(region.vertices[(i + 1) % 4] - region.vertices[i], region.vertices[(i + 2) % 4] - region.vertices[i]),
              0);
    EXPECT_NE(std::find(corners.begin(), corners.end(), region.vertices[i]), corners.end());
  }
  EXPECT_NEAR(region.area, 6, 1e-15 * 6);
  EXPECT_NEAR((region.centroid - Eigen::Vector2d(2, 8.0 / 9)).norm(), 0, 1e-15 * 4);
}

TEST(SupportRegion, ASquaresMeanDistanceIsTheUniformlyLoadedSquaresClosedForm) {
  const double s = 0.1;
  const SupportRegion square = support_region({{0.02, -0.03}, {0.12, -0.03}, {0.12, 0.07}, {0.02, 0.07}});
  const double closed = s / 6 * (std::sqrt(2.0) + std::log(1 + std::sqrt(2.0)));
  EXPECT_NEAR(square.mean_distance, closed, 1e-14 * closed);  // round-off of a few dozen operations
  EXPECT_NEAR(closed / s, 0.38259785823, 1e-11);  // the 67.6 rad/s^2 is 6 mu g (this) / s
}

TEST(SupportRegion, ARegularPolygonApproachesTheDisksMeanDistance) {
  // Mean distance from the centre: 2R/3 for a disk of radius R. A regular
  // n-gon of circumradius R lies between the disks of radii R cos(pi/n) and
  // R, and its value lies between theirs' to first order in the missing
  // area's share, (pi/n)^2: bound 2R/3 (pi/n)^2 around the disk of the same area.
  const int n = 256;
  const double R = 0.05;
  const SupportRegion polygon = support_region(regular_polygon(n, R));
  const double r_area = std::sqrt(polygon.area / std::numbers::pi);  // the disk of equal area
  EXPECT_NEAR(polygon.mean_distance, 2 * r_area / 3, 2 * R / 3 * std::pow(std::numbers::pi / n, 2));
  EXPECT_LT(polygon.centroid.norm(), 1e-15 * R * n);
}

TEST(SupportRegion, IrregularPolygonsMatchAQuadratureBySlices) {
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> coordinate(-0.05, 0.05);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Eigen::Vector2d> points;
    const int count = 3 + trial % 9;  // from a triangle up
    for (int k = 0; k < count; ++k) points.emplace_back(coordinate(rng), coordinate(rng));
    const SupportRegion region = support_region(points);
    const double integral = sliced_distance_integral(region.vertices, region.centroid);
    // tanh-sinh to 1e-14 per piece (the slices' integrand is analytic between
    // the breaks), the fan's closed forms to round-off: 1e-12 is far above both.
    EXPECT_NEAR(region.mean_distance, integral / region.area, 1e-12 * region.mean_distance) << "trial " << trial;
  }
}

TEST(SupportRegion, InsidePointsStayAndOutsidePointsGoToTheClosestBoundaryPoint) {
  const SupportRegion region = support_region({{-0.02, -0.01}, {0.05, -0.03}, {0.04, 0.03}, {-0.01, 0.04}, {-0.03, 0.01}});
  // 20,000 samples of the boundary: the closest of them is at most half a
  // spacing (below 1e-5 m here) farther than the true closest point.
  std::vector<Eigen::Vector2d> samples;
  const std::size_t n = region.vertices.size();
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 4000; ++k)
      samples.push_back(region.vertices[i] + (region.vertices[(i + 1) % n] - region.vertices[i]) * (k / 4000.0));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> coordinate(-0.1, 0.1);
  int outside = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Vector2d d(coordinate(rng), coordinate(rng));
    const PatchProjection p = project_onto_region(d, region);
    const bool inside = region_gauge(d, region) <= 1;
    EXPECT_EQ(p.inside, inside);
    if (inside) {
      EXPECT_EQ(p.point, d);
      continue;
    }
    ++outside;
    double nearest = std::numeric_limits<double>::infinity();
    for (const Eigen::Vector2d& x : samples) nearest = std::min(nearest, (x - d).norm());
    EXPECT_LE((p.point - d).norm(), nearest + 1e-15);
    EXPECT_GT((p.point - d).norm(), nearest - 1e-5);
    EXPECT_NEAR(region_gauge(p.point, region), 1, 1e-12);  // on the boundary
  }
  EXPECT_GT(outside, 100);
}

TEST(SupportRegion, TheSpinBoundIsTheUniformPressureOfTheScaledCopyWithItsCentroidAtP) {
  const double mu = 0.4, f_n = 3;
  const SupportRegion region = support_region({{-0.02, -0.01}, {0.05, -0.03}, {0.04, 0.03}, {-0.01, 0.04}, {-0.03, 0.01}});
  const double full = mu * f_n * region.mean_distance;
  EXPECT_NEAR(region_spin_torque_bound(region.centroid, region, f_n, mu), full, 1e-15 * full);
  for (const Eigen::Vector2d& v : region.vertices) EXPECT_NEAR(region_spin_torque_bound(v, region, f_n, mu), 0, 1e-12 * full);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int trial = 0; trial < 50; ++trial) {
    // p on the segment from the centroid to a random boundary point z.
    const std::size_t i = std::size_t(trial) % region.vertices.size();
    const Eigen::Vector2d z = region.vertices[i] + unit(rng) * (region.vertices[(i + 1) % region.vertices.size()] -
                                                                region.vertices[i]);
    const double t = unit(rng);  // the copy's scale: p = z + t (g - z)
    const Eigen::Vector2d p = z + t * (region.centroid - z);
    std::vector<Eigen::Vector2d> copy;
    for (const Eigen::Vector2d& v : region.vertices) copy.push_back(z + t * (v - z));
    if (t < 1e-3) continue;  // a copy too small for its own hull's round-off
    const SupportRegion scaled = support_region(copy);
    EXPECT_NEAR((scaled.centroid - p).norm(), 0, 1e-14);
    for (const Eigen::Vector2d& v : scaled.vertices) EXPECT_LE(region_gauge(v, region), 1 + 1e-12);  // inside R
    EXPECT_NEAR(region_spin_torque_bound(p, region, f_n, mu), mu * f_n * scaled.mean_distance, 1e-12 * full);
  }
}

TEST(SupportRegion, BadInputIsRefused) {
  EXPECT_TRUE(test::contains(test::error_of([] { support_region({{0, 0}, {1, 1}, {2, 2}}); }), "no area"));
  EXPECT_TRUE(test::contains(test::error_of([] { support_region({{0, 0}, {1, 0}}); }), "no area"));
  EXPECT_TRUE(test::contains(test::error_of([] { support_region({{0, 0}, {1, 0}, {0, std::nan("")}}); }), "non-finite"));
  const SupportRegion region = support_region({{0, 0}, {1, 0}, {0, 1}});
  EXPECT_TRUE(test::contains(test::error_of([&] { region_spin_torque_bound({2, 2}, region, 1, 0.5); }), "in the region"));
  EXPECT_TRUE(test::contains(test::error_of([&] { region_spin_torque_bound({0.1, 0.1}, region, -1, 0.5); }), "f_n"));
  EXPECT_TRUE(test::contains(test::error_of([] { project_onto_region({0, 0}, SupportRegion{}); }), "empty"));
  EXPECT_TRUE(test::contains(test::error_of([&] { project_onto_region({0, std::nan("")}, region); }), "non-finite"));
}

}  // namespace
}  // namespace contactref::volume_contact
