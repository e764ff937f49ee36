// The response on point-sampled surfaces (sampled_response.hpp) against
// independent references:
//  - nodal areas: h^2 on a regular lattice (the partition of unity's mass
//    per node, by symmetry), and the sphere's area 4 pi R^2 in all;
//  - the response on a sampled plane against the planar quadrature of Eq. 8
//    (response_matrix.hpp, which integrates every entry about its row's node
//    over the whole plane, with no near/far split), itself checked against
//    Johnson's closed forms in response_matrix_test;
//  - the near field's radius: the far field's midpoint rule converges to the
//    quadrature as it grows;
//  - the volume-preserving kernel's displacement under a Hertz-like pressure
//    against the kernel's own quadrature (a one-dimensional integral at the
//    pressure's centre);
//  - the kept near fields and a recycled matrix against a fresh computation,
//    and R p without R against R times p;
//  - bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <numbers>
#include <optional>
#include <tuple>
#include <vector>

#include "core/errors.hpp"
#include "core/threads.hpp"
#include "reference/quasi_rigid/avx2_kernels.hpp"
#include "reference/quasi_rigid/sampled_response.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/sanitized.hpp"
#include "validation/fixtures/lattice_surfaces.hpp"

namespace contactref::quasi_rigid {
namespace {

using test::contains;
using test::error_of;

constexpr double kCompliance = 1e-6;  // m^3/N (R is linear in it)

// The samples of `samples` within `radius` of the origin.
std::vector<int> within(const SurfaceSamples& samples, double radius) {
  std::vector<int> nodes;
  for (std::size_t k = 0; k < samples.points.size(); ++k) {
    if (samples.points[k].norm() <= radius) nodes.push_back(static_cast<int>(k));
  }
  return nodes;
}

TEST(SampledResponse, LatticeAreasAreTheCellAndTheSphereAreaSumsToFourPiRSquared) {
  const double h = 0.01;
  const MlsSurface plane(fixtures::lattice_plane(h, 12));
  const SurfaceSampling sampling(plane, {0.5, 2.0, 4, 32});
  for (int k : within(plane.samples(), 8 * h)) {
    EXPECT_NEAR(sampling.spacing()(k), h, 1e-15);
    EXPECT_NEAR(sampling.areas()(k), h * h, 1e-4 * h * h);
  }
  // Tangent-plane areas of a curved surface err by O(h^2 / R^2).
  std::vector<double> error;
  for (double spacing : {0.1, 0.05}) {
    const MlsSurface sphere(sample_sphere(Eigen::Vector3d::Zero(), 1.0, spacing));
    const SurfaceSampling on_sphere(sphere);
    error.push_back(std::abs(on_sphere.areas().sum() / (4 * std::numbers::pi) - 1));
  }
  std::cout << "sphere area error " << error[0] << " " << error[1] << "\n";
  EXPECT_LT(error[0], 0.02);
  EXPECT_GT(std::log2(error[0] / error[1]), 1.8);
}

TEST(SampledResponse, PlaneResponseMatchesThePlanarQuadratureOfEquation8) {
  const double h = 0.01;
  const SurfaceSamples samples = fixtures::lattice_plane(h, 11);
  const MlsSurface plane(samples);
  const SurfaceSampling sampling(plane, {0.5, 2.0, 4, 96});
  const std::vector<int> nodes = within(samples, 6 * h);
  // The reference: every sample's kernel, all of Eq. 8 by quadrature.
  std::vector<Eigen::Vector2d> all;
  for (const Eigen::Vector3d& p : samples.points) all.emplace_back(p.x(), p.y());
  std::vector<ResponseKernel> kernels = {{ResponseKernel::Kind::kBoussinesq, kCompliance, 0}};
  if (!test::kSanitized) kernels.push_back({ResponseKernel::Kind::kVolumePreserving, kCompliance, 3 * h});
  for (const ResponseKernel& kernel : kernels) {
    const Eigen::MatrixXd full = response_matrix(all, kernel, {0.5 * h, 2 * h}, std::nullopt, {192, 8, 0});
    Eigen::MatrixXd reference(nodes.size(), nodes.size());
    for (std::size_t r = 0; r < nodes.size(); ++r) {
      for (std::size_t c = 0; c < nodes.size(); ++c) reference(Eigen::Index(r), Eigen::Index(c)) = full(nodes[r], nodes[c]);
    }
    // The far field's midpoint rule with its second-order term errs by
    // O((s / r)^4) for 1 / r, and the near field's kernels are whole: from
    // near = 4 on, what is left is the two quadratures' difference on the
    // self-term (32 angles against the reference's 192). Without the term,
    // and with the disk cutting kernels, the entries erred by up to 1e-3 at
    // near = 4 (first order at the disk's edge) and the volume-preserving
    // rows by 7e-3.
    std::vector<double> entries;
    for (double near : {2.0, 4.0, 8.0}) {
      const Eigen::MatrixXd R = sampling.response(nodes, kernel, near);
      const double scale = reference.cwiseAbs().maxCoeff();
      EXPECT_LT((R.diagonal() - reference.diagonal()).cwiseAbs().maxCoeff(), 1e-4 * scale);  // the same quadrature
      entries.push_back((R - reference).cwiseAbs().maxCoeff() / scale);
      const double rows = (R - reference).rowwise().sum().cwiseAbs().maxCoeff() /
                          reference.cwiseAbs().rowwise().sum().maxCoeff();
      std::cout << "near " << near << ": entries " << entries.back() << ", row sums " << rows << "\n";
      if (near >= 4) {  // the default near field: entries within 1e-4 of the self-term, rows within 1e-3
        EXPECT_LT(entries.back(), 1e-4);
        EXPECT_LT(rows, 1e-3);
      }
    }
    EXPECT_LT(entries[2], entries[1]);
    EXPECT_LT(entries[1], entries[0]);
  }
}

// The volume-preserving kernel's displacement is a small difference (Eq. 3:
// f integrates to zero, so a smooth pressure displaces by about
// -(pi / 2)^(3/2) c sigma^3 lap p): an error in R of a part in 1e3 of the
// core's c sigma p shows as a percent of u. Under p = sqrt(1 - r^2 / a^2) on a
// lattice, u at the centre against 2 pi integral f(r) p(r) r dr, taken with
// r = a sin t (a smooth integrand: Simpson's rule, 4000 intervals, to 1e-12).
// The rule before the second-order term and the whole kernels erred by 16%
// at sigma = 5 h, a = 26 h and by 2.3% at sigma = 11 h, a = 27.3 h (the
// foot's sigma over its spacing); what is left is the Shepard interpolant of
// p against p itself, of order (h / a)^2 in the pressure.
TEST(SampledResponse, VolumePreservingDisplacementMatchesTheKernelsQuadratureUnderAHertzPressure) {
  struct Case {
    double sigma_over_h, a_over_h, bound;
  };
  std::vector<Case> cases = {{5, 26, 0.01}};
  if (!test::kSanitized) cases.push_back({11, 27.3, 1e-3});
  for (const Case& c : cases) {
    const double h = 1e-3, sigma = c.sigma_over_h * h, a = c.a_over_h * h;
    const MlsSurface plane(fixtures::lattice_plane(h, (a + 8 * sigma) / h));
    const SurfaceSampling sampling(plane);
    const ResponseKernel kernel{ResponseKernel::Kind::kVolumePreserving, kCompliance, sigma};
    std::vector<int> columns;
    std::vector<double> p;
    int centre = -1;
    for (int k : within(plane.samples(), a)) {
      const double r = plane.samples().points[static_cast<std::size_t>(k)].norm();
      if (r == 0) centre = k;
      if (r < a) {
        columns.push_back(k);
        p.push_back(std::sqrt(1 - r * r / (a * a)));
      }
    }
    ASSERT_GE(centre, 0);
    const double u = sampling.displacement({centre}, columns, Eigen::Map<Eigen::VectorXd>(p.data(), Eigen::Index(p.size())),
                                           kernel)(0);
    const int n = 4000;
    double integral = 0;
    for (int k = 0; k <= n; ++k) {
      const double t = std::numbers::pi / 2 * k / n, r = a * std::sin(t);
      const double weight = (k == 0 || k == n) ? 1 : (k % 2 == 1 ? 4 : 2);
      integral += weight * kernel.times_r(r) * a * std::cos(t) * std::cos(t);  // f r p dr, p = cos t, dr = a cos t dt
    }
    const double reference = 2 * std::numbers::pi * integral * (std::numbers::pi / 2 / n) / 3;
    std::cout << "sigma = " << c.sigma_over_h << " h, a = " << c.a_over_h << " h: u " << u << " against " << reference
              << ", relative error " << (u - reference) / reference << "\n";
    EXPECT_LT(std::abs(u - reference), c.bound * reference);
  }
}

// The near fields are computed once and kept (Section 3.2's precomputation)
// for the last kernel shape and near radius: after switching kernels and
// radii, and with another compliance, every matrix equals that of a sampling
// that has computed nothing before (the independent reference here: a fresh
// SurfaceSampling, whose cache is empty), up to the compliance's scaling.
TEST(SampledResponse, KeptNearFieldsFollowTheKernelTheRadiusAndTheCompliance) {
  const MlsSurface plane(fixtures::lattice_plane(0.01, 6));
  const SurfaceSampling kept(plane);
  const std::vector<int> nodes = within(plane.samples(), 0.035);
  const ResponseKernel boussinesq{ResponseKernel::Kind::kBoussinesq, kCompliance, 0};
  const ResponseKernel preserving{ResponseKernel::Kind::kVolumePreserving, 3 * kCompliance, 0.02};
  const ResponseKernel softer{ResponseKernel::Kind::kBoussinesq, 7 * kCompliance, 0};
  const auto expect_fresh = [&](const ResponseKernel& kernel, double near) {
    const Eigen::MatrixXd R = kept.response(nodes, kernel, near);
    const Eigen::MatrixXd fresh = SurfaceSampling(plane).response(nodes, kernel, near);
    EXPECT_LE((R - fresh).cwiseAbs().maxCoeff(), 1e-14 * fresh.cwiseAbs().maxCoeff());
  };
  expect_fresh(boussinesq, 4);
  expect_fresh(preserving, 4);
  expect_fresh(boussinesq, 6);
  expect_fresh(softer, 4);
  expect_fresh(boussinesq, 4);
}

// A matrix given back (recycle) lends its storage to the next response with
// as many entries, and every entry of that response is written: stale
// entries (NaN here) are all overwritten, including the zeros of the row
// blocks that a column's kernel does not reach (far_reach, 0.15 m here, less
// than the nodes' extent). The reference: a fresh sampling's response, the
// same sums in the same order.
TEST(SampledResponse, ARecycledMatrixLendsItsStorageAndKeepsNoStaleEntry) {
  const MlsSurface plane(fixtures::lattice_plane(0.01, 20));
  const SurfaceSampling sampling(plane);
  const ResponseKernel kernel{ResponseKernel::Kind::kVolumePreserving, kCompliance, 0.02};
  const std::vector<int> nodes = within(plane.samples(), 0.12);
  const auto n = static_cast<Eigen::Index>(nodes.size());
  Eigen::MatrixXd stale = Eigen::MatrixXd::Constant(n, n, std::numeric_limits<double>::quiet_NaN());
  const double* storage = stale.data();
  sampling.recycle(std::move(stale));
  const Eigen::MatrixXd R = sampling.response(nodes, kernel);
  EXPECT_EQ(R.data(), storage);
  const Eigen::MatrixXd fresh = SurfaceSampling(plane).response(nodes, kernel);
  EXPECT_GT((fresh.array() == 0).count(), n);  // blocks beyond the kernel's reach
  EXPECT_TRUE(R == fresh);
  // Of another size, the spare is let go and the response allocates its own.
  sampling.recycle(Eigen::MatrixXd::Constant(n + 1, n, 1.0));
  EXPECT_TRUE(sampling.response(nodes, kernel) == fresh);
}

// displacement() is R p without R: the same sums over the loaded columns.
TEST(SampledResponse, DisplacementIsTheResponseTimesTheTractions) {
  // The AVX2 kernels where the processor has them, then the portable loops.
  for (const bool portable : {false, true}) {
    std::optional<PortableKernels> only_portable;
    if (portable) only_portable.emplace();
    SCOPED_TRACE(avx2_kernels_available() ? "AVX2 kernels" : "portable loops");
    const MlsSurface plane(fixtures::lattice_plane(0.01, 6));
    const SurfaceSampling sampling(plane);
    const std::vector<int> columns = within(plane.samples(), 0.03), rows = within(plane.samples(), 0.05);
    const ResponseKernel kernel{ResponseKernel::Kind::kVolumePreserving, kCompliance, 0.02};
    Eigen::VectorXd p(static_cast<Eigen::Index>(columns.size()));
    for (Eigen::Index k = 0; k < p.size(); ++k) p(k) = k % 3 == 0 ? 0.0 : 1e5 * (1 + 0.1 * static_cast<double>(k % 7));
    const Eigen::VectorXd u = sampling.displacement(rows, columns, p, kernel);
    const Eigen::VectorXd expected = sampling.response(rows, columns, kernel) * p;
    EXPECT_LE((u - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff());
    // With the far field in single precision (AVX2's kernel on a processor
    // that has it, avx2_kernels.hpp): each far term within 1e-6 of its size
    // a_j (c / r + m_j c (1 / r^3 + 2 beta / sigma^2 + (r + beta r^2) / sigma^4))
    // (response_matrix.hpp's bound), summed over the row.
    const Eigen::VectorXd u_single = sampling.displacement(rows, columns, p, kernel, 4.0, FarPrecision::kSingle);
    const double beta = std::sqrt(std::numbers::pi / 2) / kernel.sigma, sigma2 = kernel.sigma * kernel.sigma;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      double size = 0;
      for (std::size_t c = 0; c < columns.size(); ++c) {
        const int j = columns[c];
        if (j == rows[i]) continue;
        const std::vector<Eigen::Vector3d>& points = plane.samples().points;
        const double r = (points[static_cast<std::size_t>(rows[i])] - points[static_cast<std::size_t>(j)]).norm();
        const double a = sampling.areas()(j), m = sampling.second_moments()(j) / (4 * a);
        const double spread = 2 * beta / sigma2 + (r + beta * r * r) / (sigma2 * sigma2);
        size += p(static_cast<Eigen::Index>(c)) * a * kernel.compliance * (1 / r + m * (1 / (r * r * r) + spread));
      }
      const auto k = static_cast<Eigen::Index>(i);
      EXPECT_LE(std::abs(u_single(k) - u(k)), 1e-6 * size) << "row " << i;
    }
    EXPECT_TRUE(contains(error_of([&] { sampling.displacement(rows, columns, Eigen::VectorXd::Zero(2), kernel); }),
                         "2 tractions for"));
  }
}

// R is assembled column by column (the midpoint rule) and then corrected
// row by row (the near fields): any rows and columns, in any order, are the
// entries of the whole response at those samples (the independent reference:
// the whole matrix, whose rows and columns are all the samples, in order).
TEST(SampledResponse, ABlockInAnyOrderIsTheWholeResponsesEntries) {
  const MlsSurface plane(fixtures::lattice_plane(0.01, 6));
  const SurfaceSampling sampling(plane);
  const std::vector<int> all = within(plane.samples(), 1.0);
  const ResponseKernel kernel{ResponseKernel::Kind::kVolumePreserving, kCompliance, 0.02};
  const Eigen::MatrixXd whole = sampling.response(all, kernel);
  std::vector<int> rows = within(plane.samples(), 0.045), columns = within(plane.samples(), 0.025);
  std::reverse(rows.begin(), rows.end());
  std::rotate(columns.begin(), columns.begin() + 5, columns.end());
  const Eigen::MatrixXd block = sampling.response(rows, columns, kernel);
  double largest = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      largest = std::max(largest, std::abs(block(Eigen::Index(r), Eigen::Index(c)) - whole(rows[r], columns[c])));
    }
  }
  EXPECT_LE(largest, 1e-14 * whole.cwiseAbs().maxCoeff());  // the same sums, in the same order
}

