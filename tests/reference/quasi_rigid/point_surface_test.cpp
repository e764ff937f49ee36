// Point-sampled surfaces (reference/quasi_rigid: point_index, point_samples,
// mls_surface, cluster_hierarchy), each against an independent reference:
//  - the k-d tree against brute force;
//  - Poisson-disk sampling against its two defining properties, checked by
//    brute force, and against the packing bounds on the sample count;
//  - the MLS projection and signed distance of sphere samples against the
//    sphere's exact distance |x| - R, with the error's order in the spacing;
//  - Section 4.1's nearest-sample distance against its closed form on the
//    sphere, (x . r) / R - R, which never exceeds the exact distance
//    (conservative, as the paper says), and a body's version of it, which
//    has no inside past a sheet's rim or beside a convex edge, against the
//    geometry of a plate and of a right-angled edge;
//  - the clustering hierarchy against its invariants, recomputed here;
//  - bad input.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <numbers>
#include <random>

#include "core/errors.hpp"
#include "reference/quasi_rigid/cluster_hierarchy.hpp"
#include "reference/quasi_rigid/mls_surface.hpp"
#include "reference/quasi_rigid/point_index.hpp"
#include "reference/quasi_rigid/point_samples.hpp"
#include "reference/quasi_rigid/quasi_rigid_body.hpp"
#include "tests/kit/errors.hpp"

