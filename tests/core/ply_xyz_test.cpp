// core/ply_reader.cpp and core/xyz_reader.cpp: the PLY and XYZ readers of
// core/mesh_io.hpp, on files built here (binary ones by a writer independent
// of the reader's decoding) and on validation/fixtures.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/mesh_io.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/source_dir.hpp"

namespace contactref {
namespace {

using test::contains;

// The cube [-0.5,0.5]^3, faces counter-clockwise seen from outside.
const std::vector<Eigen::Vector3d> kCubeVertices = {{-0.5, -0.5, -0.5}, {0.5, -0.5, -0.5}, {0.5, 0.5, -0.5},
                                                    {-0.5, 0.5, -0.5},  {-0.5, -0.5, 0.5}, {0.5, -0.5, 0.5},
                                                    {0.5, 0.5, 0.5},    {-0.5, 0.5, 0.5}};
const std::vector<std::vector<int>> kCubeFaces = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                                  {2, 3, 7, 6}, {0, 4, 7, 3}, {1, 2, 6, 5}};

// Header lines 1-10, vertices on lines 11-18, faces on lines 19-24.
const std::string kAsciiCube =
    "ply\n"
    "format ascii 1.0\n"
    "comment the cube [-0.5,0.5]^3\n"
    "element vertex 8\n"
    "property float x\n"
    "property float y\n"
    "property float z\n"
    "element face 6\n"
    "property list uchar int vertex_indices\n"
    "end_header\n"
    "-0.5 -0.5 -0.5\n"
    "0.5 -0.5 -0.5\n"
    "0.5 0.5 -0.5\n"
    "-0.5 0.5 -0.5\n"
    "-0.5 -0.5 0.5\n"
    "0.5 -0.5 0.5\n"
    "0.5 0.5 0.5\n"
    "-0.5 0.5 0.5\n"
    "4 0 3 2 1\n"
    "4 4 5 6 7\n"
    "4 0 1 5 4\n"
    "4 2 3 7 6\n"
    "4 0 4 7 3\n"
    "4 1 2 6 5\n";

// `text` with its first `from` replaced by `to` (which must be there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' is not in the text";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Values packed in either byte order: copied from memory, reversed when the
// order differs from the machine's (the reader assembles bytes arithmetically).
class BinaryWriter {
 public:
  explicit BinaryWriter(bool big_endian) : big_endian_(big_endian) {}

  template <class T>
  BinaryWriter& put(T value) {
    std::array<char, sizeof(T)> raw;
    std::memcpy(raw.data(), &value, sizeof(T));
    if (big_endian_ != (std::endian::native == std::endian::big)) std::reverse(raw.begin(), raw.end());
    bytes_.append(raw.data(), raw.size());
    return *this;
  }

  const std::string& bytes() const { return bytes_; }

