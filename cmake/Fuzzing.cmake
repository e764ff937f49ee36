# CONTACTREF_FUZZ=ON (preset "asan", clang only): every target is built with
# libFuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link) and fuzz/
# adds one libFuzzer program per reader (fuzz/README.md).
option(CONTACTREF_FUZZ "Build the libFuzzer targets under fuzz/ (clang)" OFF)
if(CONTACTREF_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CONTACTREF_FUZZ needs clang (libFuzzer); the compiler is ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
