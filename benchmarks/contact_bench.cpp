// Issue 5: Brep-index construction and contact analysis (Bouma & Vanecek,
// Sections 4.1-4.3) for meshes of 100 to 100,000 faces, and how the cost
// grows; and the paper's claim (Section 4.1) that back-face culling speeds the
// set-theoretic intersection up by "an average factor of two".
// Meshes: fixtures::bumpy_cube(n, 0.125 m, 0.005 m, 5 bumps) as a Polyhedron (its
// 12 n^2 triangles as faces), n = 3, 9, 29, 91: 108, 972, 10,092 and 99,372
// faces (5 bumps divides no n, so every n is bumpy; half_size a power of two,
// see kHalfSize).
//  - BM_BuildBrepIndex/n/balance: build_brep_index, without and with
//    BrepIndexOptions::balance. BM_BuildBrepIndexFlat/n/balance: the same
//    cube with amplitude 0 (convex, with coplanar triangles: flat edges, cut
//    by auxiliary planes). Counters: faces, internal_nodes, max_depth,
//    mean_depth, and the cuts by kind. Both grow faster than the faces
//    without balancing (time ~ faces^1.3 when measured; internal nodes 2.7
//    per face at n = 3, 17.6 at n = 91): at n = 91 one unbalanced build took
//    85-100 s and ~1 GB, so it runs once (Iterations(1)), and the flat one
//    only balanced.
//  - BM_FindContactsOnFloor/n: find_contacts (culling on, touch tolerance 0)
//    of the bumpy cube B resting on a box floor A (its index built once,
//    outside the loop): B translated by minus its lowest z (exactly: the pose
//    is applied in exact arithmetic), so that its lowest vertices touch the
//    floor's top face z = 0; B slides at v = (0.3, 0.2, -0.01) m/s.
//  - BM_FindContactsOnBumpy/n/balance: the reverse, a box B (half-width
//    min(5 mm, 0.4 grid spacing)) resting on the bumpy cube A at its highest
//    vertex, the same velocity; A's index unbalanced (0) or balanced (1),
//    built once (kept from BM_BuildBrepIndex; built by the check if run
//    alone). B's 25 pieces descend through A's large index.
//    Counters of both: faces of the bumpy cube, regions in I, needed
//    contacts, pieces classified (after culling), plane_tests. The local
//    geometry of the selection and the normals, B's exact vertices and A's
//    cut planes are computed for the entities touched only, so a contact of a
//    few entities on a large index costs little (at n = 29: 1.6 ms, against
//    288 ms when everything was computed for the whole solids); the floor
//    case classifies all of B's unculled pieces, linear in its faces.
//  - BM_CullingSpeedup/config/motion: intersect() without and with the
//    culling mask (cull_back_faces, margin 0), alternated per motion inside
//    the loop, for 16 seeded random relative motions of one contact
//    configuration: config 0, the 128-face UV sphere B resting with its pole
//    on the unit cube A; config 1, the n = 29 bumpy cube B on the floor.
//    motion 0: pure translations, v ~ N(0, I) m/s; motion 1: twists, the
//    velocity at B's centroid ~ N(0, I) m/s and omega ~ N(0, I) / r rad/s (r
//    B's radius). Counters: plane_test_ratio and pieces_ratio (unculled /
//    culled, averaged over the motions; deterministic), time_ratio (the same
//    for the measured intersect times) and time_ratio_with_cull (culled
//    time including cull_back_faces), kept_faces (fraction of B's faces kept),
//    lost_contact (fraction of motions whose culled I is empty: B's contact
//    entities move away), and
//    the mean times per call (us_all, us_culled, us_cull).
// Before timing, each configuration is checked once (the program aborts
// otherwise: no timing of a wrong answer): the indices classify the solid's
// centroid inside, a far point outside and vertex 0 as itself; on the floor
// I is exactly (floor top face, x) for each entity x of B at the lowest
// height, of x's dimension, with nothing penetrating, culled or not; on the
// bumpy cube I holds (highest vertex, box bottom face), nothing penetrating,
// and only entities of that vertex at its height against the box's bottom
// (exactly that one region where the vertex is a strict maximum); for every
// culling motion, the culled I is the unculled one less the regions of
// culled entities of B.
// Order matters: after a 100k-face index build has been freed, the exact
// arithmetic of what runs next in the same process was up to 4-5 times
// slower when measured (glibc's heap; malloc_consolidate dominates), so the
// benchmarks are registered small first; for clean numbers at one size, run
// it alone with --benchmark_filter.
#include <benchmark/benchmark.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/rigid_pose.hpp"
#include "robust_geometry/back_face_culling.hpp"
#include "robust_geometry/brep_index.hpp"
#include "robust_geometry/contact_analysis.hpp"
#include "robust_geometry/contact_regions.hpp"
#include "robust_geometry/polyhedron.hpp"
#include "validation/fixtures/bumpy_cube.hpp"

