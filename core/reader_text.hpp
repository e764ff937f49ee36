#pragma once
// The pieces every text reader of core/mesh_io.cpp shares: lines split into
// words, numbers parsed one way, and the messages that name file and line.
// Internal to core's readers.
#include <string>
#include <vector>

namespace contactref::detail {

// The lines of a text, each split into words at white space; '#' starts a
// comment; a final '\r' (DOS line ends) counts as white space.
std::vector<std::vector<std::string>> split_lines(const std::string& text);

// Throws InputError("NAME:LINE: what"), or "NAME: what" for line 0.
[[noreturn]] void fail(const std::string& name, int line, const std::string& what);

// A finite double (strtod's syntax and rounding; a subnormal is a number), or
// InputError naming the word.
double parse_coordinate(const std::string& word, const std::string& name, int line);
// A whole decimal integer, or InputError "'word' is not WHAT".
long parse_integer(const std::string& word, const std::string& name, int line, const char* what);

// "a, b, c" (at most `at_most` values, then how many in all).
std::string join(const std::vector<int>& values, std::size_t at_most = 12);
// "face F (vertices a, b, c)".
std::string describe_face(int f, const std::vector<int>& face);
// At least 3 corners, none repeated; InputError naming face f and the line.
void check_face_corners(const std::vector<int>& face, int f, const std::string& name, int line);

}  // namespace contactref::detail