// The far field leaves out pairs beyond ResponseKernel::far_reach (7.5
// sigma), block by block (row_blocks.hpp). Against the sum over every pair,
// f from f_corrected (the scalar form): rows beyond every column's near field,
// so that u_i = sum_j p_j (a_j f(r_ij) + mu_j lap f(r_ij) / 4) exactly. Rows with every column within
// reach lose nothing; the others lose less than the stated bound,
// 7.7e-13 c W / sigma (1 + 48.3 m / sigma^2), m the largest of the columns'
// mu_j / (4 a_j); a pair within reach that a block skipped would cost
// at least f(7.5 sigma) p_j a_j, far above it.
TEST(SampledResponse, TheFarFieldLeavesOutOnlyPairsBeyondItsReachWithinTheStatedBound) {
  const MlsSurface plane(fixtures::lattice_plane(0.01, 20));
  const SurfaceSampling sampling(plane);
  const ResponseKernel kernel{ResponseKernel::Kind::kVolumePreserving, kCompliance, 0.02};
  const double reach = kernel.far_reach();
  ASSERT_EQ(reach, 0.15);
  const std::vector<int> columns = within(plane.samples(), 0.025);
  std::vector<int> rows;  // clear of the near fields (4 h + rho = 0.06 m) of every column
  for (int k : within(plane.samples(), 0.19)) {
    if (plane.samples().points[static_cast<std::size_t>(k)].norm() > 0.09) rows.push_back(k);
  }
  Eigen::VectorXd p(static_cast<Eigen::Index>(columns.size()));
  for (Eigen::Index k = 0; k < p.size(); ++k) p(k) = 1e5 * (1 + 0.1 * static_cast<double>(k % 7));
  const Eigen::VectorXd u = sampling.displacement(rows, columns, p, kernel);
  const double load = p.dot(sampling.areas()(columns));
  double m = 0;
  for (int c : columns) m = std::max(m, sampling.second_moments()(c) / (4 * sampling.areas()(c)));
  const double bound = 7.7e-13 * kCompliance * load / kernel.sigma * (1 + 48.3 * m / (kernel.sigma * kernel.sigma));
  int inside = 0, straddling = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Eigen::Vector3d& x = plane.samples().points[static_cast<std::size_t>(rows[r])];
    double every = 0, scale = 0;
    bool all_within = true;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const double d = (plane.samples().points[static_cast<std::size_t>(columns[c])] - x).norm();
      const double a = sampling.areas()(columns[c]), m_c = sampling.second_moments()(columns[c]) / (4 * a);
      const double term = p(static_cast<Eigen::Index>(c)) * a * kernel.f_corrected(d, m_c);
      every += term;
      scale += std::abs(term);
      all_within = all_within && d <= reach;
    }
    const double error = std::abs(u(static_cast<Eigen::Index>(r)) - every);
    if (all_within) {
      ++inside;
      EXPECT_LE(error, 1e-13 * scale) << "row " << rows[r];
    } else {
      ++straddling;
      EXPECT_LE(error, bound) << "row " << rows[r];
    }
  }
  EXPECT_GT(inside, 100);
  EXPECT_GT(straddling, 100);
}

