// Collision queries between smooth surfaces (reference/dynamics/
// surface_proximity.hpp; issue 30: "collision queries between the bowl and
// the table in flight at most 20 us each"). The App. B.2 bowl (Loop, 0.0872 m
// per unit, 14 patches) over:
//  - the bowl-on-table scene's table (validation/fixtures/meshes/
//    table_40cm.obj: a Loop surface of 60 patches, about 40 cm square with
//    rounded edges);
//  - the plane z = 0 (a half-space).
// NearContact: 64 poses of a bowl in flight, tilted up to 0.3 rad, its
// smooth gap to the table 0.5 to 5 mm (set by a closest-points query), each
// query asking for contacts within 1 cm (so Newton runs every time).
// FarApart: the bowl 0.5 m above, the same query: nullopt (the bounding
// spheres decide). Apart5cm: 5 cm above the table, inside the bounding
// spheres: nullopt from FCL's polyhedral distance. LowerBound/dz: the
// conservative-advancement bound near contact and dz mm higher. Build: one
// body's hierarchy. Tessellation bound 0.5 mm.
// BowlOnTableFlightQueries: the queries that the simulator makes in flight,
// at the poses of the scene's own flights (validation/fixtures/scenes/
// bowl_thrown_on_table.json, h_max 16 ms: the end of every accepted flight
// step, where the simulator queries, over the first fall and the six
// bounces), with its bound (1 mm) and its query distance (four times both
// bounds plus 1000 contact tolerances), in the flights' order: /1 with a
// ProximityCache, as the simulator queries (the figure), /0 each
// query cold. `near` counts the poses within the query distance; /1 counts
// its work per query (ProximityCache::Work): the bounding-volume pairs
// tested, those also by FCL's RSS distance, the triangle pairs measured,
// the front pairs kept without a test and the Newton runs.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "reference/dynamics/surface_proximity.hpp"
#include "reference/spatial/pose.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/spatial/row_sink.hpp"
#include "validation/scenes/scene.hpp"

namespace {

namespace su = contactref::surfaces;
namespace dy = contactref::dynamics;
using contactref::Mat4;
using contactref::Vec3;

constexpr double kBound = 5e-4;

const su::LoopSurface<double>& bowl() {
  static const su::LoopSurface<double> surface = [] {
    su::TriangleMesh mesh = su::read_triangle_mesh(CONTACTREF_SOURCE_DIR "/validation/fixtures/meshes/bowl_b2.obj");
    for (Vec3<double>& x : mesh.vertices) x *= 0.0872;
    return su::LoopSurface<double>(mesh, "bowl_b2.obj");
  }();
  return surface;
}

const su::LoopSurface<double>& table() {
  static const su::LoopSurface<double> surface(
      su::read_triangle_mesh(CONTACTREF_SOURCE_DIR "/validation/fixtures/meshes/table_40cm.obj"), "table_40cm.obj");
  return surface;
}

const su::PatchComplex<double>& plane() {
  static const su::PatchComplex<double> complex = [] {
    su::PatchComplex<double> c;
    c.patches.push_back(std::make_unique<su::PlanePatch<double>>());
    c.links.emplace_back();
    return c;
  }();
  return complex;
}

const dy::SurfaceHierarchy<double>& bowl_hierarchy() {
  static const dy::SurfaceHierarchy<double> h(bowl().complex(), kBound);
  return h;
}
const dy::SurfaceHierarchy<double>& table_hierarchy() {
  static const dy::SurfaceHierarchy<double> h(table().complex(), kBound);
  return h;
}
const dy::SurfaceHierarchy<double>& plane_hierarchy() {
  static const dy::SurfaceHierarchy<double> h(plane(), kBound);
  return h;
}

// 64 poses of the bowl over `ground` (at the identity): seeded tilts up to
// 0.3 rad, horizontal offsets up to 5 cm, the height set so that the smooth
// gap is 0.5 to 5 mm.
std::vector<Mat4<double>> near_poses(const dy::SurfaceHierarchy<double>& ground) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> tilt(-0.3, 0.3), offset(-0.05, 0.05), gap(5e-4, 5e-3);
  std::vector<Mat4<double>> poses;
  const Mat4<double> I = Mat4<double>::Identity();
  while (poses.size() < 64) {
    Mat4<double> E = contactref::spatial::make_pose<double>(
        contactref::spatial::so3_exp<double>(Vec3<double>(tilt(rng), tilt(rng), 2 * tilt(rng))),
        Vec3<double>(offset(rng), offset(rng), 0.2));
    const auto r = dy::closest_points(bowl_hierarchy(), E, ground, I, 1.0);
    if (!r) continue;
    E(2, 3) += gap(rng) - r->distance;
    poses.push_back(E);
  }
  return poses;
}

void query(benchmark::State& state, const dy::SurfaceHierarchy<double>& ground, const std::vector<Mat4<double>>& poses,
           bool expect_contact) {
  const Mat4<double> I = Mat4<double>::Identity();
  std::size_t k = 0;
  long newton = 0, found = 0;
  for (auto _ : state) {
    const auto r = dy::closest_points(bowl_hierarchy(), poses[k], ground, I, 0.01);
    benchmark::DoNotOptimize(r);
    if (r) ++found, newton += r->newton_iterations;
    k = (k + 1) % poses.size();
  }
  if ((found > 0) != expect_contact) state.SkipWithError("unexpected query result");
  state.counters["newton_iterations"] = found ? double(newton) / double(found) : 0.0;
  state.counters["triangles"] = double(bowl_hierarchy().triangles().size() + ground.triangles().size());
}

