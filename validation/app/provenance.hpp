#pragma once
// provenance.json, written by `validate --out DIR` beside validation.json:
// what made the run. Like timings.json it differs from run to run (the date)
// and machine to machine, so validation.json does not hold it.
//   contactref  version, git revision (`git describe --dirty`) and whether
//               the tree was dirty, build type, compiler, C++ flags
//   machine     CPU model (/proc/cpuinfo, "unknown" elsewhere), hardware
//               threads
//   date        UTC, ISO 8601
//   command     the command line as parsed
#include <nlohmann/json.hpp>
#include <string>

namespace contactref::cli {

nlohmann::ordered_json provenance_json(const std::string& command);

}  // namespace contactref::cli
