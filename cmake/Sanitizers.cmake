# CONTACTREF_SANITIZE: the sanitizers every target is built with; any report
# aborts the program.
#   ON (preset "asan"): AddressSanitizer and UndefinedBehaviorSanitizer;
#   undefined (preset "fuzz"): UBSan only, for long fuzzing campaigns (ASan
#   slows Eigen's small-matrix code about 35 times).
set(CONTACTREF_SANITIZE OFF CACHE STRING "Sanitizers: OFF, ON (address,undefined) or undefined")
set_property(CACHE CONTACTREF_SANITIZE PROPERTY STRINGS OFF ON undefined)
if(CONTACTREF_SANITIZE STREQUAL "undefined")
  set(contactref_sanitizers undefined)
elseif(CONTACTREF_SANITIZE)
  set(contactref_sanitizers address,undefined)
endif()
# A sanitized build is double only (core/scalar.hpp, CONTACTREF_SANITIZED_BUILD):
# the 50-digit instantiations are the same templates, take more than half of
# every numerical unit's compile time, run some 35 times slower under ASan, and
# run in the release build's tests (issue 11: 50 digits in release only).
# With ASan, four of UBSan's checks go: object-size (ASan's shadow memory
# catches every out-of-bounds access, not only those of a size known at
# compile time), null (a null access is a SEGV that ASan reports with its
# stack), alignment (x86-64 loads misaligned data; Eigen asserts its own
# alignment, and the sanitized build keeps asserts) and pointer-overflow.
# Together they doubled the instrumented code: contact_dynamics.cpp 34.8 ->
# 19.7 s, six_d_departures.cpp 21.0 -> 16.0 s (clang 14, -O1 -g1).
# UBSan alone (preset "fuzz") keeps them all.
if(contactref_sanitizers)
  add_compile_options(-fsanitize=${contactref_sanitizers} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  if(contactref_sanitizers STREQUAL "address,undefined")
    add_compile_options(-fno-sanitize=object-size,null,alignment,pointer-overflow)
  endif()
  add_link_options(-fsanitize=${contactref_sanitizers})
  add_compile_definitions(CONTACTREF_SANITIZED_BUILD)
endif()
