# Precompiled headers (CONTACTREF_PCH, on by default): the third-party headers
# that nearly every unit parses (the standard library, Eigen, Boost's 50-digit
# float, and GoogleTest for the tests) are parsed once per target, or once for
# all the tests, instead of once per unit. A test unit spends about 40% of its
# compile time in them (scene_test.cpp: 14.8 s, 9.0 s with the header).
# Project headers stay out, so that editing one rebuilds only what includes it.
option(CONTACTREF_PCH "Precompile the third-party headers most units include" ON)

set(CONTACTREF_PCH_HEADERS
    <algorithm> <array> <cmath> <filesystem> <fstream> <functional> <iostream>
    <limits> <map> <memory> <numbers> <optional> <random> <sstream> <string>
    <utility> <variant> <vector>
    <Eigen/Dense> <boost/multiprecision/cpp_bin_float.hpp> <boost/multiprecision/eigen.hpp>)

# clang stamps a precompiled header with its build time; ccache's manual asks
# for the stamp off. (A clone at another path still misses the cache in the
# clang build, whose header records absolute paths: measured, issue 32.)
if(CONTACTREF_PCH)
  add_compile_options("$<$<CXX_COMPILER_ID:Clang>:SHELL:-Xclang -fno-pch-timestamp>")
endif()

# contactref_precompile(TARGET [HEADERS ...]): TARGET's own precompiled header.
function(contactref_precompile target)
  if(CONTACTREF_PCH)
    target_precompile_headers(${target} PRIVATE ${CONTACTREF_PCH_HEADERS} ${ARGN})
  endif()
endfunction()

# contactref_reuse_precompiled(TARGET DONOR): TARGET compiles with DONOR's
# header, which needs the same compiler flags and definitions: clang refuses a
# header built with others ("__OPTIMIZE__ predefined macro was enabled in PCH
# file but is currently disabled"), and GCC would use it without a word.
function(contactref_reuse_precompiled target donor)
  if(CONTACTREF_PCH)
    target_precompile_headers(${target} REUSE_FROM ${donor})
  endif()
endfunction()