namespace contactref::quasi_rigid {
namespace {

using test::contains;
using test::error_of;

std::vector<Eigen::Vector3d> random_points(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Eigen::Vector3d> points;
  for (int i = 0; i < count; ++i) {
    points.emplace_back(unit_uniform(rng()), unit_uniform(rng()), unit_uniform(rng()));
  }
  return points;
}

// The unit cube [-1/2, 1/2]^3, its quads counter-clockwise seen from outside.
PolygonSoup unit_cube() {
  std::vector<Eigen::Vector3d> v;
  for (int i = 0; i < 8; ++i) v.emplace_back((i & 1) - 0.5, ((i >> 1) & 1) - 0.5, ((i >> 2) & 1) - 0.5);
  return polygon_soup("cube", v, {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}});
}

TEST(PointIndex, NearestKNearestAndRadiusQueriesMatchBruteForce) {
  const std::vector<Eigen::Vector3d> points = random_points(2000, 7);
  const PointIndex index(points);
  std::vector<Neighbour> found;
  for (const Eigen::Vector3d& x : random_points(50, 8)) {
    std::vector<std::pair<double, int>> all;
    for (int i = 0; i < static_cast<int>(points.size()); ++i) {
      all.emplace_back((points[static_cast<std::size_t>(i)] - x).squaredNorm(), i);
    }
    std::sort(all.begin(), all.end());
    EXPECT_EQ(index.nearest(x).index, all[0].second);
    EXPECT_DOUBLE_EQ(index.nearest(x).distance_sq, all[0].first);
    index.nearest(x, 12, found);
    ASSERT_EQ(found.size(), 12u);
    for (std::size_t k = 0; k < 12; ++k) EXPECT_EQ(found[k].index, all[k].second);
    const double radius = 0.1;
    index.within(x, radius, found);
    const auto inside = std::count_if(all.begin(), all.end(), [&](const auto& d) { return d.first < radius * radius; });
    ASSERT_EQ(static_cast<long>(found.size()), inside);
    for (std::size_t k = 0; k < found.size(); ++k) EXPECT_EQ(found[k].index, all[k].second);
  }
  index.nearest(points[0], 5000, found);
  EXPECT_EQ(found.size(), points.size());  // k above the count: every point
}

// any_within against brute force: radii just above and below the nearest
// distance, a fixed radius, one that holds everything, and the degenerate
// ones (zero, which a point's own position does not pass: the test is
// strict; negative, NaN, an empty index).
TEST(PointIndex, AnyWithinIsWhetherTheNearestPointIsInsideTheRadius) {
  const std::vector<Eigen::Vector3d> points = random_points(2000, 11);
  const PointIndex index(points);
  for (const Eigen::Vector3d& x : random_points(200, 12)) {
    const Eigen::Vector3d far = 3 * x;  // mostly outside the cloud
    for (const Eigen::Vector3d& y : {x, far}) {
      double nearest_sq = std::numeric_limits<double>::infinity();
      for (const Eigen::Vector3d& p : points) nearest_sq = std::min(nearest_sq, (p - y).squaredNorm());
      const double nearest = std::sqrt(nearest_sq);
      EXPECT_TRUE(index.any_within(y, nearest * (1 + 1e-9)));
      EXPECT_FALSE(index.any_within(y, nearest * (1 - 1e-9)));
      EXPECT_EQ(index.any_within(y, 0.05), nearest_sq < 0.05 * 0.05);
      EXPECT_TRUE(index.any_within(y, 10.0));
    }
  }
  EXPECT_FALSE(index.any_within(points[3], 0.0));  // strictly inside: not even the point itself
  EXPECT_FALSE(index.any_within(points[3], -1.0));
  EXPECT_FALSE(index.any_within(points[3], std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(PointIndex({}).any_within(points[3], 1.0));
}

// MovingNearest along random walks of steps from a tenth of the points'
// spacing down to 1e-6 of it (a projection's iterates): at every step the
// neighbours of a fresh query, the same points (random points have no ties)
// at the same squared distances, bit for bit; on a regular grid (ties at the
// k-th distance) the same distances. Most steps reuse a query.
TEST(PointIndex, MovingNearestGivesAFreshQuerysNeighboursAndReusesThem) {
  const std::vector<Eigen::Vector3d> points = random_points(2000, 7);
  std::vector<Eigen::Vector3d> grid;
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 20; ++j) grid.emplace_back(0.05 * i, 0.05 * j, 0.0);
  }
  std::mt19937_64 rng(9);
  for (const bool on_grid : {false, true}) {
    const PointIndex index(on_grid ? grid : points);
    const double spacing = on_grid ? 0.05 : 0.08;  // about 2000^(-1/3) for the random points
    int steps = 0, queries = 0;
    std::vector<Neighbour> fresh;
    for (const int k : {1, 7, 20}) {
      for (int walk = 0; walk < 20; ++walk) {
        MovingNearest moving(index, k);
        // On the grid from a node (ties at the k-th distance), then off it.
        Eigen::Vector3d y = on_grid ? grid[static_cast<std::size_t>(21 * (walk % 18) + 42)]
                                    : Eigen::Vector3d(0.2 + 0.6 * unit_uniform(rng()), 0.2 + 0.6 * unit_uniform(rng()), 0.5);
        for (int step = 0; step < 12; ++step, ++steps) {
          const double length = step == 0 ? 0.0 : spacing * std::pow(10.0, -(step - 1) / 2.0);
          y += length * Eigen::Vector3d(unit_uniform(rng()) - 0.5, unit_uniform(rng()) - 0.5, unit_uniform(rng()) - 0.5);
          const std::vector<Neighbour>& near = moving.at(y);
          index.nearest(y, k, fresh);
          ASSERT_EQ(near.size(), fresh.size());
          for (std::size_t i = 0; i < near.size(); ++i) {
            EXPECT_EQ(near[i].distance_sq, fresh[i].distance_sq) << "k " << k << " step " << step << " neighbour " << i;
            if (!on_grid) {
              EXPECT_EQ(near[i].index, fresh[i].index) << "k " << k << " step " << step;
            }
          }
        }
        queries += moving.queries();
      }
    }
    // Reused on the small steps: at most about half of the steps query.
    EXPECT_LT(queries, steps / 2) << (on_grid ? "grid" : "random points");
  }
  const PointIndex index(points);
  MovingNearest none(index, 0);
  EXPECT_TRUE(none.at(points[0]).empty());
}

TEST(PointIndex, RefusesNonFinitePoints) {
  std::vector<Eigen::Vector3d> points = random_points(3, 1);
  points[2].y() = std::nan("");
  EXPECT_TRUE(contains(error_of([&] { PointIndex index(points); }), "point 2 is not finite"));
}

TEST(PointSamples, PointCloudsNeedFiniteNonZeroNormalsAndAreNormalised) {
  PointCloud cloud;
  cloud.name = "c.xyz";
  cloud.points = {{0, 0, 0}, {1, 0, 0}};
  EXPECT_TRUE(contains(error_of([&] { surface_samples(cloud); }), "c.xyz: the points have no normals"));
  cloud.normals = {{0, 0, 2}, {0, 3, 4}};
  const SurfaceSamples samples = surface_samples(cloud);
  EXPECT_DOUBLE_EQ(samples.normals[1].y(), 0.6);
  EXPECT_DOUBLE_EQ(samples.normals[1].z(), 0.8);
  cloud.point_lines = {3, 4};
  cloud.normals[1].setZero();
  EXPECT_TRUE(contains(error_of([&] { surface_samples(cloud); }), "c.xyz:4: point 1 has a zero normal"));
  cloud.normals[1] = {0, 0, 1};
  cloud.points[0].x() = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(contains(error_of([&] { surface_samples(cloud); }), "c.xyz:3: point 0 is not finite"));
  cloud.points.clear();
  EXPECT_TRUE(contains(error_of([&] { surface_samples(cloud); }), "c.xyz: no point"));

  SurfaceSamples bad{"s", {{0, 0, 0}}, {{0, 0, 1.1}}};
  EXPECT_TRUE(contains(error_of([&] { check_samples(bad); }), "s: sample 0 has a normal of length 1.1"));
  bad.normals.clear();
  EXPECT_TRUE(contains(error_of([&] { check_samples(bad); }), "s: 0 normals for 1 samples"));
}

TEST(PointSamples, PoissonDiskSetKeepsItsSpacingAndCoversEveryCandidate) {
  const std::vector<Eigen::Vector3d> points = random_points(3000, 11);
  const SurfaceSamples candidates{"random", points, std::vector<Eigen::Vector3d>(points.size(), Eigen::Vector3d::UnitZ())};
  const double spacing = 0.08;
  const SurfaceSamples kept = poisson_disk_subset(candidates, spacing);
  ASSERT_GT(kept.points.size(), 10u);
  double closest = 1e300;
  for (std::size_t i = 0; i < kept.points.size(); ++i) {
    for (std::size_t j = i + 1; j < kept.points.size(); ++j) closest = std::min(closest, (kept.points[i] - kept.points[j]).norm());
  }
  EXPECT_GE(closest, spacing);
  double farthest = 0;
  for (const Eigen::Vector3d& c : points) {
    double to_kept = 1e300;
    for (const Eigen::Vector3d& k : kept.points) to_kept = std::min(to_kept, (c - k).norm());
    farthest = std::max(farthest, to_kept);
  }
  EXPECT_LT(farthest, spacing);
  EXPECT_TRUE(contains(error_of([&] { poisson_disk_subset(candidates, 0); }), "spacing must be finite and > 0"));
}

TEST(PointSamples, MeshSamplesLieOnTheFacesWithOutwardNormalsSpreadByArea) {
  const double spacing = 0.05;
  const SurfaceSamples samples = sample_mesh(unit_cube(), spacing);
  std::array<int, 6> per_face{};
  for (std::size_t i = 0; i < samples.points.size(); ++i) {
    const Eigen::Vector3d& n = samples.normals[i];
    int axis = 0;
    n.cwiseAbs().maxCoeff(&axis);
    EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1, 1e-15);
    EXPECT_NEAR(samples.points[i].dot(n), 0.5, 1e-15);  // on the face whose outward normal it carries
    EXPECT_LE(samples.points[i].cwiseAbs().maxCoeff(), 0.5 + 1e-15);
    ++per_face[static_cast<std::size_t>(2 * axis + (n[axis] > 0 ? 1 : 0))];
  }
  // Disks of radius s/2 about the samples are disjoint, and disks of radius s
  // cover the faces (up to the candidates' density): between A / (pi s^2) and
  // A / (pi s^2 / 4) samples, plus what the faces' edges let through.
  const double area = 6, n = static_cast<double>(samples.points.size());
  EXPECT_GT(n, area / (std::numbers::pi * spacing * spacing));
  EXPECT_LT(n, 1.1 * area / (std::numbers::pi * spacing * spacing / 4));
  for (int count : per_face) EXPECT_NEAR(count, n / 6, 0.05 * n / 6);
  // The same seed gives the same samples; another seed others.
  EXPECT_EQ(sample_mesh(unit_cube(), spacing).points, samples.points);
  EXPECT_NE(sample_mesh(unit_cube(), spacing, 10, 2).points, samples.points);
}

