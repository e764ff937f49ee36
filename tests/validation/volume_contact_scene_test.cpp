// The 6D volume-contact model's scenes and its point-contact baseline's
// (validation/scenes/volume_contact_scene.hpp): every MODEL field and its
// default, each refusal with its message, and the simulator's bodies built
// from a scene (a ground's half-space from a tilted pose, masses from a
// density, shapes in centre-of-mass coordinates) and its options.
#include "validation/scenes/volume_contact_scene.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "tests/kit/source_dir.hpp"
#include "tests/validation/scene_errors.hpp"
#include "validation/scenes/scene.hpp"
#include "tests/kit/tolerance.hpp"

namespace contactref::scenes {
namespace {

using json = nlohmann::json;
namespace vc = contactref::volume_contact;

using test::kEps;
const std::filesystem::path kFile = test::source_dir() / "validation/fixtures/scenes/inline.json";

// A ground plane and a free box of 0.1 x 0.2 x 0.3 m at 500 kg/m^3.
json document(const std::string& type) {
  json d = json::parse(R"({"bodies": [
      {"name": "floor", "geometry": {"type": "plane"}, "fixed": true},
      {"name": "block", "geometry": {"type": "box", "size": [0.1, 0.2, 0.3]}, "density": 500,
       "pose": {"position": [0, 0, 0.15]}}]})");
  d["model"] = {{"type", type}};
  return d;
}

Scene parse(const json& d) { return parse_scene(d.dump(), kFile); }