namespace {

namespace rg = contactref::robust_geometry;
using contactref::RigidPose;
using Eigen::Vector3d;

// half_size a power of two: the grid coordinates h (2 i - n) / n are then
// exactly -h and h at i = 0 and n for every n (with h = 0.1 they are 1 ulp
// off for n = 3 and 91, which folds the faces along the cube's edges by an
// ulp: the amplitude-0 cube would not be convex).
constexpr double kHalfSize = 0.125, kAmplitude = 0.005;
constexpr int kBumps = 5;  // |amplitude| bumps pi = 0.079 < 2 half_size: no self-intersection
constexpr double kBoxHalf = 0.005;  // the box on the bumpy cube: at most 1 cm wide
constexpr int kSeeds = 16;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "bench_contact: %s\n", what.c_str());
  std::abort();
}

RigidPose<double> translation(const Vector3d& t) { return RigidPose<double>::from_translation(t); }

rg::Vector6d twist(const Vector3d& omega, const Vector3d& v) {
  rg::Vector6d out;
  out << omega, v;
  return out;
}

const rg::Vector6d kSliding = twist(Vector3d::Zero(), Vector3d(0.3, 0.2, -0.01));

// The box [lo, hi] with quadrilateral faces, counter-clockwise seen from
// outside; face 0 is the bottom (z = lo.z), face 1 the top.
rg::Polyhedron box(const Vector3d& lo, const Vector3d& hi, const std::string& name) {
  contactref::PolygonSoup soup;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) soup.vertices.emplace_back(i ? hi.x() : lo.x(), j ? hi.y() : lo.y(), k ? hi.z() : lo.z());
  soup.faces = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  soup.name = name;
  return rg::Polyhedron(std::move(soup));
}
constexpr int kBottomFace = 0, kTopFace = 1;

// The bumpy cube (flat: amplitude 0) as a Polyhedron, built and validated once.
const rg::Polyhedron& bumpy(int n, bool flat = false) {
  static std::map<std::pair<int, bool>, std::unique_ptr<const rg::Polyhedron>> cache;
  auto& slot = cache[{n, flat}];
  if (!slot) {
    const rg::TriangleSolid solid = contactref::fixtures::bumpy_cube(n, kHalfSize, flat ? 0.0 : kAmplitude, kBumps);
    contactref::PolygonSoup soup;
    soup.vertices = solid.vertices;
    for (const auto& t : solid.triangles) soup.faces.push_back({t[0], t[1], t[2]});
    soup.name = std::string(flat ? "flat" : "bumpy") + " cube n = " + std::to_string(n);
    slot = std::make_unique<const rg::Polyhedron>(std::move(soup));
  }
  return *slot;
}

void check_index(const rg::Polyhedron& p, const rg::BrepIndex& index) {
  const auto expect = [&](const Vector3d& x, const rg::Location& want) {
    const rg::Location got = index.classify(x);
    if (!(got == want))
      fail(p.name() + ": index classifies (" + std::to_string(x.x()) + ", " + std::to_string(x.y()) + ", " +
           std::to_string(x.z()) + ") as " + rg::to_string(got) + ", not " + rg::to_string(want));
  };
  expect(p.centroid(), {rg::Region::inside, -1});
  expect(Vector3d(10, 10, 10), {rg::Region::outside, -1});
  expect(p.vertex(0), {rg::Region::vertex, 0});
}

