// The scene format for every model (validation/scenes/scene.hpp): polyhedra
// (mesh, box, prism) and point clouds as geometry, poses and velocities of any
// number of bodies, the model type. Mass properties from a density are
// checked against closed forms (box, regular prism, the unit cube of a mesh
// file); every example scene of validation/fixtures/scenes loads, and
// together they hold every geometry type.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <numbers>
#include <set>
#include <string>

#include "validation/scenes/scene.hpp"
#include "tests/kit/scratch_dir.hpp"
#include "tests/kit/source_dir.hpp"
#include "tests/validation/scene_errors.hpp"
#include "tests/kit/tolerance.hpp"

namespace {

using contactref::InputError;
using contactref::Mat3;
using contactref::Vec3;
using contactref::scenes::GeometryKind;
using contactref::scenes::load_scene;
using contactref::scenes::ModelType;
using contactref::scenes::parse_scene;
using contactref::scenes::Scene;
using contactref::scenes::SceneBody;
using json = nlohmann::json;

using contactref::test::kEps;
const std::filesystem::path kFixtures = contactref::test::source_dir() / "validation/fixtures";

// A scene for the 6D model with one fixed box and one free body given by
// `free` (its geometry and mass fields), at the identity pose.
json scene_with(const json& free) {
  json document = json::parse(R"({"model": {"type": "volume-6d"}, "bodies": [
      {"name": "table", "geometry": {"type": "box", "size": [1, 1, 0.2]}, "fixed": true,
       "pose": {"position": [0, 0, -0.1]}}]})");
  json body = free;
  body["name"] = "body";
  document["bodies"].push_back(body);
  return document;
}

Scene parse_in_fixtures(const json& document) { return parse_scene(document.dump(), kFixtures / "scenes/scene.json"); }

void expect_error_in_fixtures(const json& document, const std::string& field, const std::string& words) {
  contactref::test::expect_scene_error(document, kFixtures / "scenes/scene.json", field, words);
}

// Relative agreement to a few roundings of the moments' sums.
void expect_inertia(const Mat3<double>& got, const Mat3<double>& expected, double tolerance) {
  EXPECT_LE((got - expected).cwiseAbs().maxCoeff(), tolerance * expected.cwiseAbs().maxCoeff()) << got << "\n"
                                                                                                 << expected;
}

// Closed form: m = rho lx ly lz, I = m/12 diag(ly^2 + lz^2, lx^2 + lz^2, lx^2 + ly^2).
TEST(SceneGeometry, BoxMassPropertiesAreTheClosedForm) {
  const Scene scene = parse_in_fixtures(scene_with(json::parse(R"({"geometry": {"type": "box", "size": [0.2, 0.3, 0.5]}, "density": 700})")));
  const SceneBody& box = scene.bodies[1];
  EXPECT_EQ(box.kind, GeometryKind::kPolyhedron);
  const double mass = 700 * 0.2 * 0.3 * 0.5;
  EXPECT_NEAR(box.mass, mass, 16 * kEps * mass);
  EXPECT_NEAR(box.volume, 0.03, 16 * kEps * 0.03);
  const Mat3<double> I = Vec3<double>(0.09 + 0.25, 0.04 + 0.25, 0.04 + 0.09).asDiagonal().toDenseMatrix() * (mass / 12);
  expect_inertia(box.I_com, I, 64 * kEps);
  EXPECT_LE(box.com_shift.norm(), 16 * kEps);  // centred by construction
  ASSERT_TRUE(box.geometry.polyhedron.has_value());
  EXPECT_EQ(box.geometry.polyhedron->face_count(), 6);
  EXPECT_NEAR(box.geometry.polyhedron->volume(), 0.03, 2 * kEps * 0.03);  // the exact volume, rounded once
}

// Closed form for the regular n-gon prism of circumradius r and height h:
// area A = n r^2 sin(2 pi / n) / 2, J / A = r^2 (2 + cos(2 pi / n)) / 6 (the
// polar moment: r^2 / 3 for the square, r^2 / 4 for the triangle),
// Izz = m J / A, Ixx = Iyy = m (J / (2 A) + h^2 / 12).
TEST(SceneGeometry, PrismMassPropertiesAreTheClosedForm) {
  for (const int n : {3, 4, 6, 17}) {
    const double r = 0.05, h = 0.04, rho = 300;
    json free = json::parse(R"({"geometry": {"type": "prism", "radius": 0.05, "height": 0.04}, "density": 300})");
    free["geometry"]["sides"] = n;
    const Scene scene = parse_in_fixtures(scene_with(free));
    const SceneBody& prism = scene.bodies[1];
    const double angle = 2 * std::numbers::pi / n;
    const double area = n * r * r * std::sin(angle) / 2, mass = rho * area * h;
    const double polar = r * r * (2 + std::cos(angle)) / 6;
    EXPECT_NEAR(prism.mass, mass, 64 * kEps * mass) << n;
    expect_inertia(prism.I_com, Vec3<double>(mass * (polar / 2 + h * h / 12), mass * (polar / 2 + h * h / 12), mass * polar)
                                    .asDiagonal()
                                    .toDenseMatrix(),
                   256 * kEps);
    EXPECT_LE(prism.com_shift.norm(), 64 * kEps * r) << n;
    EXPECT_EQ(prism.geometry.polyhedron->face_count(), n + 2);
  }
}