TEST(PointSamples, MeshSamplingRefusesBadMeshesAndOptions) {
  PolygonSoup cube = unit_cube();
  EXPECT_TRUE(contains(error_of([&] { sample_mesh(cube, -1); }), "spacing must be finite and > 0"));
  EXPECT_TRUE(contains(error_of([&] { sample_mesh(cube, 0.1, 0.5); }), "oversampling must be finite and >= 1"));
  EXPECT_TRUE(contains(error_of([&] { sample_mesh(cube, 1e-5); }), "candidates (more than 50 million)"));
  cube.faces[3] = {2, 6, 9};
  EXPECT_TRUE(contains(error_of([&] { sample_mesh(cube, 0.1); }), "cube: face 3 names vertex 9, out of range"));
  cube.faces[3] = {2, 6, 2};
  EXPECT_TRUE(contains(error_of([&] { sample_mesh(cube, 0.1); }), "cube: face 3 is degenerate"));
  cube.faces.clear();
  EXPECT_TRUE(contains(error_of([&] { sample_mesh(cube, 0.1); }), "cube: no face"));
  EXPECT_TRUE(contains(error_of([&] { sample_sphere({0, 0, 0}, 0, 0.1); }), "radius finite and > 0"));
}

// The largest error of the MLS signed distance against |x| - R, over points
// within three spacings of the sphere of radius 1, with k neighbours.
double mls_sphere_error(double spacing, int degree, int neighbours = 20) {
  const MlsSurface surface(sample_sphere(Eigen::Vector3d::Zero(), 1.0, spacing), {neighbours, degree, 64, 1e-10});
  std::mt19937_64 rng(5);
  double worst = 0;
  for (int i = 0; i < 400; ++i) {
    const SurfaceSamples direction = sample_sphere(Eigen::Vector3d::Zero(), 1.0, 10.0, 1, rng());
    const Eigen::Vector3d x = (1 + 3 * spacing * (2 * unit_uniform(rng()) - 1)) * direction.normals[0];
    const MlsProjection on_surface = surface.project(x);
    worst = std::max(worst, std::abs(on_surface.point.norm() - 1));
    worst = std::max(worst, std::abs(surface.signed_distance(x) - (x.norm() - 1)));
    EXPECT_LT((on_surface.normal - on_surface.point.normalized()).norm(), spacing);
  }
  return worst;
}