 private:
  bool big_endian_;
  std::string bytes_;
};

std::string binary_format_line(bool big_endian) {
  return big_endian ? "format binary_big_endian 1.0\n" : "format binary_little_endian 1.0\n";
}

// The cube with float or double coordinates; lists counted by uchar with
// floats, by int with doubles.
std::string binary_cube(bool big_endian, bool double_coordinates) {
  const std::string coordinate = double_coordinates ? "double" : "float";
  std::string file = "ply\n" + binary_format_line(big_endian) + "element vertex 8\n";
  for (const char* axis : {"x", "y", "z"}) file += "property " + coordinate + " " + axis + "\n";
  file += "element face 6\n";
  file += double_coordinates ? "property list int int vertex_indices\n" : "property list uchar int vertex_indices\n";
  file += "end_header\n";
  BinaryWriter body(big_endian);
  for (const Eigen::Vector3d& v : kCubeVertices) {
    for (int k = 0; k < 3; ++k) {
      if (double_coordinates)
        body.put(v(k));
      else
        body.put(float(v(k)));
    }
  }
  for (const auto& face : kCubeFaces) {
    if (double_coordinates)
      body.put(std::int32_t(face.size()));
    else
      body.put(std::uint8_t(face.size()));
    for (int corner : face) body.put(std::int32_t(corner));
  }
  return file + body.bytes();
}

// The message of the InputError parse_ply / parse_xyz throws, or "no error".
std::string ply_error(const std::string& bytes) {
  return test::message_of<InputError>([&] { (void)parse_ply(bytes, "t.ply"); });
}
std::string xyz_error(const std::string& text) {
  return test::message_of<InputError>([&] { (void)parse_xyz(text, "t.xyz"); });
}

void expect_cube(const PolygonSoup& soup) {
  EXPECT_EQ(soup.vertices, kCubeVertices);
  EXPECT_EQ(soup.faces, kCubeFaces);
  EXPECT_TRUE(soup.normals.empty());
}

TEST(CorePly, AsciiCubeIsReadExactlyWithItsLines) {
  const PolygonSoup soup = parse_ply(kAsciiCube, "cube.ply");
  expect_cube(soup);
  EXPECT_EQ(soup.name, "cube.ply");
  EXPECT_EQ(soup.vertex_lines, (std::vector<int>{11, 12, 13, 14, 15, 16, 17, 18}));
  EXPECT_EQ(soup.face_lines, (std::vector<int>{19, 20, 21, 22, 23, 24}));
  std::string dos = kAsciiCube;
  for (std::size_t at = dos.find('\n'); at != std::string::npos; at = dos.find('\n', at + 2)) dos.insert(at, 1, '\r');
  const PolygonSoup from_dos = parse_ply(dos, "cube.ply");
  expect_cube(from_dos);
  EXPECT_EQ(from_dos.face_lines, soup.face_lines);
}

TEST(CorePly, BinaryInEitherByteOrderGivesTheAsciiMesh) {
  for (bool big_endian : {false, true}) {
    for (bool double_coordinates : {false, true}) {
      SCOPED_TRACE(std::string(big_endian ? "big" : "little") + " endian, " +
                   (double_coordinates ? "double" : "float"));
      const PolygonSoup soup = parse_ply(binary_cube(big_endian, double_coordinates), "cube.ply");
      expect_cube(soup);
      EXPECT_TRUE(soup.vertex_lines.empty());  // a binary body has no lines
      EXPECT_TRUE(soup.face_lines.empty());
    }
  }
  // A DOS line end after "end_header": the body starts after its '\n'.
  const std::string dos = replaced(binary_cube(false, false), "end_header\n", "end_header\r\n");
  expect_cube(parse_ply(dos, "cube.ply"));
}

TEST(CorePly, BinaryFloatsAreWidenedExactly) {
  const float tenth = 0.1f, tiny = std::numeric_limits<float>::denorm_min();
  for (bool big_endian : {false, true}) {
    const std::string header = "ply\n" + binary_format_line(big_endian) +
                               "element vertex 2\nproperty float x\nproperty double y\nproperty float z\n"
                               "element face 0\nproperty list uchar int vertex_indices\nend_header\n";
    BinaryWriter body(big_endian);
    body.put(tenth).put(0.1).put(tiny);
    body.put(-std::numeric_limits<float>::max()).put(-0.0).put(1.0f);
    const PolygonSoup soup = parse_ply(header + body.bytes(), "t.ply");
    ASSERT_EQ(soup.vertices.size(), 2u);
    EXPECT_EQ(soup.vertices[0], Eigen::Vector3d(double(tenth), 0.1, double(tiny)));
    EXPECT_NE(soup.vertices[0].x(), 0.1);  // widened, not re-rounded to the decimal
    EXPECT_EQ(soup.vertices[1], Eigen::Vector3d(-double(std::numeric_limits<float>::max()), 0.0, 1.0));
    EXPECT_TRUE(std::signbit(soup.vertices[1].y()));
    EXPECT_TRUE(soup.faces.empty());
  }
}

// Each integer type at an end of its range, by either of its names.
TEST(CorePly, IntegerCoordinatesOfEveryTypeAreRead) {
  const std::string signed_tail = "element vertex 1\nproperty char x\nproperty short y\nproperty uint z\nend_header\n";
  const std::string unsigned_tail =
      "element vertex 1\nproperty uint8 x\nproperty uint16 y\nproperty int32 z\nend_header\n";
  const Eigen::Vector3d low(-128, -32768, 4294967295.0), high(255, 65535, -2147483648.0);
  EXPECT_EQ(parse_ply("ply\nformat ascii 1.0\n" + signed_tail + "-128 -32768 4294967295\n", "t.ply").vertices,
            std::vector<Eigen::Vector3d>{low});
  EXPECT_EQ(parse_ply("ply\nformat ascii 1.0\n" + unsigned_tail + "255 65535 -2147483648\n", "t.ply").vertices,
            std::vector<Eigen::Vector3d>{high});
  for (bool big_endian : {false, true}) {
    BinaryWriter lows(big_endian), highs(big_endian);
    lows.put(std::int8_t(-128)).put(std::int16_t(-32768)).put(std::uint32_t(4294967295u));
    highs.put(std::uint8_t(255)).put(std::uint16_t(65535)).put(std::numeric_limits<std::int32_t>::min());
    const std::string format = "ply\n" + binary_format_line(big_endian);
    EXPECT_EQ(parse_ply(format + signed_tail + lows.bytes(), "t.ply").vertices, std::vector<Eigen::Vector3d>{low});
    EXPECT_EQ(parse_ply(format + unsigned_tail + highs.bytes(), "t.ply").vertices, std::vector<Eigen::Vector3d>{high});
  }
  // An ascii value of an integer type must be a whole number within the type.
  const std::string ascii = "ply\nformat ascii 1.0\n" + signed_tail;
  EXPECT_TRUE(contains(ply_error(ascii + "-129 0 0\n"), "t.ply:8: vertex 0: property 'x': '-129' is out of range"));
  EXPECT_TRUE(contains(ply_error(ascii + "0 0.5 0\n"), "t.ply:8: vertex 0: property 'y': '0.5' is not an integer"));
  EXPECT_TRUE(contains(ply_error(ascii + "0 0 -1\n"), "t.ply:8: vertex 0: property 'z': '-1' is out of range"));
}

TEST(CorePly, NormalsAreReadWhenPresentAndAbsentOtherwise) {
  const std::string points =
      "ply\nformat ascii 1.0\nelement vertex 2\n"
      "property double x\nproperty double y\nproperty double z\n"
      "property double nx\nproperty double ny\nproperty double nz\nend_header\n"
      "1 2 3 0 0 2\n"
      "4 5 6 -1 0 0\n";
  const PolygonSoup soup = parse_ply(points, "t.ply");
  EXPECT_EQ(soup.vertices, (std::vector<Eigen::Vector3d>{{1, 2, 3}, {4, 5, 6}}));
  EXPECT_EQ(soup.normals, (std::vector<Eigen::Vector3d>{{0, 0, 2}, {-1, 0, 0}}));  // as read, not normalised
  EXPECT_TRUE(soup.faces.empty());
  EXPECT_TRUE(parse_ply(kAsciiCube, "cube.ply").normals.empty());
  // Normals declared before the position.
  BinaryWriter body(false);
  body.put(0.0f).put(1.0f).put(0.0f).put(7.0f).put(8.0f).put(9.0f);
  const PolygonSoup binary = parse_ply(
      "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float nx\nproperty float ny\n"
      "property float nz\nproperty float x\nproperty float y\nproperty float z\nend_header\n" +
          body.bytes(),
      "t.ply");
  EXPECT_EQ(binary.vertices, (std::vector<Eigen::Vector3d>{{7, 8, 9}}));
  EXPECT_EQ(binary.normals, (std::vector<Eigen::Vector3d>{{0, 1, 0}}));
}

// A material element with a list before the vertices; vertex and face
// properties around the ones read; an edge element after the faces.
const std::string kHeaderWithExtras =
    "element material 2\n"
    "property list uchar float color\n"
    "property int id\n"
    "element vertex 8\n"
    "property uchar red\n"
    "property float x\n"
    "property float y\n"
    "property float quality\n"
    "property float z\n"
    "element face 6\n"
    "property int flags\n"
    "property list uchar int vertex_indices\n"
    "property list uint float texcoord\n"
    "element edge 1\n"
    "property int vertex1\n"
    "property int vertex2\n"
    "end_header\n";

TEST(CorePly, OtherElementsAndPropertiesAreReadThroughAndIgnored) {
  std::string ascii = "ply\nformat ascii 1.0\n" + kHeaderWithExtras + "3 1 0.5 0.25 7\n0 8\n";
  for (const Eigen::Vector3d& v : kCubeVertices)
    ascii += "200 " + std::to_string(v.x()) + " " + std::to_string(v.y()) + " -1.5 " + std::to_string(v.z()) + "\n";
  for (const auto& face : kCubeFaces)
    ascii += "9 4 " + std::to_string(face[0]) + " " + std::to_string(face[1]) + " " + std::to_string(face[2]) + " " +
             std::to_string(face[3]) + " 2 0.5 0.5\n";
  ascii += "0 1\n";
  const PolygonSoup from_ascii = parse_ply(ascii, "t.ply");
  expect_cube(from_ascii);
  EXPECT_EQ(from_ascii.vertex_lines.front(), 22);
  EXPECT_EQ(from_ascii.face_lines.front(), 30);

  for (bool big_endian : {false, true}) {
    BinaryWriter body(big_endian);
    body.put(std::uint8_t(3)).put(1.0f).put(0.5f).put(0.25f).put(std::int32_t(7));
    body.put(std::uint8_t(0)).put(std::int32_t(8));
    for (const Eigen::Vector3d& v : kCubeVertices)
      body.put(std::uint8_t(200)).put(float(v.x())).put(float(v.y())).put(-1.5f).put(float(v.z()));
    for (const auto& face : kCubeFaces) {
      body.put(std::int32_t(9)).put(std::uint8_t(face.size()));
      for (int corner : face) body.put(std::int32_t(corner));
      body.put(std::uint32_t(2)).put(0.5f).put(0.5f);
    }
    body.put(std::int32_t(0)).put(std::int32_t(1));
    expect_cube(parse_ply("ply\n" + binary_format_line(big_endian) + kHeaderWithExtras + body.bytes(), "t.ply"));
  }
}

TEST(CorePly, HeaderErrorsNameTheFileAndTheLine) {
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "ply\n", "plx\n")), "t.ply:1: not a PLY file"));
  EXPECT_TRUE(contains(ply_error(""), "t.ply:"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "ascii", "binary_middle_endian")),
                       "t.ply:2: unknown format 'binary_middle_endian'"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "1.0", "2.0")), "t.ply:2: unsupported PLY version '2.0'"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "property float y", "property float128 y")),
                       "t.ply:6: unknown property type 'float128'"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "property float x", "property float w")),
                       "t.ply:4: element 'vertex' has no property 'x'"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "property float z\n", "property float z\nproperty float nx\n")),
                       "t.ply:4: element 'vertex' has only some of the normal properties"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "vertex_indices", "corners")),
                       "t.ply:8: element 'face' has no property 'vertex_indices'"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "list uchar int", "list uchar float")),
                       "t.ply:8: the items of 'vertex_indices' (type float) are not integers"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "end_header", "end_head")), "t.ply:10: unknown header line"));
  EXPECT_TRUE(contains(ply_error("ply\nformat ascii 1.0\nelement vertex 0\n"), "without a line 'end_header'"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "format ascii 1.0\n", "")), "t.ply:9: the header has no format"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "element vertex 8", "element vertex -8")), "t.ply:4:"));
}

