#include "core/threads.hpp"

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"

namespace contactref {

namespace {

constexpr int kMostThreads = 1024;

}  // namespace

std::optional<int> threads_from_environment() {
  const char* value = std::getenv("CONTACTREF_THREADS");
  if (value == nullptr || *value == '\0') return std::nullopt;
  const std::string text = value;
  const bool digits = text.size() <= 9 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const long threads = digits ? std::stol(text) : 0;
  if (threads < 1 || threads > kMostThreads) {
    throw InputError("CONTACTREF_THREADS: need an integer in [1, " + std::to_string(kMostThreads) + "], got '" + text +
                     "'");
  }
  return static_cast<int>(threads);
}

struct ThreadLimit::Control {
  explicit Control(int threads)
      : control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads)) {}
  tbb::global_control control;  // neither copied nor moved: it registers itself where it is built
};

ThreadLimit::ThreadLimit(int threads) {
  if (threads < 1) throw InputError("thread limit: need at least 1 thread, got " + std::to_string(threads));
  control_ = std::make_unique<Control>(threads);
}

ThreadLimit::~ThreadLimit() = default;

}  // namespace contactref
