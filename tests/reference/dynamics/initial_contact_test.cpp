// The check that a simulation starts without interpenetration
// (initial_contact.hpp), against the closed-form curvatures and positions:
//  - a torus (R, r) standing on a floor on its inner equator: the contact
//    point is a saddle, principal curvature -1 / (R - r) round the axis, so
//    the surfaces cross next to it (the ring's centre lies r + ... below the
//    floor): refused, naming that eigenvalue; the same torus on its outer
//    equator (1 / r and 1 / (R + r)) starts;
//  - a body of two spheres, the contact on the first one's bottom: with the
//    second sphere's lowest point 5 cm below the floor the start is refused
//    with that depth, with it above the floor it starts.
#include <gtest/gtest.h>

#include <memory>
#include <numbers>

#include "core/errors.hpp"
#include "reference/dynamics/contact_simulation.hpp"
#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "reference/surfaces/transformed_patch.hpp"
#include "tests/kit/errors.hpp"
#include "tests/reference/dynamics/sphere_on_plane.hpp"

namespace contactref::dynamics {
namespace {

namespace su = contactref::surfaces;

ContactSystem<double> system_of(const su::PatchComplex<double>& body, const su::PatchComplex<double>& floor) {
  ContactSystem<double> system;
  system.mass = 1;
  system.I_com = Mat3<double>::Identity() * 0.01;
  system.surface1 = &body;
  system.surface2 = &floor;
  return system;
}

SimulationOptions<double> short_run() {
  SimulationOptions<double> o;
  o.duration = 0.01;
  return o;
}

TEST(InitialContact, ATorusOnItsInnerSaddleIsRefusedAndOnItsOuterEquatorStarts) {
  const double R = 0.05, r = 0.02;
  const su::PatchComplex<double> torus = test::one_patch<double>(std::make_unique<su::TorusPatch<double>>(R, r));
  const su::PatchComplex<double> floor = test::one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  const ContactSystem<double> system = system_of(torus, floor);
  ContactState<double> inner;
  inner.q << std::numbers::pi / 2, std::numbers::pi, 0, 0, 0;  // tube angle pi: the inner equator
  const std::string message = test::message_of<InputError>([&] { simulate(system, inner, short_run()); });
  EXPECT_NE(message.find("the initial contact (patches 0 and 0"), std::string::npos) << message;
  EXPECT_NE(message.find("interpenetrates: the relative curvature of the two surfaces there has the eigenvalue -33.3333"),
            std::string::npos)
      << message << " (-1 / (R - r) = " << -1 / (R - r) << ")";
  ContactState<double> outer = inner;
  outer.q(1) = 0;  // the outer equator: convex both ways, the torus's lowest point
  EXPECT_EQ(simulate(system, outer, short_run()).status, SimulationStatus::kCompleted);
}

TEST(InitialContact, ABodyReachingBelowAFloorElsewhereIsRefusedWithTheDepth) {
  const double radius = 0.1;
  const su::PatchComplex<double> floor = test::one_patch<double>(std::make_unique<su::PlanePatch<double>>());
  // The contact at the first sphere's bottom (sphere_on_plane.hpp's start).
  const test::SphereOnPlaneScene<double> set;
  ContactState<double> start = set.sliding_start(0);
  const su::EllipsoidPatch<double> probe(Vec3<double>(radius, radius, radius));
  const Mat4<double> E_2_1 = kinematics::contact_configuration<double>(probe, *floor.patches[0], start.q).E_2_1;
  const Mat3<double> R_2_1 = E_2_1.topLeftCorner<3, 3>();
  for (const double height : {-0.05, 0.02}) {
    // The second sphere's centre, in the floor's frame, 0.5 m to the side with
    // its lowest point at `height`; in body 1's frame for the patch.
    const Vec3<double> centre_2 = E_2_1.topRightCorner<3, 1>() + Vec3<double>(0.5, 0, height);
    su::SceneTransform<double> shift;
    shift.offset = R_2_1.transpose() * (centre_2 - E_2_1.topRightCorner<3, 1>());
    su::PatchComplex<double> body;
    body.patches.push_back(std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(radius, radius, radius)));
    body.patches.push_back(std::make_unique<su::TransformedPatch<double>>(
        std::make_unique<su::EllipsoidPatch<double>>(Vec3<double>(radius, radius, radius)), shift));
    const ContactSystem<double> system = system_of(body, floor);
    if (height < 0) {
      const std::string message = test::message_of<InputError>([&] { simulate(system, start, short_run()); });
      // The grid's lowest sample of the second sphere is within its spacing
      // (pi / 24 of a 0.1 m radius: 1 - cos of half of it, 8e-4 m) of the bottom.
      const std::size_t at = message.find(" m below body 2's plane at (");
      ASSERT_NE(at, std::string::npos) << message;
      const double depth = std::stod(message.substr(message.rfind(' ', at - 1) + 1));
      EXPECT_NEAR(depth, -height, radius * (1 - std::cos(std::numbers::pi / 48))) << message;
      EXPECT_NE(message.find("of its patch 1"), std::string::npos) << message;
    } else {
      EXPECT_EQ(simulate(system, start, short_run()).status, SimulationStatus::kCompleted);
    }
  }
}

}  // namespace
}  // namespace contactref::dynamics