// The loops run on oneTBB's threads, each result summed by one thread in a
// fixed order (core/threads.hpp): one thread or two give the same bits.
TEST(SampledResponse, OneThreadOrTwoGiveTheSameBits) {
  const MlsSurface plane(fixtures::lattice_plane(0.01, 12));
  const ResponseKernel kernel{ResponseKernel::Kind::kVolumePreserving, kCompliance, 0.02};
  const auto compute = [&](int threads) {
    const ThreadLimit limit(threads);
    const SurfaceSampling sampling(plane);
    const std::vector<int> nodes = within(plane.samples(), 0.06), rows = within(plane.samples(), 0.12);
    Eigen::VectorXd p = Eigen::VectorXd::LinSpaced(static_cast<Eigen::Index>(nodes.size()), 1e4, 2e5);
    return std::tuple{sampling.areas(), sampling.response(nodes, kernel), sampling.displacement(rows, nodes, p, kernel),
                      sampling.displacement(rows, nodes, p, kernel, 4.0, FarPrecision::kSingle)};
  };
  // The AVX2 kernels where the processor has them, then the portable loops.
  for (const bool portable : {false, true}) {
    std::optional<PortableKernels> only_portable;
    if (portable) only_portable.emplace();
    const auto [areas_1, R_1, u_1, u_single_1] = compute(1);
    const auto [areas_2, R_2, u_2, u_single_2] = compute(2);
    EXPECT_TRUE(areas_1 == areas_2);
    EXPECT_TRUE(R_1 == R_2) << portable;
    EXPECT_TRUE(u_1 == u_2) << portable;
    EXPECT_TRUE(u_single_1 == u_single_2) << portable;
  }
}

