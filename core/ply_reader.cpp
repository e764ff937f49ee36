// PLY meshes (core/mesh_io.hpp). The header declares elements and their typed
// properties; the body holds the instances as text lines (ascii) or packed
// values (binary, either byte order). One walk over the elements serves both
// bodies, so every element and property the soup does not need (lists
// included) is read through and checked exactly like the ones it keeps.
//
// Choices the format leaves open:
//  - '#' starts a comment in the header and in the ascii body (split_lines,
//    as in the other text readers); blank lines of the ascii body are skipped.
//  - An element without properties takes no line and no byte.
//  - Every float value must be finite, in any property; ascii integer values
//    must be whole numbers within their type.
//  - Binary data must end with the last element: trailing bytes are refused.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"
#include "core/mesh_io.hpp"
#include "core/reader_text.hpp"

namespace contactref {
namespace {

using detail::fail;

constexpr std::size_t kAbsent = std::size_t(-1);

struct ScalarType {
  const char* name;        // "uchar"
  const char* sized_name;  // its synonym, "uint8"
  std::size_t size;        // bytes in a binary body
  bool is_integer;
  bool is_signed;
  double lowest, highest;  // of an integer type: ascii values outside are refused
};

constexpr ScalarType kTypes[] = {
    {"char", "int8", 1, true, true, -128.0, 127.0},
    {"uchar", "uint8", 1, true, false, 0.0, 255.0},
    {"short", "int16", 2, true, true, -32768.0, 32767.0},
    {"ushort", "uint16", 2, true, false, 0.0, 65535.0},
    {"int", "int32", 4, true, true, -2147483648.0, 2147483647.0},
    {"uint", "uint32", 4, true, false, 0.0, 4294967295.0},
    {"float", "float32", 4, false, true, 0.0, 0.0},
    {"double", "float64", 8, false, true, 0.0, 0.0},
};

struct Property {
  std::string name;
  const ScalarType* type;        // of the value, or of a list's items
  const ScalarType* count_type;  // of a list's count; nullptr for a single value
};

struct Element {
  std::string name;
  long count = 0;
  int line = 0;  // of its header line
  std::vector<Property> properties;

