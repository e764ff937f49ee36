// Point-sampled surfaces (reference/quasi_rigid), issue 13, on sphere
// samples of radius 1 at spacing 1/arg (arg 40: 11.9k samples, 80: 47.6k; the
// paper's foot has 55,061):
//  - BM_SampleSphere: candidates and the Poisson-disk subset;
//  - BM_PointIndex: building the k-d tree (nanoflann);
//  - BM_ClusterHierarchy: the clustering (max 8 samples per leaf);
//  - BM_MlsProject: one MLS projection (degree 2, 20 neighbours) of a point
//    within a spacing of the surface; counter: iterations of the plane;
//  - BM_NearestSampleDistance: Section 4.1's shortcut for one point.
#include <benchmark/benchmark.h>

#include <random>

#include "reference/quasi_rigid/cluster_hierarchy.hpp"
#include "reference/quasi_rigid/mls_surface.hpp"
#include "reference/quasi_rigid/point_samples.hpp"

namespace {

namespace qr = contactref::quasi_rigid;

qr::SurfaceSamples sphere(const benchmark::State& state) {
  return qr::sample_sphere(Eigen::Vector3d::Zero(), 1.0, 1.0 / static_cast<double>(state.range(0)));
}

// Points within a spacing of the unit sphere, from fixed seeds.
std::vector<Eigen::Vector3d> queries(double spacing) {
  std::mt19937_64 rng(3);
  std::vector<Eigen::Vector3d> points;
  for (int i = 0; i < 1024; ++i) {
    const Eigen::Vector3d direction =
        Eigen::Vector3d(qr::unit_uniform(rng()) - 0.5, qr::unit_uniform(rng()) - 0.5, qr::unit_uniform(rng()) - 0.5);
    points.push_back((1 + spacing * (2 * qr::unit_uniform(rng()) - 1)) * direction.normalized());
  }
  return points;
}

void BM_SampleSphere(benchmark::State& state) {
  std::size_t count = 0;
  for (auto _ : state) count = sphere(state).points.size();
  state.counters["samples"] = static_cast<double>(count);
}

void BM_PointIndex(benchmark::State& state) {
  const qr::SurfaceSamples samples = sphere(state);
  for (auto _ : state) {
    qr::PointIndex index(samples.points);
    benchmark::DoNotOptimize(index.size());
  }
  state.counters["samples"] = static_cast<double>(samples.points.size());
}

void BM_ClusterHierarchy(benchmark::State& state) {
  const qr::SurfaceSamples samples = sphere(state);
  std::size_t clusters = 0;
  for (auto _ : state) clusters = qr::ClusterHierarchy(samples.points).clusters().size();
  state.counters["clusters"] = static_cast<double>(clusters);
}

void BM_MlsProject(benchmark::State& state) {
  const qr::MlsSurface surface(sphere(state));
  const std::vector<Eigen::Vector3d> points = queries(1.0 / static_cast<double>(state.range(0)));
  std::size_t i = 0;
  double iterations = 0;
  for (auto _ : state) {
    const qr::MlsProjection p = surface.project(points[i++ % points.size()]);
    iterations += p.iterations;
    benchmark::DoNotOptimize(p.point.data());
  }
  state.counters["iterations"] = iterations / static_cast<double>(state.iterations());
}

void BM_NearestSampleDistance(benchmark::State& state) {
  const qr::MlsSurface surface(sphere(state));
  const std::vector<Eigen::Vector3d> points = queries(1.0 / static_cast<double>(state.range(0)));
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(surface.nearest_sample_distance(points[i++ % points.size()]));
}

}  // namespace

BENCHMARK(BM_SampleSphere)->Arg(40)->Arg(80)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PointIndex)->Arg(40)->Arg(80)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ClusterHierarchy)->Arg(40)->Arg(80)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MlsProject)->Arg(80)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_NearestSampleDistance)->Arg(80)->Unit(benchmark::kMicrosecond);
