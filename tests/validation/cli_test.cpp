// The `contactref` binary: exit codes 0 / 1 / 2 (DESIGN.md), messages for bad
// usage, and the JSON layouts of validate and audit.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
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
    EXPECT_TRUE(contains(r.all, "subcommands: validate, figures, audit")) << r.all;
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
    EXPECT_GE(entry.at("digits").get<double>(), 13.0) << entry.at("name");
    EXPECT_TRUE(entry.contains("max_rel_diff"));
  }
}

}  // namespace
