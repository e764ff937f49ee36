# `cmake --install`: the layer libraries (core, robust_geometry, reference/*)
# with their headers, the `contactref` CLI, and a CMake package, so that
# another project can find_package(contactref) and link contactref::surfaces
# and the rest (README, "Using contactref from another project"; examples/).
# validation/ is the project's own test infrastructure and stays out, except
# the CLI binary.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(contactref_installed_libraries
    contactref_core contactref_robust_geometry contactref_spatial contactref_surfaces
    contactref_kinematics contactref_dynamics contactref_quasi_rigid contactref_volume_contact)
set(contactref_package_dir "${CMAKE_INSTALL_LIBDIR}/cmake/contactref")

install(TARGETS ${contactref_installed_libraries} EXPORT contactrefTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
# Each library's headers keep their path from the repository root under
# include/contactref (its INSTALL_INTERFACE include directory), so installed
# code includes them exactly as the project does: "reference/surfaces/patch.hpp".
foreach(library IN LISTS contactref_installed_libraries)
  get_target_property(folder ${library} SOURCE_DIR)
  file(RELATIVE_PATH folder "${PROJECT_SOURCE_DIR}" "${folder}")
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/${folder}/"
          DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/contactref/${folder}"
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(TARGETS contactref RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

install(EXPORT contactrefTargets NAMESPACE contactref:: FILE contactrefTargets.cmake
        DESTINATION "${contactref_package_dir}")
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/contactrefConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/contactrefConfig.cmake"
                              INSTALL_DESTINATION "${contactref_package_dir}")
# Before 1.0 a minor version may change the interfaces: only the same
# major.minor is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/contactrefConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/contactrefConfig.cmake" "${PROJECT_BINARY_DIR}/contactrefConfigVersion.cmake"
        DESTINATION "${contactref_package_dir}")
