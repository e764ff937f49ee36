# Warnings as errors for project code only (also the examples/, built against
# the installed package). Third-party headers (Eigen, Boost, CGAL, ...) come in
# through imported targets, whose include directories CMake marks SYSTEM, so
# none of these flags fire inside them.
set(CONTACTREF_WARNINGS
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Woverloaded-virtual -Werror)

function(contactref_warnings target)
  target_compile_options(${target} PRIVATE ${CONTACTREF_WARNINGS})
endfunction()
