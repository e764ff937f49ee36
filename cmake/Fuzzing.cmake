# CONTACTREF_FUZZ=ON (preset "asan", clang only): every target but the tests
# (tests/CMakeLists.txt) is built with libFuzzer's coverage instrumentation
# (-fsanitize=fuzzer-no-link, contactref_fuzz_coverage_options) and fuzz/
# adds one libFuzzer program per reader (fuzz/README.md). Eigen and
# Boost.Multiprecision are left uninstrumented (fuzz/coverage-ignorelist.txt).
option(CONTACTREF_FUZZ "Build the libFuzzer targets under fuzz/ (clang)" OFF)
if(CONTACTREF_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CONTACTREF_FUZZ needs clang (libFuzzer); the compiler is ${CMAKE_CXX_COMPILER_ID}")
  endif()
  # ccache does not read the list: its hash in a definition makes an edit
  # recompile (and re-run CMake).
  set(ignorelist ${PROJECT_SOURCE_DIR}/fuzz/coverage-ignorelist.txt)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ignorelist})
  file(SHA256 ${ignorelist} ignorelist_hash)
  string(SUBSTRING ${ignorelist_hash} 0 16 ignorelist_hash)
  # Named relative to the build folder (where Ninja runs every compile), so
  # that no compile line holds this clone's path and a clone elsewhere reuses
  # the cached objects.
  file(RELATIVE_PATH ignorelist_from_build "${CMAKE_BINARY_DIR}" "${ignorelist}")
  set(contactref_fuzz_coverage_options -fsanitize=fuzzer-no-link
      -fsanitize-coverage-ignorelist=${ignorelist_from_build})
  add_compile_options(${contactref_fuzz_coverage_options})
  add_compile_definitions(CONTACTREF_COVERAGE_IGNORELIST_${ignorelist_hash})
endif()