// Every prefix of a binary file, header included, is refused (never a crash).
TEST(CorePly, TruncatedBinaryIsRefusedAtEveryLength) {
  for (bool big_endian : {false, true}) {
    const std::string file = binary_cube(big_endian, false);
    for (std::size_t size = 0; size < file.size(); ++size) {
      try {
        (void)parse_ply(file.substr(0, size), "t.ply");
        ADD_FAILURE() << "a prefix of " << size << " of " << file.size() << " bytes was accepted";
      } catch (const InputError& error) {
        EXPECT_TRUE(contains(error.what(), "t.ply:")) << size;
      }
    }
  }
  const std::string file = binary_cube(false, false);
  EXPECT_TRUE(contains(ply_error(file.substr(0, file.size() - 1)),
                       "t.ply: the data ends inside face 5 of 6 (property 'vertex_indices', a list of 4)"));
  EXPECT_TRUE(contains(ply_error(file.substr(0, file.size() - 17)),
                       "t.ply: the data ends inside face 5 of 6 (property 'vertex_indices')"));
}

TEST(CorePly, TrailingDataIsRefused) {
  EXPECT_TRUE(contains(ply_error(binary_cube(true, true) + "\n"), "t.ply: data after the last element (1 bytes)"));
  EXPECT_TRUE(contains(ply_error(kAsciiCube + "\n0 1 2\n"), "t.ply:26: data after the last element"));
  EXPECT_NO_THROW((void)parse_ply(kAsciiCube + "\n\n# a comment\n", "t.ply"));
}