  std::size_t find(const std::string& wanted) const {
    for (std::size_t p = 0; p < properties.size(); ++p)
      if (properties[p].name == wanted) return p;
    return kAbsent;
  }
};

enum class Format { ascii, binary_little_endian, binary_big_endian };

struct Header {
  Format format = Format::ascii;
  std::vector<Element> elements;
  std::size_t body_offset = 0;  // the first byte after the line "end_header"
  int line_count = 0;           // lines up to and including "end_header"
};

// Where the soup's values sit among the properties of "vertex" and "face".
struct Layout {
  const Element* vertex = nullptr;
  std::array<std::size_t, 3> position{};
  std::optional<std::array<std::size_t, 3>> normal;
  const Element* face = nullptr;  // nullptr: a point cloud
  std::size_t corners = kAbsent;  // the list property of the vertex indices
};

std::string describe_element(const Element& element) { return "element '" + element.name + "'"; }

const ScalarType& find_type(const std::string& word, const std::string& name, int line) {
  for (const ScalarType& type : kTypes)
    if (word == type.name || word == type.sized_name) return type;
  fail(name, line,
       "unknown property type '" + word +
           "' (known: char, uchar, short, ushort, int, uint, float, double, or int8 ... float64)");
}

Format parse_format(const std::vector<std::string>& words, const std::string& name, int line) {
  if (words.size() != 3) fail(name, line, "expected 'format FORMAT 1.0'");
  if (words[2] != "1.0") fail(name, line, "unsupported PLY version '" + words[2] + "' (only 1.0)");
  if (words[1] == "ascii") return Format::ascii;
  if (words[1] == "binary_little_endian") return Format::binary_little_endian;
  if (words[1] == "binary_big_endian") return Format::binary_big_endian;
  fail(name, line, "unknown format '" + words[1] + "' (known: ascii, binary_little_endian, binary_big_endian)");
}

void add_element(Header& header, const std::vector<std::string>& words, const std::string& name, int line) {
  if (words.size() != 3) fail(name, line, "expected 'element NAME COUNT'");
  for (const Element& element : header.elements)
    if (element.name == words[1]) fail(name, line, "a second " + describe_element(element));
  Element element{words[1], detail::parse_integer(words[2], name, line, "an element count"), line, {}};
  if (element.count < 0) fail(name, line, "the count of " + describe_element(element) + " is negative");
  header.elements.push_back(std::move(element));
}

void add_property(Header& header, const std::vector<std::string>& words, const std::string& name, int line) {
  if (header.elements.empty()) fail(name, line, "a property before any element");
  Element& element = header.elements.back();
  Property property;
  if (words.size() >= 2 && words[1] == "list") {
    if (words.size() != 5) fail(name, line, "expected 'property list COUNT_TYPE ITEM_TYPE NAME'");
    property = {words[4], &find_type(words[3], name, line), &find_type(words[2], name, line)};
    if (!property.count_type->is_integer)
      fail(name, line, "the count type of list '" + property.name + "' is not an integer type");
  } else {
    if (words.size() != 3) fail(name, line, "expected 'property TYPE NAME'");
    property = {words[2], &find_type(words[1], name, line), nullptr};
  }
  if (element.find(property.name) != kAbsent)
    fail(name, line, describe_element(element) + " has a second property '" + property.name + "'");
  element.properties.push_back(std::move(property));
}

// The header's lines are found one at a time, since the body after them may
// be binary.
Header parse_header(const std::string& bytes, const std::string& name) {
  Header header;
  bool has_format = false;
  std::size_t start = 0;
  for (int line = 1;; ++line) {
    if (start >= bytes.size()) fail(name, line - 1, "the header ends without a line 'end_header'");
    const std::size_t newline = bytes.find('\n', start);
    const std::size_t end = newline == std::string::npos ? bytes.size() : newline;
    const auto split = detail::split_lines(bytes.substr(start, end - start));
    const std::vector<std::string> words = split.empty() ? std::vector<std::string>{} : split.front();
    start = end + 1;
    if (line == 1) {
      if (words != std::vector<std::string>{"ply"}) fail(name, 1, "not a PLY file: the first line must be 'ply'");
      continue;
    }
    if (words.empty() || words[0] == "comment" || words[0] == "obj_info") continue;
    if (words[0] == "format") {
      if (has_format) fail(name, line, "a second format line");
      header.format = parse_format(words, name, line);
      has_format = true;
    } else if (words[0] == "element") {
      add_element(header, words, name, line);
    } else if (words[0] == "property") {
      add_property(header, words, name, line);
    } else if (words == std::vector<std::string>{"end_header"}) {
      if (!has_format) fail(name, line, "the header has no format line");
      header.body_offset = std::min(start, bytes.size());
      header.line_count = line;
      return header;
    } else {
      fail(name, line, "unknown header line '" + words[0] + "'");
    }
  }
}

// The index of property `wanted` of `element`, a single number.
std::size_t find_number(const Element& element, const std::string& wanted, const std::string& name) {
  const std::size_t p = element.find(wanted);
  if (p == kAbsent) fail(name, element.line, describe_element(element) + " has no property '" + wanted + "'");
  if (element.properties[p].count_type)
    fail(name, element.line, "property '" + wanted + "' of " + describe_element(element) + " is a list, not a number");
  return p;
}

void check_count_fits_int(const Element& element, const std::string& name) {
  if (element.count > std::numeric_limits<int>::max())
    fail(name, element.line,
         describe_element(element) + " has too many instances (" + std::to_string(element.count) + ")");
}

Layout find_layout(const Header& header, const std::string& name) {
  Layout layout;
  for (const Element& element : header.elements) {
    if (element.name == "vertex") layout.vertex = &element;
    if (element.name == "face") layout.face = &element;
  }
  if (!layout.vertex) fail(name, 0, "the header declares no element 'vertex'");
  const Element& vertex = *layout.vertex;
  check_count_fits_int(vertex, name);
  layout.position = {find_number(vertex, "x", name), find_number(vertex, "y", name), find_number(vertex, "z", name)};
  const int normal_count =
      (vertex.find("nx") != kAbsent) + (vertex.find("ny") != kAbsent) + (vertex.find("nz") != kAbsent);
  if (normal_count == 3) {
    layout.normal = {find_number(vertex, "nx", name), find_number(vertex, "ny", name), find_number(vertex, "nz", name)};
  } else if (normal_count > 0) {
    fail(name, vertex.line,
         describe_element(vertex) + " has only some of the normal properties nx, ny, nz: give all three or none");
  }
  if (!layout.face) return layout;
  const Element& face = *layout.face;
  check_count_fits_int(face, name);
  layout.corners = face.find("vertex_indices");
  if (layout.corners == kAbsent) layout.corners = face.find("vertex_index");
  if (layout.corners == kAbsent)
    fail(name, face.line, describe_element(face) + " has no property 'vertex_indices' (or 'vertex_index')");
  const Property& corners = face.properties[layout.corners];
  if (!corners.count_type)
    fail(name, face.line, "property '" + corners.name + "' of " + describe_element(face) + " is not a list");
  if (!corners.type->is_integer)
    fail(name, face.line, "the items of '" + corners.name + "' (type " + corners.type->name + ") are not integers");
  return layout;
}

// The value of a `type` whose bytes `bits` holds, least significant first.
double decode(const ScalarType& type, std::uint64_t bits) {
  if (!type.is_integer)
    return type.size == 4 ? double(std::bit_cast<float>(std::uint32_t(bits))) : std::bit_cast<double>(bits);
  if (!type.is_signed) return double(bits);
  // Two's complement: move the sign bit to the top, then shift back arithmetically.
  const std::size_t unused = 64 - 8 * type.size;
  return double(std::int64_t(bits << unused) >> unused);
}

// An ascii body: one line per instance, its values as words.
class AsciiBody {
 public:
  AsciiBody(const std::string& bytes, const Header& header, const std::string& name)
      : lines_(detail::split_lines(bytes.substr(header.body_offset))),
        first_line_(header.line_count + 1),
        name_(name) {}