// The indices of the bumpy cubes (key: n, balance), built and checked once;
// BM_BuildBrepIndex leaves its last build here, so that the 85 s one at
// n = 91 is not repeated for BM_FindContactsOnBumpy.
std::map<std::pair<int, bool>, rg::BrepIndex>& bumpy_indices() {
  static std::map<std::pair<int, bool>, rg::BrepIndex> cache;
  return cache;
}

const rg::BrepIndex& bumpy_index(int n, bool balance) {
  auto [it, inserted] = bumpy_indices().try_emplace(std::pair{n, balance});
  if (inserted) {
    rg::BrepIndexOptions options;
    options.balance = balance;
    it->second = rg::build_brep_index(bumpy(n), options);
    check_index(bumpy(n), it->second);
  }
  return it->second;
}

std::string describe(const rg::ContactRegion& r) {
  return rg::to_string(r.entity_a) + " / " + rg::to_string(r.entity_b) + " (" + std::to_string(r.dimension) + "D)";
}

// ------------------------------------------------------------ the floor

struct Floor {
  rg::Polyhedron polyhedron = box(Vector3d(-1, -1, -1), Vector3d(1, 1, 0), "floor");
  rg::BrepIndex index = rg::build_brep_index(polyhedron);
};

const Floor& floor_solid() {
  static const Floor f;
  return f;
}

// B (a bumpy cube) on the floor: translated by minus its lowest z, exactly
// (the translation is applied in exact arithmetic, so its lowest vertices get
// z = 0, the floor's top, and every other vertex z > 0).
RigidPose<double> on_floor_pose(const rg::Polyhedron& b) {
  double z_min = std::numeric_limits<double>::infinity();
  for (const Vector3d& x : b.vertices()) z_min = std::min(z_min, x.z());
  return translation(Vector3d(0, 0, -z_min));
}

// The entities of p whose vertices all satisfy `at` (sorted like Entity:
// vertices, edges, faces, each by index).
template <class At>
std::vector<rg::Entity> entities_where(const rg::Polyhedron& p, At at) {
  std::vector<rg::Entity> out;
  for (int v = 0; v < p.vertex_count(); ++v)
    if (at(p.vertex(v))) out.push_back({rg::EntityKind::vertex, v});
  for (int e = 0; e < p.edge_count(); ++e)
    if (at(p.vertex(p.edge(e).vertices[0])) && at(p.vertex(p.edge(e).vertices[1]))) out.push_back({rg::EntityKind::edge, e});
  for (int f = 0; f < p.face_count(); ++f)
    if (std::all_of(p.face(f).begin(), p.face(f).end(), [&](int v) { return at(p.vertex(v)); }))
      out.push_back({rg::EntityKind::face, f});
  return out;
}

// I must be exactly one region (entity of A, entity of B) of the entity's
// dimension per expected pair, in I's order, with nothing penetrating.
void check_regions(const std::string& name, const rg::IntersectionSet& set,
                   const std::vector<std::pair<rg::Entity, rg::Entity>>& expected) {
  if (set.penetrating()) fail(name + ": reported as penetrating");
  if (set.regions.empty()) fail(name + ": no contact");
  if (set.regions.size() != expected.size())
    fail(name + ": " + std::to_string(set.regions.size()) + " regions, expected " + std::to_string(expected.size()));
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const rg::ContactRegion& r = set.regions[k];
    const auto& [x, y] = expected[k];
    const int dim = std::min(rg::dimension(x.kind), rg::dimension(y.kind));
    if (r.entity_a != x || r.entity_b != y || r.dimension != dim)
      fail(name + ": region " + describe(r) + ", expected " + rg::to_string(x) + " / " + rg::to_string(y) + " (" +
           std::to_string(dim) + "D)");
  }
}