// A fuzzed header must not make the reader reserve memory or loop for
// instances the file cannot hold.
TEST(CorePly, AbsurdCountsAreRefusedBeforeReading) {
  // The messages show each count refused against the bytes or lines left,
  // before any instance is read. A 200-byte file announcing `count` vertices.
  const auto points = [](const std::string& count) {
    std::string file = "ply\nformat binary_little_endian 1.0\nelement vertex " + count +
                       "\nproperty float x\nproperty float y\nproperty float z\nend_header\n";
    file.resize(200, '\0');
    return file;
  };
  EXPECT_TRUE(contains(ply_error(points("4000000000")), "t.ply:3: element 'vertex' has too many instances"));
  EXPECT_TRUE(contains(ply_error(points("2000000000")),
                       "t.ply:3: element 'vertex' has 2000000000 instances of at least 12 bytes but only"));
  EXPECT_TRUE(
      contains(ply_error(replaced(points("1"), "end_header", "element edge 4000000000\nproperty int a\nend_header")),
               "t.ply:7: element 'edge' has 4000000000 instances of at least 4 bytes"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "face 6", "face 2000000000")),
                       "t.ply:8: element 'face' has 2000000000 instances but only 6 lines follow"));
  // A list count beyond the bytes left.
  BinaryWriter body(false);
  body.put(0.0f).put(0.0f).put(0.0f).put(std::uint32_t(4294967295u));
  EXPECT_TRUE(contains(ply_error("ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\n"
                                 "property float y\nproperty float z\nproperty list uint uchar tags\nend_header\n" +
                                 body.bytes()),
                       "t.ply: the data ends inside vertex 0 of 1 (property 'tags', a list of 4294967295)"));
}