  // Refuses a count beyond the lines left before anything is reserved for it.
  void check_count(const Element& element) const {
    const std::size_t left = lines_.size() - next_;
    if (std::size_t(element.count) > left)
      detail::fail(name_, element.line,
                   describe_element(element) + " has " + std::to_string(element.count) + " instances but only " +
                       std::to_string(left) + " lines follow");
  }

  void begin(const Element& element, long index) {
    while (next_ < lines_.size() && lines_[next_].empty()) ++next_;
    if (next_ == lines_.size())
      detail::fail(name_, first_line_ + int(lines_.size()) - 1,
                   "the file ends before " + element.name + " " + std::to_string(index) + " of " +
                       std::to_string(element.count));
    element_ = &element;
    index_ = index;
    words_ = &lines_[next_];
    line_ = first_line_ + int(next_);
    word_ = 0;
    ++next_;
  }

  double value(const Property& property, const ScalarType& type) {
    if (word_ == words_->size()) fail(property, "the line ends before this value");
    const std::string& word = (*words_)[word_++];
    if (!type.is_integer) return with_context(property, [&] { return detail::parse_coordinate(word, name_, line_); });
    const long number = with_context(property, [&] { return detail::parse_integer(word, name_, line_, "an integer"); });
    if (double(number) < type.lowest || double(number) > type.highest)
      fail(property, "'" + word + "' is out of range for type " + type.name);
    return double(number);
  }

  std::size_t list_count(const Property& property) {
    const double count = value(property, *property.count_type);
    if (count < 0) fail(property, "the list count " + std::to_string(long(count)) + " is negative");
    if (count > double(words_->size() - word_))
      fail(property, "the list count " + std::to_string(long(count)) + " exceeds the " +
                         std::to_string(words_->size() - word_) + " values left on the line");
    return std::size_t(count);
  }

  void end() const {
    if (word_ != words_->size())
      fail("the line has " + std::to_string(words_->size()) + " values; the properties take " + std::to_string(word_));
  }

  void finish() {
    while (next_ < lines_.size() && lines_[next_].empty()) ++next_;
    if (next_ < lines_.size()) detail::fail(name_, first_line_ + int(next_), "data after the last element");
  }

  int line() const { return line_; }

  [[noreturn]] void fail(const std::string& what) const {
    detail::fail(name_, line_, element_->name + " " + std::to_string(index_) + ": " + what);
  }
  [[noreturn]] void fail(const Property& property, const std::string& what) const {
    fail("property '" + property.name + "': " + what);
  }

 private:
  // Runs a reader_text parser; its message, "NAME:LINE: what", gains the
  // element and the property.
  template <class Parse>
  std::invoke_result_t<Parse> with_context(const Property& property, Parse parse) const {
    try {
      return parse();
    } catch (const InputError& error) {
      fail(property, std::string(error.what()).substr(located(name_, line_).size()));
    }
  }

  std::vector<std::vector<std::string>> lines_;
  int first_line_;  // the file's line number of lines_[0]
  const std::string& name_;
  std::size_t next_ = 0;  // the next line to read
  const Element* element_ = nullptr;
  long index_ = 0;
  const std::vector<std::string>* words_ = nullptr;  // the current instance's
  std::size_t word_ = 0;                             // the next word to read
  int line_ = 0;
};

// A binary body: packed values in the header's byte order, without lines.
class BinaryBody {
 public:
  BinaryBody(const std::string& bytes, const Header& header, const std::string& name)
      : bytes_(bytes),
        next_(header.body_offset),
        big_endian_(header.format == Format::binary_big_endian),
        name_(name) {}

  // An instance takes at least its single values and list counts: refuses a
  // count beyond the bytes left before anything is reserved for it.
  void check_count(const Element& element) const {
    std::size_t least = 0;
    for (const Property& property : element.properties)
      least += property.count_type ? property.count_type->size : property.type->size;
    const std::size_t left = bytes_.size() - next_;
    if (std::size_t(element.count) > left / least)
      detail::fail(name_, element.line,
                   describe_element(element) + " has " + std::to_string(element.count) + " instances of at least " +
                       std::to_string(least) + " bytes but only " + std::to_string(left) + " bytes follow");
  }

