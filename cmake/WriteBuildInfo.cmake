# Run at every build (cmake -P): writes build_info.cpp from its template with
# the current git revision, touching the file only when its content changes.
execute_process(COMMAND git describe --always --dirty --abbrev=12
                WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                OUTPUT_VARIABLE CONTACTREF_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR CONTACTREF_GIT_REVISION STREQUAL "")
  set(CONTACTREF_GIT_REVISION "unknown")
endif()
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
