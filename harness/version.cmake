# Run at every build (cmake -P): writes the tlmcraft version header only when it changed,
# so a commit changes the version without reconfiguring and an unchanged tree rebuilds
# nothing. Inputs: SOURCE_DIR, OUTPUT.
execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR described STREQUAL "")
  set(described "unknown")
endif()
set(text "#define TLMCRAFT_VERSION \"${described}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
