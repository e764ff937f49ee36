#pragma once
// Reading an input file named by the user (a mesh, a Bezier net, a points
// file, a scene) whole, with one set of checks and messages.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/errors.hpp"

namespace contactref {

// The text of the regular file `path`; `what` names it in messages ("the mesh
// file"). Anything but a regular file (a directory, a device such as
// /dev/zero, a FIFO) is refused before a byte is read: reading it might never
// end. Throws InputError naming the path.
inline std::string read_input_file(const std::filesystem::path& path, const std::string& what) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) throw InputError(path.string() + ": cannot open " + what + " (no such file)");
  if (!std::filesystem::is_regular_file(status))
    throw InputError(path.string() + ": cannot open " + what + " (not a regular file)");
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw InputError(path.string() + ": cannot open " + what);
  std::ostringstream text;
  text << stream.rdbuf();
  if (!stream.good() && !stream.eof()) throw InputError(path.string() + ": cannot read " + what);
  return text.str();
}

}  // namespace contactref