// B's lowest vertices have z = 0 in A's frame: the regions must be (floor top
// face, x) for each entity x of B at that height.
void check_on_floor(const rg::Polyhedron& b, const rg::IntersectionSet& set, const char* what) {
  const double lift = on_floor_pose(b).translation().z();
  std::vector<std::pair<rg::Entity, rg::Entity>> expected;
  for (const rg::Entity& x : entities_where(b, [&](const Vector3d& p) { return p.z() + lift == 0; }))
    expected.emplace_back(rg::Entity{rg::EntityKind::face, kTopFace}, x);
  check_regions(b.name() + " on the floor (" + what + ")", set, expected);
}

void check_floor_scene(int n) {
  static std::map<int, bool> checked;
  if (checked[n]) return;
  const rg::Polyhedron& b = bumpy(n);
  const Floor& a = floor_solid();
  check_index(a.polyhedron, a.index);
  rg::FindContactsOptions options;  // touch tolerance 0, culling on
  const rg::ContactAnalysis culled = rg::find_contacts(a.polyhedron, a.index, b, on_floor_pose(b), kSliding, {}, options);
  options.cull = false;
  const rg::ContactAnalysis all = rg::find_contacts(a.polyhedron, a.index, b, on_floor_pose(b), kSliding, {}, options);
  check_on_floor(b, culled.intersection, "culled");
  check_on_floor(b, all.intersection, "not culled");
  if (culled.contacts.empty()) fail(b.name() + " on the floor: no needed contact");
  std::fprintf(stderr, "%s on the floor: %zu regions, %zu needed; pieces %ld culled, %ld not\n", b.name().c_str(),
               culled.intersection.regions.size(), culled.contacts.size(), culled.intersection.pieces,
               all.intersection.pieces);
  checked[n] = true;
}

void set_analysis_counters(benchmark::State& state, int faces, const rg::ContactAnalysis& analysis) {
  state.counters["faces"] = faces;
  state.counters["regions"] = double(analysis.intersection.regions.size());
  state.counters["contacts"] = double(analysis.contacts.size());
  state.counters["pieces"] = double(analysis.intersection.pieces);
  state.counters["plane_tests"] = double(analysis.intersection.plane_tests);
}

// ------------------------------------------------------------ the box on the bumpy cube

// The box B on the bumpy cube A: half-width min(5 mm, 0.4 grid spacing), so
// that its bottom face covers A's highest vertex and no other vertex, and
// meets only the edges and faces of that vertex; its bottom face at the
// vertex's height exactly.
struct OnBumpy {
  std::unique_ptr<const rg::Polyhedron> box_b;
  double half = 0;
  RigidPose<double> pose;
  int top = 0;  // the highest vertex of the bumpy cube (the first, if tied)
};

const OnBumpy& on_bumpy(int n) {
  static std::map<int, OnBumpy> cache;
  auto [it, inserted] = cache.try_emplace(n);
  OnBumpy& s = it->second;
  if (inserted) {
    const rg::Polyhedron& a = bumpy(n);
    for (int v = 1; v < a.vertex_count(); ++v)
      if (a.vertex(v).z() > a.vertex(s.top).z()) s.top = v;
    s.half = std::min(kBoxHalf, 0.4 * 2 * kHalfSize / n);
    s.box_b = std::make_unique<const rg::Polyhedron>(box(Vector3d(-s.half, -s.half, 0), Vector3d(s.half, s.half, 2 * s.half), "box"));
    s.pose = translation(a.vertex(s.top));
  }
  return s;
}

