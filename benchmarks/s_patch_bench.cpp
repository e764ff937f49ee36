// Kry & Pai Table I, rows "S-patch (3, 4, 5, 10 sides)": the time to compute
// all ten sets (the point and its partial derivatives to third order) of a
// quartic S-patch. The paper's times (350 MHz Pentium II, Java): 0.1632,
// 0.4466, 1.1006 and 20.0248 ms. Each benchmark evaluates the S-patch that
// replaces an extraordinary vertex of that valence in
// validation/fixtures/meshes/valences_3_to_10_split.obj (reference/surfaces/s_patch.hpp)
// at seeded random points of its polygon.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "reference/surfaces/s_patch.hpp"

namespace {

namespace su = contactref::surfaces;

const su::LoopSurface<double>& mesh_surface() {
  static const su::LoopSurface<double> surface(
      su::read_triangle_mesh(CONTACTREF_SOURCE_DIR "/validation/fixtures/meshes/valences_3_to_10_split.obj"), "bench mesh");
  return surface;
}

void BM_TableI_SPatch(benchmark::State& state) {
  const int sides = int(state.range(0));
  const auto& surface = mesh_surface();
  const auto& topology = surface.topology();
  int vertex = -1;
  for (int v = 0; v < topology.vertex_count() && vertex < 0; ++v) {
    bool isolated = topology.valence(v) == sides;
    for (int w : topology.ring(v)) isolated = isolated && topology.valence(w) == 6;
    if (isolated) vertex = v;
  }
  if (vertex < 0) {
    state.SkipWithError("no isolated extraordinary vertex of this valence in the mesh");
    return;
  }
  const auto replacement = su::replace_loop_vertex(surface, vertex);
  const su::SPatch<double>& patch = *replacement.s_patch;
  // Random points of the polygon: convex combinations of the centre and two
  // consecutive vertices.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<su::Vec2<double>> points;
  const auto& P = patch.domain().polygon;
  for (int k = 0; k < 512; ++k) {
    const auto e = std::size_t(k % sides);
    const double a = uniform(rng), b = uniform(rng) * (1 - a);
    points.push_back(a * P[e] + b * P[(e + 1) % P.size()]);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    auto jet = patch.evaluate(points[i].x(), points[i].y());
    benchmark::DoNotOptimize(jet);
    i = (i + 1) % points.size();
  }
}

BENCHMARK(BM_TableI_SPatch)->Arg(3)->Arg(4)->Arg(5)->Arg(10);

}  // namespace
