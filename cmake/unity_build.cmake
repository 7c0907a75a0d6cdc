# Unity builds (docs/install.md "Build options"): CMake compiles a target's sources in
# batches, one translation unit per batch, so the heavy headers every source includes
# (gtest, SystemC/TLM, nlohmann/json, yaml-cpp) are parsed once per batch instead of once per
# source. On by default, for CI's cold build; a developer who rebuilds one file at a time
# turns it off (-DTLMCRAFT_UNITY_BUILD=OFF), since a change then recompiles its whole batch.
option(TLMCRAFT_UNITY_BUILD "Compile the listed test binaries' sources in batches (unity build)" ON)
set(TLMCRAFT_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per unity batch")

# Unity builds for the given targets (those that do not exist are skipped). Two sources of
# one batch must not define the same name at file scope (static or anonymous namespace):
# scripts/check_unity_batches.py finds such clashes without a full build.
function(tlmcraft_unity_build)
  if(NOT TLMCRAFT_UNITY_BUILD)
    return()
  endif()
  foreach(target ${ARGN})
    if(TARGET ${target})
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${TLMCRAFT_UNITY_BATCH_SIZE})
    endif()
  endforeach()
endfunction()
