#pragma once
// The thread count of contactref's data-parallel loops (oneTBB: the
// quasi-rigid response, displacement field and near fields; the 6D model's
// detection, a pair per task). Every loop
// splits its work so that each result is summed by one thread in a fixed
// order: results are bit-identical on any number of threads.
// CONTACTREF_THREADS (a positive integer) limits the `contactref` command;
// unset, the loops use every core. A program that links the libraries
// limits them with a ThreadLimit (or oneTBB's own global_control).
#include <memory>
#include <optional>

namespace contactref {

// The count CONTACTREF_THREADS asks for, or nothing when it is unset or
// empty. InputError naming the variable unless it is an integer in
// [1, 1024].
std::optional<int> threads_from_environment();

// While it lives, the loops use at most `threads` threads (>= 1, else
// InputError).
class ThreadLimit {
 public:
  explicit ThreadLimit(int threads);
  ~ThreadLimit();
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;

 private:
  struct Control;  // oneTBB's global_control
  std::unique_ptr<Control> control_;
};

}  // namespace contactref
