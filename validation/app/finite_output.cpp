#include "validation/app/finite_output.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/errors.hpp"

namespace contactref::cli {
namespace {

void check(const nlohmann::ordered_json& value, const std::string& path, const std::string& what) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) check(item, path.empty() ? key : path + "." + key, what);
  } else if (value.is_array()) {
    for (std::size_t k = 0; k < value.size(); ++k) check(value[k], fmt::format("{}[{}]", path, k), what);
  } else if (value.is_number_float() && !std::isfinite(value.get<double>())) {
    throw ComputationError(fmt::format("{}: {} is {} (it overflowed or is undefined; nothing is printed)", what,
                                       path.empty() ? "the result" : path, value.get<double>()));
  }
}

}  // namespace

void require_finite(const nlohmann::ordered_json& document, const std::string& what) { check(document, "", what); }

}  // namespace contactref::cli
