#pragma once
// The two kinds of failure every layer reports. The CLI maps InputError to
// exit code 2 (bad usage or bad input) and ComputationError to exit code 1.
#include <stdexcept>
#include <string>

namespace contactref {

// The input is malformed or outside the model's domain: the message names the
// offending field, element or value.
struct InputError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A well-formed input led to a computation that cannot continue (a singular
// system, a non-finite intermediate): the message says which and where.
struct ComputationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace contactref
