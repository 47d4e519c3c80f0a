# Run by the CTest build/layering (cmake/SeedrlLayeringTest.cmake):
#   cmake -DBUILD_DIR=<build tree> -DPROBES=<probes.cmake> -P check_layering.cmake
include(${PROBES})

execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${OK_TARGETS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "build/layering: a header an area may include does not compile there:\n${out}")
endif()

foreach(probe IN LISTS BAD_PROBES)
  string(REPLACE "=" ";" probe "${probe}")
  list(GET probe 0 target)
  list(GET probe 1 header)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${target}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(FATAL_ERROR "build/layering: ${target} compiled, yet it includes ${header}, a header of an area "
                        "its area does not depend on: the include views let a back-edge through")
  endif()
  string(REPLACE "." "\\." header_regex "${header}")
  if(NOT out MATCHES "${header_regex}[^\n]*(No such file|file not found)")
    message(FATAL_ERROR "build/layering: ${target} failed, but not for want of ${header}:\n${out}")
  endif()
  message(STATUS "${target}: ${header} is out of reach, as it should be")
endforeach()