void check_bumpy_scene(int n, bool balance) {
  static std::map<std::pair<int, bool>, bool> checked;
  if (checked[{n, balance}]) return;
  const rg::Polyhedron& a = bumpy(n);
  const OnBumpy& s = on_bumpy(n);
  const rg::ContactAnalysis analysis = rg::find_contacts(a, bumpy_index(n, balance), *s.box_b, s.pose, kSliding);
  const std::string name = "the box on " + a.name() + (balance ? " (balanced index)" : "");
  // Every region must pair an entity of A at the top's height that is the
  // top vertex or one of its edges or faces with an entity of the box's
  // bottom (face 0, its edges and vertices), and (top vertex, bottom face)
  // must be one of them; where the top is a strict maximum (its neighbours
  // lower: n = 9, 29, 91) it must be the only one.
  const double z_top = a.vertex(s.top).z();
  const auto of_top = [&](const rg::Entity& x) {
    const auto in = [&](const std::vector<int>& ids) { return std::find(ids.begin(), ids.end(), s.top) != ids.end(); };
    switch (x.kind) {
      case rg::EntityKind::vertex: return x.index == s.top;
      case rg::EntityKind::edge: {
        const auto& ends = a.edge(x.index).vertices;
        return in({ends[0], ends[1]});
      }
      case rg::EntityKind::face: return in(a.face(x.index));
    }
    return false;
  };
  const std::vector<rg::Entity> at_top = entities_where(a, [&](const Vector3d& p) { return p.z() == z_top; });
  const std::vector<rg::Entity> bottom = entities_where(*s.box_b, [](const Vector3d& p) { return p.z() == 0; });
  const rg::IntersectionSet& set = analysis.intersection;
  if (set.penetrating()) fail(name + ": reported as penetrating");
  bool strict = true;
  for (const int e : a.vertex_edges(s.top))
    for (const int v : a.edge(e).vertices) strict = strict && (v == s.top || a.vertex(v).z() < z_top);
  bool found = false;
  for (const rg::ContactRegion& r : set.regions) {
    const bool ok = of_top(r.entity_a) && std::find(at_top.begin(), at_top.end(), r.entity_a) != at_top.end() &&
                    std::find(bottom.begin(), bottom.end(), r.entity_b) != bottom.end();
    if (!ok) fail(name + ": unexpected region " + describe(r));
    found = found || (r.entity_a == rg::Entity{rg::EntityKind::vertex, s.top} &&
                      r.entity_b == rg::Entity{rg::EntityKind::face, kBottomFace} && r.dimension == 0);
  }
  if (!found) fail(name + ": no region (top vertex " + std::to_string(s.top) + ", bottom face)");
  if (strict && set.regions.size() != 1) fail(name + ": " + std::to_string(set.regions.size()) + " regions, expected 1");
  if (analysis.contacts.empty()) fail(name + ": no needed contact");
  std::fprintf(stderr, "%s: %zu regions, %zu needed, %ld pieces, %ld plane tests\n", name.c_str(),
               set.regions.size(), analysis.contacts.size(), set.pieces, set.plane_tests);
  checked[{n, balance}] = true;
}

// ------------------------------------------------------------ benchmarks: index

void run_build(benchmark::State& state, bool flat) {
  const int n = int(state.range(0));
  rg::BrepIndexOptions options;
  options.balance = state.range(1) != 0;
  const rg::Polyhedron& p = bumpy(n, flat);
  rg::BrepIndex index;
  for (auto _ : state) {
    index = rg::build_brep_index(p, options);
    benchmark::DoNotOptimize(index);
  }
  check_index(p, index);  // after the loop: too slow to build once more before it at n = 91
  const rg::BrepIndexStatistics s = index.statistics();
  if (!flat) bumpy_indices().insert_or_assign(std::pair{n, options.balance}, std::move(index));
  state.counters["faces"] = p.face_count();
  state.counters["internal_nodes"] = s.internal_nodes;
  state.counters["max_depth"] = s.max_depth;
  state.counters["mean_depth"] = s.mean_depth;
  state.counters["support_cuts"] = s.support_cuts;
  state.counters["auxiliary_cuts"] = s.auxiliary_cuts;
  state.counters["balancing_cuts"] = s.balancing_cuts;
}

void BM_BuildBrepIndex(benchmark::State& state) { run_build(state, false); }
void BM_BuildBrepIndexFlat(benchmark::State& state) { run_build(state, true); }

// ------------------------------------------------------------ benchmarks: find_contacts