TEST(SampledResponse, RefusesBadKernelsNodesAndOptions) {
  const MlsSurface plane(fixtures::lattice_plane(0.01, 4));
  EXPECT_TRUE(contains(error_of([&] { SurfaceSampling s(plane, {0.5, 0.4, 6, 32}); }), "need 0 < width <= support"));
  EXPECT_TRUE(contains(error_of([&] { SurfaceSampling s(plane, {0.5, 2, 0, 32}); }), "spacing_neighbours must be >= 1"));
  const MlsSurface five(SurfaceSamples{"five", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.5, 0}},
                                       std::vector<Eigen::Vector3d>(5, Eigen::Vector3d::UnitZ())});
  EXPECT_TRUE(contains(error_of([&] { SurfaceSampling s(five); }), "five: 5 samples, too few for Shepard kernels"));
  EXPECT_TRUE(contains(error_of([&] { SurfaceSampling s(plane, {0.5, 2, 6, 4}); }), "at least 8 angles"));
  const SurfaceSampling sampling(plane);
  const ResponseKernel boussinesq{ResponseKernel::Kind::kBoussinesq, kCompliance, 0};
  EXPECT_TRUE(contains(error_of([&] { sampling.response({0, 1, 0}, boussinesq); }), "sample 0 is named twice"));
  EXPECT_TRUE(contains(error_of([&] { sampling.response({0, 100000}, boussinesq); }), "node 100000 is not a sample"));
  EXPECT_TRUE(contains(error_of([&] { sampling.response({2, 3, 2}, {0, 1}, boussinesq); }),
                       "sample 2 is named twice (rows)"));
  EXPECT_TRUE(contains(error_of([&] { sampling.displacement({-1}, {0}, Eigen::VectorXd::Ones(1), boussinesq); }),
                       "row -1 is not a sample"));
  EXPECT_TRUE(contains(error_of([&] { sampling.response({0}, boussinesq, 1.0); }), "near field's radius"));
  EXPECT_TRUE(contains(error_of([&] { sampling.response({0}, {ResponseKernel::Kind::kBoussinesq, -1, 0}); }),
                       "need a finite compliance > 0"));
  SurfaceSamples doubled = fixtures::lattice_plane(0.01, 1);
  for (int copy = 0; copy < 8; ++copy) {
    doubled.points.push_back(doubled.points[0]);
    doubled.normals.push_back(doubled.normals[0]);
  }
  const MlsSurface coincident(doubled);
  EXPECT_TRUE(contains(error_of([&] { SurfaceSampling s(coincident); }), "coincides with its 6 nearest samples"));
}

}  // namespace
}  // namespace contactref::quasi_rigid
