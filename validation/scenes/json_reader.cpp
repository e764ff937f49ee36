#include "validation/scenes/json_reader.hpp"

#include <fstream>
#include <set>
#include <sstream>

namespace contactref::scenes {

using json = nlohmann::json;

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

std::string read_text_file(const std::filesystem::path& file, const std::string& what) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error))
    throw InputError(fmt::format("{}: cannot open the {} (no such file)", file.string(), what));
  std::ifstream stream(file, std::ios::binary);
  if (!stream) throw InputError(fmt::format("{}: cannot open the {}", file.string(), what));
  std::ostringstream text;
  text << stream.rdbuf();
  if (!stream.good() && !stream.eof()) throw InputError(fmt::format("{}: cannot read the {}", file.string(), what));
  return text.str();
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
