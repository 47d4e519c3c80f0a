# CTest build/layering: proves that the include views of cmake/SeedrlLayers.cmake
# hold. Each probe is a one-line source compiled with exactly the flags of an
# area's library (an OBJECT library linked to it, built only by the test):
# the `ok` probe includes a header of an area below (it must compile), the
# `bad` probe a header of an area above or beside it (it must fail with "file
# not found" for that header; failing for any other reason fails the test).

# seedrl_layering_probe(<area> <ok header> <bad header>)
function(seedrl_layering_probe area ok bad)
  get_property(_target GLOBAL PROPERTY SEEDRL_AREA_TARGET_${area})
  foreach(_kind ok bad)
    set(_name seedrl_layering_${area}_${_kind})
    set(_source ${PROJECT_BINARY_DIR}/layering/${_name}.cc)
    file(CONFIGURE OUTPUT ${_source} CONTENT "#include \"${${_kind}}\"
int ${_name}() { return 0; }
")
    add_library(${_name} OBJECT EXCLUDE_FROM_ALL ${_source})
    target_link_libraries(${_name} PRIVATE ${_target})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY SEEDRL_LAYERING_OK seedrl_layering_${area}_ok)
  set_property(GLOBAL APPEND PROPERTY SEEDRL_LAYERING_BAD "seedrl_layering_${area}_bad=${bad}")
endfunction()

# The back-edges this layering removed, and one further up for each end.
seedrl_layering_probe(env     seedrl/util/rng.h                  seedrl/io/input_file.h)
seedrl_layering_probe(actor   seedrl/env/env_step.h              seedrl/inference/request_batcher.h)
seedrl_layering_probe(learner seedrl/env/env_step.h              seedrl/inference/inference_server.h)
seedrl_layering_probe(report  seedrl/util/constant_time_equal.h  seedrl/net/protocol.h)
seedrl_layering_probe(video   seedrl/env/spec.h                  seedrl/trainer/evaluate.h)
seedrl_layering_probe(trainer seedrl/util/rng.h                  seedrl/cli/commands.h)

get_property(_ok GLOBAL PROPERTY SEEDRL_LAYERING_OK)
get_property(_bad GLOBAL PROPERTY SEEDRL_LAYERING_BAD)
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/layering/probes.cmake CONTENT "set(OK_TARGETS \"${_ok}\")
set(BAD_PROBES \"${_bad}\")
")
add_test(NAME build/layering
         COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DPROBES=${PROJECT_BINARY_DIR}/layering/probes.cmake
                 -P ${CMAKE_CURRENT_LIST_DIR}/check_layering.cmake)
# It runs the build tool on this build tree: time for a cold compile of the probes.
set_tests_properties(build/layering PROPERTIES LABELS build TIMEOUT 600)