TEST(CorePly, ListCountsMustFitTheLine) {
  EXPECT_TRUE(
      contains(ply_error(replaced(replaced(kAsciiCube, "list uchar int", "list int int"), "4 0 3 2 1", "-4 0 3 2 1")),
               "t.ply:19: face 0: property 'vertex_indices': the list count -4 is negative"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "4 0 3 2 1", "5 0 3 2 1")),
                       "t.ply:19: face 0: property 'vertex_indices': the list count 5 exceeds the 4 values left"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "4 0 3 2 1", "3 0 3 2 1")),
                       "t.ply:19: face 0: the line has 5 values; the properties take 4"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "\n0.5 -0.5 -0.5\n", "\n0.5 -0.5\n")),
                       "t.ply:12: vertex 1: property 'z': the line ends before this value"));
}

TEST(CorePly, IndexOutOfRangeIsRefused) {
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "4 1 2 6 5", "4 1 2 6 8")),
                       "t.ply:24: face 5: property 'vertex_indices': vertex index 8 is out of range (0..7)"));
  std::string binary = binary_cube(true, true);
  binary.replace(binary.size() - 4, 4, std::string("\xff\xff\xff\xff", 4));  // the last corner, -1
  EXPECT_TRUE(contains(ply_error(binary),
                       "t.ply: binary face 5, property 'vertex_indices': vertex index -1 is out of range (0..7)"));
}

