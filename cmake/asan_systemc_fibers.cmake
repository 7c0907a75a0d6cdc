# Sanitizer builds only: every executable gets models/asan_systemc_fibers.cpp, which gives
# AddressSanitizer the right stack bounds around libsystemc's coroutine switches (without
# it every exception after a simulation can leave stale redzones: docs/reliability.md).
# Compiled without instrumentation: it defines ASan's own entry points.
add_library(tlm_asan_systemc_fibers OBJECT ${CMAKE_SOURCE_DIR}/models/asan_systemc_fibers.cpp)
target_compile_options(tlm_asan_systemc_fibers PRIVATE -fno-sanitize=all)

function(tlmcraft_add_fiber_fix dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "EXECUTABLE")
      target_sources(${t} PRIVATE $<TARGET_OBJECTS:tlm_asan_systemc_fibers>)
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    tlmcraft_add_fiber_fix(${sub})
  endforeach()
endfunction()
tlmcraft_add_fiber_fix(${CMAKE_SOURCE_DIR})
