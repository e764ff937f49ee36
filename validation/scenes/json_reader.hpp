#pragma once
// Reading JSON input files with every error naming the file and the JSON path
// of the offending field (`regions[0].entity_a.index`): the scene reader
// (scene.cpp) and the CLI's readers of JSON files (e.g. the --previous
// contacts of `geometry contacts`) share it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/scalar.hpp"
#include "reference/spatial/so3.hpp"

namespace contactref::scenes {

// "a, b, c".
std::string join(const std::vector<std::string>& words);
// A short rendering of a JSON value for messages.
std::string show(const nlohmann::json& value);
// Parses `text` (the contents of `file`); InputError naming the file, the line
// and column for malformed JSON, and a duplicate key in one object (which
// nlohmann::json would silently resolve to the last).
nlohmann::json parse_json(const std::string& text, const std::string& file);

// Reads JSON values with their paths, every error naming the file and path.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& why) const {
    throw InputError(path.empty() ? fmt::format("{}: {}", file_, why) : fmt::format("{}: {}: {}", file_, path, why));
  }

  // `value` must be an object whose keys are among `allowed`.
  void fields(const nlohmann::json& value, const std::string& path, const std::vector<std::string>& allowed) const {
    if (!value.is_object()) fail(path, fmt::format("expected an object, got {}", show(value)));
    for (const auto& item : value.items()) {
      if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
        fail(child(path, item.key()), fmt::format("unknown field (allowed here: {})", join(allowed)));
    }
  }

  static std::string child(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
  static std::string index(const std::string& path, std::size_t k) { return fmt::format("{}[{}]", path, k); }

  const nlohmann::json& required(const nlohmann::json& object, const std::string& path, const std::string& key) const {
    if (!object.contains(key)) fail(child(path, key), "missing (required)");
    return object.at(key);
  }
  static const nlohmann::json* optional(const nlohmann::json& object, const std::string& key) {
    return object.contains(key) ? &object.at(key) : nullptr;
  }

  double number(const nlohmann::json& value, const std::string& path) const {
    if (!value.is_number()) fail(path, fmt::format("expected a number, got {}", show(value)));
    const double x = value.get<double>();
    if (!std::isfinite(x)) fail(path, "is not finite");
    return x;
  }
  double positive(const nlohmann::json& value, const std::string& path) const {
    const double x = number(value, path);
    if (!(x > 0)) fail(path, fmt::format("must be positive, got {}", x));
    return x;
  }
  double non_negative(const nlohmann::json& value, const std::string& path) const {
    const double x = number(value, path);
    if (!(x >= 0)) fail(path, fmt::format("must be >= 0, got {}", x));
    return x;
  }
  int integer(const nlohmann::json& value, const std::string& path) const {
    if (!value.is_number_integer()) fail(path, fmt::format("expected an integer, got {}", show(value)));
    const auto x = value.get<long long>();
    if (x < 0 || x > std::numeric_limits<int>::max()) fail(path, fmt::format("must be a non-negative index, got {}", x));
    return int(x);
  }
  std::string string(const nlohmann::json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, fmt::format("expected a string, got {}", show(value)));
    return value.get<std::string>();
  }
  bool boolean(const nlohmann::json& value, const std::string& path) const {
    if (!value.is_boolean()) fail(path, fmt::format("expected true or false, got {}", show(value)));
    return value.get<bool>();
  }
  const nlohmann::json& array(const nlohmann::json& value, const std::string& path, std::size_t size, const std::string& what) const {
    if (!value.is_array() || value.size() != size)
      fail(path, fmt::format("expected an array of {} {}, got {}", size, what, show(value)));
    return value;
  }
  std::vector<double> numbers(const nlohmann::json& value, const std::string& path, std::size_t size) const {
    array(value, path, size, "numbers");
    std::vector<double> out;
    for (std::size_t k = 0; k < size; ++k) out.push_back(number(value[k], index(path, k)));
    return out;
  }
  Vec3<double> vec3(const nlohmann::json& value, const std::string& path) const {
    const std::vector<double> x = numbers(value, path, 3);
    return {x[0], x[1], x[2]};
  }
  Mat3<double> mat3(const nlohmann::json& value, const std::string& path) const {
    array(value, path, 3, "rows of 3 numbers");
    Mat3<double> m;
    for (std::size_t i = 0; i < 3; ++i) m.row(Eigen::Index(i)) = vec3(value[i], index(path, i)).transpose();
    return m;
  }
  // [angle, [ax, ay, az]]: the rotation matrix (angle in radians).
  Mat3<double> rotation(const nlohmann::json& value, const std::string& path, double* angle = nullptr,
                        Vec3<double>* axis = nullptr) const {
    array(value, path, 2, "entries [angle, [ax, ay, az]]");
    const double a = number(value[0], index(path, 0));
    const Vec3<double> w = vec3(value[1], index(path, 1));
    if (!(w.norm() > 0)) fail(index(path, 1), "the rotation axis must be a non-zero vector");
    if (angle != nullptr) *angle = a;
    if (axis != nullptr) *axis = w;
    return spatial::so3_exp<double>(Vec3<double>(w / w.norm() * a));
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

}  // namespace contactref::scenes