TEST(CorePly, NonFiniteCoordinatesAreRefused) {
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "\n0.5 0.5 -0.5\n", "\n0.5 nan -0.5\n")),
                       "t.ply:13: vertex 2: property 'y': coordinate 'nan' is not finite"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "\n0.5 0.5 -0.5\n", "\n0.5 1e999 -0.5\n")),
                       "t.ply:13: vertex 2: property 'y': coordinate '1e999' overflows a double"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "\n0.5 0.5 -0.5\n", "\n0.5 0x -0.5\n")),
                       "t.ply:13: vertex 2: property 'y': '0x' is not a number"));
  for (bool big_endian : {false, true}) {
    std::string binary = binary_cube(big_endian, false);
    const std::size_t vertex_2_y = binary.find("end_header\n") + 11 + 2 * 12 + 4;
    BinaryWriter nan(big_endian);
    nan.put(std::numeric_limits<float>::quiet_NaN());
    binary.replace(vertex_2_y, 4, nan.bytes());
    EXPECT_TRUE(contains(ply_error(binary), "t.ply: binary vertex 2, property 'y': the value"));
    EXPECT_TRUE(contains(ply_error(binary), "is not finite"));
  }
}

TEST(CorePly, FacesNeedThreeDistinctCorners) {
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "4 0 3 2 1", "2 0 3")),
                       "t.ply:19: face 0 has 2 vertices; a face needs at least 3"));
  EXPECT_TRUE(contains(ply_error(replaced(kAsciiCube, "4 4 5 6 7", "4 4 5 6 5")),
                       "t.ply:20: face 1 (vertices 4, 5, 6, 5) repeats vertex 5"));
  std::string binary = binary_cube(false, false);
  binary.replace(binary.size() - 4, 4, std::string("\x01\x00\x00\x00", 4));  // face 5: 1 2 6 1
  EXPECT_TRUE(contains(ply_error(binary), "t.ply: face 5 (vertices 1, 2, 6, 1) repeats vertex 1"));
}

std::filesystem::path data_file(const std::string& relative) {
  return contactref::test::source_dir() / "validation/fixtures" / relative;
}

TEST(CorePly, DataFilesHoldTheCubeAndItsCorners) {
  const PolygonSoup mesh = parse_ply(read_input_file(data_file("meshes/cube_binary_le.ply"), "the mesh"), "cube");
  expect_cube(mesh);
  const PolygonSoup corners_ply =
      parse_ply(read_input_file(data_file("points/cube_corners.ply"), "the points"), "corners.ply");
  const PointCloud corners_xyz =
      parse_xyz(read_input_file(data_file("points/cube_corners.xyz"), "the points"), "corners.xyz");
  EXPECT_EQ(corners_ply.vertices, corners_xyz.points);
  EXPECT_EQ(corners_ply.normals, corners_xyz.normals);
  EXPECT_TRUE(corners_ply.faces.empty());
  ASSERT_EQ(corners_xyz.points.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    const Eigen::Vector3d& point = corners_xyz.points[i];
    EXPECT_EQ(point.cwiseAbs(), Eigen::Vector3d::Constant(0.5));
    EXPECT_NEAR(corners_xyz.normals[i].norm(), 1.0, 1e-15);
    EXPECT_EQ(corners_xyz.normals[i].cwiseSign(), point.cwiseSign());  // outward, along the diagonal
    EXPECT_NEAR(corners_xyz.normals[i].dot(point.normalized()), 1.0, 1e-15);
  }
}