TEST(MlsSurface, SphereDistancesConvergeAtSecondOrderForThePlaneAndThirdForTheQuadratic) {
  const double plane_coarse = mls_sphere_error(0.1, 1), plane_fine = mls_sphere_error(0.05, 1);
  const double coarse = mls_sphere_error(0.1, 2), fine = mls_sphere_error(0.05, 2);
  std::cout << "MLS sphere error, plane " << plane_coarse << " " << plane_fine << ", quadratic " << coarse << " "
            << fine << "\n";
  EXPECT_GT(std::log2(plane_coarse / plane_fine), 1.7);
  EXPECT_GT(std::log2(coarse / fine), 2.7);
  EXPECT_LT(fine, 0.1 * plane_fine);
  // Past 32 neighbours the quadratic's QR leaves the stack (mls_surface.cpp):
  // the same order there.
  const double wide_coarse = mls_sphere_error(0.1, 2, 40), wide_fine = mls_sphere_error(0.05, 2, 40);
  std::cout << "MLS sphere error, quadratic with 40 neighbours " << wide_coarse << " " << wide_fine << "\n";
  EXPECT_GT(std::log2(wide_coarse / wide_fine), 2.7);
}

TEST(MlsSurface, InsideOutsideAndTheNearestSampleDistanceOnASphere) {
  const double spacing = 0.05;
  const MlsSurface surface(sample_sphere(Eigen::Vector3d::Zero(), 1.0, spacing));
  std::mt19937_64 rng(9);
  for (int i = 0; i < 300; ++i) {
    const SurfaceSamples direction = sample_sphere(Eigen::Vector3d::Zero(), 1.0, 10.0, 1, rng());
    const double depth = 0.2 * spacing * (2 * unit_uniform(rng()) - 1);
    const Eigen::Vector3d x = (1 + depth) * direction.normals[0];
    EXPECT_EQ(surface.signed_distance(x) < 0, depth < 0) << depth;
    const SampleDistance shortcut = surface.nearest_sample_distance(x);
    const Eigen::Vector3d& r = surface.samples().points[static_cast<std::size_t>(shortcut.sample)];
    EXPECT_NEAR(shortcut.distance, x.dot(r) - 1, 1e-15);  // the closed form on the unit sphere
    EXPECT_LE(shortcut.distance, x.norm() - 1 + 1e-15);   // conservative
  }
}

