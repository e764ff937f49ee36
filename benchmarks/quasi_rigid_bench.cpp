// Quasi-rigid contact (Pauly et al.; reference/quasi_rigid), issue 13:
//  - BM_HertzLcp/solver/nodes_per_radius: the elastic LCP of a rigid sphere
//    pressed to Hertz's approach on a grid of nodes (the Boussinesq
//    response, built once), solved by Lemke (solver 0, the reference) and by
//    block principal pivoting (solver 1, the fast one); counters: n and the
//    pivots or iterations.
//  - BM_LcpAtActiveNodes/solver/n: the same LCP on n nodes of a sampled
//    lattice, n = 250 to 2000, for how the cost grows with the active set;
//  - BM_ResponseMatrix/nodes_per_radius: building that response matrix.
//  - BM_SpherePress/nodes_per_radius: `contactref quasi-rigid hertz` end to end.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "reference/quasi_rigid/block_pivoting.hpp"
#include "reference/quasi_rigid/response_matrix.hpp"
#include "reference/quasi_rigid/sampled_response.hpp"
#include "reference/quasi_rigid/sphere_press.hpp"
#include "validation/fixtures/lattice_surfaces.hpp"

namespace {

namespace qr = contactref::quasi_rigid;

// The Hertz test's sphere (radius 5 cm, E = 1 GPa, nu = 0.3, 100 N: a = 1.5 mm).
struct HertzGrid {
  std::vector<Eigen::Vector2d> nodes;
  qr::ShepardKernels kernels;
  qr::ResponseKernel kernel;
  Eigen::VectorXd q;
  explicit HertzGrid(int per_radius) {
    const double radius = 0.05, E_star = 1e9 / (1 - 0.09), a = std::cbrt(3 * 100 * radius / (4 * E_star));
    const double h = a / per_radius;
    nodes = qr::square_grid_nodes(h, 1.5 * per_radius);
    kernels = {h / 2, 2 * h};
    kernel = {qr::ResponseKernel::Kind::kBoussinesq, 1 / (std::numbers::pi * E_star), 0};
    q.resize(Eigen::Index(nodes.size()));
    for (std::size_t k = 0; k < nodes.size(); ++k)
      q(Eigen::Index(k)) = radius - std::sqrt(radius * radius - nodes[k].squaredNorm()) - a * a / radius;
  }
};

void BM_HertzLcp(benchmark::State& state) {
  const HertzGrid grid(int(state.range(1)));
  const Eigen::MatrixXd R = qr::response_matrix(grid.nodes, grid.kernel, grid.kernels);
  const bool lemke = state.range(0) == 0;
  state.SetLabel(lemke ? "lemke" : "block pivoting");
  int pivots = 0;
  for (auto _ : state) {
    const qr::LcpSolution<double> s =
        lemke ? qr::solve_lcp_lemke<double>(R, grid.q) : qr::solve_lcp_block_pivoting<double>(R, grid.q);
    pivots = s.pivots;
    benchmark::DoNotOptimize(s.z.data());
  }
  state.counters["n"] = double(grid.nodes.size());
  state.counters["pivots"] = pivots;
}

// The elastic LCP on n lattice nodes of a sampled plane (the response of
// sampled_response.hpp) under a sphere pressed to Hertz's approach with the
// lattice spanning 1.5 contact radii: about 44% of the nodes are loaded.
// Solver 0: Lemke; 1: block pivoting. Issue 13's target: block pivoting at
// least 20x faster than Lemke at n = 2000.
void BM_LcpAtActiveNodes(benchmark::State& state) {
  const int n_wanted = int(state.range(1));
  const double radius = 0.05, E_star = 1e9 / (1 - 0.09), a = std::cbrt(3 * 100 * radius / (4 * E_star));
  const double cells = std::sqrt(n_wanted / std::numbers::pi);  // nodes within `cells` spacings of the origin
  const double h = 1.5 * a / cells;
  const qr::SurfaceSamples lattice = contactref::fixtures::lattice_plane(h, cells + 3);  // 3 more rings: the kernels' cover
  const qr::MlsSurface surface(lattice);
  const qr::SurfaceSampling sampling(surface);
  std::vector<int> nodes;
  for (std::size_t k = 0; k < lattice.points.size(); ++k)
    if (lattice.points[k].norm() <= cells * h) nodes.push_back(int(k));
  const Eigen::MatrixXd R =
      sampling.response(nodes, {qr::ResponseKernel::Kind::kBoussinesq, 1 / (std::numbers::pi * E_star), 0});
  Eigen::VectorXd q(Eigen::Index(nodes.size()));
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const double r2 = lattice.points[std::size_t(nodes[k])].squaredNorm();
    q(Eigen::Index(k)) = radius - std::sqrt(radius * radius - r2) - a * a / radius;
  }
  const bool lemke = state.range(0) == 0;
  state.SetLabel(lemke ? "lemke" : "block pivoting");
  int pivots = 0;
  double loaded = 0;
  for (auto _ : state) {
    const qr::LcpSolution<double> s = lemke ? qr::solve_lcp_lemke<double>(R, q) : qr::solve_lcp_block_pivoting<double>(R, q);
    pivots = s.pivots;
    loaded = double((s.z.array() > 0).count());
    benchmark::DoNotOptimize(s.z.data());
  }
  state.counters["n"] = double(nodes.size());
  state.counters["loaded"] = loaded;
  state.counters["pivots"] = pivots;
}

void BM_ResponseMatrix(benchmark::State& state) {
  const HertzGrid grid(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(qr::response_matrix(grid.nodes, grid.kernel, grid.kernels).data());
  state.counters["n"] = double(grid.nodes.size());
}

void BM_SpherePress(benchmark::State& state) {
  qr::SpherePressOptions options;
  options.radius = 0.05, options.E = 1e9, options.nu = 0.3, options.load = 100;
  options.nodes_per_radius = int(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(qr::press_sphere(options).approach);
}

}  // namespace

BENCHMARK(BM_HertzLcp)->ArgsProduct({{0, 1}, {4, 6, 8}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LcpAtActiveNodes)->ArgsProduct({{0, 1}, {250, 500, 1000, 2000}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResponseMatrix)->Arg(4)->Arg(6)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpherePress)->Arg(6)->Unit(benchmark::kMillisecond);