// The unit cube [0, 1]^3 of polyhedra/cube.off: its centre (1/2, 1/2, 1/2)
// is the shift, and the shifted solid is the centred cube.
TEST(SceneGeometry, AMeshIsShiftedToItsCentreOfMass) {
  const Scene scene = parse_in_fixtures(scene_with(json::parse(R"({"geometry": {"type": "mesh", "file": "../polyhedra/cube.off"},
      "density": 2})")));
  const SceneBody& cube = scene.bodies[1];
  EXPECT_NEAR((cube.com_shift - Vec3<double>::Constant(0.5)).norm(), 0, 16 * kEps);
  EXPECT_NEAR(cube.mass, 2, 16 * kEps);
  expect_inertia(cube.I_com, Mat3<double>::Identity() * (2.0 / 6), 64 * kEps);  // m (1 + 1) / 12
  for (const Eigen::Vector3d& x : cube.geometry.polyhedron->vertices())
    EXPECT_NEAR(x.cwiseAbs().maxCoeff(), 0.5, 16 * kEps);
  EXPECT_EQ(cube.file, kFixtures / "scenes/../polyhedra/cube.off");
}

TEST(SceneGeometry, PointCloudsCarryTheirNormalsAndNoVolume) {
  const json points = json::parse(R"({"geometry": {"type": "points", "file": "../points/cube_corners.ply"}, "mass": 1,
      "inertia": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]})");
  const Scene scene = parse_in_fixtures(scene_with(points));
  const SceneBody& foot = scene.bodies[1];
  EXPECT_EQ(foot.kind, GeometryKind::kPoints);
  ASSERT_EQ(foot.geometry.points.points.size(), 8u);
  ASSERT_EQ(foot.geometry.points.normals.size(), 8u);
  EXPECT_NEAR(foot.geometry.points.normals[0].norm(), 1, 4 * kEps);
  json dense = points;
  dense.erase("mass");
  dense.erase("inertia");
  dense["density"] = 1000;
  expect_error_in_fixtures(scene_with(dense), "bodies[1].density", "needs a geometry that encloses a volume");
  // A cloud without normals is not a point-sampled surface.
  const std::filesystem::path bare = contactref::test::scratch_dir() / "contactref_bare_points.xyz";
  std::ofstream(bare) << "0 0 0\n1 0 0\n0 1 0\n";
  json without = points;
  without["geometry"]["file"] = bare.string();
  expect_error_in_fixtures(scene_with(without), "bodies[1].geometry.file", "has no normals");
  std::filesystem::remove(bare);
}

TEST(SceneGeometry, PosesAndVelocitiesOfFreeBodies) {
  json free = json::parse(R"({"geometry": {"type": "box", "size": [1, 1, 1]}, "density": 1,
      "pose": {"position": [1, 2, 3], "rotate": [1.5707963267948966, [0, 0, 2]]},
      "velocity": {"linear": [0.5, 0, 0], "angular": [0, 0, 3]}})");
  const Scene scene = parse_in_fixtures(scene_with(free));
  const SceneBody& body = scene.bodies[1];
  EXPECT_EQ(body.E_w_b.translation(), Vec3<double>(1, 2, 3));
  EXPECT_NEAR((body.E_w_b.rotation() * Vec3<double>::UnitX() - Vec3<double>::UnitY()).norm(), 0, 4 * kEps);
  EXPECT_EQ(body.v_w, Vec3<double>(0.5, 0, 0));
  EXPECT_EQ(body.omega_w, Vec3<double>(0, 0, 3));
  // "offset" is position's former name; both at once are refused.
  json both = free;
  both["pose"]["offset"] = {0, 0, 0};
  expect_error_in_fixtures(scene_with(both), "bodies[1].pose.offset", "give position (or its former name offset), not both");
  json fixed_moving = scene_with(free);
  fixed_moving["bodies"][0]["velocity"] = {{"linear", {1, 0, 0}}};
  expect_error_in_fixtures(fixed_moving, "bodies[0].velocity", "a fixed body does not move");
  json bad_axis = free;
  bad_axis["pose"]["rotate"] = {1, {0, 0, 0}};
  expect_error_in_fixtures(scene_with(bad_axis), "bodies[1].pose.rotate[1]", "non-zero");
  json unknown = free;
  unknown["velocity"]["spin"] = 1;
  expect_error_in_fixtures(scene_with(unknown), "bodies[1].velocity.spin", "allowed here: linear, angular");
}

