// A body's samples on a grid in the contact plane
// (reference/quasi_rigid/contact_plane_grid.hpp): the weighted quadratic fit
// of sample values at the cell centres converges at its order, the bilinear
// interpolation back to the samples is exact for a linear field, the
// pressure comes from the loaded cells alone, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>

#include "reference/quasi_rigid/contact_plane_grid.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::quasi_rigid {
namespace {

using test::contains;
using test::error_of;

// A square lattice of spacing h over the disk of radius 4 mm in a tilted
// plane (normal n, in-plane axes u, v), every sample of area h^2 with the
// plane's normal, the gap g(x) of each.
template <class Gap>
PlaneSamples tilted_disk(double h, const Gap& g) {
  const Eigen::Vector3d n = Eigen::Vector3d(0.2, -0.1, -1).normalized();
  const Eigen::Vector3d u = n.cross(Eigen::Vector3d::UnitX()).normalized(), v = n.cross(u);
  const Eigen::Vector3d origin(0.01, 0.02, 0.003);
  PlaneSamples s;
  const int cells = static_cast<int>(std::round(4e-3 / h));
  for (int i = -cells; i <= cells; ++i) {
    for (int j = -cells; j <= cells; ++j) {
      if (i * i + j * j > cells * cells) continue;
      s.points.push_back(origin + i * h * u + j * h * v);
      s.normals.push_back(n);
    }
  }
  const auto count = static_cast<Eigen::Index>(s.points.size());
  s.area = Eigen::VectorXd::Constant(count, h * h);
  s.spacing = Eigen::VectorXd::Constant(count, h);
  s.gap.resize(count);
  for (Eigen::Index k = 0; k < count; ++k) s.gap(k) = g(s.points[static_cast<std::size_t>(k)] - origin);
  return s;
}

// A sphere's gap about its lowest point (radius 5 mm, 0.5 mm in): smooth,
// not a polynomial.
double sphere_like(const Eigen::Vector3d& d) { return 5e-3 - std::sqrt(25e-6 - d.squaredNorm()) - 5e-4; }

// The largest difference of the fitted cells from the field at their
// centres, over the cells within 3 mm of the disk's centre (away from its
// rim, where the kernels reaching a cell lie on one side).
double fit_error(double h) {
  const PlaneSamples s = tilted_disk(h, sphere_like);
  const ContactPlaneGrid grid(s, h, "test");
  const Eigen::ArrayXXd cells = grid.to_cells(s.gap);
  const Eigen::Vector3d origin(0.01, 0.02, 0.003);
  double worst = 0;
  for (int i = 0; i < grid.nx(); ++i) {
    for (int j = 0; j < grid.ny(); ++j) {
      const Eigen::Vector3d d = grid.centre(i, j) - origin;
      if (d.norm() > 3e-3) continue;
      EXPECT_TRUE(std::isfinite(cells(i, j)));
      worst = std::max(worst, std::abs(cells(i, j) - sphere_like(d)));
    }
  }
  return worst;
}

TEST(ContactPlaneGrid, TheQuadraticFitOfSampleValuesConvergesAtThirdOrder) {
  // The fit is exact for a quadratic (up to its ridge, which the spacing
  // scales down with the field's terms in cells), so a smooth field is fitted
  // to its cubic terms: third order in the spacing (>= 2.5: half an order
  // for what is not yet asymptotic; on a symmetric stencil the cubic terms
  // cancel to fourth).
  const double coarse = fit_error(4e-4), fine = fit_error(2e-4);
  const double order = std::log(coarse / fine) / std::log(2.0);
  std::cout << "[plane grid] fit error at h = 0.4, 0.2 mm: " << coarse << ", " << fine << " m (order " << order << ")\n";
  EXPECT_GE(order, 2.5);
}

TEST(ContactPlaneGrid, BilinearValuesAtTheSamplesAreExactForALinearField) {
  const PlaneSamples s = tilted_disk(3e-4, sphere_like);
  const ContactPlaneGrid grid(s, 5e-4, "test");  // cells coarser than the samples, not aligned with them
  const Eigen::Vector3d slope(300, -200, 100);   // Pa per m
  Eigen::ArrayXXd cells(grid.nx(), grid.ny());
  for (int i = 0; i < grid.nx(); ++i) {
    for (int j = 0; j < grid.ny(); ++j) cells(i, j) = 1e3 + slope.dot(grid.centre(i, j));
  }
  const Eigen::VectorXd at_samples = grid.bilinear_at_samples(cells);
  // Between the outer centres (beyond, the values are held constant): the
  // samples at least half a cell inside the grid's rectangle.
  const Eigen::Vector3d axis_x = (grid.centre(1, 0) - grid.centre(0, 0)) / grid.cell();
  const Eigen::Vector3d axis_y = (grid.centre(0, 1) - grid.centre(0, 0)) / grid.cell();
  int inside = 0;
  for (std::size_t k = 0; k < s.points.size(); ++k) {
    const Eigen::Vector3d d = s.points[k] - grid.centre(0, 0);
    const double x = d.dot(axis_x) / grid.cell(), y = d.dot(axis_y) / grid.cell();
    if (x < 0 || y < 0 || x > grid.nx() - 1 || y > grid.ny() - 1) continue;
    ++inside;
    const double exact = 1e3 + slope.dot(s.points[k]);
    // Four products and sums of values of that size, and the centres'
    // positions (a few roundings of coordinates 100 times the cell).
    EXPECT_NEAR(at_samples(static_cast<Eigen::Index>(k)), exact, test::tolerance<double>(64) * 1e3) << k;
  }
  EXPECT_GT(inside, 300);
  // The pressure, from the loaded cells: where all are, the same bilinear
  // values.
  const Eigen::VectorXd pressure = grid.pressure_at_samples(cells);
  EXPECT_LE((pressure - at_samples).cwiseAbs().maxCoeff(), test::tolerance<double>(64) * 1e3);
}

TEST(ContactPlaneGrid, PressureComesFromTheLoadedCellsAlone) {
  const PlaneSamples s = tilted_disk(3e-4, sphere_like);
  const ContactPlaneGrid grid(s, 5e-4, "test");
  // Half the cells loaded (a field rising along the grid's x), the others
  // not: a sample takes 0 in an unloaded cell, and in a loaded one a convex
  // combination of the loaded centres about it (its own among them).
  Eigen::ArrayXXd cells = Eigen::ArrayXXd::Zero(grid.nx(), grid.ny());
  for (int i = 0; i < grid.nx() / 2; ++i) {
    for (int j = 0; j < grid.ny(); ++j) cells(i, j) = 1e3 * (1 + i);
  }
  const Eigen::VectorXd pressure = grid.pressure_at_samples(cells);
  const Eigen::Vector3d axis_x = (grid.centre(1, 0) - grid.centre(0, 0)) / grid.cell();
  int loaded = 0, unloaded = 0;
  for (std::size_t k = 0; k < s.points.size(); ++k) {
    // The holding cell's column: the sample's x in cells from the grid's corner.
    const double x = (s.points[k] - grid.centre(0, 0)).dot(axis_x) / grid.cell() + 0.5;
    const int i = std::min(static_cast<int>(x), grid.nx() - 1);
    const double p = pressure(static_cast<Eigen::Index>(k));
    if (i >= grid.nx() / 2) {
      ++unloaded;
      EXPECT_EQ(p, 0) << k;
    } else {
      ++loaded;
      // Between the loaded columns about it, i - 1 .. i + 1 (rounding: a
      // few units in the last place of 1e3 i).
      EXPECT_GE(p, 1e3 * std::max(1, i) * (1 - test::tolerance<double>(8))) << k;
      EXPECT_LE(p, 1e3 * std::min(i + 2, grid.nx() / 2) * (1 + test::tolerance<double>(8))) << k;
    }
  }
  EXPECT_GT(loaded, 100);
  EXPECT_GT(unloaded, 100);
}

TEST(ContactPlaneGrid, BadInputIsRefusedNamingTheProblem) {
  const PlaneSamples s = tilted_disk(5e-4, sphere_like);
  for (double cell : {0.0, -1e-4, std::nan("")}) {
    EXPECT_TRUE(contains(error_of([&] { const ContactPlaneGrid grid(s, cell, "here"); }),
                         "InputError: here: the FFT grid's spacing must be finite and > 0"))
        << cell;
  }
  PlaneSamples short_gap = s;
  short_gap.gap.conservativeResize(3);
  EXPECT_TRUE(contains(error_of([&] { const ContactPlaneGrid grid(short_gap, 5e-4, "here"); }), "and 3 gaps"));
  const PlaneSamples apart = tilted_disk(5e-4, [](const Eigen::Vector3d&) { return 1e-4; });
  EXPECT_TRUE(contains(error_of([&] { const ContactPlaneGrid grid(apart, 5e-4, "here"); }), "no penetrating sample"));
  const ContactPlaneGrid grid(s, 5e-4, "here");
  EXPECT_TRUE(contains(error_of([&] { grid.to_cells(Eigen::VectorXd::Zero(2)); }), "2 values for"));
}

}  // namespace
}  // namespace contactref::quasi_rigid