// Section 4.1's nearest-sample test extends the nearest sample's plane: past
// a plate's rim it puts half of space inside the plate, and beside a convex
// edge it can take the plane of the face around the corner. A body's version
// holds it to the sampled surface: a point farther from its nearest sample
// along that sample's plane than the sample's spacing is outside, at its
// distance from the sample. Geometry decides each case below: the plate is
// the square [-10h, 10h]^2 of z = 0; the edge joins the face z = 0, x <= 0
// (normal +z) to the face x = 0, z <= -h (normal +x).
TEST(QuasiRigidBody, TheNearestSampleTestHasNoInsidePastAPlatesRimOrBesideAConvexEdge) {
  const double h = 1e-3;
  SurfaceSamples plate, edge;
  plate.name = "plate", edge.name = "edge";
  for (int i = -10; i <= 10; ++i) {
    for (int j = -10; j <= 10; ++j) {
      plate.points.emplace_back(i * h, j * h, 0);
      plate.normals.emplace_back(0, 0, 1);
      if (i > 0) continue;
      edge.points.emplace_back(i * h, j * h, 0);
      edge.normals.emplace_back(0, 0, 1);
      if (i == 0) continue;
      edge.points.emplace_back(0, j * h, i * h);
      edge.normals.emplace_back(1, 0, 0);
    }
  }
  const QuasiRigidBody plate_body(plate, {0, 0}), edge_body(edge, {0, 0});
  const auto at = [](const QuasiRigidBody& body, const Eigen::Vector3d& x) { return body.nearest_sample_distance(x); };

  const Eigen::Vector3d under(0.3 * h, 0.2 * h, -0.5 * h);  // under the plate: inside
  EXPECT_NEAR(at(plate_body, under).distance, -0.5 * h, 1e-18);
  EXPECT_FALSE(at(plate_body, under).off_surface);
  // Two spacings past the rim, as deep: the plane's test says inside.
  const Eigen::Vector3d past(12 * h, 0, -0.5 * h);
  EXPECT_NEAR(plate_body.surface().nearest_sample_distance(past).distance, -0.5 * h, 1e-18);
  const SampleDistance outside = at(plate_body, past);
  EXPECT_TRUE(outside.off_surface);
  EXPECT_NEAR(outside.distance, std::hypot(2 * h, 0.5 * h), 1e-18);  // from the rim sample (10h, 0, 0)
  // Within a spacing of the rim the sampled surface's extent is unknown: the
  // plane's test stands.
  EXPECT_LT(at(plate_body, Eigen::Vector3d(10.5 * h, 0, -0.5 * h)).distance, 0);

  // Beside the edge, a fifth of a spacing below the top face's plane and two
  // spacings out from the side face: outside the solid, nearest to the top
  // face's sample on the edge (2.01 h, against 2.15 h to the side face's
  // first row), whose plane says inside.
  const Eigen::Vector3d beside(2 * h, 0, -0.2 * h);
  EXPECT_EQ(edge_body.surface().nearest_sample_distance(beside).sample, at(edge_body, beside).sample);
  EXPECT_NEAR(edge_body.surface().nearest_sample_distance(beside).distance, -0.2 * h, 1e-18);
  EXPECT_TRUE(at(edge_body, beside).off_surface);
  EXPECT_GT(at(edge_body, beside).distance, 0);
  // Inside the solid under the top face, and inside beside the side face.
  EXPECT_LT(at(edge_body, Eigen::Vector3d(-3 * h, 0, -0.4 * h)).distance, 0);
  EXPECT_LT(at(edge_body, Eigen::Vector3d(-0.4 * h, 0, -5 * h)).distance, 0);

  // The bound spares the surface itself: on a Poisson-disk sampled sphere
  // every point is within about the disk radius of a sample, below its
  // spacing (the mean distance to six neighbours). Points up to half a
  // spacing under it, in random directions, stay inside (the largest
  // tangential offset seen: 0.78 of the spacing at 8, 4 and 2 mm).
  const QuasiRigidBody sphere(sample_sphere(Eigen::Vector3d::Zero(), 0.05, 8e-3), {0, 0});
  std::mt19937_64 rng(17);
  for (int i = 0; i < 2000; ++i) {
    const Eigen::Vector3d direction = sample_sphere(Eigen::Vector3d::Zero(), 1.0, 10.0, 1, rng()).normals[0];
    const Eigen::Vector3d x = (0.05 - 4e-3 * unit_uniform(rng())) * direction;
    const SampleDistance d = at(sphere, x);
    EXPECT_TRUE(d.distance < 0 && !d.off_surface) << x.transpose();
  }
}