void BM_FindContactsOnFloor(benchmark::State& state) {
  const int n = int(state.range(0));
  check_floor_scene(n);
  const Floor& a = floor_solid();
  const rg::Polyhedron& b = bumpy(n);
  const RigidPose<double> pose = on_floor_pose(b);
  rg::ContactAnalysis analysis;
  for (auto _ : state) {
    analysis = rg::find_contacts(a.polyhedron, a.index, b, pose, kSliding);
    benchmark::DoNotOptimize(analysis);
  }
  set_analysis_counters(state, b.face_count(), analysis);
}

void BM_FindContactsOnBumpy(benchmark::State& state) {
  const int n = int(state.range(0));
  const bool balance = state.range(1) != 0;
  check_bumpy_scene(n, balance);
  const rg::Polyhedron& a = bumpy(n);
  const rg::BrepIndex& index = bumpy_index(n, balance);
  const OnBumpy& s = on_bumpy(n);
  rg::ContactAnalysis analysis;
  for (auto _ : state) {
    analysis = rg::find_contacts(a, index, *s.box_b, s.pose, kSliding);
    benchmark::DoNotOptimize(analysis);
  }
  set_analysis_counters(state, a.face_count(), analysis);
}

// Issue 10, item 3: the normal of a vertex-vertex region whose cones have
// many faces, the 128-face UV sphere on a copy of itself, pole on pole
// (16 faces at each pole). The separating cone comes from the 32 rays of
// the two vertex cones with interval-filtered signs (before: the candidate
// rays were all pairs of face-normal planes, 99 s).
void BM_ContactNormalsPoleOnPole(benchmark::State& state);

// ------------------------------------------------------------ benchmarks: culling

struct CullingScene {
  const rg::Polyhedron* a = nullptr;
  const rg::BrepIndex* index = nullptr;
  const rg::Polyhedron* b = nullptr;
  RigidPose<double> pose;
  std::vector<rg::Vector6d> twists;  // one per seed
};

const rg::Polyhedron& unit_cube() {
  static const rg::Polyhedron p = rg::read_polyhedron(CONTACTREF_SOURCE_DIR "/validation/fixtures/polyhedra/cube.off");
  return p;
}
const rg::BrepIndex& unit_cube_index() {
  static const rg::BrepIndex index = [] {
    rg::BrepIndex i = rg::build_brep_index(unit_cube());
    check_index(unit_cube(), i);
    return i;
  }();
  return index;
}
const rg::Polyhedron& sphere() {
  static const rg::Polyhedron p =
      rg::read_polyhedron(CONTACTREF_SOURCE_DIR "/validation/fixtures/polyhedra/uv_sphere_128.off");
  return p;
}

// The culled regions must be the unculled ones whose entity of B is kept.
void check_culled(const std::string& name, const rg::IntersectionSet& all, const rg::IntersectionSet& culled,
                  const rg::EntityMask& mask) {
  std::vector<const rg::ContactRegion*> kept;
  for (const rg::ContactRegion& r : all.regions) {
    const auto& m = r.entity_b.kind == rg::EntityKind::vertex ? mask.vertices
                    : r.entity_b.kind == rg::EntityKind::edge ? mask.edges
                                                              : mask.faces;
    if (m[std::size_t(r.entity_b.index)]) kept.push_back(&r);
  }
  bool same = kept.size() == culled.regions.size() && culled.penetrating_b.empty() && culled.flush_faces.empty();
  for (std::size_t k = 0; same && k < kept.size(); ++k)
    same = kept[k]->entity_a == culled.regions[k].entity_a && kept[k]->entity_b == culled.regions[k].entity_b &&
           kept[k]->points == culled.regions[k].points;
  if (!same) fail(name + ": the culled regions are not the unculled ones of the kept entities");
}