std::string build_error(const json& d) {
  try {
    volume_contact_bodies(parse(d));
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(VolumeContactScene, EveryModelFieldIsReadAndDefaultsAreThePapers) {
  const VolumeContactModel defaults = parse(document("volume-6d")).volume_contact;
  EXPECT_EQ(defaults.time_step, 0.01);
  EXPECT_EQ(defaults.mu, 0);
  EXPECT_FALSE(defaults.target_volume.has_value());  // each pair's own (volume_world.hpp)
  EXPECT_EQ(defaults.stabilisation, vc::StabilisationDirection::kPatchNormal);
  EXPECT_EQ(defaults.touch_tolerance, 1e-3);
  EXPECT_EQ(defaults.linear_compliance, 0);
  EXPECT_EQ(defaults.angular_compliance, 0);
  EXPECT_EQ(defaults.tolerance, 1e-15);  // Section 6.1.8
  EXPECT_EQ(defaults.max_iterations, 1000);
  EXPECT_TRUE(defaults.warm_start);
  EXPECT_EQ(defaults.thin, 0.1);
  EXPECT_EQ(defaults.ground_size, 10);
  EXPECT_EQ(defaults.patch, vc::PatchRegion::kEllipse);  // Appendix A's
  EXPECT_TRUE(defaults.joint_elimination);  // the same fixed points as the paper's solver (block_pgs.hpp)
  EXPECT_TRUE(defaults.spin_resolve);
  EXPECT_TRUE(defaults.normal_differences);
  EXPECT_FALSE(defaults.exact_moments);  // convex pairs by clipping (contact_detection.hpp)

  json d = document("volume-6d");
  d["model"].update(json::parse(R"({"time_step": 0.002, "mu": 0.4, "target_volume": 1e-8, "linear_compliance": 1e-6,
      "angular_compliance": 2e-5, "tolerance": 1e-10, "max_iterations": 50, "warm_start": false, "thin": 0.2,
      "ground_size": 3, "patch": "support", "joint_elimination": false, "spin_resolve": false,
      "normal_differences": false, "stabilisation": "volume-gradient", "exact_moments": true})"));
  Scene scene = parse(d);
  EXPECT_EQ(scene.model, ModelType::kVolume6d);
  const VolumeContactModel& m = scene.volume_contact;
  EXPECT_EQ(m.time_step, 0.002);
  EXPECT_EQ(m.mu, 0.4);
  EXPECT_EQ(m.target_volume, 1e-8);
  EXPECT_EQ(m.linear_compliance, 1e-6);
  EXPECT_EQ(m.angular_compliance, 2e-5);
  EXPECT_EQ(m.tolerance, 1e-10);
  EXPECT_EQ(m.max_iterations, 50);
  EXPECT_FALSE(m.warm_start);
  EXPECT_EQ(m.thin, 0.2);
  EXPECT_EQ(m.ground_size, 3);
  EXPECT_EQ(m.patch, vc::PatchRegion::kSupport);
  EXPECT_FALSE(m.joint_elimination);
  EXPECT_FALSE(m.spin_resolve);
  EXPECT_FALSE(m.normal_differences);
  EXPECT_TRUE(m.exact_moments);
  EXPECT_EQ(m.stabilisation, vc::StabilisationDirection::kVolumeGradient);
  vc::WorldOptions o = volume_contact_options(scene);
  EXPECT_EQ(o.model, vc::ContactModel::kVolume6d);
  EXPECT_EQ(o.time_step, 0.002);
  EXPECT_EQ(o.gravity, Eigen::Vector3d(0, 0, -9.81));
  EXPECT_EQ(o.target_volume, 1e-8);
  EXPECT_EQ(o.linear_compliance, 1e-6);
  EXPECT_EQ(o.angular_compliance, 2e-5);
  EXPECT_FALSE(o.warm_start);
  EXPECT_EQ(o.pgs.tolerance, 1e-10);
  EXPECT_EQ(o.pgs.max_iterations, 50);
  EXPECT_EQ(o.patch.thin, 0.2);
  EXPECT_EQ(o.patch.region, vc::PatchRegion::kSupport);
  EXPECT_FALSE(o.pgs.eliminate_joints);
  EXPECT_FALSE(o.pgs.spin_resolve);
  EXPECT_FALSE(o.normal_differences);
  EXPECT_TRUE(o.exact_moments);
  EXPECT_EQ(o.stabilisation, vc::StabilisationDirection::kVolumeGradient);

  d = document("point-contact");
  d["model"]["touch_tolerance"] = 2e-4;
  d["model"]["joint_elimination"] = false;
  d["gravity"] = {0, -1, 0};
  scene = parse(d);
  EXPECT_EQ(scene.model, ModelType::kPointContact);
  o = volume_contact_options(scene);
  EXPECT_EQ(o.model, vc::ContactModel::kPointContact);
  EXPECT_EQ(o.touch_tolerance, 2e-4);
  EXPECT_EQ(o.gravity, Eigen::Vector3d(0, -1, 0));
  EXPECT_FALSE(o.pgs.eliminate_joints);
}

TEST(VolumeContactScene, BadModelFieldsAreRefusedNamingTheField) {
  const auto expect_bad = [](const std::string& type, const json& fields, const std::string& field,
                             const std::string& words) {
    json d = document(type);
    d["model"].update(fields);
    test::expect_scene_error(d, kFile, field, words);
  };
  const std::string six_d = "volume-6d", points = "point-contact";
  expect_bad(six_d, {{"time_step", 0}}, "model.time_step", "must be positive, got 0");
  expect_bad(six_d, {{"mu", -0.1}}, "model.mu", "must be >= 0, got -0.1");
  expect_bad(six_d, {{"target_volume", -1e-9}}, "model.target_volume", "must be >= 0");
  expect_bad(six_d, {{"stabilisation", "gradient"}}, "model.stabilisation",
             "unknown direction \"gradient\" (known: patch-normal, volume-gradient)");
  expect_bad(points, {{"stabilisation", 1}}, "model.stabilisation", "expected a string");
  expect_bad(six_d, {{"linear_compliance", -1}}, "model.linear_compliance", "must be >= 0");
  expect_bad(six_d, {{"angular_compliance", "stiff"}}, "model.angular_compliance", "expected a number, got string");
  expect_bad(six_d, {{"tolerance", -1}}, "model.tolerance", "must be >= 0");
  expect_bad(six_d, {{"max_iterations", 0}}, "model.max_iterations", "must be at least 1");
  expect_bad(six_d, {{"max_iterations", 2.5}}, "model.max_iterations", "expected an integer");
  expect_bad(six_d, {{"warm_start", 1}}, "model.warm_start", "expected true or false");
  expect_bad(six_d, {{"thin", 1}}, "model.thin", "must lie in (0, 1), got 1");
  expect_bad(six_d, {{"ground_size", 0}}, "model.ground_size", "must be positive");
  expect_bad(points, {{"touch_tolerance", 0}}, "model.touch_tolerance", "must be positive");
  expect_bad(six_d, {{"patch", "rectangle"}}, "model.patch", "unknown patch \"rectangle\" (known: ellipse, support)");
  expect_bad(six_d, {{"patch", 1}}, "model.patch", "expected a string");
  expect_bad(six_d, {{"joint_elimination", "yes"}}, "model.joint_elimination", "expected true or false");
  expect_bad(points, {{"joint_elimination", 0}}, "model.joint_elimination", "expected true or false");
  expect_bad(six_d, {{"spin_resolve", 1}}, "model.spin_resolve", "expected true or false");
  expect_bad(six_d, {{"normal_differences", nullptr}}, "model.normal_differences", "expected true or false");
  expect_bad(points, {{"exact_moments", "no"}}, "model.exact_moments", "expected true or false");
  // Each model refuses the other's own fields, and every unknown one.
  expect_bad(six_d, {{"touch_tolerance", 1e-3}}, "model.touch_tolerance", "unknown field (allowed here: type, ");
  expect_bad(points, {{"linear_compliance", 0}}, "model.linear_compliance", "unknown field");
  for (const char* field : {"patch", "spin_resolve", "normal_differences"})  // the 6D patch's and joint's
    expect_bad(points, {{field, true}}, std::string("model.") + field, "unknown field");
  expect_bad(points, {{"spacing", 0.01}}, "model.spacing", "unknown field");
  // More than 10 million steps: a mistake, not a run, unless the limit is raised.
  expect_bad(six_d, {{"time_step", 1e-8}}, "model.time_step",
             "a run of 1 s in steps of at most 1e-08 s takes at least 1e+08 steps, above limits.max_steps = 10000000");
}

// "joints": a hinge given in the world at the initial poses arrives in each
// body's frame (its anchor and axis map back to the world ones), with its
// drive; bad joints are refused naming the field.
TEST(VolumeContactScene, JointsAreReadInTheBodiesFramesAndBadOnesAreRefused) {
  json d = document("volume-6d");
  d["bodies"][1]["pose"]["rotate"] = {0.4, {1, 2, 3}};
  const json hinge = {{"type", "hinge"},
                      {"body1", "floor"},
                      {"body2", "block"},
                      {"anchor", {0.05, -0.1, 0.3}},
                      {"axis", {0, 0, 2}},
                      {"drive", {{"stiffness", 10}, {"damping", 0.1}, {"angle", -0.5}}}};
  d["joints"] = {hinge, {{"type", "spherical"}, {"body1", "block"}, {"body2", "floor"}, {"anchor", {0, 0, 0.3}}}};
  const Scene scene = parse(d);
  ASSERT_EQ(scene.joints.size(), 2u);
  const vc::BilateralJoint& j = scene.joints[0];
  EXPECT_EQ(j.kind, vc::JointKind::kHinge);
  EXPECT_EQ(j.a, 0);
  EXPECT_EQ(j.b, 1);
  const SceneBody& block = scene.bodies[1];
  EXPECT_LT((block.E_w_b.rotation() * j.anchor_b + block.E_w_b.translation() - Eigen::Vector3d(0.05, -0.1, 0.3)).norm(),
            4 * kEps);
  EXPECT_LT((j.anchor_a - Eigen::Vector3d(0.05, -0.1, 0.3)).norm(), kEps);  // the floor's frame is the world's
  EXPECT_LT((block.E_w_b.rotation() * j.axis_b - Eigen::Vector3d::UnitZ()).norm(), 4 * kEps);
  EXPECT_EQ(j.drive.stiffness, 10);
  EXPECT_EQ(j.drive.damping, 0.1);
  EXPECT_EQ(j.drive.angle, -0.5);
  EXPECT_EQ(scene.joints[1].kind, vc::JointKind::kSpherical);
  EXPECT_EQ(scene.joints[1].a, 1);

  const auto expect_bad = [&](const json& change, const std::string& field, const std::string& words) {
    json bad = d;
    bad["joints"][0].update(change);
    test::expect_scene_error(bad, kFile, field, words);
  };
  expect_bad({{"type", "slider"}}, "joints[0].type", "unknown joint type \"slider\" (known: hinge, spherical)");
  expect_bad({{"body2", "hand"}}, "joints[0].body2", "no body named \"hand\"");
  expect_bad({{"body2", "floor"}}, "joints[0].body2", "must be different bodies");
  expect_bad({{"anchor", {0, 0}}}, "joints[0].anchor", "expected an array of 3");
  expect_bad({{"axis", {0, 0, 0}}}, "joints[0].axis", "must be a non-zero vector");
  expect_bad({{"drive", {{"stiffness", -1}}}}, "joints[0].drive.stiffness", "must be >= 0");
  expect_bad({{"drive", {{"angle", 4}}}}, "joints[0].drive.angle", "must lie in [-pi, pi], got 4");
  expect_bad({{"drive", {{"gain", 1}}}}, "joints[0].drive.gain", "unknown field");
  expect_bad({{"limit", 1}}, "joints[0].limit", "unknown field");
  json spherical_with_axis = d;
  spherical_with_axis["joints"][1]["axis"] = {1, 0, 0};
  test::expect_scene_error(spherical_with_axis, kFile, "joints[1].axis", "only a hinge has an axis and a drive");
  json no_axis = d;
  no_axis["joints"][0].erase("axis");
  test::expect_scene_error(no_axis, kFile, "joints[0].axis", "missing (required)");
  json both_fixed = d;
  both_fixed["bodies"][1] = {{"name", "block"}, {"geometry", {{"type", "box"}, {"size", {0.1, 0.2, 0.3}}}}, {"fixed", true}};
  test::expect_scene_error(both_fixed, kFile, "joints[0]", "are both fixed");
  json not_array = d;
  not_array["joints"] = hinge;
  test::expect_scene_error(not_array, kFile, "joints", "expected an array of joints");
  json smooth = json::parse(R"({"bodies": [{"name": "a", "geometry": {"type": "plane"}, "fixed": true}]})");
  smooth["model"] = {{"type", "quasi-rigid"}};
  smooth["joints"] = json::array();
  test::expect_scene_error(smooth, kFile, "joints", "the quasi-rigid model takes no joints");
}

TEST(VolumeContactScene, APlaneIsAGroundHalfSpacePlacedByItsPose) {
  json d = document("point-contact");
  const Eigen::Vector3d axis = Eigen::Vector3d(1, 2, 0).normalized(), position(0.1, -0.2, 0.3);
  d["bodies"][0]["pose"] = {{"position", {0.1, -0.2, 0.3}}, {"rotate", {0.4, {1, 2, 0}}}};
  d["model"]["ground_size"] = 4;
  d["model"]["mu"] = 0.25;
  const std::vector<vc::RigidBody> bodies = volume_contact_bodies(parse(d));
  ASSERT_EQ(bodies.size(), 2u);
  const vc::RigidBody& ground = bodies[0];
  EXPECT_TRUE(ground.fixed());
  EXPECT_EQ(ground.friction, 0.25);
  ASSERT_TRUE(ground.ground_w.has_value());
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.4, axis).toRotationMatrix();
  // The pose's rotation (so3_exp) and Eigen's agree to a few roundings of
  // entries of size <= 1.
  EXPECT_LT((ground.ground_w->normal - R.col(2)).norm(), 8 * kEps);
  EXPECT_LT((ground.R_w_b() - R).cwiseAbs().maxCoeff(), 8 * kEps);
  EXPECT_EQ(ground.x_w, position);
  // Points of the body's plane z = 0 lie on the world plane n . x = offset
  // (round-off of sizes <= 1 m).
  for (const Eigen::Vector3d& p_b : {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1.5, -0.7, 0)}) {
    const Eigen::Vector3d p_w = ground.R_w_b() * p_b + ground.x_w;
    EXPECT_NEAR(ground.ground_w->normal.dot(p_w), ground.ground_w->offset, 8 * kEps);
  }
  // The slab: 4 m square, 1 m thick, its top face on z = 0 (body frame).
  const auto& vertices = ground.shape->polyhedron.vertices();
  ASSERT_EQ(vertices.size(), 8u);
  for (const Eigen::Vector3d& v : vertices) {
    EXPECT_EQ(std::abs(v.x()), 2);
    EXPECT_EQ(std::abs(v.y()), 2);
    EXPECT_TRUE(v.z() == 0 || v.z() == -1) << v.transpose();
  }
}