TEST(CoreXyz, ThreeColumnPointsAreReadWithTheirLines) {
  const PointCloud cloud = parse_xyz("# two points\n1 2 3\n\n-4.5 5e-1 6  # the second\n", "t.xyz");
  EXPECT_EQ(cloud.name, "t.xyz");
  EXPECT_EQ(cloud.points, (std::vector<Eigen::Vector3d>{{1, 2, 3}, {-4.5, 0.5, 6}}));
  EXPECT_TRUE(cloud.normals.empty());
  EXPECT_EQ(cloud.point_lines, (std::vector<int>{2, 4}));
}

TEST(CoreXyz, SixColumnPointsCarryTheirNormalsAsRead) {
  const PointCloud cloud = parse_xyz("1 2 3 0 0 2\r\n4 5 6 -1 0 -0\r\n", "t.xyz");
  EXPECT_EQ(cloud.points, (std::vector<Eigen::Vector3d>{{1, 2, 3}, {4, 5, 6}}));
  EXPECT_EQ(cloud.normals, (std::vector<Eigen::Vector3d>{{0, 0, 2}, {-1, 0, 0}}));
  EXPECT_EQ(cloud.point_lines, (std::vector<int>{1, 2}));
}

TEST(CoreXyz, TheFirstPointFixesTheCount) {
  EXPECT_TRUE(contains(xyz_error("# header\n1 2 3\n4 5 6\n1 2 3 0 0 1\n"),
                       "t.xyz:4: found 6 values, but the first point (line 2) has 3"));
  EXPECT_TRUE(
      contains(xyz_error("1 2 3 0 0 1\n4 5 6\n"), "t.xyz:2: found 3 values, but the first point (line 1) has 6"));
  EXPECT_TRUE(contains(xyz_error("1 2 3\n1 2 3 4\n"), "t.xyz:2: expected 3 values 'x y z' or 6"));
  EXPECT_TRUE(contains(xyz_error("1 2\n"), "t.xyz:1: expected 3 values 'x y z' or 6 'x y z nx ny nz', found 2"));
}

TEST(CoreXyz, AnEmptyCloudIsRefused) {
  EXPECT_EQ(xyz_error(""), "t.xyz: no points");
  EXPECT_EQ(xyz_error("# only a comment\n\n   \n"), "t.xyz: no points");
}

TEST(CoreXyz, AZeroNormalIsRefused) {
  EXPECT_TRUE(contains(xyz_error("1 2 3 0 0 1\n4 5 6 0 -0 0\n"), "t.xyz:2: point 1 has the zero normal"));
  EXPECT_NO_THROW((void)parse_xyz("1 2 3 0 0 5e-324\n", "t.xyz"));
}

TEST(CoreXyz, NumbersAreFiniteDoublesNearestToTheText) {
  EXPECT_TRUE(contains(xyz_error("1 2 3\n1e999 0 0\n"), "t.xyz:2: coordinate '1e999' overflows a double"));
  EXPECT_TRUE(contains(xyz_error("1 inf 3\n"), "t.xyz:1: coordinate 'inf' is not finite"));
  EXPECT_TRUE(contains(xyz_error("1 2 three\n"), "t.xyz:1: 'three' is not a number"));
  // 3e-324 lies nearer the smallest subnormal (4.94e-324) than zero.
  const PointCloud cloud = parse_xyz("3e-324 2.2250738585072011e-308 0.1\n", "t.xyz");
  EXPECT_EQ(cloud.points[0].x(), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(cloud.points[0].y(), std::nextafter(std::numeric_limits<double>::min(), 0.0));
  EXPECT_EQ(cloud.points[0].z(), 0.1);
}

}  // namespace
}  // namespace contactref
