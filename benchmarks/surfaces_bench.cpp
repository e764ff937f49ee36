// Kry & Pai Table I: the time to compute all ten sets (the point and its
// partial derivatives to third order) per surface type. Rows: Loop regular;
// Loop with one extraordinary vertex of valence 3, 5, 7, 10; bicubic Bezier.
// The paper's times (350 MHz Pentium II, Java): 0.2413 ms, 0.1683-0.2654 ms and
// 0.0801 ms. Each benchmark cycles over the faces of its kind in
// validation/fixtures/meshes/valences_3_to_10_split.obj at seeded random points.
// BM_OpenSubdivBfr_LoopRegular evaluates the same regular faces at the same
// points with OpenSubdiv's Bfr (position and derivatives to second order only).
// BM_LoopSurfaceConstruction_Icosahedron: the set-up cost of a surface.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "validation/fixtures/rattleback_net.hpp"
#include "validation/oracles/opensubdiv_loop.hpp"

namespace {

namespace su = contactref::surfaces;
using contactref::Vec3;

const su::LoopSurface<double>& mesh_surface() {
  static const su::LoopSurface<double> surface(
      su::read_triangle_mesh(CONTACTREF_SOURCE_DIR "/validation/fixtures/meshes/valences_3_to_10_split.obj"), "bench mesh");
  return surface;
}

struct Sample {
  const su::Patch<double>* patch;
  double u, v;
  int face;
};

// Faces with no EV (valence 0) or with exactly one EV of the given valence.
std::vector<Sample> samples(int valence) {
  const auto& surface = mesh_surface();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(0.02, 0.96);
  std::vector<Sample> out;
  for (int f = 0; f < surface.face_count() && out.size() < 512; ++f) {
    const auto kind = surface.kind(f);
    bool wanted = valence == 0 ? kind == su::LoopPatchKind::kRegular : false;
    if (kind == su::LoopPatchKind::kExtraordinary)
      for (int v : surface.topology().face(f)) wanted = wanted || surface.topology().valence(v) == valence;
    if (!wanted) continue;
    for (int k = 0; k < 8; ++k) {
      const double u = uniform(rng);
      out.push_back({&surface.patch(f), u, uniform(rng) * (1 - u), f});
    }
  }
  return out;
}

void run(benchmark::State& state, const std::vector<Sample>& points) {
  if (points.empty()) {
    state.SkipWithError("no face of this kind in the mesh");
    return;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const Sample& s = points[i];
    auto jet = s.patch->evaluate(s.u, s.v);
    benchmark::DoNotOptimize(jet);
    i = (i + 1) % points.size();
  }
}

void BM_TableI_LoopRegular(benchmark::State& state) {
  static const auto points = samples(0);
  run(state, points);
}

void BM_TableI_LoopExtraordinary(benchmark::State& state) {
  const auto points = samples(int(state.range(0)));
  run(state, points);
}

void BM_TableI_BicubicBezier(benchmark::State& state) {
  const su::BezierPatch<double> patch(contactref::fixtures::rattleback_net<double>());
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<Sample> points;
  for (int k = 0; k < 512; ++k) points.push_back({&patch, uniform(rng), uniform(rng), 0});
  run(state, points);
}

void BM_OpenSubdivBfr_LoopRegular(benchmark::State& state) {
  static const auto points = samples(0);
  static const contactref::oracles::OpenSubdivLoopEvaluator peer(
      su::read_triangle_mesh(CONTACTREF_SOURCE_DIR "/validation/fixtures/meshes/valences_3_to_10_split.obj"));
  std::size_t i = 0;
  for (auto _ : state) {
    const Sample& s = points[i];
    auto jet = peer.evaluate(s.face, s.u, s.v);
    benchmark::DoNotOptimize(jet);
    i = (i + 1) % points.size();
  }
}

// Building a Loop surface (validation/fixtures/meshes/icosahedron.obj: 20 faces,
// every vertex of valence 5, so 20 split patches of 3 extraordinary
// sub-patches each): what a CLI run pays before its first evaluation.
void BM_LoopSurfaceConstruction_Icosahedron(benchmark::State& state) {
  const su::TriangleMesh mesh = su::read_triangle_mesh(CONTACTREF_SOURCE_DIR "/validation/fixtures/meshes/icosahedron.obj");
  for (auto _ : state) {
    su::LoopSurface<double> surface(mesh, "icosahedron");
    benchmark::DoNotOptimize(surface);
  }
}

BENCHMARK(BM_TableI_LoopRegular);
BENCHMARK(BM_OpenSubdivBfr_LoopRegular);
BENCHMARK(BM_TableI_LoopExtraordinary)->Arg(3)->Arg(5)->Arg(7)->Arg(10);
BENCHMARK(BM_TableI_BicubicBezier);
BENCHMARK(BM_LoopSurfaceConstruction_Icosahedron);

}  // namespace
