# Warnings as errors for project code only. Third-party headers (Eigen, Boost,
# CGAL, ...) come in through imported targets, whose include directories CMake
# marks SYSTEM, so none of these flags fire inside them.
set(CONTACTREF_WARNINGS
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Woverloaded-virtual -Werror)

function(contactref_warnings target)
  target_compile_options(${target} PRIVATE ${CONTACTREF_WARNINGS})
endfunction()

# contactref_library(NAME ALIAS SOURCES ... DEPENDS ...)
# One library per folder. Headers are included by their path from the
# repository root ("reference/spatial/adjoint.hpp").
function(contactref_library name)
  cmake_parse_arguments(ARG "" "ALIAS" "SOURCES;DEPENDS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPENDS})
  contactref_warnings(${name})
  if(ARG_ALIAS)
    add_library(contactref::${ARG_ALIAS} ALIAS ${name})
  endif()
endfunction()
