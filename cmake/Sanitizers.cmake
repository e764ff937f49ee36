# CONTACTREF_SANITIZE=ON (preset "asan"): AddressSanitizer and
# UndefinedBehaviorSanitizer for every target; any UB report aborts the test.
option(CONTACTREF_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(CONTACTREF_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
