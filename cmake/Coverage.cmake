# CONTACTREF_COVERAGE=ON (preset "coverage"): gcov instrumentation, read by gcovr
# in scripts/test.sh.
option(CONTACTREF_COVERAGE "Build with gcov coverage instrumentation" OFF)
if(CONTACTREF_COVERAGE)
  add_compile_options(--coverage -fprofile-update=atomic)
  add_link_options(--coverage)
endif()
