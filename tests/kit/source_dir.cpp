#include "tests/kit/source_dir.hpp"

namespace contactref::test {

const std::filesystem::path& source_dir() {
  static const std::filesystem::path dir(CONTACTREF_SOURCE_DIR);
  return dir;
}

}  // namespace contactref::test
