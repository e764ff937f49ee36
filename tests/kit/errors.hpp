#pragma once
// What a call throws, as text, for bad-input tests: "InputError: ...",
// "ComputationError: ..." or "no error".
#include <gtest/gtest.h>

#include <string>

#include "core/errors.hpp"

namespace contactref::test {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return std::string("InputError: ") + e.what();
  } catch (const ComputationError& e) {
    return std::string("ComputationError: ") + e.what();
  }
  return "no error";
}

// The message of the exception of type Error that f throws, or "no error"
// (to check one kind: InputError, ComputationError or InternalError).
template <class Error, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// Whether text contains part; in EXPECT_TRUE, a failure shows both.
inline ::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

}  // namespace contactref::test
