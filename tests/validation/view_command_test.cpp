// `contactref view` (validation/app/view_command.cpp, run_folder.hpp; issue
// 33 items 2 and 5): the folder is checked as the viewer reads it, each
// missing or damaged file named with exit 2, and the page and the run are
// served over HTTP (read back here with cpp-httplib's client, byte for
// byte). The page itself: tests/browser/viewer_in_browser_test.sh.
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cstdint>
#include <limits>
#include <sstream>
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

// The quasi-rigid model's samples.bin ("output": {"samples": "binary"};
// validation/app/samples_file.hpp) holds contacts.csv's points and tractions
// as float32: the spinning ball on the incline run both ways, the binary file
// read here byte by byte (little-endian, as the header documents) against
// the CSV's rows to float32's rounding, the bodies identical; then its damage
// is named with exit 2.
std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
std::uint64_t little_endian(const std::string& bytes, std::size_t at, int size) {
  std::uint64_t value = 0;
  for (int b = size - 1; b >= 0; --b) value = (value << 8) | static_cast<unsigned char>(bytes[at + std::size_t(b)]);
  return value;
}

TEST(ViewCommand, BinarySamplesHoldTheCsvsPointsAndTractionsAndDamageIsNamed) {
  const fs::path scene = contactref::test::source_dir() / "validation/fixtures/scenes/quasi_rigid_spinning_ball.json";
  std::string text = read_bytes(scene);
  const std::string interval = "\"output\": {\"interval\": 0.005}";
  ASSERT_NE(text.find(interval), std::string::npos);
  const fs::path binary_scene = contactref::test::scratch_dir() / "view_ball_binary.json";
  write(binary_scene, text.replace(text.find(interval), interval.size(),
                                   "\"output\": {\"interval\": 0.005, \"samples\": \"binary\"}"));
  const fs::path csv_dir = contactref::test::scratch_dir() / "view_ball_csv";
  const fs::path bin_dir = contactref::test::scratch_dir() / "view_ball_bin";
  ASSERT_EQ(run_all("simulate '" + scene.string() + "' --out '" + csv_dir.string() + "'").exit_code, 0);
  const contactref::test::CliRun r = run_all("simulate '" + binary_scene.string() + "' --out '" + bin_dir.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.all;
  EXPECT_FALSE(fs::exists(bin_dir / "contacts.csv"));
  EXPECT_EQ(read_bytes(bin_dir / "bodies.csv"), read_bytes(csv_dir / "bodies.csv"));

  const std::string bytes = read_bytes(bin_dir / "samples.bin");
  ASSERT_EQ(bytes.substr(0, 8), "CRSMPL01");
  std::ifstream csv(csv_dir / "contacts.csv");
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line, "time,kind,body,sample,x,y,z,nx,ny,nz,pressure,area,share");
  std::size_t at = 8, samples = 0, steps = 0, loaded_steps = 0;
  while (at < bytes.size()) {
    const double time = std::bit_cast<double>(little_endian(bytes, at, 8));
    const auto count = std::size_t(little_endian(bytes, at + 8, 4));
    at += 12, ++steps, loaded_steps += count > 0;
    for (std::size_t k = 0; k < count; ++k, ++samples) {
      ASSERT_TRUE(std::getline(csv, line)) << "the CSV has fewer rows than the binary file's " << samples + 1;
      std::vector<double> cells;
      std::stringstream row(line);
      for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell == "sample" || cells.size() == 2 ? 0 : std::stod(cell));
      EXPECT_EQ(time, cells[0]) << line;
      const int columns[4] = {4, 5, 6, 10};  // x, y, z, pressure
      for (int c = 0; c < 4; ++c, at += 4)
        EXPECT_EQ(std::bit_cast<float>(std::uint32_t(little_endian(bytes, at, 4))), float(cells[std::size_t(columns[c])])) << line;
    }
  }
  EXPECT_FALSE(std::getline(csv, line)) << "the CSV has more rows than the binary file: " << line;
  EXPECT_GT(loaded_steps, 10u);
  EXPECT_EQ(steps, lines_of(bin_dir / "steps.csv") - 1);  // one record per step, loaded or not
  const contactref::test::CliRun check = run_all("view '" + bin_dir.string() + "' --check");
  EXPECT_NE(check.output.find(std::to_string(samples) + " samples in " + std::to_string(steps) + " steps (samples.bin)"),
            std::string::npos) << check.all;

  // Damage: the magic, a truncated record, a NaN, a time going back.
  std::string nan_bytes = bytes, back = bytes;
  std::size_t first = 8;  // the first record with a sample
  while (little_endian(bytes, first + 8, 4) == 0) first += 12;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto nan_bits = std::bit_cast<std::uint32_t>(nan);
  for (int b = 0; b < 4; ++b) nan_bytes[first + 12 + std::size_t(b)] = char((nan_bits >> (8 * b)) & 0xff);
  const auto late = std::bit_cast<std::uint64_t>(1e9);
  for (int b = 0; b < 8; ++b) back[8 + std::size_t(b)] = char((late >> (8 * b)) & 0xff);  // the first record's time
  const std::pair<std::string, std::string> cases[] = {
      {"XRSMPL01" + bytes.substr(8), "not a samples file (it does not start with CRSMPL01)"},
      {bytes.substr(0, first + 12 + 5), "are left (a truncated file)"},
      {bytes.substr(0, 8 + 7), "step record 0 at byte 8: truncated"},
      {nan_bytes, "sample 0's coordinate is not finite"},
      {back, "goes back (after 1000000000)"},
  };
  for (const auto& [damaged, message] : cases) {
    write(bin_dir / "samples.bin", damaged);
    const contactref::test::CliRun bad = run_all("view '" + bin_dir.string() + "' --check");
    EXPECT_EQ(bad.exit_code, 2) << message << ": " << bad.all;
    EXPECT_NE(bad.all.find(message), std::string::npos) << message << ": " << bad.all;
  }

  // A model without samples refuses the field.
  const fs::path octagon = contactref::test::source_dir() / "validation/fixtures/scenes/octagon_sliding.json";
  std::string octagon_text = read_bytes(octagon);
  const std::size_t output = octagon_text.find("\"output\": {");
  ASSERT_NE(output, std::string::npos);
  const fs::path octagon_binary = contactref::test::scratch_dir() / "view_octagon_binary.json";
  write(octagon_binary, octagon_text.insert(output + 11, "\"samples\": \"binary\", "));
  const contactref::test::CliRun refused = run_all("simulate '" + octagon_binary.string() + "' --out '" +
                                                   (contactref::test::scratch_dir() / "view_octagon_bin").string() + "'");
  EXPECT_EQ(refused.exit_code, 2) << refused.all;
  EXPECT_NE(refused.all.find("output.samples: the volume-6d model writes no samples"), std::string::npos) << refused.all;
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
