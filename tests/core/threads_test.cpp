// core/threads.hpp: CONTACTREF_THREADS read and checked, and the limit a
// ThreadLimit puts on oneTBB's loops while it lives.
#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <cstdlib>
#include <string>

#include "core/errors.hpp"
#include "core/threads.hpp"
#include "tests/kit/errors.hpp"

namespace contactref {
namespace {

using test::contains;
using test::error_of;

// Sets CONTACTREF_THREADS (or unsets it: nullptr) for one scope.
class ThreadsVariable {
 public:
  explicit ThreadsVariable(const char* value) {
    if (const char* old = std::getenv("CONTACTREF_THREADS")) saved_ = old, had_ = true;
    if (value) {
      setenv("CONTACTREF_THREADS", value, 1);
    } else {
      unsetenv("CONTACTREF_THREADS");
    }
  }
  ~ThreadsVariable() {
    if (had_) {
      setenv("CONTACTREF_THREADS", saved_.c_str(), 1);
    } else {
      unsetenv("CONTACTREF_THREADS");
    }
  }

 private:
  std::string saved_;
  bool had_ = false;
};

TEST(Threads, TheVariableGivesACountOrNothingAndABadValueIsRefusedByName) {
  {
    const ThreadsVariable unset(nullptr);
    EXPECT_FALSE(threads_from_environment().has_value());
  }
  {
    const ThreadsVariable empty("");
    EXPECT_FALSE(threads_from_environment().has_value());
  }
  for (const char* good : {"1", "2", "1024"}) {
    const ThreadsVariable set(good);
    EXPECT_EQ(threads_from_environment(), std::stoi(good)) << good;
  }
  for (const char* bad : {"0", "-1", "2x", "two", " 2", "1025", "99999999999999999999", "1.5"}) {
    const ThreadsVariable set(bad);
    const std::string message = error_of([] { threads_from_environment(); });
    EXPECT_TRUE(contains(message, "CONTACTREF_THREADS: need an integer in [1, 1024], got '" + std::string(bad) + "'"))
        << bad << ": " << message;
  }
}

TEST(Threads, ALimitHoldsWhileItLivesAndNeedsOneThreadAtLeast) {
  const auto active = [] {
    return tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  };
  const std::size_t before = active();
  {
    const ThreadLimit one(1);
    EXPECT_EQ(active(), 1u);
  }
  EXPECT_EQ(active(), before);
  EXPECT_TRUE(contains(error_of([] { ThreadLimit none(0); }), "need at least 1 thread, got 0"));
}

}  // namespace
}  // namespace contactref
