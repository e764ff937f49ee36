#include "validation/app/number_list.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/errors.hpp"
#include "core/number_text.hpp"

namespace contactref::cli {

std::vector<double> parse_number_list(const std::string& text, const std::string& option, const std::string& names,
                                      std::size_t count) {
  std::vector<double> values;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string word = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t first = word.find_first_not_of(" \t");
    const std::size_t last = word.find_last_not_of(" \t");
    word = first == std::string::npos ? "" : word.substr(first, last - first + 1);
    const std::optional<double> x = parse_double(word);
    if (!x) throw InputError(fmt::format("{}: \"{}\" is not a number (expected {})", option, word, names));
    if (!std::isfinite(*x)) throw InputError(fmt::format("{}: {}", option, non_finite_reason(word)));
    values.push_back(*x);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (values.size() != count)
    throw InputError(fmt::format("{}: expected {} comma-separated numbers {}, got {}", option, count, names, values.size()));
  return values;
}

RigidPose<double> parse_pose(const std::string& text, const std::string& option) {
  const std::vector<double> p = parse_number_list(text, option, "tx,ty,tz,rx,ry,rz", 6);
  return RigidPose<double>::from_rotation_vector(Vec3<double>(p[3], p[4], p[5]), Vec3<double>(p[0], p[1], p[2]),
                                                 option);
}

}  // namespace contactref::cli
