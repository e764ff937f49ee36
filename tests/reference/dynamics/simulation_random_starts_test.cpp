// Property (issue 10 item 8): from any valid starting state the simulator
// ends with a status, within a bounded number of passes of its step loop.
// A thousand seeded random states on the test meshes (icosahedron, the
// App. B.2 bowl and valences_3_to_10: Loop surfaces with
// extraordinary vertices, split faces and Stam's rings), a quarter of them
// placed on the lines where it used to loop for ever: patch edges, the piece
// lines of split faces (u = 1/2, v = 1/2, u + v = 1/2), ring lines
// u + v = 2^-k, and piece and patch corners. On main 15 of 800 such states
// hung. CONTACTREF_RANDOM_STARTS=N runs N states instead (the long variant;
// the sanitizers' test preset runs 200, at twenty times the release's cost).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <numbers>
#include <random>

#include "reference/dynamics/contact_simulation.hpp"
#include "reference/dynamics/step_acceptance.hpp"
#include "core/errors.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "tests/kit/one_patch.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;
using su::Vec2;

struct LoopBody {
  std::unique_ptr<su::LoopSurface<double>> surface;
  double mass;
  Mat3<double> inertia;
};

// A mesh of validation/fixtures/meshes scaled to `scale` m, as a body of the
// mass and inertia of a solid ball of radius `scale` (density 500 kg/m^3)
// with its centre of mass at the mesh's frame origin. Any rigid body will do
// for this property (every run ends); the Loop surface's own mass properties
// take minutes under the sanitizers, and are tested in mass_properties_test.
LoopBody loop_body(const std::string& file, double scale) {
  su::TriangleMesh mesh = su::read_triangle_mesh(contactref::test::source_dir() / "validation/fixtures/meshes" / file);
  for (auto& x : mesh.vertices) x *= scale;
  const double mass = 500 * 4.0 / 3 * std::numbers::pi * scale * scale * scale;
  return {std::make_unique<su::LoopSurface<double>>(mesh, file), mass, Mat3<double>::Identity() * 0.4 * mass * scale * scale};
}

using test::one_patch;

// A point of the unit triangle: uniform, or (one time in four) on a line or
// corner where pieces or patches meet.
Vec2<double> triangle_point(std::mt19937_64& random) {
  std::uniform_real_distribution<double> unit(0, 1);
  double u = unit(random), v = unit(random);
  if (u + v > 1) u = 1 - u, v = 1 - v;
  if (random() % 4 != 0) return {u, v};
  switch (random() % 7) {
    case 0: return {0.5, v / 2};                     // split-face line u = 1/2
    case 1: return {u / 2, 0.5};                     // v = 1/2
    case 2: return {u * 0.5, 0.5 - u * 0.5};         // u + v = 1/2
    case 3: return {u, 0};                           // patch edge v = 0
    case 4: return {u, 1 - u};                       // patch edge u + v = 1
    case 5: {                                        // Stam ring line u + v = 2^-k
      const double ring = std::ldexp(1.0, -int(1 + random() % 12));
      return {u * ring, (1 - u) * ring};
    }
    default: {                                       // a piece or patch corner
      const std::array<Vec2<double>, 6> corners = {Vec2<double>(0.5, 0), Vec2<double>(0, 0.5), Vec2<double>(0.5, 0.5),
                                                   Vec2<double>(1, 0), Vec2<double>(0, 1), Vec2<double>(0.25, 0.25)};
      return corners[random() % corners.size()];
    }
  }
}

struct StartSetup {
  ContactSystem<double> system;
  bool loop_is_body1;  // else the Loop surface is body 2, on the marble's chart
  Vec2<double> centre;  // the other body's parameters: centre +- spread
  double spread;
};