const CullingScene& culling_scene(int config, int motion) {
  static std::map<std::pair<int, int>, CullingScene> cache;
  auto [it, inserted] = cache.try_emplace(std::pair{config, motion});
  CullingScene& s = it->second;
  if (!inserted) return s;
  double radius = 0;
  std::string name;
  if (config == 0) {
    s.a = &unit_cube();
    s.index = &unit_cube_index();
    s.b = &sphere();
    // The sphere's lowest vertex (its pole) on the centre of the cube's top.
    const rg::Polyhedron& b = *s.b;
    int pole = 0;
    for (int v = 1; v < b.vertex_count(); ++v)
      if (b.vertex(v).z() < b.vertex(pole).z()) pole = v;
    s.pose = translation(Vector3d(0.5, 0.5, 1) - b.vertex(pole));
    radius = 1;
    name = "the UV sphere on the cube";
  } else {
    s.a = &floor_solid().polyhedron;
    s.index = &floor_solid().index;
    s.b = &bumpy(29);
    s.pose = on_floor_pose(*s.b);
    radius = std::sqrt(3.0) * kHalfSize;
    check_floor_scene(29);
    name = "the bumpy cube n = 29 on the floor";
  }
  const Vector3d centre = s.pose * s.b->centroid();
  const rg::IntersectionSet reference = rg::intersect(*s.a, *s.index, *s.b, s.pose);
  if (reference.regions.empty() || reference.penetrating()) fail(name + ": no contact, or penetrating");
  for (int seed = 0; seed < kSeeds; ++seed) {
    std::mt19937 random{static_cast<std::mt19937::result_type>(seed)};
    std::normal_distribution<double> normal;
    const auto draw = [&] {  // the components in a fixed order (argument order is unspecified)
      Vector3d x;
      for (int i = 0; i < 3; ++i) x[i] = normal(random);
      return x;
    };
    const Vector3d u = draw();
    const Vector3d omega = motion == 0 ? Vector3d(Vector3d::Zero()) : Vector3d(draw() / radius);
    s.twists.push_back(twist(omega, u - omega.cross(centre)));  // u: the velocity at B's centroid
    const rg::EntityMask mask = rg::cull_back_faces(*s.b, s.pose, s.twists.back());
    check_culled(name + ", seed " + std::to_string(seed), reference,
                 rg::intersect(*s.a, *s.index, *s.b, s.pose, {}, mask), mask);
  }
  return s;
}

void BM_CullingSpeedup(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const CullingScene& s = culling_scene(int(state.range(0)), int(state.range(1)));
  const auto seeds = std::size_t(kSeeds);
  std::vector<double> t_all(seeds, 0), t_cull(seeds, 0), t_culled(seeds, 0);
  std::vector<long> tests_all(seeds), tests_culled(seeds), pieces_all(seeds), pieces_culled(seeds);
  std::vector<int> kept(seeds);
  std::vector<bool> lost(seeds);
  for (auto _ : state) {
    for (std::size_t k = 0; k < seeds; ++k) {
      const auto t0 = Clock::now();
      const rg::IntersectionSet all = rg::intersect(*s.a, *s.index, *s.b, s.pose);
      const auto t1 = Clock::now();
      const rg::EntityMask mask = rg::cull_back_faces(*s.b, s.pose, s.twists[k]);
      const auto t2 = Clock::now();
      const rg::IntersectionSet culled = rg::intersect(*s.a, *s.index, *s.b, s.pose, {}, mask);
      const auto t3 = Clock::now();
      benchmark::DoNotOptimize(all);
      benchmark::DoNotOptimize(culled);
      t_all[k] += std::chrono::duration<double>(t1 - t0).count();
      t_cull[k] += std::chrono::duration<double>(t2 - t1).count();
      t_culled[k] += std::chrono::duration<double>(t3 - t2).count();
      tests_all[k] = all.plane_tests;
      tests_culled[k] = culled.plane_tests;
      pieces_all[k] = all.pieces;
      pieces_culled[k] = culled.pieces;
      kept[k] = rg::kept_counts(mask)[2];
      lost[k] = culled.regions.empty();
    }
  }
  double plane_ratio = 0, pieces_ratio = 0, time_ratio = 0, time_ratio_cull = 0, kept_faces = 0, us_all = 0,
         us_culled = 0, us_cull = 0, lost_contact = 0;
  const double iterations = double(state.iterations());
  for (std::size_t k = 0; k < seeds; ++k) {
    plane_ratio += double(tests_all[k]) / double(tests_culled[k]) / kSeeds;
    pieces_ratio += double(pieces_all[k]) / double(pieces_culled[k]) / kSeeds;
    time_ratio += t_all[k] / t_culled[k] / kSeeds;
    time_ratio_cull += t_all[k] / (t_cull[k] + t_culled[k]) / kSeeds;
    kept_faces += double(kept[k]) / s.b->face_count() / kSeeds;
    us_all += 1e6 * t_all[k] / iterations / kSeeds;
    us_culled += 1e6 * t_culled[k] / iterations / kSeeds;
    us_cull += 1e6 * t_cull[k] / iterations / kSeeds;
    lost_contact += double(lost[k]) / kSeeds;
  }
  state.counters["faces"] = s.b->face_count();
  state.counters["plane_test_ratio"] = plane_ratio;
  state.counters["pieces_ratio"] = pieces_ratio;
  state.counters["time_ratio"] = time_ratio;
  state.counters["time_ratio_with_cull"] = time_ratio_cull;
  state.counters["kept_faces"] = kept_faces;
  state.counters["us_all"] = us_all;
  state.counters["us_culled"] = us_culled;
  state.counters["us_cull"] = us_cull;
  state.counters["lost_contact"] = lost_contact;
}

