# `cmake --install build --prefix P` (docs/install.md) puts under P:
#   bin/tlmcraft                      the CLI                                  (component runtime)
#   share/tlmcraft/...                the run-time data, in the source layout  (component runtime)
#   lib/libtlm_*.a, include/tlmcraft  the libraries and their headers          (component development)
#   lib/cmake/tlmcraft                the package: find_package(tlmcraft) gives tlmcraft::<library>
# Included by the top-level CMakeLists.txt after every library folder is added.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TLMCRAFT_DATA_DESTINATION ${CMAKE_INSTALL_DATADIR}/tlmcraft)
set(TLMCRAFT_INCLUDE_DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tlmcraft)
set(TLMCRAFT_PACKAGE_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tlmcraft)
# Folders whose data files are read at run time (common/data_dir.h resolves paths in them).
set(TLMCRAFT_DATA_FOLDERS isa platforms tasks models docs agent/data)

# Every library target defined in `dir` or below it.
function(tlmcraft_libraries_in dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  set(found "")
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(type MATCHES "^(STATIC|SHARED|INTERFACE)_LIBRARY$")
      list(APPEND found ${t})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    tlmcraft_libraries_in(${sub} below)
    list(APPEND found ${below})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

set(TLMCRAFT_LIBRARIES "")
foreach(dir ${TLMCRAFT_LIBRARY_FOLDERS})
  if(EXISTS ${CMAKE_SOURCE_DIR}/${dir}/CMakeLists.txt)
    tlmcraft_libraries_in(${CMAKE_SOURCE_DIR}/${dir} libs)
    list(APPEND TLMCRAFT_LIBRARIES ${libs})
  endif()
endforeach()
list(REMOVE_DUPLICATES TLMCRAFT_LIBRARIES)

# Exported as tlmcraft::<name without tlm_>. Their include folders (source paths) hold for the
# build tree only; installed, the headers are under include/tlmcraft with the same layout.
foreach(lib ${TLMCRAFT_LIBRARIES})
  string(REGEX REPLACE "^tlm_" "" export_name ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${export_name})
  get_target_property(includes ${lib} INTERFACE_INCLUDE_DIRECTORIES)
  if(includes)
    set(wrapped "")
    foreach(inc ${includes})
      if(inc MATCHES "^\\$<")
        list(APPEND wrapped "${inc}")
      else()
        list(APPEND wrapped "$<BUILD_INTERFACE:${inc}>")
      endif()
    endforeach()
    set_target_properties(${lib} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${wrapped}")
  endif()
  target_include_directories(${lib} INTERFACE $<INSTALL_INTERFACE:${TLMCRAFT_INCLUDE_DESTINATION}>)
  # Debian's libsystemc is C++17: consumers must compile with it too.
  target_compile_features(${lib} INTERFACE cxx_std_17)
endforeach()

install(TARGETS tlmcraft EXPORT tlmcraftTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(TARGETS ${TLMCRAFT_LIBRARIES} EXPORT tlmcraftTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)

# Headers keep their source paths (#include "platforms/platform.h").
set(header_roots "")
foreach(dir ${TLMCRAFT_LIBRARY_FOLDERS})
  string(REGEX REPLACE "/.*" "" root ${dir})
  list(APPEND header_roots ${root})
endforeach()
list(REMOVE_DUPLICATES header_roots)
foreach(root ${header_roots})
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${root}/ DESTINATION ${TLMCRAFT_INCLUDE_DESTINATION}/${root}
          COMPONENT development FILES_MATCHING PATTERN "*.h")
endforeach()

# Data: everything in the data folders but code and build files (YAML, kernels, templates,
# the Coral runtime, docs), so a file added or moved there is installed without a rule.
foreach(dir ${TLMCRAFT_DATA_FOLDERS})
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir}/ DESTINATION ${TLMCRAFT_DATA_DESTINATION}/${dir} COMPONENT runtime
          PATTERN "*.cpp" EXCLUDE PATTERN "*.h" EXCLUDE PATTERN "CMakeLists.txt" EXCLUDE PATTERN "*.cmake" EXCLUDE)
endforeach()

# No empty folders in the data and header trees (their source folders held only code).
function(tlmcraft_install_pruned folder component)
  install(CODE "include(\"${CMAKE_SOURCE_DIR}/cmake/prune_empty_dirs.cmake\")
prune_empty_dirs(\"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${folder}\")" COMPONENT ${component})
endfunction()
tlmcraft_install_pruned(${TLMCRAFT_DATA_DESTINATION} runtime)
tlmcraft_install_pruned(${TLMCRAFT_INCLUDE_DESTINATION} development)

install(EXPORT tlmcraftTargets NAMESPACE tlmcraft:: DESTINATION ${TLMCRAFT_PACKAGE_DESTINATION} COMPONENT development)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/tlmcraftConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/tlmcraftConfig.cmake
  INSTALL_DESTINATION ${TLMCRAFT_PACKAGE_DESTINATION}
  PATH_VARS TLMCRAFT_DATA_DESTINATION TLMCRAFT_INCLUDE_DESTINATION)
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/tlmcraftConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/tlmcraftConfig.cmake ${CMAKE_BINARY_DIR}/cmake/tlmcraftConfigVersion.cmake
        DESTINATION ${TLMCRAFT_PACKAGE_DESTINATION} COMPONENT development)
