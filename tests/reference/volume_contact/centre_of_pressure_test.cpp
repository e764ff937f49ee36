// The centre of pressure and its projection onto the contact ellipse
// (reference/volume_contact/centre_of_pressure.hpp, Bouchard et al. Sections
// 5.3-5.4) against independent references:
//  - the centre of pressure of a normal force placed at a known point is that
//    point (the torque a force at d exerts about the patch's centre is
//    d x f);
//  - the projection against a brute-force minimisation of the distance over
//    the ellipse's boundary, and the optimality condition (d - p along the
//    ellipse's normal at p);
//  - the special cases: inside points, points on the axes, a circle, a
//    segment (a skinny rod's patch), a point; bad input.
#include "reference/volume_contact/centre_of_pressure.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <iostream>
#include <numbers>
#include <random>

#include "tests/kit/errors.hpp"

namespace contactref::volume_contact {
namespace {

TEST(CentreOfPressure, ANormalForceAtAPointHasItsCentreOfPressureThere) {
  const double f_n = 12.5;
  const Eigen::Vector3d d(0.03, -0.02, 0), f(0.4, -0.7, f_n);  // the tangential force moves nothing
  const Eigen::Vector3d tau = d.cross(f);                       // about the patch's centre
  const Eigen::Vector2d cop = centre_of_pressure(f_n, tau.head<2>());
  EXPECT_NEAR((cop - d.head<2>()).norm(), 0, 1e-17);
  EXPECT_TRUE(test::contains(test::error_of([] { centre_of_pressure(0, Eigen::Vector2d(1, 0)); }),
                             "need a finite normal force > 0"));
  EXPECT_TRUE(test::contains(test::error_of([] { centre_of_pressure(1, Eigen::Vector2d(std::nan(""), 0)); }),
                             "finite torque"));
}

// The closest boundary point by brute force: the distance over 200,000
// angles, then golden-section refinement about the best one.
Eigen::Vector2d brute_force_closest(const Eigen::Vector2d& d, double a, double b) {
  const auto point = [&](double theta) { return Eigen::Vector2d(a * std::cos(theta), b * std::sin(theta)); };
  const auto distance = [&](double theta) { return (point(theta) - d).squaredNorm(); };
  const int n = 200000;
  double best = 0;
  for (int k = 0; k < n; ++k) {
    const double theta = 2 * std::numbers::pi * k / n;
    if (distance(theta) < distance(best)) best = theta;
  }
  double lo = best - 2 * std::numbers::pi / n, hi = best + 2 * std::numbers::pi / n;
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int i = 0; i < 100; ++i) {
    const double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    (distance(x1) < distance(x2) ? hi : lo) = (distance(x1) < distance(x2) ? x2 : x1);
  }
  return point(0.5 * (lo + hi));
}

TEST(PatchProjection, OutsidePointsGoToTheClosestBoundaryPoint) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> uniform(-1, 1);
  int most_iterations = 0, outside = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const double a = 0.05, b = trial % 3 == 0 ? 0.049 : 0.05 * (0.05 + 0.9 * (uniform(rng) + 1) / 2);
    Eigen::Vector2d d(0.12 * uniform(rng), 0.12 * uniform(rng));
    if ((d.x() / a) * (d.x() / a) + (d.y() / b) * (d.y() / b) <= 1.05) continue;
    const PatchProjection p = project_onto_ellipse(d, {a, b});
    ++outside;
    EXPECT_FALSE(p.inside);
    EXPECT_NEAR((p.point.x() / a) * (p.point.x() / a) + (p.point.y() / b) * (p.point.y() / b), 1, 1e-14);
    const Eigen::Vector2d brute = brute_force_closest(d, a, b);
    EXPECT_NEAR((p.point - d).norm(), (brute - d).norm(), 1e-14) << "trial " << trial;
    EXPECT_NEAR((p.point - brute).norm(), 0, 1e-7) << "trial " << trial;  // the angle's resolution
    // Optimality: d - p lies along the normal (p_u / a^2, p_w / b^2).
    const Eigen::Vector2d normal(p.point.x() / (a * a), p.point.y() / (b * b));
    const Eigen::Vector2d gap = d - p.point;
    EXPECT_NEAR((normal.x() * gap.y() - normal.y() * gap.x()) / (normal.norm() * gap.norm()), 0, 1e-12);
    EXPECT_GT(normal.dot(gap), 0);
    most_iterations = std::max(most_iterations, p.iterations);
  }
  std::cout << "[ellipse projection] most TOMS 748 iterations to round-off: " << most_iterations
            << " (the paper: 4 to 5 for a good solution)\n";
  EXPECT_GE(outside, 12);
  // TOMS 748 converges superlinearly: to round-off in far fewer than its cap
  // of 100 (a bracket that failed to shrink would use them all).
  EXPECT_LE(most_iterations, 20);
}

TEST(PatchProjection, InsidePointsAxesCirclesSegmentsAndBadInput) {
  const PatchProjection inside = project_onto_ellipse({0.01, -0.01}, {0.05, 0.02});
  EXPECT_TRUE(inside.inside);
  EXPECT_EQ(inside.point, Eigen::Vector2d(0.01, -0.01));
  EXPECT_EQ(inside.iterations, 0);
  EXPECT_EQ(project_onto_ellipse({-0.2, 0}, {0.05, 0.02}).point, Eigen::Vector2d(-0.05, 0));  // major axis
  EXPECT_NEAR((project_onto_ellipse({0, -0.2}, {0.05, 0.02}).point - Eigen::Vector2d(0, -0.02)).norm(), 0, 1e-17);
  const PatchProjection circle = project_onto_ellipse({0.3, 0.4}, {0.1, 0.1});
  EXPECT_NEAR((circle.point - Eigen::Vector2d(0.06, 0.08)).norm(), 0, 1e-15);  // along the radius
  const PatchProjection rod = project_onto_ellipse({0.2, 0.01}, {0.05, 0});
  EXPECT_FALSE(rod.inside);
  EXPECT_EQ(rod.point, Eigen::Vector2d(0.05, 0));
  EXPECT_TRUE(project_onto_ellipse({0.01, 0}, {0.05, 0}).inside);
  EXPECT_EQ(project_onto_ellipse({0.01, 0.02}, {0, 0}).point, Eigen::Vector2d(0, 0));  // a point patch
  EXPECT_TRUE(test::contains(test::error_of([] { project_onto_ellipse({0, 0}, {0.01, 0.02}); }), "a >= b >= 0"));
  EXPECT_TRUE(test::contains(test::error_of([] { project_onto_ellipse({std::nan(""), 0}, {0.02, 0.01}); }),
                             "need a finite point"));
}

}  // namespace
}  // namespace contactref::volume_contact
