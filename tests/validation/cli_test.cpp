// The `contactref` binary: exit codes 0 / 1 / 2 (DESIGN.md), messages for bad
// usage, and the JSON layouts of validate and audit.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct CliRun {
  int exit_code = -1;
  std::string output;  // stdout
  std::string all;     // stdout and stderr
};

CliRun run(const std::string& arguments, bool merge_stderr) {
  const std::string command =
      std::string("'") + CONTACTREF_BINARY + "' " + arguments + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  CliRun result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (merge_stderr) result.all = result.output;
  return result;
}

CliRun run_all(const std::string& arguments) { return run(arguments, true); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Cli, VersionNamesTheGitRevisionAndBuildType) {
  const CliRun r = run_all("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.all, "contactref 0.1.0 (git ")) << r.all;
  EXPECT_TRUE(contains(r.all, " build)")) << r.all;
}

TEST(Cli, HelpListsTheSubcommands) {
  const CliRun r = run_all("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* name : {"validate", "figures", "audit"}) EXPECT_TRUE(contains(r.all, name)) << r.all;
}

TEST(Cli, NoOrUnknownSubcommandExits2AndListsThem) {
  for (const char* arguments : {"", "frobnicate"}) {
    const CliRun r = run_all(arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments;
    EXPECT_TRUE(contains(r.all, "subcommands: validate, figures, audit, surface")) << r.all;
  }
}

TEST(Cli, UnknownSuiteExits2AndListsTheSuites) {
  const CliRun r = run_all("validate no-such-suite");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.all, "unknown suite 'no-such-suite'")) << r.all;
  EXPECT_TRUE(contains(r.all, "torque-free-body")) << r.all;
}

TEST(Cli, MissingSuiteExits2) {
  const CliRun r = run_all("validate");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.all, "name the suites to run")) << r.all;
}

TEST(Cli, BadOptionsExit2) {
  EXPECT_EQ(run_all("validate torque-free-body --no-such-flag").exit_code, 2);
  EXPECT_EQ(run_all("audit --min-digits 99").exit_code, 2);
  EXPECT_EQ(run_all("figures --only").exit_code, 2);  // missing argument
  const CliRun r = run_all("figures --only no-such-figure --out /tmp");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.all, "torque-free-convergence")) << r.all;
}

TEST(Cli, ValidateJsonHasTheDocumentedLayout) {
  const CliRun r = run("validate torque-free-body --quick --json", false);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto document = nlohmann::json::parse(r.output);
  const auto& suite = document.at("suites").at(0);
  EXPECT_EQ(suite.at("name"), "torque-free-body");
  EXPECT_EQ(suite.at("passed"), true);
  EXPECT_GT(suite.at("seconds").get<double>(), 0.0);
  const auto& order = suite.at("metrics").at("convergence_order");
  for (const char* key : {"value", "reference", "criterion", "passed"}) EXPECT_TRUE(order.contains(key)) << key;
  EXPECT_EQ(suite.at("figures").at(0), "figures/torque-free-convergence/torque-free-convergence.png");
}

TEST(Cli, ValidateWritesTheDocumentToTheOutputFolder) {
  const auto dir = std::filesystem::temp_directory_path() / "contactref_cli_test_out";
  std::filesystem::remove_all(dir);
  const CliRun r = run("validate torque-free-body --quick --out '" + dir.string() + "'", false);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.output, "convergence_order")) << r.output;  // the table
  EXPECT_TRUE(std::filesystem::exists(dir / "validation.json"));
  std::filesystem::remove_all(dir);
}

TEST(Cli, AuditJsonHasTheDocumentedLayout) {
  const CliRun r = run("audit --json", false);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto document = nlohmann::json::parse(r.output);
  ASSERT_GE(document.at("entries").size(), 10u);
  for (const auto& entry : document.at("entries")) {
    EXPECT_GE(entry.at("digits").get<double>(), entry.at("min_digits").get<double>()) << entry.at("name");
    EXPECT_TRUE(entry.at("passed").get<bool>()) << entry.at("name");
    EXPECT_TRUE(entry.contains("max_rel_diff"));
  }
}

