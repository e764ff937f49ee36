include(${CMAKE_CURRENT_LIST_DIR}/Warnings.cmake)  # contactref_warnings()

# contactref_library(NAME ALIAS SOURCES ... DEPENDS ... [PRECOMPILE headers ...] [UNITY])
# One library per folder. Headers are included by their path from the
# repository root ("reference/spatial/adjoint.hpp"), in this build and, for
# the installed layers (cmake/Install.cmake), from include/contactref. The
# alias is also the name the library is exported under, so a consumer of the
# installed package links the same contactref::ALIAS as the project does.
# UNITY: compile as unity units where CONTACTREF_UNITY is on
# (cmake/UnityBuilds.cmake).
include(GNUInstallDirs)
function(contactref_library name)
  cmake_parse_arguments(ARG "UNITY" "ALIAS" "SOURCES;DEPENDS;PRECOMPILE" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                            $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/contactref>)
  target_link_libraries(${name} PUBLIC ${ARG_DEPENDS})
  # The headers use C++20 (defaulted operator<=>, ...): consumers need it too.
  target_compile_features(${name} PUBLIC cxx_std_20)
  contactref_warnings(${name})
  # A library of a few units pays more for its own precompiled header
  # (cmake/PrecompiledHeaders.cmake) than it saves; PRECOMPILE adds headers.
  list(LENGTH ARG_SOURCES unit_count)
  if(unit_count GREATER 4)
    contactref_precompile(${name} ${ARG_PRECOMPILE})
  endif()
  if(ARG_UNITY)
    set_target_properties(${name} PROPERTIES UNITY_BUILD ${CONTACTREF_UNITY})
  endif()
  if(ARG_ALIAS)
    add_library(contactref::${ARG_ALIAS} ALIAS ${name})
    set_target_properties(${name} PROPERTIES EXPORT_NAME ${ARG_ALIAS})
  endif()
endfunction()
