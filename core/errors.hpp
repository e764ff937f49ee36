#pragma once
// The error vocabulary of every layer. The CLI maps InputError to exit code 2
// (bad usage or bad input), ComputationError to exit code 1, and InternalError
// to exit code 1 with "contactref: internal error:" (a bug to report, not the
// user's fault).
#include <stdexcept>
#include <string>

namespace contactref {

// The input is malformed or outside the model's domain. The message starts
// with "FILE:LINE: " (`located`), "FILE: " or the option or field the user
// wrote, and names the offending element (a 0-based vertex, face or edge
// index; an OBJ file's vertex k is vertex k - 1, its line number points into
// the file either way) or value.
struct InputError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A well-formed input led to a computation that cannot continue (a singular
// system, a non-finite intermediate, an exact result that does not fit in a
// double): the message says which step and where.
struct ComputationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An invariant of the code itself does not hold: neither the input nor the
// computation is at fault. The message names the invariant.
struct InternalError : std::logic_error {
  using std::logic_error::logic_error;
};

// "FILE:LINE: " where the line is known (line > 0), "FILE: " otherwise: the
// prefix of an InputError about a line of a file.
inline std::string located(const std::string& file, int line) {
  std::string prefix = file;
  if (line > 0) {
    prefix += ':';
    prefix += std::to_string(line);
  }
  prefix += ": ";
  return prefix;
}

// Throws InternalError(what) unless `holds`; `what` states the invariant (a
// literal: nothing is built on the path where the invariant holds).
inline void check_invariant(bool holds, const char* what) {
  if (!holds) throw InternalError(what);
}

}  // namespace contactref
