#include "validation/app/provenance.hpp"

#include <chrono>
#include <ctime>
#include <fmt/chrono.h>
#include <fstream>
#include <thread>

#include "validation/build_info.hpp"

namespace contactref::cli {
namespace {

// The first "model name" of /proc/cpuinfo (Linux), or "unknown".
std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
  }
  return "unknown";
}

}  // namespace

nlohmann::ordered_json provenance_json(const std::string& command) {
  const std::string revision = build_info::git_revision;
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  return {{"contactref",
           {{"version", build_info::version},
            {"git_revision", revision},
            {"dirty", revision.ends_with("-dirty")},
            {"build_type", build_info::build_type},
            {"compiler", build_info::compiler},
            {"cxx_flags", build_info::cxx_flags}}},
          {"machine", {{"cpu", cpu_model()}, {"hardware_threads", std::thread::hardware_concurrency()}}},
          {"date", fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(now))},
          {"command", command}};
}

}  // namespace contactref::cli