  void begin(const Element& element, long index) {
    element_ = &element;
    index_ = index;
  }

  double value(const Property& property, const ScalarType& type) {
    if (bytes_.size() - next_ < type.size) fail_truncated(property, "");
    std::uint64_t bits = 0;
    for (std::size_t k = 0; k < type.size; ++k) {
      const std::size_t byte = next_ + (big_endian_ ? type.size - 1 - k : k);  // the k-th least significant
      bits |= std::uint64_t(std::uint8_t(bytes_[byte])) << (8 * k);
    }
    next_ += type.size;
    const double number = decode(type, bits);
    if (!std::isfinite(number)) fail(property, "the value " + std::to_string(number) + " is not finite");
    return number;
  }

  std::size_t list_count(const Property& property) {
    const double count = value(property, *property.count_type);
    if (count < 0) fail(property, "the list count " + std::to_string(long(count)) + " is negative");
    if (count > double((bytes_.size() - next_) / property.type->size))
      fail_truncated(property, ", a list of " + std::to_string(long(count)));
    return std::size_t(count);
  }

  void end() const {}

  void finish() const {
    if (next_ != bytes_.size())
      detail::fail(name_, 0, "data after the last element (" + std::to_string(bytes_.size() - next_) + " bytes)");
  }

  int line() const { return 0; }

  [[noreturn]] void fail(const Property& property, const std::string& what) const {
    detail::fail(
        name_, 0,
        "binary " + element_->name + " " + std::to_string(index_) + ", property '" + property.name + "': " + what);
  }

 private:
  [[noreturn]] void fail_truncated(const Property& property, const std::string& list) const {
    detail::fail(name_, 0,
                 "the data ends inside " + element_->name + " " + std::to_string(index_) + " of " +
                     std::to_string(element_->count) + " (property '" + property.name + "'" + list + ")");
  }

  const std::string& bytes_;
  std::size_t next_;  // the next byte to read
  bool big_endian_;
  const std::string& name_;
  const Element* element_ = nullptr;
  long index_ = 0;
};

template <class Body>
PolygonSoup read_body(const Header& header, const Layout& layout, Body& body, const std::string& name) {
  PolygonSoup soup;
  soup.name = name;
  const long vertex_count = layout.vertex->count;
  std::vector<double> values;  // of the current instance's single-valued properties
  std::vector<int> corners;
  for (const Element& element : header.elements) {
    if (element.properties.empty()) continue;
    body.check_count(element);
    const bool is_vertex = &element == layout.vertex, is_face = &element == layout.face;
    if (is_vertex) soup.vertices.reserve(std::size_t(element.count));
    if (is_face) soup.faces.reserve(std::size_t(element.count));
    values.assign(element.properties.size(), 0.0);
    for (long i = 0; i < element.count; ++i) {
      body.begin(element, i);
      for (std::size_t p = 0; p < element.properties.size(); ++p) {
        const Property& property = element.properties[p];
        if (!property.count_type) {
          values[p] = body.value(property, *property.type);
          continue;
        }
        const bool keep = is_face && p == layout.corners;
        if (keep) corners.clear();
        for (std::size_t k = body.list_count(property); k > 0; --k) {
          const double index = body.value(property, *property.type);
          if (!keep) continue;
          if (index < 0 || index >= double(vertex_count))
            body.fail(property, "vertex index " + std::to_string(long(index)) + " is out of range (0.." +
                                    std::to_string(vertex_count - 1) + ")");
          corners.push_back(int(index));
        }
      }
      body.end();
      const int line = body.line();
      if (is_vertex) {
        soup.vertices.emplace_back(values[layout.position[0]], values[layout.position[1]], values[layout.position[2]]);
        if (layout.normal)
          soup.normals.emplace_back(values[(*layout.normal)[0]], values[(*layout.normal)[1]],
                                    values[(*layout.normal)[2]]);
        if (line > 0) soup.vertex_lines.push_back(line);
      }
      if (is_face) {
        detail::check_face_corners(corners, int(i), name, line);
        soup.faces.push_back(corners);
        if (line > 0) soup.face_lines.push_back(line);
      }
    }
  }
  body.finish();
  return soup;
}

}  // namespace

PolygonSoup parse_ply(const std::string& bytes, const std::string& name) {
  const Header header = parse_header(bytes, name);
  const Layout layout = find_layout(header, name);
  if (header.format == Format::ascii) {
    AsciiBody body(bytes, header, name);
    return read_body(header, layout, body, name);
  }
  BinaryBody body(bytes, header, name);
  return read_body(header, layout, body, name);
}

}  // namespace contactref