TEST(VolumeContactScene, FreeBodiesTakeTheirMassFromTheDensityAboutTheCentreOfMass) {
  json d = document("volume-6d");
  d["model"]["mu"] = 0.3;
  d["bodies"][1]["velocity"] = {{"linear", {1, 2, 3}}, {"angular", {0, 0, 4}}};
  d["bodies"].push_back(json::parse(R"({"name": "crate", "geometry": {"type": "mesh", "file": "../polyhedra/cube.off"},
      "density": 2, "pose": {"position": [3, 0, 0.5]}})"));
  d["bodies"].push_back(json::parse(R"({"name": "nut", "geometry": {"type": "prism", "sides": 6, "radius": 0.05,
      "height": 0.04}, "mass": 0.2, "inertia": [[1e-4, 0, 0], [0, 1e-4, 0], [0, 0, 2e-4]]})"));
  d["bodies"].push_back(json::parse(R"({"name": "table", "geometry": {"type": "box", "size": [1, 1, 0.2]},
      "fixed": true, "pose": {"position": [0, 0, -2]}})"));
  const std::vector<vc::RigidBody> bodies = volume_contact_bodies(parse(d));
  ASSERT_EQ(bodies.size(), 5u);

  // The box: m = rho a b c, I = m/12 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2)
  // (a few roundings in the moments' sums).
  const vc::RigidBody& block = bodies[1];
  const double m = 500 * 0.1 * 0.2 * 0.3;
  EXPECT_NEAR(block.mass, m, 16 * kEps * m);
  const Eigen::Vector3d I = m / 12 * Eigen::Vector3d(0.04 + 0.09, 0.01 + 0.09, 0.01 + 0.04);
  EXPECT_LT((block.I_com_b - Eigen::Matrix3d(I.asDiagonal())).cwiseAbs().maxCoeff(), 64 * kEps * I.maxCoeff());
  EXPECT_EQ(block.friction, 0.3);
  EXPECT_EQ(block.x_w, Eigen::Vector3d(0, 0, 0.15));
  EXPECT_EQ(block.v_w, Eigen::Vector3d(1, 2, 3));
  EXPECT_EQ(block.omega_w, Eigen::Vector3d(0, 0, 4));
  EXPECT_FALSE(block.ground_w.has_value());

  // The unit cube of cube.off spans [0, 1]^3: moved by -(1/2, 1/2, 1/2) to
  // its centre of mass (exact: dyadic), m = 2 kg, I = m/6 per axis.
  const vc::RigidBody& crate = bodies[2];
  EXPECT_NEAR(crate.mass, 2, 16 * kEps);
  EXPECT_NEAR(crate.I_com_b(0, 0), 2.0 / 6, 64 * kEps);
  for (const Eigen::Vector3d& v : crate.shape->polyhedron.vertices()) EXPECT_EQ(v.cwiseAbs(), Eigen::Vector3d::Constant(0.5));
  EXPECT_EQ(crate.x_w, Eigen::Vector3d(3, 0, 0.5));

  // Mass and inertia as given; the prism is centred at its centre of mass.
  const vc::RigidBody& nut = bodies[3];
  EXPECT_EQ(nut.mass, 0.2);
  EXPECT_EQ(nut.I_com_b(2, 2), 2e-4);
  EXPECT_EQ(nut.shape->polyhedron.vertex_count(), 12);

  const vc::RigidBody& table = bodies[4];
  EXPECT_TRUE(table.fixed());
  EXPECT_FALSE(table.ground_w.has_value());
  EXPECT_EQ(table.x_w, Eigen::Vector3d(0, 0, -2));
}

