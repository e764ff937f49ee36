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
if(contactref_sanitizers)
  add_compile_options(-fsanitize=${contactref_sanitizers} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${contactref_sanitizers})
endif()
