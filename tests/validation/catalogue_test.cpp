// paper_figures/catalogue.json, the report's map of the papers (issue 32
// item 2), against the registries it describes: every suite, figure and
// benchmark program once, in the registries' order, each under a paper that
// exists, each figure with its paper's caption (when it redraws one) and what
// differs; every animation under a suite that exists, its scene a file, its
// name unique (it names a folder), its frames and rate what animate_run.py
// accepts. A suite or figure added without its catalogue entry fails here.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/kit/source_dir.hpp"
#include "validation/registry.hpp"

namespace contactref::validation {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json catalogue() {
  return nlohmann::json::parse(read_text(test::source_dir() / "paper_figures/catalogue.json"));
}

std::set<std::string> paper_ids(const nlohmann::json& document) {
  std::set<std::string> ids;
  for (const auto& paper : document["papers"]) ids.insert(paper["id"].get<std::string>());
  return ids;
}

TEST(Catalogue, ListsEverySuiteInTheRegistrysOrderUnderAPaperWithAHeadline) {
  const nlohmann::json document = catalogue();
  const std::set<std::string> papers = paper_ids(document);
  ASSERT_EQ(document["suites"].size(), suites().size());
  for (std::size_t i = 0; i < suites().size(); ++i) {
    const auto& entry = document["suites"][i];
    EXPECT_EQ(entry["name"], suites()[i].name) << i;
    EXPECT_TRUE(papers.count(entry["paper"].get<std::string>())) << entry["name"];
    EXPECT_TRUE(entry["headline"].is_string()) << entry["name"];
  }
}

TEST(Catalogue, ListsEveryFigureWithItsSuiteThePapersCaptionAndWhatDiffers) {
  const nlohmann::json document = catalogue();
  ASSERT_EQ(document["figures"].size(), figures().size());
  for (std::size_t i = 0; i < figures().size(); ++i) {
    const auto& entry = document["figures"][i];
    EXPECT_EQ(entry["name"], figures()[i].name) << i;
    EXPECT_EQ(entry["suite"], figures()[i].suite) << entry["name"];
    // A figure that redraws one of a paper's quotes its caption; one that
    // does not says so in what differs.
    EXPECT_EQ(entry["paper_figure"].is_null(), entry["paper_caption"].is_null()) << entry["name"];
    ASSERT_TRUE(entry["differences"].is_string()) << entry["name"];
    EXPECT_FALSE(entry["differences"].get<std::string>().empty()) << entry["name"];
  }
}

TEST(Catalogue, ListsEveryBenchmarkProgramOnceUnderAPaper) {
  const nlohmann::json document = catalogue();
  const std::set<std::string> papers = paper_ids(document);
  const std::string cmake = read_text(test::source_dir() / "benchmarks/CMakeLists.txt");
  const std::regex declared(R"(\ncontactref_benchmark\((\w+))");
  std::set<std::string> programs;
  for (std::sregex_iterator it(cmake.begin(), cmake.end(), declared), end; it != end; ++it) programs.insert((*it)[1]);
  ASSERT_FALSE(programs.empty());
  std::set<std::string> listed;
  for (const auto& entry : document["benchmarks"]) {
    EXPECT_TRUE(listed.insert(entry["program"].get<std::string>()).second) << entry["program"] << " twice";
    EXPECT_TRUE(papers.count(entry["paper"].get<std::string>())) << entry["program"];
  }
  EXPECT_EQ(listed, programs);
}

TEST(Catalogue, ListsEachAnimationUnderASuiteWithItsSceneFramesAndCaption) {
  const nlohmann::json document = catalogue();
  std::set<std::string> suite_names, names;
  for (const auto& suite : suites()) suite_names.insert(suite.name);
  ASSERT_FALSE(document["animations"].empty());
  for (const auto& entry : document["animations"]) {
    const std::string name = entry["name"].get<std::string>();
    EXPECT_TRUE(std::regex_match(name, std::regex("[a-z0-9][a-z0-9-]*"))) << name;
    EXPECT_TRUE(names.insert(name).second) << name << " twice";
    EXPECT_TRUE(suite_names.count(entry["suite"].get<std::string>())) << name;
    EXPECT_TRUE(std::filesystem::is_regular_file(test::source_dir() / entry["scene"].get<std::string>())) << name;
    EXPECT_GE(entry["frames"].get<int>(), 2) << name;     // animate_run.py: --frames in [2, 2000]
    EXPECT_LE(entry["frames"].get<int>(), 2000) << name;
    EXPECT_GT(entry["fps"].get<double>(), 0) << name;     // --fps in (0, 100]
    EXPECT_LE(entry["fps"].get<double>(), 100) << name;
    EXPECT_LE(std::abs(entry["view"]["elevation"].get<double>()), 90) << name;
    EXPECT_FALSE(entry["caption"].get<std::string>().empty()) << name;
  }
}

}  // namespace
}  // namespace contactref::validation