TEST(MlsSurface, RefusesSheetsThinnerThanTheNeighbourhoodAndBadOptions) {
  // Two sampled planes 1 mm apart with opposite normals: a 1 mm sheet.
  SurfaceSamples sheet;
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 20; ++j) {
      for (int side : {-1, 1}) {
        sheet.points.emplace_back(0.01 * i, 0.01 * j, 0.0005 * side);
        sheet.normals.emplace_back(0, 0, side);
      }
    }
  }
  const MlsSurface surface(sheet);
  EXPECT_TRUE(contains(error_of([&] { surface.project({0.1, 0.1, 0}); }), "opposing normals"));
  EXPECT_TRUE(contains(error_of([&] { surface.project({std::nan(""), 0, 0}); }), "non-finite point"));
  EXPECT_TRUE(contains(error_of([&] { MlsSurface s(sheet, {2, 1, 64, 1e-10}); }), "neighbours must be >= 3"));
  EXPECT_TRUE(contains(error_of([&] { MlsSurface s(sheet, {6, 2, 64, 1e-10}); }), "neighbours must be >= 7 for degree 2"));
  EXPECT_TRUE(contains(error_of([&] { MlsSurface s(sheet, {20, 3, 64, 1e-10}); }), "degree must be 1 or 2"));
  EXPECT_TRUE(contains(error_of([&] { MlsSurface s(sheet, {20, 2, 0, 1e-10}); }), "max_iterations must be >= 1"));
  EXPECT_TRUE(contains(error_of([&] { MlsSurface s(sheet, {20, 2, 64, 1}); }), "tolerance must be in (0, 1)"));
  sheet.points.resize(2);
  sheet.normals.resize(2);
  EXPECT_TRUE(contains(error_of([&] { MlsSurface s(sheet); }), "at least 3 samples"));
  // A single iteration from off the plane cannot meet the tolerance.
  const MlsSurface sphere(sample_sphere(Eigen::Vector3d::Zero(), 1.0, 0.1), {20, 2, 1, 1e-10});
  EXPECT_TRUE(contains(error_of([&] { sphere.project({0, 0, 1.3}); }), "did not converge in 1 iterations"));
}

