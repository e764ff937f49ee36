// `simulate` writes each body's shape once (validation/app/body_shapes.hpp,
// issue 33 item 1), and the smooth model its contacts (contacts.csv). The files are read back by the project's own PLY reader
// (core/mesh_io.hpp, fuzzed) and held to quantities computed another way:
// the enclosed volume and centre of mass of the scene's mass properties
// (surfaces::mass_properties for a Loop surface, the polyhedron's moments),
// which also pins the frame (the body origin at the centre of mass).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/mesh_io.hpp"
#include "tests/kit/scratch_dir.hpp"
#include "tests/kit/source_dir.hpp"
#include "tests/validation/cli_run.hpp"
#include "validation/scenes/scene.hpp"

namespace {

namespace fs = std::filesystem;
using contactref::PolygonSoup;
using Vec3 = Eigen::Vector3d;

fs::path scene_file(const std::string& name) { return contactref::test::source_dir() / "validation/fixtures/scenes" / name; }

// A scene simulated into a fresh folder: its shapes.json and the scene.
struct ShapesRun {
  fs::path dir;
  nlohmann::json manifest;
  contactref::scenes::Scene scene;
  const nlohmann::json& entry(std::size_t body) const { return manifest.at("bodies").at(body); }
  PolygonSoup shape(std::size_t body) const {
    return contactref::read_polygon_soup(dir / entry(body).at("file").get<std::string>());
  }
};
ShapesRun simulate(const std::string& scene) {
  const fs::path dir = contactref::test::scratch_dir() / ("shapes_" + fs::path(scene).stem().string());
  fs::remove_all(dir);
  const contactref::test::CliRun r =
      contactref::test::run("simulate '" + scene_file(scene).string() + "' --out '" + dir.string() + "'", true);
  EXPECT_EQ(r.exit_code, 0) << r.all;
  return {dir, nlohmann::json::parse(contactref::test::file_bytes(dir / "shapes.json")),
          contactref::scenes::load_scene(scene_file(scene))};
}

// The triangles' (or polygons', fanned) enclosed volume, its centroid and area
// (divergence theorem).
struct Solid {
  double volume = 0, area = 0;
  Vec3 centroid = Vec3::Zero();
};
Solid solid_of(const PolygonSoup& soup) {
  Solid s;
  Vec3 moment = Vec3::Zero();
  for (const std::vector<int>& face : soup.faces)
    for (std::size_t k = 1; k + 1 < face.size(); ++k) {
      const Vec3 &a = soup.vertices[std::size_t(face[0])], &b = soup.vertices[std::size_t(face[k])],
                 &c = soup.vertices[std::size_t(face[k + 1])];
      const double v = a.dot(b.cross(c)) / 6;
      s.volume += v;
      moment += v * (a + b + c) / 4;
      s.area += (b - a).cross(c - a).norm() / 2;
    }
  s.centroid = moment / s.volume;
  return s;
}

// The bowl thrown on the table: both Loop surfaces, within their bounds.
// Every point of the mesh is within bound_m of the surface and the other way
// round, so the volumes differ by at most area x bound, and the centroid by
// that volume times the radius over the volume; twice that allows for the
// cracks that the T-junctions leave (each within the bound; 2,040 of the
// bowl's 23,703 edges have one triangle). Measured: the volume 9.2e-7 m^3
// off (the bound allows 2.5e-5), the centroid 1.1e-5 m (2.2e-3); without
// the shift to the centre of mass it would be centimetres off (the control
// mesh's own centroid is 3.6 cm below its origin).
TEST(BodyShapes, LoopSurfacesEncloseTheScenesVolumeAboutTheCentreOfMassWithinTheirBound) {
  const ShapesRun run = simulate("bowl_thrown_on_table.json");
  ASSERT_EQ(run.manifest.at("bodies").size(), 2u);
  const nlohmann::json& bowl = run.entry(0);
  EXPECT_EQ(bowl.at("name"), "bowl");
  EXPECT_FALSE(bowl.at("fixed").get<bool>());
  const PolygonSoup soup = run.shape(0);
  EXPECT_EQ(soup.vertices.size(), bowl.at("vertices").get<std::size_t>());
  EXPECT_EQ(soup.faces.size(), bowl.at("faces").get<std::size_t>());
  const double bound = bowl.at("bound_m").get<double>();
  const Solid s = solid_of(soup);
  double radius = 0;
  for (const Vec3& x : soup.vertices) radius = std::max(radius, x.norm());
  EXPECT_LE(bound, 3e-3 * radius * 1.5);  // the bounding sphere's radius, about the mesh's own
  const double volume = run.scene.bodies[0].volume;  // 0.81 kg at 1000 kg/m^3
  ASSERT_GT(volume, 0);
  EXPECT_LE(std::abs(s.volume - volume), 2 * s.area * bound) << s.volume << " against " << volume;
  EXPECT_LE(s.centroid.norm(), 2 * s.area * bound * radius / volume) << s.centroid.transpose();

  const nlohmann::json& table = run.entry(1);
  EXPECT_TRUE(table.at("fixed").get<bool>());
  const Eigen::Matrix4d& E = run.scene.bodies[1].E_w_b.matrix();
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(table.at("pose_w_b")[i][j].get<double>(), E(Eigen::Index(i), Eigen::Index(j)));
  EXPECT_GT(solid_of(run.shape(1)).volume, 0);  // closed and outward: a positive volume
}

// The octagon sliding on the floor: the polyhedron as built, to the last
// digit of its volume, about its centre of mass, in triangles (the viewer's
// PLY loader drops the prism's octagonal caps); the plane as a square of
// half-side 1 m facing along its normal.
TEST(BodyShapes, PolyhedraAreWrittenAsBuiltAndPlanesAsASquareFacingTheirNormal) {
  const ShapesRun run = simulate("octagon_sliding.json");
  ASSERT_EQ(run.manifest.at("bodies").size(), run.scene.bodies.size());
  for (std::size_t k = 0; k < run.scene.bodies.size(); ++k) {
    const contactref::scenes::SceneBody& body = run.scene.bodies[k];
    EXPECT_EQ(run.entry(k).at("name"), body.name);
    const PolygonSoup soup = run.shape(k);
    if (body.kind == contactref::scenes::GeometryKind::kPolyhedron) {
      const Solid s = solid_of(soup);
      for (const std::vector<int>& face : soup.faces) EXPECT_EQ(face.size(), 3u) << body.name;
      EXPECT_EQ(soup.faces.size(), 2 * soup.vertices.size() - 4) << body.name;  // a closed genus-0 triangulation
      EXPECT_NEAR(s.volume, body.volume, 1e-12 * body.volume) << body.name;
      EXPECT_LT(s.centroid.norm(), 1e-12) << body.name;
      continue;
    }
    ASSERT_EQ(soup.vertices.size(), 4u) << body.name;
    ASSERT_EQ(soup.faces.size(), 2u);
    const Vec3 normal = (soup.vertices[1] - soup.vertices[0]).cross(soup.vertices[2] - soup.vertices[0]).normalized();
    const auto& jet = body.patch(0).evaluate(0, 0);
    EXPECT_NEAR(normal.dot(jet.c_s().cross(jet.c_t()).normalized()), 1, 1e-15);
    EXPECT_NEAR((soup.vertices[2] - soup.vertices[0]).norm(), 2 * std::sqrt(2.0), 1e-15);
  }
}

// A quasi-rigid ball given as a point cloud: its points and unit normals, no
// faces, as the scene read them (moved to the centre of mass).
TEST(BodyShapes, PointCloudsKeepTheirPointsAndNormals) {
  const ShapesRun run = simulate("points_on_box.json");
  ASSERT_EQ(run.entry(1).at("geometry"), "points");
  const PolygonSoup soup = run.shape(1);
  const contactref::PointCloud& cloud = run.scene.bodies[1].geometry.points;
  ASSERT_EQ(soup.vertices.size(), cloud.points.size());
  ASSERT_EQ(soup.normals.size(), cloud.normals.size());
  EXPECT_TRUE(soup.faces.empty());
  for (std::size_t i = 0; i < cloud.points.size(); ++i) {
    EXPECT_EQ(soup.vertices[i], cloud.points[i]) << i;  // 17 digits: the same doubles
    EXPECT_EQ(soup.normals[i], cloud.normals[i]) << i;
  }
}

// An infinite cylinder: 2 m of it, every vertex on it (the axis and radius
// read off the patch's own jet), every facet facing away from the axis. A
// paraboloid (unbounded, not a plane or a cylinder) has no file: the manifest
// says why, and the run goes on.
TEST(BodyShapes, CylindersAreDrawnOnTheirAxisAndParaboloidsSayWhyNot) {
  const ShapesRun run = simulate("torus_on_cylinder.json");
  ASSERT_EQ(run.entry(1).at("geometry"), "cylinder");
  const PolygonSoup soup = run.shape(1);
  const auto jet = run.scene.bodies[1].patch(0).evaluate(0, 0);
  const Vec3 axis = jet.c_t().normalized(), outward = jet.c_s().cross(jet.c_t()).normalized();
  const double radius = 0.1;  // the scene's
  const Vec3 on_axis = jet.c() - radius * outward;
  const auto across = [&](const Vec3& x) { return Vec3((x - on_axis) - (x - on_axis).dot(axis) * axis); };
  double longest = 0;
  for (const Vec3& x : soup.vertices) {
    EXPECT_NEAR(across(x).norm(), radius, 1e-15);
    longest = std::max(longest, std::abs((x - on_axis).dot(axis)));
  }
  EXPECT_NEAR(longest, 1.0, 1e-12);
  for (const std::vector<int>& f : soup.faces) {
    const Vec3 &a = soup.vertices[std::size_t(f[0])], &b = soup.vertices[std::size_t(f[1])], &c = soup.vertices[std::size_t(f[2])];
    EXPECT_GT((b - a).cross(c - a).dot(across((a + b + c) / 3)), 0);
  }

  const ShapesRun paraboloid = simulate("ellipsoid_in_paraboloid.json");
  const nlohmann::json& bowl = paraboloid.entry(1);
  EXPECT_TRUE(bowl.at("file").is_null());
  EXPECT_NE(bowl.at("why").get<std::string>().find("unbounded"), std::string::npos) << bowl;
  EXPECT_TRUE(fs::exists(paraboloid.dir / "bodies.csv"));
}

// The smooth model's contacts.csv, held to the other body: at every row in
// contact the point written for body 2 is also body 1's point at (s, t)
// (trajectory.csv) carried to the world by bodies.csv's pose, and the two
// normals are opposite; the tangent is a unit vector normal to n; the force
// is trajectory.csv's; flight rows have no contact. The bowl thrown on the
// table has both.
std::vector<std::vector<std::string>> csv_rows(const fs::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(contactref::test::file_bytes(file));
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    std::string cell;
    while (std::getline(fields, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

TEST(BodyShapes, SmoothContactsLieOnBothBodies) {
  const ShapesRun run = simulate("bowl_thrown_on_table.json");
  const auto contacts = csv_rows(run.dir / "contacts.csv");
  const auto trajectory = csv_rows(run.dir / "trajectory.csv");
  const auto bodies = csv_rows(run.dir / "bodies.csv");
  ASSERT_EQ(contacts.size(), trajectory.size());
  ASSERT_EQ(bodies.size(), trajectory.size());
  const contactref::scenes::SceneBody& bowl = run.scene.free_body();
  int in_contact = 0, in_flight = 0;
  for (std::size_t r = 0; r < contacts.size(); ++r) {
    const auto& c = contacts[r];
    const auto& t = trajectory[r];
    ASSERT_EQ(c.size(), 11u);
    EXPECT_EQ(c[0], t[0]);
    EXPECT_EQ(c[10], t[24]);  // normal_force
    if (t[25] == "flight") {
      ++in_flight;
      for (int k = 1; k <= 9; ++k) EXPECT_TRUE(c[std::size_t(k)].empty());
      continue;
    }
    ++in_contact;
    const auto number = [](const std::string& x) { return std::stod(x); };
    const Vec3 p(number(c[1]), number(c[2]), number(c[3])), n(number(c[4]), number(c[5]), number(c[6])),
        tangent(number(c[7]), number(c[8]), number(c[9]));
    const auto& b = bodies[r];  // time, body, x, y, z, qw, qx, qy, qz, ...
    const Eigen::Quaterniond q_w_b(number(b[5]), number(b[6]), number(b[7]), number(b[8]));
    const Vec3 com(number(b[2]), number(b[3]), number(b[4]));
    const auto jet = bowl.patch(std::stoi(t[29])).evaluate(number(t[1]), number(t[2]));
    const Vec3 p1 = q_w_b * jet.c() + com, n1 = q_w_b * jet.c_s().cross(jet.c_t()).normalized();
    EXPECT_LT((p1 - p).norm(), 1e-12) << "t = " << t[0];
    EXPECT_NEAR(n.dot(n1), -1, 1e-12);
    EXPECT_NEAR(n.norm(), 1, 1e-15);
    EXPECT_NEAR(tangent.norm(), 1, 1e-15);
    EXPECT_NEAR(tangent.dot(n), 0, 1e-15);
  }
  EXPECT_GT(in_contact, 100);
  EXPECT_GT(in_flight, 5);
}

// The 6D model's contacts.csv: the octagon slides to rest on the floor, one
// 6D joint a step. Its impulses, carried to the world by their frames and
// summed over the run, are what the octagon lost (momentum balance: m dv =
// m g T - the impulses it gives the floor), to round-off; every frame is
// orthonormal and right-handed, and every ellipse has positive semi-axes.
TEST(BodyShapes, VolumeContactImpulsesBalanceTheBodysMomentum) {
  const ShapesRun run = simulate("octagon_sliding.json");
  const auto contacts = csv_rows(run.dir / "contacts.csv");
  const auto bodies = csv_rows(run.dir / "bodies.csv");
  ASSERT_GT(contacts.size(), 100u);
  const auto number = [](const std::string& x) { return std::stod(x); };
  Vec3 given = Vec3::Zero();  // to the floor, world
  for (const auto& c : contacts) {
    ASSERT_EQ(c.size(), 25u);
    EXPECT_EQ(c[1], "volume-6d");
    EXPECT_EQ(c[2], "octagon");
    EXPECT_EQ(c[3], "floor");
    Eigen::Matrix3d R;
    for (int k = 0; k < 3; ++k)
      for (int axis = 0; axis < 3; ++axis) R(k, axis) = number(c[std::size_t(7 + 3 * axis + k)]);
    EXPECT_LT((R.transpose() * R - Eigen::Matrix3d::Identity()).norm(), 1e-14);
    EXPECT_NEAR(R.determinant(), 1, 1e-14);
    EXPECT_GT(number(c[16]), 0);
    EXPECT_GT(number(c[17]), 0);
    given += R * Vec3(number(c[21]), number(c[22]), number(c[23]));
  }
  std::vector<std::vector<std::string>> octagon;
  for (const auto& b : bodies)
    if (b[1] == "octagon") octagon.push_back(b);
  ASSERT_GE(octagon.size(), 2u);
  const auto velocity = [&](const std::vector<std::string>& b) { return Vec3(number(b[9]), number(b[10]), number(b[11])); };
  const double m = run.scene.bodies[1].mass, T = number(octagon.back()[0]) - number(octagon.front()[0]);
  ASSERT_EQ(run.scene.bodies[1].name, "octagon");
  const Vec3 expected = m * run.scene.gravity * T - m * (velocity(octagon.back()) - velocity(octagon.front()));
  EXPECT_LT((given - expected).norm(), 1e-12 * expected.norm()) << given.transpose() << " against " << expected.transpose();
}

// The quasi-rigid model's contacts.csv: a row per loaded sample at each
// step's end, the contacts the step's closing kick and the next step's
// opening kick push with. So a step's load in steps.csv (the mean of its
// two kicks', undamped here) is the mean of the sums of share p a over the
// rows at its start and at its end; each normal is a unit vector and each of
// the rigid floor's samples lies on its plane.
TEST(BodyShapes, QuasiRigidSamplesCarryTheLoadOfTheirSteps) {
  const ShapesRun run = simulate("quasi_rigid_spinning_ball.json");
  const auto contacts = csv_rows(run.dir / "contacts.csv");
  const auto steps = csv_rows(run.dir / "steps.csv");
  ASSERT_GT(contacts.size(), 100u);
  const auto number = [](const std::string& x) { return std::stod(x); };
  std::map<std::string, double> pushed;  // time: sum of share p a
  for (const auto& c : contacts) {
    ASSERT_EQ(c.size(), 13u);
    EXPECT_EQ(c[1], "sample");
    ASSERT_TRUE(c[2] == "floor" || c[2] == "ball") << c[2];
    EXPECT_NEAR(Vec3(number(c[7]), number(c[8]), number(c[9])).norm(), 1, 1e-14);
    if (c[2] == "floor") {
      EXPECT_EQ(number(c[6]), 0);
    }
    EXPECT_GT(number(c[10]), 0);  // pressure
    EXPECT_TRUE(number(c[12]) >= 0 && number(c[12]) <= 1);
    pushed[c[0]] += number(c[12]) * number(c[10]) * number(c[11]);
  }
  int checked = 0;
  for (std::size_t n = 1; n < steps.size(); ++n) {
    const auto start = pushed.find(steps[n - 1][0]), end = pushed.find(steps[n][0]);
    if (start == pushed.end() || end == pushed.end()) continue;
    const double load = number(steps[n][4]);
    EXPECT_NEAR(load, 0.5 * (start->second + end->second), 1e-12 * load) << "step ending at " << steps[n][0];
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

// The surfaces' vertices carry their patch (PLY vertex property `patch`,
// read here from the text): every triangle's three vertices share one, every
// patch of the bowl (the App. B.2 mesh's 14 faces) has triangles, and a
// polyhedron has no patch property.
TEST(BodyShapes, SurfaceVerticesNameTheirPatchAndTrianglesKeepToOne) {
  const ShapesRun run = simulate("bowl_thrown_on_table.json");
  const std::size_t bowl = run.manifest.at("bodies").at(0).at("name") == "bowl" ? 0 : 1;
  ASSERT_EQ(run.entry(bowl).at("name"), "bowl");
  const int patches = run.entry(bowl).at("patches").get<int>();
  EXPECT_EQ(patches, 14);
  std::istringstream in(contactref::test::file_bytes(run.dir / run.entry(bowl).at("file").get<std::string>()));
  std::string line;
  std::size_t vertices = 0, faces = 0;
  bool patch_property = false;
  while (std::getline(in, line) && line != "end_header") {
    std::istringstream words(line);
    std::string a, b, c;
    words >> a >> b >> c;
    if (a == "element" && b == "vertex") vertices = std::stoul(c);
    if (a == "element" && b == "face") faces = std::stoul(c);
    if (a == "property" && c == "patch") patch_property = true;
  }
  ASSERT_TRUE(patch_property);
  std::vector<int> patch_of(vertices);
  for (std::size_t i = 0; i < vertices; ++i) {
    ASSERT_TRUE(std::getline(in, line));
    std::istringstream words(line);
    double x, y, z;
    words >> x >> y >> z >> patch_of[i];
    ASSERT_TRUE(patch_of[i] >= 0 && patch_of[i] < patches) << line;
  }
  std::vector<int> triangles_of(std::size_t(patches), 0);
  for (std::size_t f = 0; f < faces; ++f) {
    ASSERT_TRUE(std::getline(in, line));
    std::istringstream words(line);
    int n, a, b, c;
    words >> n >> a >> b >> c;
    const int p = patch_of[std::size_t(a)];
    EXPECT_TRUE(p == patch_of[std::size_t(b)] && p == patch_of[std::size_t(c)]) << "face " << f << ": " << line;
    ++triangles_of[std::size_t(p)];
  }
  for (int p = 0; p < patches; ++p) EXPECT_GT(triangles_of[std::size_t(p)], 0) << "patch " << p;
  const ShapesRun octagon = simulate("octagon_sliding.json");
  EXPECT_EQ(contactref::test::file_bytes(octagon.dir / "shapes/body1.ply").find("property int patch"), std::string::npos);
}

}  // namespace
