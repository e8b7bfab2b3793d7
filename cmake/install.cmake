# install.cmake — libcirc and `cmake --install` (docs/api.md): the public API
# (include/circ/circ.h, implemented by api/*.c over every layer) as libcirc, static
# (libcirc.a) and shared (libcirc.so.MAJOR, with that SONAME), both built from one
# set of position-independent objects of every layer's sources; the `circ` tool, the
# headers, a pkg-config file (circ.pc) and a CMake package (find_package(circ CONFIG)
# gives circ::circ, the shared library, circ::circ_static, and circ::headers for
# pass plugins).  Included by the top
# CMakeLists.txt after the layers, their external libraries and the tool.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
file(READ ${CMAKE_SOURCE_DIR}/include/circ/circ.h _circ_h)
string(REGEX MATCH "CIRC_VERSION_MAJOR ([0-9]+)" _m "${_circ_h}")
set(CIRC_API_MAJOR ${CMAKE_MATCH_1})
string(REGEX MATCH "CIRC_VERSION_MINOR ([0-9]+)" _m "${_circ_h}")
set(CIRC_API_MINOR ${CMAKE_MATCH_1})

# every layer's sources (as the layers have them: a build without Z3 has the
# stand-in), then the API's
set(_circ_srcs)
foreach(_lib ${CIRC_LIBS})
  get_target_property(_s ${_lib} SOURCES)
  list(APPEND _circ_srcs ${_s})
endforeach()
# the native stage of the check calls libcirc_rt's helpers (runtime/CMakeLists.txt)
get_target_property(_rt_srcs circ_rt SOURCES)
foreach(_s ${_rt_srcs})
  list(APPEND _circ_srcs ${CMAKE_SOURCE_DIR}/runtime/${_s})
endforeach()
file(GLOB _api_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/api/*.c)
add_library(circ_objects OBJECT ${_circ_srcs} ${_api_srcs})
# plain objects, not link-time-optimization ones: libcirc.a must link into programs
# built without -flto (and by other compiler versions)
set_target_properties(circ_objects PROPERTIES POSITION_INDEPENDENT_CODE ON INTERPROCEDURAL_OPTIMIZATION OFF)
target_include_directories(circ_objects PRIVATE ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/include
                           ${UNICORN_INCLUDE_DIR} ${CAPSTONE_INCLUDE_DIR})
if(CIRC_HAVE_Z3)
  target_include_directories(circ_objects PRIVATE ${Z3_INCLUDE_DIR})
endif()
# the external libraries libcirc needs (private to the shared one); dl: pass plugins
set(CIRC_EXTERNAL_LIBS ${UNICORN_LIBRARY} ${CAPSTONE_LIBRARY} m ${CMAKE_DL_LIBS})
if(CIRC_HAVE_Z3)
  list(PREPEND CIRC_EXTERNAL_LIBS ${Z3_LIBRARY})
endif()

add_library(circ_static STATIC $<TARGET_OBJECTS:circ_objects>)
add_library(circ_shared SHARED $<TARGET_OBJECTS:circ_objects>)
set_target_properties(circ_static PROPERTIES OUTPUT_NAME circ EXPORT_NAME circ_static INTERPROCEDURAL_OPTIMIZATION OFF)
set_target_properties(circ_shared PROPERTIES OUTPUT_NAME circ EXPORT_NAME circ INTERPROCEDURAL_OPTIMIZATION OFF
                      VERSION ${CIRC_API_MAJOR}.${CIRC_API_MINOR} SOVERSION ${CIRC_API_MAJOR})
target_link_libraries(circ_shared PRIVATE ${CIRC_EXTERNAL_LIBS})
target_link_libraries(circ_static INTERFACE ${CIRC_EXTERNAL_LIBS})
foreach(_t circ_static circ_shared)
  target_include_directories(${_t} INTERFACE $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# the circ tool has the API too, and exports its circ_* functions: pass plugins
# (include/circ/pass.h) loaded with --load-pass-plugin call them
target_sources(circ PRIVATE ${_api_srcs})
target_include_directories(circ PRIVATE ${CMAKE_SOURCE_DIR}/include)
# (exactly the functions the public headers declare)
file(GLOB _api_headers ${CMAKE_SOURCE_DIR}/include/circ/*.h)
set(_api_names)
foreach(_h ${_api_headers})
  file(READ ${_h} _text)
  string(REGEX MATCHALL "[ *](circ_[a-z0-9_]+)\\(" _calls "${_text}")
  foreach(_c ${_calls})
    string(REGEX REPLACE "^[ *](circ_[a-z0-9_]+)\\($" "\\1" _n "${_c}")
    list(APPEND _api_names ${_n})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _api_names)
string(JOIN "; " _api_list ${_api_names})
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/circ_api.dynlist "{ ${_api_list}; };\n")
target_link_options(circ PRIVATE -Wl,--dynamic-list=${CMAKE_CURRENT_BINARY_DIR}/circ_api.dynlist)
target_link_libraries(circ PRIVATE ${CMAKE_DL_LIBS})

install(TARGETS circ RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# circ::headers: the headers alone, for pass plugins (include/circ/pass.h), which
# the program that loads them provides the functions of
add_library(circ_headers INTERFACE)
set_target_properties(circ_headers PROPERTIES EXPORT_NAME headers)
target_include_directories(circ_headers INTERFACE $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
                           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS circ_static circ_shared circ_headers EXPORT circTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/circ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# libcirc_rt, what circ's objects link with (docs/objects.md), and its two headers
install(TARGETS circ_rt ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_SOURCE_DIR}/runtime/circ_rt.h ${CMAKE_SOURCE_DIR}/runtime/circ_abi.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/circ)
install(EXPORT circTargets NAMESPACE circ:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/circ)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/circConfigVersion.cmake
                                 VERSION ${CIRC_API_MAJOR}.${CIRC_API_MINOR} COMPATIBILITY SameMajorVersion)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/circConfig.cmake
     "# circConfig.cmake — find_package(circ CONFIG): circ::circ (shared), circ::circ_static,\n"
     "# circ::headers (pass plugins: the headers only)\n"
     "include(\${CMAKE_CURRENT_LIST_DIR}/circTargets.cmake)\n")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/circConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/circConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/circ)

# pkg-config: circ (Libs.private: what a static link needs)
set(_pc_private)
foreach(_l ${CIRC_EXTERNAL_LIBS})
  get_filename_component(_n ${_l} NAME_WE)
  string(REGEX REPLACE "^lib" "" _n ${_n})
  string(APPEND _pc_private " -l${_n}")
endforeach()
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/circ.pc.in
     "prefix=@CMAKE_INSTALL_PREFIX@\n"
     "libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}\n"
     "includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}\n\n"
     "Name: circ\n"
     "Description: Circuit IR compiler and differential fuzzing toolkit (the circ C API)\n"
     "Version: ${CIRC_API_MAJOR}.${CIRC_API_MINOR}\n"
     "Cflags: -I\${includedir}\n"
     "Libs: -L\${libdir} -lcirc\n"
     "Libs.private:${_pc_private}\n")
install(CODE "
  set(CMAKE_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(${CMAKE_CURRENT_BINARY_DIR}/circ.pc.in ${CMAKE_CURRENT_BINARY_DIR}/circ.pc @ONLY)
  file(INSTALL ${CMAKE_CURRENT_BINARY_DIR}/circ.pc DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\")
")