TEST(SimulationRandomStarts, EveryValidStartEndsWithAStatusWithinBoundedPasses) {
  const LoopBody ico = loop_body("icosahedron.obj", 0.1);
  const LoopBody bowl = loop_body("bowl_b2.obj", 0.0872);
  const LoopBody valences = loop_body("valences_3_to_10.obj", 0.1);  // valence 3 (A not diagonalisable) to 10
  const su::PatchComplex<double> paraboloid = one_patch<double>(std::make_unique<su::ParaboloidPatch<double>>(1.0, 2.0));
  std::array<Vec3<double>, 16> control;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) control[std::size_t(4 * a + b)] = Vec3<double>(-1.5 + a, -1.5 + b, 0);
  const su::PatchComplex<double> floor = one_patch<double>(std::make_unique<su::BezierPatch<double>>(control));
  const su::PatchComplex<double> marble = one_patch<double>(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(0.005, 0.005, 0.005)));
  const double marble_mass = 1000 * 4.0 / 3 * std::numbers::pi * 0.005 * 0.005 * 0.005;
  const Vec3<double> g(0, 0, -9.81);
  const auto system = [&](double mass, const Mat3<double>& inertia, const su::PatchComplex<double>& one,
                           const su::PatchComplex<double>& two) {
    return ContactSystem<double>{mass, inertia, &one, &two, Mat4<double>::Identity(), g, {}};
  };
  const std::array<StartSetup, 4> setups = {
      StartSetup{system(ico.mass, ico.inertia, ico.surface->complex(), paraboloid), true, Vec2<double>::Zero(), 0.2},
      StartSetup{system(bowl.mass, bowl.inertia, bowl.surface->complex(), floor), true, Vec2<double>(0.5, 0.5), 0.02},
      StartSetup{system(valences.mass, valences.inertia, valences.surface->complex(), paraboloid), true,
                 Vec2<double>::Zero(), 0.2},
      StartSetup{system(marble_mass, Mat3<double>::Identity() * 0.4 * marble_mass * 0.005 * 0.005, marble, bowl.surface->complex()),
            false, Vec2<double>(std::numbers::pi / 2, 0), 1},
  };

  SimulationOptions<double> options;
  options.h_max = 0.008;
  options.h_min = 0.001;
  options.duration = 0.02;
  options.output_interval = 0.01;
  // Every pass either ends a stretch of at most stalled_pass_limit passes
  // with a step of h_min or more, or ends the run: a run takes at most
  // (duration / h_min + 1) (limit + 1) passes, or the watchdog would stop it.
  const long limit = stalled_pass_limit(options.h_max, options.h_min, 16);
  const long pass_bound = long(std::ceil(options.duration / options.h_min) + 1) * (limit + 1);

  const char* variant = std::getenv("CONTACTREF_RANDOM_STARTS");
  const int wanted = variant ? std::atoi(variant) : 1000;
  std::cout << "CONTACTREF_RANDOM_STARTS=" << wanted << "\n";
  std::mt19937_64 random(20261124);
  std::uniform_real_distribution<double> symmetric(-1, 1);
  int valid = 0, attempts = 0;
  std::map<std::string, int> statuses;
  while (valid < wanted && attempts < 4 * wanted) {
    ++attempts;
    const StartSetup& setup = setups[std::size_t(random() % setups.size())];
    const su::PatchComplex<double>& loop = setup.loop_is_body1 ? *setup.system.surface1 : *setup.system.surface2;
    ContactState<double> initial;
    const int face = int(random() % loop.patches.size());
    const Vec2<double> x = triangle_point(random);
    // The other body's parameters (the marble's chart: s within 1 of the
    // equator, off its poles).
    const Vec2<double> other = setup.centre + setup.spread * Vec2<double>(symmetric(random), symmetric(random));
    (setup.loop_is_body1 ? initial.patch1 : initial.patch2) = face;
    initial.q << (setup.loop_is_body1 ? x : other), (setup.loop_is_body1 ? other : x), std::numbers::pi * symmetric(random);
    for (int k = 0; k < 5; ++k) initial.qdot(k) = (random() % 3 == 0) ? 0.0 : symmetric(random);
    // Both integrators and both boundary locations.
    SimulationOptions<double> variant_options = options;
    variant_options.integrator = random() % 2 ? IntegratorKind::kRk4 : IntegratorKind::kDormandPrince54;
    variant_options.tolerance = 1e-6;
    variant_options.boundary = random() % 4 ? BoundaryLocation::kIntegrated : BoundaryLocation::kLinear;
    SimulationResult<double> result;
    try {
      result = simulate(setup.system, initial, variant_options);
    } catch (const InputError&) {
      continue;  // not a valid start (outside a domain)
    } catch (const ComputationError&) {
      continue;  // not a valid start (at an extraordinary vertex, conforming)
    }
    ++valid;
    ++statuses[to_string(result.status)];
    EXPECT_LE(result.statistics.passes, pass_bound);
    // Ended: at the end time, or early with a status and its reason.
    if (result.status == SimulationStatus::kCompleted) {
      EXPECT_NEAR(result.final_state.time, options.duration, 1e-15);
    } else {
      EXPECT_FALSE(result.message.empty());
    }
    // A watchdog stop is a livelock that was caught, not a valid ending.
    EXPECT_EQ(result.message.find("watchdog"), std::string::npos)
        << result.message << "\n q = " << initial.q.transpose() << ", q' = " << initial.qdot.transpose()
        << " patches " << initial.patch1 << " " << initial.patch2 << " integrator " << int(variant_options.integrator)
        << " boundary " << int(variant_options.boundary) << " accepted " << result.statistics.accepted_steps
        << " rejected " << result.statistics.rejected_steps << " smallest " << result.statistics.smallest_step;
  }
  EXPECT_EQ(valid, wanted);
  for (const auto& [status, count] : statuses) std::cout << status << ": " << count << "\n";
}

}  // namespace
}  // namespace contactref::dynamics