TEST(VolumeContactScene, OtherGeometriesAndMisplacedPlanesAreRefusedNamingTheField) {
  json d = document("volume-6d");
  d["bodies"][1]["geometry"] = {{"type", "sphere"}, {"radius", 0.1}};
  EXPECT_NE(build_error(d).find(kFile.string() + ": bodies[1].geometry.type: the volume-6d model takes mesh, box and "
                                                 "prism geometries, and a fixed plane as the ground; not a sphere"),
            std::string::npos)
      << build_error(d);
  d = document("point-contact");
  d["bodies"][0].erase("fixed");
  d["bodies"][0]["mass"] = 1;
  d["bodies"][0]["inertia"] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  EXPECT_NE(build_error(d).find(": bodies[0].fixed: a plane is a ground: it must be fixed"), std::string::npos)
      << build_error(d);
  d = document("point-contact");
  d["bodies"][0]["geometry"]["transform"] = {{"offset", {0, 0, 1}}};
  EXPECT_NE(build_error(d).find(": bodies[0].geometry.transform: the point-contact model places a plane by its pose "
                                "only"),
            std::string::npos)
      << build_error(d);
}

// Issue 29 items 8 and 15: a body whose points would outrun light (outside
// Newtonian mechanics; the 1e200 m/s of the reproducer overflowed the
// kinetic energy to inf) and a touch tolerance the point model's bodies
// cannot take (half the 4096-gon's edge is 7.7e-5 m; the run used to fail
// at t = 0, exit 1) are bad input, named by their field.
TEST(VolumeContactScene, AVelocityBeyondLightsAndATouchToleranceTheEdgesCannotTakeAreRefused) {
  for (const std::string type : {"volume-6d", "point-contact"}) {
    json d = document(type);
    d["bodies"][1]["velocity"] = {{"linear", {1e200, 0, 0}}};
    EXPECT_NE(build_error(d).find(kFile.string() + ": bodies[1]: body \"block\": velocity: its points move at up to "
                                                   "|v| + |omega| r = 1e+200 m/s"),
              std::string::npos)
        << build_error(d);
    d["bodies"][1]["velocity"] = {{"linear", {2e8, 0, 0}}};  // below light's speed: accepted
    EXPECT_EQ(build_error(d), "no error");
  }
  json d = document("point-contact");
  d["bodies"][1]["geometry"] = {{"type", "prism"}, {"sides", 4096}, {"radius", 0.1}, {"height", 0.05}};
  EXPECT_NE(build_error(d).find(kFile.string() + ": model.touch_tolerance: touch_tolerance 0.001 is not below half the "
                                                 "shortest edge of the solids (7.669903187422"),
            std::string::npos)
      << build_error(d);
  d["model"]["touch_tolerance"] = 5e-5;
  EXPECT_EQ(build_error(d), "no error");
}

// A density moves a mesh to its centre of mass; rounding the moved
// coordinates can break the exact planarity of a quad (Polyhedron checks it
// without tolerance): the 128-face sphere's trapezoids are planar as written
// (make_uv_sphere.py) but not once moved by its centroid's ~1e-17 m.
TEST(VolumeContactScene, AMeshWhoseFacesTheCentreOfMassShiftBendsIsRefused) {
  json d = document("volume-6d");
  d["bodies"][1]["geometry"] = {{"type", "mesh"}, {"file", "../polyhedra/uv_sphere_128.off"}};
  test::expect_scene_error(d, kFile, "bodies[1].geometry",
                           "moved to its centre of mass (by -(");
  test::expect_scene_error(d, kFile, "bodies[1].geometry",
                           "is not planar");
  // Triangles stay planar: the triangulated sphere of the fixtures loads.
  d["bodies"][1]["geometry"]["file"] = "../polyhedra/triangle_sphere_0.1.off";
  const std::vector<vc::RigidBody> bodies = volume_contact_bodies(parse(d));
  EXPECT_EQ(bodies[1].shape->polyhedron.face_count(), 528);
}

}  // namespace
}  // namespace contactref::scenes