// The near poses moved up by dz.
std::vector<Mat4<double>> raised(const dy::SurfaceHierarchy<double>& ground, double dz) {
  std::vector<Mat4<double>> poses = near_poses(ground);
  for (Mat4<double>& E : poses) E(2, 3) += dz;
  return poses;
}

void BM_BowlOverLoopTable_NearContact(benchmark::State& state) {
  query(state, table_hierarchy(), raised(table_hierarchy(), 0), true);
}
void BM_BowlOverLoopTable_FarApart(benchmark::State& state) {
  query(state, table_hierarchy(), raised(table_hierarchy(), 0.5), false);
}
void BM_BowlOverLoopTable_Apart5cm(benchmark::State& state) {
  query(state, table_hierarchy(), raised(table_hierarchy(), 0.05), false);
}
void BM_BowlOverPlane_NearContact(benchmark::State& state) {
  query(state, plane_hierarchy(), raised(plane_hierarchy(), 0), true);
}
void BM_BowlOverPlane_FarApart(benchmark::State& state) {
  query(state, plane_hierarchy(), raised(plane_hierarchy(), 0.5), false);
}
void BM_BowlOverLoopTable_LowerBound(benchmark::State& state) {
  const std::vector<Mat4<double>> poses = raised(table_hierarchy(), double(state.range(0)) * 1e-3);
  const Mat4<double> I = Mat4<double>::Identity();
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dy::distance_lower_bound(bowl_hierarchy(), poses[k], table_hierarchy(), I));
    k = (k + 1) % poses.size();
  }
}
void BM_BuildHierarchy_Bowl(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(dy::SurfaceHierarchy<double>(bowl().complex(), kBound));
}
void BM_BuildHierarchy_LoopTable(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(dy::SurfaceHierarchy<double>(table().complex(), kBound));
}

// The scene's flight poses (body 1's frame is at its centre of mass), once.
struct FlightPoses {
  contactref::scenes::Scene scene;
  std::vector<Mat4<double>> poses;
};
const FlightPoses& flight_poses() {
  static const FlightPoses flights = [] {
    FlightPoses f{contactref::scenes::load_scene(CONTACTREF_SOURCE_DIR "/validation/fixtures/scenes/bowl_thrown_on_table.json"), {}};
    std::vector<dy::SimulationSample<double>> rows;
    contactref::spatial::RowCollector<dy::SimulationSample<double>> collector(rows);
    dy::SimulationSinks<double> sinks;
    sinks.samples = &collector;
    dy::SimulationOptions<double> options = f.scene.options;
    options.duration = 1.0;  // the flights end by 0.24 s
    options.output_interval = 0;  // a row per accepted step
    dy::simulate(f.scene.system(), f.scene.flight_start(), options, {}, sinks);
    for (const dy::SimulationSample<double>& row : rows)
      if (row.flight) f.poses.push_back(contactref::spatial::make_pose<double>(row.R_w_1, row.com_w));
    return f;
  }();
  return flights;
}

void BM_BowlOnTableFlightQueries(benchmark::State& state) {
  const FlightPoses& flights = flight_poses();
  const dy::ContactSystem<double> system = flights.scene.system();
  const double bound = flights.scene.options.proximity_bound;
  const dy::SurfaceHierarchy<double> bowl_h(*system.surface1, bound), table_h(*system.surface2, bound);
  const double query = 4 * (bowl_h.bound() + table_h.bound()) + 1000 * flights.scene.options.contact_tolerance;
  if (flights.poses.size() < 10) {
    state.SkipWithError("fewer than 10 rows in flight");
    return;
  }
  dy::ProximityCache<double> cache;
  dy::ProximityCache<double>* warm = state.range(0) ? &cache : nullptr;
  std::size_t k = 0;
  long near = 0;
  dy::ProximityCache<double>::Work work;
  for (auto _ : state) {
    const auto r = dy::closest_points(bowl_h, flights.poses[k], table_h, system.E_w_2, query, warm);
    benchmark::DoNotOptimize(r);
    near += r.has_value();
    k = (k + 1) % flights.poses.size();
    work.volume_tests += cache.work.volume_tests, work.rss_tests += cache.work.rss_tests;
    work.triangle_tests += cache.work.triangle_tests, work.kept += cache.work.kept;
    work.newton_runs += cache.work.newton_runs;
  }
  const double queries = double(state.iterations());
  state.counters["poses"] = double(flights.poses.size());
  state.counters["near"] = double(near) / queries;
  if (warm) {
    state.counters["volume_tests"] = double(work.volume_tests) / queries;
    state.counters["rss_tests"] = double(work.rss_tests) / queries;
    state.counters["triangle_tests"] = double(work.triangle_tests) / queries;
    state.counters["kept"] = double(work.kept) / queries;
    state.counters["newton_runs"] = double(work.newton_runs) / queries;
  }
}

BENCHMARK(BM_BowlOverLoopTable_NearContact)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BowlOverLoopTable_FarApart)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BowlOverLoopTable_Apart5cm)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BowlOverPlane_NearContact)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BowlOverPlane_FarApart)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BowlOverLoopTable_LowerBound)->Arg(0)->Arg(50)->Arg(300)->Unit(benchmark::kMicrosecond);  // mm higher
BENCHMARK(BM_BuildHierarchy_Bowl)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BuildHierarchy_LoopTable)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BowlOnTableFlightQueries)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