// Registered (and so run) small first: a 100k-face build leaves the heap in a
// state that slows the exact arithmetic of what runs after it in the same
// process (see the header).
constexpr auto kMs = benchmark::kMillisecond;
void BM_ContactNormalsPoleOnPole(benchmark::State& state) {
  static const rg::BrepIndex index = rg::build_brep_index(sphere());
  // B's south pole (0, 0, -1) on A's north pole (0, 0, 1)
  const RigidPose<double> pose = translation(Vector3d(0, 0, 2));
  rg::ContactAnalysis analysis;
  for (auto _ : state) {
    analysis = rg::find_contacts(sphere(), index, sphere(), pose, rg::Vector6d::Zero(), {}, {{}, false, 0});
    benchmark::DoNotOptimize(analysis);
  }
  if (analysis.contacts.size() != 1 || std::abs(analysis.contacts[0].normals.front().z() - 1) > 1e-15)
    state.SkipWithError("expected one contact with normal (0, 0, 1)");
  set_analysis_counters(state, sphere().face_count(), analysis);
}

BENCHMARK(BM_ContactNormalsPoleOnPole)->Unit(kMs);
BENCHMARK(BM_CullingSpeedup)->ArgsProduct({{0, 1}, {0, 1}})->MinTime(2.0)->Unit(kMs);
BENCHMARK(BM_FindContactsOnFloor)->Arg(3)->Arg(9)->Arg(29)->Unit(kMs);
BENCHMARK(BM_BuildBrepIndex)->ArgsProduct({{3, 9, 29}, {0, 1}})->Unit(kMs);
BENCHMARK(BM_BuildBrepIndexFlat)->ArgsProduct({{3, 9, 29}, {0, 1}})->Unit(kMs);
BENCHMARK(BM_FindContactsOnBumpy)->ArgsProduct({{3, 9, 29}, {0, 1}})->Unit(kMs);
BENCHMARK(BM_FindContactsOnFloor)->Arg(91)->Unit(kMs);
BENCHMARK(BM_BuildBrepIndexFlat)->Args({91, 1})->Unit(kMs);
BENCHMARK(BM_BuildBrepIndex)->Args({91, 1})->Unit(kMs);
BENCHMARK(BM_BuildBrepIndex)->Args({91, 0})->Iterations(1)->Unit(kMs);
BENCHMARK(BM_FindContactsOnBumpy)->ArgsProduct({{91}, {0, 1}})->Unit(kMs);

}  // namespace