const std::string kMeshes = std::string(CONTACTREF_SOURCE_DIR) + "/validation/data/meshes/";

TEST(CliSurface, EvalPrintsTheTenSetsAsJson) {
  const CliRun r = run("surface eval --mesh '" + kMeshes + "bowl_b2.obj' --face 3 --u 0.2 --v 0.3", false);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto jet = nlohmann::json::parse(r.output);
  for (const char* key : {"point", "du", "dv", "duu", "duv", "dvv", "duuu", "duuv", "duvv", "dvvv"}) {
    ASSERT_TRUE(jet.contains(key)) << key;
    EXPECT_EQ(jet.at(key).size(), 3u) << key;
  }
}

TEST(CliSurface, EvalReadsAPointsFileAndABezierNet) {
  const auto dir = std::filesystem::temp_directory_path();
  {
    std::ofstream points(dir / "contactref_points.txt");
    points << "# face u v\n0 0.1 0.2\n\n5 0.3 0.3\n";
    std::ofstream net(dir / "contactref_net.txt");
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) net << i << " " << j << " " << (i * j) % 3 << "\n";
  }
  CliRun r = run("surface eval --mesh '" + kMeshes + "icosphere1.obj' --points '" + (dir / "contactref_points.txt").string() + "'", false);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 2);
  r = run("surface eval --bezier '" + (dir / "contactref_net.txt").string() + "' --u 0.5 --v 0.25", false);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "\"dvvv\"")) << r.output;
}

TEST(CliSurface, BadInputExits2WithAMessage) {
  const std::string bowl = "surface eval --mesh '" + kMeshes + "bowl_b2.obj' ";
  CliRun r = run_all(bowl + "--face 14 --u 0.1 --v 0.1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.all, "face 14 does not exist (faces 0..13)")) << r.all;
  r = run_all(bowl + "--face 1 --u 0.8 --v 0.3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.all, "outside the domain")) << r.all;
  r = run_all(bowl + "--face 1 --u 0.1");
  EXPECT_EQ(r.exit_code, 2);
  const auto open_mesh = std::filesystem::temp_directory_path() / "contactref_open.obj";
  std::ofstream(open_mesh) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  r = run_all("surface eval --mesh '" + open_mesh.string() + "' --face 0 --u 0.1 --v 0.1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.all, "not closed")) << r.all;
  r = run_all("surface eval --face 0 --u 0.1 --v 0.1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.all, "exactly one of --mesh FILE or --bezier FILE")) << r.all;
}

TEST(CliSurface, PropertiesOfASphereLikeMesh) {
  const CliRun r = run("surface properties --mesh '" + kMeshes + "icosphere1.obj' --density 2 --json", false);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto p = nlohmann::json::parse(r.output);
  const double volume = p.at("volume").get<double>();
  // The Loop limit of the icosphere lies inside the unit sphere (4.19 m^3).
  EXPECT_GT(volume, 3.0);
  EXPECT_LT(volume, 4.0 * M_PI / 3.0);
  EXPECT_DOUBLE_EQ(p.at("mass").get<double>(), 2 * volume);
  EXPECT_EQ(p.at("inertia").size(), 3u);
  const CliRun bad = run_all("surface properties --mesh '" + kMeshes + "icosphere1.obj' --density -1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.all, "density")) << bad.all;
}

TEST(CliSurface, EvaluationAtAnExtraordinaryVertexIsAComputationFailure) {
  const CliRun r = run_all("surface eval --mesh '" + kMeshes + "icosphere1.obj' --face 0 --u 0 --v 0");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.all, "extraordinary vertex")) << r.all;
}

}  // namespace