TEST(SceneGeometry, BadPolyhedraAreRefusedByField) {
  expect_error_in_fixtures(scene_with(json::parse(R"({"geometry": {"type": "prism", "sides": 2, "radius": 1, "height": 1}, "density": 1})")),
               "bodies[1].geometry.sides", "a prism has 3 to 4096 sides, got 2");
  expect_error_in_fixtures(scene_with(json::parse(R"({"geometry": {"type": "prism", "sides": 5, "radius": 1, "height": 0}, "density": 1})")),
               "bodies[1].geometry.height", "must be positive");
  expect_error_in_fixtures(scene_with(json::parse(R"({"geometry": {"type": "box", "size": [1, -1, 1]}, "density": 1})")),
               "bodies[1].geometry.size[1]", "edge lengths must be positive");
  expect_error_in_fixtures(scene_with(json::parse(R"({"geometry": {"type": "mesh", "file": "no_such.off"}, "density": 1})")),
               "bodies[1].geometry.file", "no_such.off");
  // An open mesh is no polyhedron: the topology check names the edge.
  const std::filesystem::path open = contactref::test::scratch_dir() / "contactref_open.off";
  std::ofstream(open) << "OFF\n4 3 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 1 2 3\n";
  json mesh = json::parse(R"({"geometry": {"type": "mesh"}, "density": 1})");
  mesh["geometry"]["file"] = open.string();
  expect_error_in_fixtures(scene_with(mesh), "bodies[1].geometry", "the surface is open");
  std::filesystem::remove(open);
  json both = json::parse(R"({"geometry": {"type": "box", "size": [1, 1, 1]}, "surface": {"type": "plane"}, "density": 1})");
  expect_error_in_fixtures(scene_with(both), "bodies[1].surface", "give geometry (or its former name surface), not both");
}

TEST(SceneModels, TheModelIsReadAndTheSmoothModelsFieldsBelongToIt) {
  json document = scene_with(json::parse(R"({"geometry": {"type": "box", "size": [1, 1, 1]}, "density": 1})"));
  for (const auto& [text, model] : {std::pair{"volume-6d", ModelType::kVolume6d},
                                    std::pair{"point-contact", ModelType::kPointContact},
                                    std::pair{"quasi-rigid", ModelType::kQuasiRigid}}) {
    document["model"]["type"] = text;
    EXPECT_EQ(parse_in_fixtures(document).model, model);
  }
  document["model"]["type"] = "fem";
  expect_error_in_fixtures(document, "model.type", "unknown model \"fem\" (known: smooth, quasi-rigid, volume-6d, point-contact)");
  document["model"] = {{"type", "volume-6d"}, {"E", 1e6}};
  expect_error_in_fixtures(document, "model.E", "unknown field");
  document["model"] = {{"type", "volume-6d"}};
  document["contact"] = {{"body1", "body"}};
  expect_error_in_fixtures(document, "contact", "a field of the smooth model; the volume-6d model does not take it");
  // The smooth model takes parametric surfaces only.
  document.erase("contact");
  document["model"]["type"] = "smooth";
  document["bodies"][1] = json::parse(R"({"name": "b", "surface": {"type": "sphere", "radius": 1}, "mass": 1,
      "inertia": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]})");
  expect_error_in_fixtures(document, "bodies[0].geometry.type", "the smooth model takes parametric surfaces");
}

// The done-criterion scene of the foundation issue: three free boxes on a
// fixed one go through the format; `kinematics` (the smooth model's) refuses
// the model by name.
TEST(SceneModels, ThreeFreeBoxesOnAFixedBox) {
  const Scene scene = load_scene(kFixtures / "scenes/boxes_on_box.json");
  EXPECT_EQ(scene.model, ModelType::kVolume6d);
  ASSERT_EQ(scene.bodies.size(), 4u);
  EXPECT_TRUE(scene.bodies[0].fixed);
  for (std::size_t k = 1; k < 4; ++k) {
    EXPECT_FALSE(scene.bodies[k].fixed);
    EXPECT_NEAR(scene.bodies[k].mass, 0.5, 16 * kEps);
  }
  EXPECT_EQ(scene.bodies[3].omega_w, Vec3<double>(0, 0, 3));
  try {
    contactref::scenes::require_model(scene, ModelType::kSmooth, "kinematics");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("boxes_on_box.json: model.type: `kinematics` runs the smooth model only, not "
                                         "the volume-6d model"),
              std::string::npos)
        << e.what();
  }
}

// Every example scene loads, and together they hold every geometry type.
TEST(SceneExamples, EveryGeometryTypeHasAnExampleScene) {
  std::set<std::string> types;
  int scenes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    const Scene scene = load_scene(entry.path());
    ++scenes;
    for (const SceneBody& body : scene.bodies) types.insert(body.geometry_type);
  }
  EXPECT_GE(scenes, 7);
  const std::set<std::string> every = {"plane", "sphere", "ellipsoid", "torus", "cylinder", "paraboloid",
                                       "bezier", "loop", "mesh", "box", "prism", "points"};
  EXPECT_EQ(types, every);
}

}  // namespace
