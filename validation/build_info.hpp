#pragma once
// Facts about this build, fixed at build time (build_info.cpp.in).
namespace contactref::build_info {

extern const char* const version;       // project version
extern const char* const git_revision;  // `git describe --always --dirty`, or "unknown"
extern const char* const build_type;    // CMAKE_BUILD_TYPE
extern const char* const compiler;      // CMAKE_CXX_COMPILER_ID and version, e.g. "Clang 14.0.6"
extern const char* const cxx_flags;     // CMAKE_CXX_FLAGS and those of the build type (targets add warnings)
extern const char* const source_dir;    // the repository root (paper_figures/ lives there)
extern const char* const binary_dir;    // the build folder (benchmarks/ lives there)
extern const char* const python;        // a python3 that imports matplotlib, or ""

}  // namespace contactref::build_info
