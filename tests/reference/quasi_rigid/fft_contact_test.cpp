// The contact solve on the FFT half-space operator's grid
// (reference/quasi_rigid/fft_contact.hpp, Polonsky & Keer's constrained
// conjugate gradient) against Hertz (Johnson, Contact Mechanics, Sec. 4.2):
// the contact radius, peak pressure and load converge at the orders the
// discretisation gives; the FFT option of resolve_contact
// (ResponseOperator::kFftHalfSpace, contact_plane_grid.hpp) beside the exact
// operator on a sampled sphere pressed onto a rigid plane; bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <numbers>

#include "core/errors.hpp"
#include "reference/quasi_rigid/fft_contact.hpp"
#include "reference/quasi_rigid/multi_level.hpp"
#include "reference/quasi_rigid/point_contact.hpp"
#include "tests/kit/errors.hpp"
#include "tests/reference/quasi_rigid/hertz_sphere.hpp"
#include "validation/fixtures/lattice_surfaces.hpp"
#include "validation/oracles/hertz.hpp"

namespace contactref::quasi_rigid {
namespace {

using test::contains;
using test::error_of;
using test::kHertzE;
using test::kHertzNu;
using test::kHertzRadius;

constexpr double kFftHertzRadius = 1.5e-3;  // m: Hertz's a for the test's approach a^2 / R
const double kFftEStar = kHertzE / (1 - kHertzNu * kHertzNu);

struct HertzErrors {
  double radius, pressure, load;  // relative to Hertz's a, p0, W
};

// A rigid sphere (radius R) pressed by a^2 / R into the half-space on a grid
// of spacing a / m centred on the first contact (a cell centre there),
// reaching 1.25 a; the gap is Hertz's parabola r^2 / (2 R) less the
// approach, so that Hertz is the continuum's exact answer. The contact
// radius from the loaded cells' area, sqrt(n h^2 / pi).
HertzErrors hertz_on_grid(int m) {
  const double a = kFftHertzRadius, h = a / m, approach = a * a / kHertzRadius;
  const int half = static_cast<int>(std::ceil(1.25 * m)), n = 2 * half + 1;
  const FftHalfSpace K({ResponseKernel::Kind::kBoussinesq, 1 / (std::numbers::pi * kFftEStar), 0}, h, n, n);
  Eigen::ArrayXXd gap(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) gap(i, j) = (std::pow((i - half) * h, 2) + std::pow((j - half) * h, 2)) / (2 * kHertzRadius) - approach;
  }
  const GridContactOptions options;
  const GridContact c = solve_grid_contact(K, gap, {}, options);
  // The complementarity the solve stops on: p >= 0, s = 0 where loaded and
  // s >= 0 elsewhere, to the tolerance times the deepest overlap.
  const double bound = options.tolerance * approach;
  const Eigen::ArrayXXd s = K.apply(c.pressure) + gap;
  EXPECT_GE(c.pressure.minCoeff(), 0);
  EXPECT_LE(c.residual, bound);
  EXPECT_LE((c.pressure > 0).select(s.abs(), 0.0).maxCoeff(), 2 * bound);  // formed again: its own round-off
  EXPECT_GE((c.pressure > 0).select(0.0, s).minCoeff(), -2 * bound);
  const double load = oracles::hertz_load_at_approach(kHertzRadius, kFftEStar, approach);
  const oracles::HertzContact hertz = oracles::hertz_sphere_on_half_space(kHertzRadius, kFftEStar, load);
  const HertzErrors e{
      std::abs(std::sqrt(static_cast<double>((c.pressure > 0).count()) * h * h / std::numbers::pi) / hertz.contact_radius - 1),
      std::abs(c.pressure(half, half) / hertz.peak_pressure - 1), std::abs(c.pressure.sum() * h * h / load - 1)};
  std::cout << "[fft hertz] a / h = " << m << " (" << n << " x " << n << " cells, " << c.iterations << " iterations, "
            << c.convolutions << " convolutions): relative errors: contact radius " << e.radius << ", peak pressure "
            << e.pressure << ", load " << e.load << "\n";
  return e;
}

TEST(FftContact, HertzSphereOnTheGridConvergesAtTheDiscretisationsOrders) {
  // From a / h = 8 to 32 (two halvings, which average the contact edge's
  // position against the cells):
  //  - the peak pressure, inside a smooth field, at the centre collocation's
  //    second order (>= 1.5: half an order for what is not yet asymptotic);
  //  - the load: the square-root edge, p ~ sqrt(a - r), leaves the cells
  //    across it an error of order h^(3/2) per unit of edge length: >= 1;
  //  - the contact radius from the loaded cells: the edge is resolved to a
  //    cell, first order: >= 0.5.
  const HertzErrors coarse = hertz_on_grid(8), middle = hertz_on_grid(16), fine = hertz_on_grid(32);
  const auto order = [](double e_coarse, double e_fine) { return std::log(e_coarse / e_fine) / std::log(4.0); };
  std::cout << "[fft hertz] orders from a/8 to a/32: contact radius " << order(coarse.radius, fine.radius)
            << ", peak pressure " << order(coarse.pressure, fine.pressure) << ", load " << order(coarse.load, fine.load)
            << "\n";
  EXPECT_GE(order(coarse.pressure, fine.pressure), 1.5);
  EXPECT_GE(order(coarse.load, fine.load), 1.0);
  EXPECT_GE(order(coarse.radius, fine.radius), 0.5);
  EXPECT_LT(middle.pressure, coarse.pressure);
}

// The sampled sphere of point_contact_test pressed onto a rigid sampled
// plane by Hertz's approach for a = 1.5 mm, with the operator asked for.
QuasiRigidContact sampled_sphere(ResponseOperator response, double* hertz_load = nullptr) {
  const double a = kFftHertzRadius, approach = a * a / kHertzRadius, h = a / 6;
  const QuasiRigidBody sphere(fixtures::lattice_sphere_cap(kHertzRadius, h, 2.5 * a / h), {kHertzE, kHertzNu});
  const QuasiRigidBody ground(fixtures::lattice_plane(h, 2.5 * a / h), {0, 0});
  ContactOptions options;
  options.response_operator = response;
  if (hertz_load) *hertz_load = oracles::hertz_load_at_approach(kHertzRadius, kFftEStar, approach);
  return resolve_contact(sphere, RigidPose<double>::from_translation({0, 0, -approach}), ground, RigidPose<double>(),
                         options);
}

TEST(FftContact, OnASampledSphereTheFftOperatorMeetsHertzAsTheExactOneDoes) {
  double hertz_load = 0;
  const QuasiRigidContact exact = sampled_sphere(ResponseOperator::kExact, &hertz_load);
  const QuasiRigidContact fft = sampled_sphere(ResponseOperator::kFftHalfSpace);
  const double a = kFftHertzRadius, h = a / 6, area = std::numbers::pi * a * a;
  std::cout << "[fft sphere] load: exact " << exact.a.load << ", FFT " << fft.a.load << ", Hertz " << hertz_load
            << " N (FFT - exact: " << (fft.a.load - exact.a.load) / exact.a.load << "); contact area: exact "
            << exact.a.contact_area << ", FFT " << fft.a.contact_area << ", pi a^2 " << area
            << " m^2; centre of pressure: exact " << exact.a.pressure_centre_w.transpose() << ", FFT "
            << fft.a.pressure_centre_w.transpose() << " m; CG iterations " << fft.a.cg_iterations << "\n";
  EXPECT_FALSE(fft.a.interpolated);
  EXPECT_TRUE(fft.b.interpolated);
  EXPECT_EQ(fft.a.lcp_work, 0);
  // point_contact_test's bounds on the exact operator at this sampling
  // (a / h = 6), met by the FFT operator's too: the load within 3% of
  // Hertz's, the area within 10% of pi a^2; the grid is as fine as the
  // sampling (a cell per sample), whose own errors at a / h = 6 are below
  // those (HertzSphereOnTheGrid: about 0.2% in load at a / h = 8).
  EXPECT_NEAR(fft.a.load, hertz_load, 0.03 * hertz_load);
  EXPECT_NEAR(fft.a.contact_area, area, 0.1 * area);
  // The ground's interpolated tractions balance the sphere's (Newton's third
  // law, as for the exact operator: point_contact_test).
  EXPECT_LT((fft.a.force_w + fft.b.force_w).norm(), 0.02 * hertz_load);
  // The sampling is symmetric about the axis; the grid's cells, laid from
  // the projections' corner, are not, by less than a cell: the centre of
  // pressure lies within a cell of the axis.
  EXPECT_LT(fft.a.pressure_centre_w.head<2>().norm(), h);
  EXPECT_GT(fft.iterations.back().min_separation_a.value(), -0.01 * a * a / kHertzRadius);
}

TEST(FftContact, BadInputIsRefusedNamingTheProblem) {
  const double a = kFftHertzRadius, h = a / 6;
  const QuasiRigidBody sphere(fixtures::lattice_sphere_cap(kHertzRadius, h, 2.5 * a / h), {kHertzE, kHertzNu});
  const QuasiRigidBody ground(fixtures::lattice_plane(h, 2.5 * a / h), {0, 0});
  const auto E_w_sphere = RigidPose<double>::from_translation({0, 0, -a * a / kHertzRadius});
  ContactOptions options;
  options.response_operator = ResponseOperator::kFftHalfSpace;
  for (double spacing : {-1e-4, std::nan(""), std::numeric_limits<double>::infinity()}) {
    options.grid_spacing = spacing;
    EXPECT_TRUE(contains(error_of([&] { resolve_contact(sphere, E_w_sphere, ground, RigidPose<double>(), options); }),
                         "InputError: quasi-rigid contact: grid_spacing must be finite and >= 0"))
        << spacing;
  }
  // kMaxFftCells: 1e-7 m cells over the active samples' 7.5 mm would be
  // some 75,000 a side.
  options.grid_spacing = 1e-7;
  EXPECT_TRUE(contains(error_of([&] { resolve_contact(sphere, E_w_sphere, ground, RigidPose<double>(), options); }),
                       "cells at a spacing of 1e-07 m, more than 2097152: a coarser grid spacing"));
  // A contact the grid does not resolve (kFftCellsPerContactRadius) is a
  // ComputationError, not a load: one penetrating sample (the sphere 1e-9 m
  // in), or cells of 1 mm under this contact's 1.5 mm radius. Before the
  // check, the CLI's 50 mm cap 0.1 um into a plane (one penetrating sample)
  // carried no load and stayed penetrating, with exit 0; 45 um in (a = 1.5
  // mm) it carried 7% less than Hertz on 0.5 mm cells and nothing on 5 mm
  // cells.
  const auto unresolved = [&](const RigidPose<double>& E_w) {
    return error_of([&] { resolve_contact(sphere, E_w, ground, RigidPose<double>(), options); });
  };
  options.grid_spacing = 0;
  EXPECT_TRUE(contains(unresolved(RigidPose<double>::from_translation({0, 0, -1e-9})),
                       "ComputationError: quasi-rigid contact (" + sphere.name() + "): the FFT grid does not resolve"));
  options.grid_spacing = 1e-3;
  EXPECT_TRUE(contains(unresolved(E_w_sphere), "under 4 cells of 0.001 m; a finer grid spacing, or the exact operator"));
  options.grid_spacing = 0;
  // The multi-level solve refuses it: its coarse levels' few samples.
  const MultiLevelBody levels_sphere(sphere, {64}), levels_ground(ground, {64});
  EXPECT_TRUE(contains(error_of([&] {
                         resolve_multi_level(levels_sphere, E_w_sphere, levels_ground, RigidPose<double>(), 0.01, options);
                       }),
                       "InputError: multi-level contact: the FFT half-space operator is a single level's option"));
  const QuasiRigidBody soft_ground = ground.with_material({1e9, 0.3});
  EXPECT_TRUE(contains(error_of([&] { resolve_contact(sphere, E_w_sphere, soft_ground, RigidPose<double>(), options); }),
                       "the FFT half-space operator needs one rigid body (E = 0) and one deformable"));
  // A 5 mm sphere 1.5 mm into the plane: its penetrating samples reach
  // r = 3.6 mm off the axis, where the normal turns asin(3.6 / 5) = 0.8 rad
  // from the axis, past kPlanarTilt (0.5 rad).
  const double r = 5e-3, spacing = 2.5e-4;
  const QuasiRigidBody small(fixtures::lattice_sphere_cap(r, spacing, 4.5e-3 / spacing), {kHertzE, kHertzNu});
  const QuasiRigidBody plane(fixtures::lattice_plane(spacing, 20), {0, 0});
  EXPECT_TRUE(contains(
      error_of([&] {
        resolve_contact(small, RigidPose<double>::from_translation({0, 0, -1.5e-3}), plane, RigidPose<double>(), options);
      }),
      "the penetrating samples are not near-planar for the FFT half-space operator"));

  // The grid solve's own checks.
  const FftHalfSpace K({ResponseKernel::Kind::kBoussinesq, 3e-10, 0}, 1e-4, 4, 3);
  EXPECT_TRUE(contains(error_of([&] { solve_grid_contact(K, Eigen::ArrayXXd::Zero(3, 4)); }),
                       "InputError: grid contact: a gap of 3 x 4 cells on a grid of 4 x 3"));
  Eigen::ArrayXXd gap = Eigen::ArrayXXd::Constant(4, 3, -1e-6);
  gap(2, 1) = std::nan("");
  EXPECT_TRUE(contains(error_of([&] { solve_grid_contact(K, gap); }), "the gap of cell 2, 1 is nan"));
  gap(2, 1) = -1e-6;
  Eigen::ArrayXXd initial = Eigen::ArrayXXd::Zero(4, 3);
  initial(1, 2) = -1;
  EXPECT_TRUE(contains(error_of([&] { solve_grid_contact(K, gap, initial); }),
                       "the initial pressure of cell 1, 2 is -1 (need finite and >= 0)"));
  GridContactOptions bad;
  bad.tolerance = 0;
  EXPECT_TRUE(contains(error_of([&] { solve_grid_contact(K, gap, {}, bad); }), "the tolerance must be finite and > 0"));
}

}  // namespace
}  // namespace contactref::quasi_rigid
