#include "tests/kit/scratch_dir.hpp"

#include <unistd.h>

#include <string>
#include <system_error>

namespace contactref::test {
namespace {

struct Scratch {
  std::filesystem::path path;
  Scratch()
      : path(std::filesystem::temp_directory_path() / ("contactref_test_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);  // a folder left by an earlier process of the same id
    std::filesystem::create_directories(path);
  }
  ~Scratch() {
    std::error_code ignored;  // a destructor at exit: nothing to report to
    std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

const std::filesystem::path& scratch_dir() {
  static const Scratch scratch;
  return scratch.path;
}

}  // namespace contactref::test
