# Install rules and the exported CMake package: another project does
#   find_package(Trellis REQUIRED CONFIG)
#   target_link_libraries(my-tool PRIVATE Trellis::Trellis)
# and gets the dialects, passes, pipelines and runtime with their headers.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)

get_property(trellis_libs GLOBAL PROPERTY TRELLIS_EXPORTED_LIBS)
install(TARGETS ${trellis_libs} EXPORT TrellisTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# Only the public headers install: include/trellis and dialects/ as in the
# source tree, with their generated .h.inc, so
# `#include "trellis/Pipelines/Registration.h"` and
# `#include "dialects/spmd/IR/SpmdOps.h"` work the same installed as
# in-tree. Headers under lib/ are private.
foreach(dir include/trellis dialects)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
endforeach()
foreach(dir include/trellis dialects)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/${dir}
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.h.inc"
    PATTERN "CMakeFiles" EXCLUDE)
endforeach()

set(TRELLIS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Trellis)
install(EXPORT TrellisTargets NAMESPACE Trellis::
  DESTINATION ${TRELLIS_CMAKE_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/TrellisConfig.cmake.in
  ${PROJECT_BINARY_DIR}/TrellisConfig.cmake
  INSTALL_DESTINATION ${TRELLIS_CMAKE_DIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/TrellisConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/TrellisConfig.cmake
              ${PROJECT_BINARY_DIR}/TrellisConfigVersion.cmake
        DESTINATION ${TRELLIS_CMAKE_DIR})
