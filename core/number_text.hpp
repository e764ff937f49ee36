#pragma once
// Numbers written in text files and options, read one way everywhere: the
// double nearest to the whole word (strtod's syntax and rounding).
#include <cstdlib>
#include <optional>
#include <string>

namespace contactref {

// The double nearest to `word`, or nullopt when `word` is not wholly a
// number. A subnormal or underflowing value is a number (strtod reports
// ERANGE for it, but rounds it correctly); a value beyond the largest double
// comes back as +-inf and "nan"/"inf" as themselves, for the caller's
// finiteness check (non_finite_reason).
inline std::optional<double> parse_double(const std::string& word) {
  if (word.empty() || word.find_first_of(" \t\n\r\f\v") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  const double x = std::strtod(word.c_str(), &end);
  if (end != word.c_str() + word.size()) return std::nullopt;
  return x;
}

// Why a parsed word is not a finite double, for messages.
inline std::string non_finite_reason(const std::string& word) {
  return "\"" + word + "\" is not a finite number (its magnitude must be at most the largest double, 1.8e308)";
}

}  // namespace contactref
