#pragma once
// The two kinds of failure robust_geometry reports. robust_geometry is layer 0
// and may not include reference/spatial/errors.hpp, so it has its own pair;
// the CLI maps GeometryInputError to exit code 2 (bad input) and
// GeometryComputationError to exit code 1, like contactref::InputError and
// contactref::ComputationError.
#include <stdexcept>
#include <string>

namespace contactref::robust_geometry {

// The input is malformed (a bad file) or not a valid solid. The message
// starts with "FILE:LINE: " (or "NAME: " when no line applies) and names the
// offending vertex, face or edge by its 0-based index (an OBJ file's vertex
// k is vertex k - 1; the line number points into the file either way).
struct GeometryInputError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A well-formed input led to a computation that cannot continue (an
// exact-arithmetic invariant that does not hold, a CGAL step that failed): the
// message says which step and which element.
struct GeometryComputationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace contactref::robust_geometry
