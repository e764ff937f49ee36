#pragma once
// The one check on every number the CLI prints: a non-finite value (an
// overflow, or a result the computation could not define) ends the command
// with exit 1 and names the quantity, instead of appearing as "null" in JSON
// or "inf" in a table. A deliberate JSON null (a derivative that the
// parameterisation does not define) is not a number and passes.
#include <nlohmann/json.hpp>
#include <string>

namespace contactref::cli {

// Throws ComputationError "`what`: `path` is not finite (...)" for the first
// non-finite number in `document`, path as in centre_of_mass[1].
void require_finite(const nlohmann::ordered_json& document, const std::string& what);

}  // namespace contactref::cli
