#pragma once
// The one check of a refused scene, for the scene tests: parsing `document`
// as `file` throws an InputError that starts with "FILE: FIELD: " and
// contains `words`.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/errors.hpp"
#include "validation/scenes/scene.hpp"

namespace contactref::test {

inline void expect_scene_error(const nlohmann::json& document, const std::filesystem::path& file,
                               const std::string& field, const std::string& words) {
  try {
    scenes::parse_scene(document.dump(), file);
    ADD_FAILURE() << "no error; expected one naming " << field;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(file.string() + ": " + field + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(words), std::string::npos) << message;
  }
}

}  // namespace contactref::test