TEST(ClusterHierarchy, PartitionsTheSamplesIntoBoundedClustersAndLevels) {
  const SurfaceSamples samples = sample_sphere(Eigen::Vector3d::Zero(), 1.0, 0.05);
  const ClusterOptions options{8, 0.02};
  const ClusterHierarchy hierarchy(samples.points, options);
  std::vector<int> sorted = hierarchy.order();
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], static_cast<int>(i));
  const auto& clusters = hierarchy.clusters();
  EXPECT_EQ(clusters[0].count, static_cast<int>(samples.points.size()));
  for (const Cluster& c : clusters) {
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
    for (int k = c.first; k < c.first + c.count; ++k) {
      const Eigen::Vector3d& p = samples.points[static_cast<std::size_t>(hierarchy.order()[static_cast<std::size_t>(k)])];
      EXPECT_LE((p - c.centre).norm(), c.radius * (1 + 1e-15));
      centroid += p;
    }
    EXPECT_LT((centroid / c.count - c.centre).norm(), 1e-14);
    if (c.leaf()) {
      EXPECT_LE(c.count, options.max_samples);
      Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
      for (int k = c.first; k < c.first + c.count; ++k) {
        const Eigen::Vector3d d = samples.points[static_cast<std::size_t>(hierarchy.order()[static_cast<std::size_t>(k)])] - c.centre;
        covariance += d * d.transpose();
      }
      const Eigen::Vector3d lambda = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(covariance).eigenvalues();
      EXPECT_LE(lambda(0) / lambda.sum(), options.max_variation + 1e-12);
    } else {
      const Cluster& a = clusters[static_cast<std::size_t>(c.children[0])];
      const Cluster& b = clusters[static_cast<std::size_t>(c.children[1])];
      EXPECT_EQ(a.first, c.first);
      EXPECT_EQ(b.first, a.first + a.count);
      EXPECT_EQ(a.count + b.count, c.count);
      EXPECT_GT(a.count, 0);
      EXPECT_GT(b.count, 0);
      EXPECT_EQ(a.depth, c.depth + 1);
    }
  }
  for (int size : {1, 50, 500}) {
    int covered = 0;
    for (int c : hierarchy.level(size)) {
      const Cluster& cluster = clusters[static_cast<std::size_t>(c)];
      EXPECT_TRUE(cluster.leaf() || cluster.count <= size);
      covered += cluster.count;
    }
    EXPECT_EQ(covered, static_cast<int>(samples.points.size()));
  }
  EXPECT_GT(hierarchy.level(50).size(), samples.points.size() / 100);
  EXPECT_LT(hierarchy.level(50).size(), samples.points.size() / 10);
}

TEST(ClusterHierarchy, CoincidentPointsSplitAtTheMedianAndBadInputIsRefused) {
  const std::vector<Eigen::Vector3d> same(100, Eigen::Vector3d(1, 2, 3));
  const ClusterHierarchy hierarchy(same, {4, 1.0 / 3});
  for (const Cluster& c : hierarchy.clusters()) {
    if (c.leaf()) {
      EXPECT_LE(c.count, 4);
    }
    EXPECT_EQ(c.radius, 0);
  }
  EXPECT_LE(hierarchy.depth(), 6);
  EXPECT_TRUE(contains(error_of([] { ClusterHierarchy h({}); }), "no point"));
  EXPECT_TRUE(contains(error_of([&] { ClusterHierarchy h(same, {0, 0.1}); }), "max_samples must be >= 1"));
  EXPECT_TRUE(contains(error_of([&] { ClusterHierarchy h(same, {4, 0.5}); }), "max_variation must be in [0, 1/3]"));
  std::vector<Eigen::Vector3d> bad = same;
  bad[7].z() = std::nan("");
  EXPECT_TRUE(contains(error_of([&] { ClusterHierarchy h(bad); }), "point 7 is not finite"));
}

}  // namespace
}  // namespace contactref::quasi_rigid
