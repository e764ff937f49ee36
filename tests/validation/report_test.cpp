// The report (paper_figures/report.py, issue 32 item 2) on a real run: two
// quick suites' validation.json, timings.json and provenance.json. The page
// names the run (provenance), its summary rows equal validation.json's
// counts, every suite has its anchor, and a failed suite is the first thing
// it shows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <sys/wait.h>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/kit/scratch_dir.hpp"
#include "tests/kit/source_dir.hpp"
#include "tests/validation/cli_run.hpp"

namespace {

namespace fs = std::filesystem;

// report.py on `dir`, by the interpreter the figures use (CONTACTREF_PYTHON).
int run_report(const fs::path& dir) {
  const std::string command = std::string("'") + CONTACTREF_PYTHON + "' '" +
                              (contactref::test::source_dir() / "paper_figures/report.py").string() + "' '" +
                              dir.string() + "' 2>&1";
  return std::system(command.c_str());
}

TEST(Report, NamesTheRunAndSummarisesEverySuiteAsValidationJsonDoes) {
  if (std::string(CONTACTREF_PYTHON).empty()) GTEST_SKIP() << "no python3 with matplotlib, numpy and jinja2 (configure)";
  const fs::path dir = contactref::test::scratch_dir() / "report";
  fs::remove_all(dir);
  const auto r = contactref::test::run_all("validate brep-contact torque-free-body --quick --out '" + dir.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.all;
  ASSERT_EQ(run_report(dir), 0);
  const std::string html = contactref::test::file_bytes(dir / "report.html");
  const nlohmann::json provenance = nlohmann::json::parse(contactref::test::file_bytes(dir / "provenance.json"));
  for (const char* field : {"git_revision", "compiler", "build_type"})
    EXPECT_NE(html.find(provenance["contactref"][field].get<std::string>()), std::string::npos) << field;
  EXPECT_NE(html.find(provenance["command"].get<std::string>()), std::string::npos);
  EXPECT_EQ(html.find("id=\"failed\""), std::string::npos) << "no suite failed";
  const nlohmann::json validation = nlohmann::json::parse(contactref::test::file_bytes(dir / "validation.json"));
  for (const auto& suite : validation["suites"]) {
    int checks = 0, passed = 0;
    for (const auto& [name, m] : suite["metrics"].items()) {
      if (m["passed"].is_null()) continue;
      ++checks;
      passed += m["passed"].get<bool>();
    }
    const std::string name = suite["name"];
    EXPECT_NE(html.find("<td class=\"checks\">" + std::to_string(passed) + " of " + std::to_string(checks) + "</td>"),
              std::string::npos)
        << name;
    EXPECT_NE(html.find("<h3 id=\"suite-" + name + "\">"), std::string::npos) << name;
    EXPECT_NE(html.find("href=\"#suite-" + name + "\""), std::string::npos) << name;
  }

  // A failed check: the suite is named before anything else on the page.
  nlohmann::json failed = validation;
  auto& metrics = failed["suites"][1]["metrics"];
  for (auto& [name, m] : metrics.items())
    if (m["passed"].is_boolean()) {
      m["passed"] = false;
      break;
    }
  failed["suites"][1]["passed"] = false;
  std::ofstream(dir / "validation.json") << failed.dump(2);
  ASSERT_EQ(run_report(dir), 0);
  const std::string html_failed = contactref::test::file_bytes(dir / "report.html");
  const std::size_t banner = html_failed.find("id=\"failed\"");
  ASSERT_NE(banner, std::string::npos);
  EXPECT_LT(banner, html_failed.find("id=\"provenance\""));
  EXPECT_NE(html_failed.find("href=\"#suite-" + failed["suites"][1]["name"].get<std::string>() + "\"", banner),
            std::string::npos);
  fs::remove_all(dir);
}

// Bad input: no validation.json is refused (exit 2) naming the file; a run
// without provenance.json is reported as unidentified, not shown as if known;
// a suite the catalogue does not list is shown, and the command exits 1.
TEST(Report, AMissingValidationJsonIsRefusedAndAMissingProvenanceIsSaid) {
  if (std::string(CONTACTREF_PYTHON).empty()) GTEST_SKIP() << "no python3 with matplotlib, numpy and jinja2 (configure)";
  const fs::path dir = contactref::test::scratch_dir() / "report-bad";
  fs::remove_all(dir);
  fs::create_directories(dir);
  EXPECT_EQ(WEXITSTATUS(run_report(dir)), 2);
  std::ofstream(dir / "validation.json") << R"({"suites": [{"name": "s", "passed": true, "metrics": {"m": )"
                                         << R"({"value": 1, "reference": 1, "criterion": "c", "passed": true}}, )"
                                         << R"("figures": []}]})";
  EXPECT_EQ(WEXITSTATUS(run_report(dir)), 1) << "suite s is not in the catalogue";
  const std::string html = contactref::test::file_bytes(dir / "report.html");
  EXPECT_NE(html.find("provenance.json is missing"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"checks\">1 of 1</td>"), std::string::npos);
  // A suite the catalogue does not list is shown as such, not dropped.
  EXPECT_NE(html.find("id=\"paper-not-in-catalogue\""), std::string::npos);
  EXPECT_NE(html.find("<h3 id=\"suite-s\">"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
