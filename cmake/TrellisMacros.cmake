# Helpers shared by every Trellis CMakeLists.
#
# Everything links against the monolithic libMLIR.so (target `MLIR`), which on
# Debian's LLVM 22 also carries MlirOptMain, the LSP server, the execution
# engine and registerAll*; nothing links a static MLIR archive.

# One precompiled header (cmake/TrellisPCH.h) for every library below: it
# cuts a cold build by about half on two cores. Compiled once, by the
# TrellisPCH object library, and reused by the others, which works because
# they share its compile options (a library with its own -O or -march
# would need its own). TRELLIS_PCH=OFF compiles without it.
if(TRELLIS_PCH)
  add_library(TrellisPCH OBJECT ${PROJECT_SOURCE_DIR}/cmake/TrellisPCH.cpp)
  target_precompile_headers(TrellisPCH PRIVATE
    ${PROJECT_SOURCE_DIR}/cmake/TrellisPCH.h)
  set_target_properties(TrellisPCH PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # ccache can cache sources that use the PCH only when the PCH carries no
  # timestamp (scripts/build.sh sets the matching CCACHE_SLOPPINESS).
  target_compile_options(TrellisPCH PRIVATE -Xclang -fno-pch-timestamp)
endif()

# trellis_add_library(<name> <sources...> [DEPENDS <targets...>]
#                     [LINK_LIBS <targets...>])
# A static library that is installed and exported as Trellis::<name>.
function(trellis_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  add_dependencies(${name} mlir-headers)
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}>
    $<INSTALL_INTERFACE:include>)
  # Debian's imported MLIR/LLVM targets carry no include directories;
  # users of the installed package need them too.
  target_include_directories(${name} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(TRELLIS_PCH)
    target_precompile_headers(${name} REUSE_FROM TrellisPCH)
  endif()
  set_property(GLOBAL APPEND PROPERTY TRELLIS_EXPORTED_LIBS ${name})
endfunction()

# TableGen: call mlir_tablegen directly in the .td's folder (under
# include/trellis for public interfaces), so every generated header lands
# beside its .td under the build tree.

# trellis_add_tool(<name> <sources...> LINK_LIBS <targets...>)
function(trellis_add_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} MLIR LLVM)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${TRELLIS_TOOLS_DIR})
  install(TARGETS ${name} EXPORT TrellisTargets RUNTIME DESTINATION bin)
endfunction()
