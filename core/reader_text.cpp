#include "core/reader_text.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::detail {

std::vector<std::vector<std::string>> split_lines(const std::string& text) {
  std::vector<std::vector<std::string>> lines;
  std::istringstream in(text);
  std::string line_text;
  while (std::getline(in, line_text)) {
    std::istringstream words(line_text.substr(0, line_text.find('#')));
    std::vector<std::string> line;
    for (std::string word; words >> word;) line.push_back(word);
    lines.push_back(std::move(line));
  }
  return lines;
}

void fail(const std::string& name, int line, const std::string& what) { throw InputError(located(name, line) + what); }

double parse_coordinate(const std::string& word, const std::string& name, int line) {
  const char* begin = word.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  // The whole word (a NUL inside it ends strtod's reading early).
  if (end == begin || end != begin + word.size()) fail(name, line, "'" + word + "' is not a number");
  // ERANGE also flags an underflow, whose result (a subnormal or zero) is the
  // correctly rounded value; only an overflow is refused.
  if (errno == ERANGE && std::abs(value) == HUGE_VAL) fail(name, line, "coordinate '" + word + "' overflows a double");
  if (!std::isfinite(value)) fail(name, line, "coordinate '" + word + "' is not finite");
  return value;
}

long parse_integer(const std::string& word, const std::string& name, int line, const char* what) {
  long value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc() || end != word.data() + word.size()) fail(name, line, "'" + word + "' is not " + what);
  return value;
}

std::string join(const std::vector<int>& values, std::size_t at_most) {
  std::string out;
  for (std::size_t i = 0; i < values.size() && i < at_most; ++i) {
    if (i) out += ", ";
    out += std::to_string(values[i]);
  }
  if (values.size() > at_most) out += ", ... (" + std::to_string(values.size()) + " in all)";
  return out;
}

std::string describe_face(int f, const std::vector<int>& face) {
  return "face " + std::to_string(f) + " (vertices " + join(face) + ")";
}

void check_face_corners(const std::vector<int>& face, int f, const std::string& name, int line) {
  if (face.size() < 3)
    fail(name, line,
         "face " + std::to_string(f) + " has " + std::to_string(face.size()) + " vertices; a face needs at least 3");
  std::vector<int> sorted = face;
  std::sort(sorted.begin(), sorted.end());
  const auto repeat = std::adjacent_find(sorted.begin(), sorted.end());
  if (repeat != sorted.end()) fail(name, line, describe_face(f, face) + " repeats vertex " + std::to_string(*repeat));
}

}  // namespace contactref::detail
