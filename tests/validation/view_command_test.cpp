// `contactref view` (validation/app/view_command.cpp, run_folder.hpp; issue
// 33 items 2 and 5): the folder is checked as the viewer reads it, each
// missing or damaged file named with exit 2, and the page and the run are
// served over HTTP (read back here with cpp-httplib's client, byte for
// byte). The page itself: tests/browser/viewer_in_browser_test.sh.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <httplib.h>
#include <regex>
#include <string>
#include <thread>

#include "tests/kit/scratch_dir.hpp"
#include "tests/kit/source_dir.hpp"
#include "tests/validation/cli_run.hpp"

namespace {

namespace fs = std::filesystem;
using contactref::test::run_all;

// The octagon sliding to rest (6D model), simulated once per process.
const fs::path& octagon_run() {
  static const fs::path dir = [] {
    const fs::path out = contactref::test::scratch_dir() / "view_octagon";
    const fs::path scene = contactref::test::source_dir() / "validation/fixtures/scenes/octagon_sliding.json";
    const contactref::test::CliRun r = run_all("simulate '" + scene.string() + "' --out '" + out.string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.all;
    return out;
  }();
  return dir;
}

// A copy of the octagon's run to damage.
fs::path damaged_copy(const std::string& name) {
  const fs::path dir = contactref::test::scratch_dir() / ("view_" + name);
  fs::remove_all(dir);
  fs::copy(octagon_run(), dir, fs::copy_options::recursive);
  return dir;
}
void write(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::binary | std::ios::trunc) << text; }
std::size_t lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

TEST(ViewCommand, CheckCountsTheRowsAndShapesOfARun) {
  const fs::path dir = octagon_run();
  const contactref::test::CliRun r = run_all("view '" + dir.string() + "' --check");
  ASSERT_EQ(r.exit_code, 0) << r.all;
  // Counted here by lines, less the header; two shapes (the floor and the octagon).
  EXPECT_NE(r.output.find(std::to_string(lines_of(dir / "bodies.csv") - 1) + " body rows, " +
                          std::to_string(lines_of(dir / "contacts.csv") - 1) + " contact rows, 2 shapes"),
            std::string::npos)
      << r.output;
}

// Each case: how the copy is damaged, and what the message must name.
struct Damage {
  const char* name;
  void (*apply)(const fs::path&);
  const char* message;
};

TEST(ViewCommand, NamesWhatIsMissingOrDamagedWithExit2) {
  // Static: the cases' plain function pointers read them.
  static const std::string body_row = "0,octagon,0,0,0.025,1,0,0,0,2,0,0,0,0,0,2,0.2\n";
  static const std::string header = "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,kinetic_energy,potential_energy\n";
  static std::string truncated, nan_row, stranger, unquoted, contact_header;
  truncated = header + body_row + "0.01,octagon,0.0198,0,0.02";
  nan_row = header + body_row + "0.01,octagon,nan,0,0.025,1,0,0,0,2,0,0,0,0,0,2,0.2\n";
  stranger = header + "0,\"octa,gon\",0,0,0.025,1,0,0,0,2,0,0,0,0,0,2,0.2\n";
  unquoted = header + "0,\"octagon,0,0,0.025,1,0,0,0,2,0,0,0,0,0,2,0.2\n";
  contact_header = "time,kind,a,b\n,volume-6d,octagon,floor\n";
  const Damage cases[] = {
      {"no_summary", [](const fs::path& d) { fs::remove(d / "summary.json"); }, "summary.json: cannot open the run's summary.json (no such file)"},
      {"bad_summary", [](const fs::path& d) { write(d / "summary.json", "{\"files\": "); }, "summary.json: not valid JSON"},
      {"no_files", [](const fs::path& d) { write(d / "summary.json", "{}"); }, "no \"files\" object"},
      {"no_shapes_entry", [](const fs::path& d) { write(d / "summary.json", "{\"files\": {\"bodies\": \"bodies.csv\"}}"); },
       "files.shapes is missing"},
      {"no_manifest", [](const fs::path& d) { fs::remove(d / "shapes.json"); }, "shapes.json: cannot open"},
      {"no_mesh", [](const fs::path& d) { fs::remove(d / "shapes/body1.ply"); }, "shapes/body1.ply: cannot open the shape of octagon (no such file)"},
      {"bad_mesh", [](const fs::path& d) { write(d / "shapes/body1.ply", "ply\nformat ascii 1.0\nelement vertex 3\n"); }, "body1.ply"},
      {"no_bodies", [](const fs::path& d) { fs::remove(d / "bodies.csv"); }, "bodies.csv: cannot open the run's bodies.csv"},
      {"empty_bodies", [](const fs::path& d) { write(d / "bodies.csv", ""); }, "bodies.csv: no header"},
      {"header_only", [](const fs::path& d) { write(d / "bodies.csv", header); }, "bodies.csv: no rows"},
      {"truncated", [](const fs::path& d) { write(d / "bodies.csv", truncated); }, "bodies.csv:3: 5 cells where the header has 17"},
      {"nan", [](const fs::path& d) { write(d / "bodies.csv", nan_row); }, "bodies.csv:3: column x: \"nan\" is not a finite number"},
      {"stranger", [](const fs::path& d) { write(d / "bodies.csv", stranger); }, "bodies.csv:2: body \"octa,gon\" is not in shapes.json"},
      {"open_quote", [](const fs::path& d) { write(d / "bodies.csv", unquoted); }, "bodies.csv:2: a quoted cell is not closed"},
      {"no_column", [](const fs::path& d) { write(d / "bodies.csv", "time,body,x\n0,octagon,1\n"); }, "bodies.csv: the header has no column y"},
      {"contact_time", [](const fs::path& d) { write(d / "contacts.csv", contact_header); }, "contacts.csv:2: column time: empty"},
  };
  for (const Damage& damage : cases) {
    const fs::path dir = damaged_copy(damage.name);
    damage.apply(dir);
    const contactref::test::CliRun r = run_all("view '" + dir.string() + "' --check");
    EXPECT_EQ(r.exit_code, 2) << damage.name << ": " << r.all;
    EXPECT_NE(r.all.find(damage.message), std::string::npos) << damage.name << ": " << r.all;
  }
  const contactref::test::CliRun none = run_all("view '" + (contactref::test::scratch_dir() / "no_such_run").string() + "'");
  EXPECT_EQ(none.exit_code, 2) << none.all;
  EXPECT_NE(none.all.find("not a folder"), std::string::npos) << none.all;
}

TEST(ViewCommand, RefusesAbsurdOptionsWithExit2) {
  const std::string dir = "'" + octagon_run().string() + "'";
  for (const std::string options : {"--port 70000", "--port -1", "--for -1", "--for nan", "--for inf"}) {
    const contactref::test::CliRun r = run_all("view " + dir + " " + options);
    EXPECT_EQ(r.exit_code, 2) << options << ": " << r.all;
  }
}

// The server, started for a few seconds: the page at /, the run at /run/,
// the same bytes as the files; a file outside both is not found.
TEST(ViewCommand, ServesThePageAndTheRunByteForByte) {
#ifndef CONTACTREF_VIEWER_BUILT
  GTEST_SKIP() << "the viewer page was not built (viewer/CMakeLists.txt: Node.js and viewer/node_modules)";
#endif
  const fs::path dir = octagon_run();
  const fs::path log = contactref::test::scratch_dir() / "view_serve.log";
  std::thread server([&] { run_all("view '" + dir.string() + "' --for 6 > '" + log.string() + "' 2>&1"); });
  std::smatch address;
  std::string text;
  for (int k = 0; k < 100 && !std::regex_search(text, address, std::regex("http://127\\.0\\.0\\.1:([0-9]+)/")); ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    text = contactref::test::file_bytes(log);
  }
  ASSERT_FALSE(address.empty()) << text;
  httplib::Client client("127.0.0.1", std::stoi(address[1].str()));
  for (const std::string file : {"bodies.csv", "contacts.csv", "summary.json", "shapes/body1.ply"}) {
    const httplib::Result result = client.Get("/run/" + file);
    ASSERT_TRUE(result) << file;
    EXPECT_EQ(result->status, 200) << file;
    EXPECT_EQ(result->body, contactref::test::file_bytes(dir / file)) << file;
  }
  const httplib::Result page = client.Get("/index.html");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("viewer.js"), std::string::npos);
  const httplib::Result script = client.Get("/viewer.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->status, 200);
  EXPECT_GT(script->body.size(), 100000u);  // three.js bundled in
  const httplib::Result outside = client.Get("/run/../../etc/passwd");
  ASSERT_TRUE(outside);
  EXPECT_EQ(outside->status, 404);
  server.join();
}

}  // namespace
