#include "validation/scenes/json_reader.hpp"

#include <set>

namespace contactref::scenes {
namespace {
using json = nlohmann::json;  // as in the other readers, whose units a unity build may share
}  // namespace

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

std::string show(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return fmt::format("{} {}", value.type_name(), text);
}

json parse_json(const std::string& text, const std::string& file) {
  std::vector<std::set<std::string>> keys;
  const json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second)
      throw InputError(fmt::format("{}: duplicate field \"{}\" in one object", file, parsed.get<std::string>()));
    return true;
  };
  try {
    return json::parse(text, callback);
  } catch (const json::exception& e) {
    // parse_error names the line and column; out_of_range: a number overflows.
    std::string what = e.what();
    const std::size_t bracket = what.find("] ");
    if (what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) what = what.substr(bracket + 2);
    throw InputError(fmt::format("{}: not valid JSON: {}", file, what));
  }
}

}  // namespace contactref::scenes
