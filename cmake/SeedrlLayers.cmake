# One static library per area (src/<area>/ + include/seedrl/<area>/), whose
# layering the compiler enforces: an area's library sees, instead of the whole
# include/ directory, an include root of its own in the build tree,
#   <build>/include-views/<area>/seedrl/<area> -> include/seedrl/<area>
# which it hands on PUBLIC, so an area sees its own headers and those of the
# areas it depends on (transitively) and nothing else:
# `#include "seedrl/<higher area>/x.h"` from a lower area is "file not found".
# The DAG itself is written in CMakeLists.txt (docs/architecture.md draws it).

set(SEEDRL_INCLUDE_VIEWS ${PROJECT_BINARY_DIR}/include-views)

# seedrl_include_view(<target> <area> [INTERFACE]): gives <target> the include
# root that shows include/seedrl/<area>/ alone.
function(seedrl_include_view target area)
  set(_root ${SEEDRL_INCLUDE_VIEWS}/${area})
  set(_link ${_root}/seedrl/${area})
  set(_source ${PROJECT_SOURCE_DIR}/include/seedrl/${area})
  if(NOT EXISTS ${_source})
    message(FATAL_ERROR "seedrl area '${area}': ${_source} does not exist")
  endif()
  file(MAKE_DIRECTORY ${_root}/seedrl)
  # A symbolic link, not a copy: headers edited in the source tree are seen at once.
  file(CREATE_LINK ${_source} ${_link} SYMBOLIC)
  set(_scope PUBLIC)
  if(ARGV2 STREQUAL "INTERFACE")
    set(_scope INTERFACE)
  endif()
  target_include_directories(${target} ${_scope} $<BUILD_INTERFACE:${_root}>)
endfunction()

# seedrl_area(<area> [TORCH_FREE] [LIBRARY <target>] [EXCLUDE <source>...]
#             [DEPS <target>...]): the static library of src/<area>/**.cc
# (target seedrl_<area> unless LIBRARY names it; EXCLUDE: paths relative to
# the source root), seeing include/seedrl/<area>/ and, through DEPS (linked
# PUBLIC), the areas below it. Unless TORCH_FREE, LibTorch's headers come
# precompiled (src/pch.h, built once by seedrl_util, reused by every area).
function(seedrl_area area)
  cmake_parse_arguments(PARSE_ARGV 1 A "TORCH_FREE" "LIBRARY" "DEPS;EXCLUDE")
  set(_target seedrl_${area})
  if(A_LIBRARY)
    set(_target ${A_LIBRARY})
  endif()
  file(GLOB_RECURSE _sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${area}/*.cc)
  foreach(_excluded IN LISTS A_EXCLUDE)
    list(REMOVE_ITEM _sources ${PROJECT_SOURCE_DIR}/${_excluded})
  endforeach()
  add_library(${_target} STATIC ${_sources})
  seedrl_include_view(${_target} ${area})
  target_link_libraries(${_target} PUBLIC ${A_DEPS})
  target_compile_options(${_target} PRIVATE -Wall -Wextra)
  if(NOT A_TORCH_FREE)
    seedrl_area_build_settings(${_target})
    if(NOT _target STREQUAL "seedrl_util")
      target_precompile_headers(${_target} REUSE_FROM seedrl_util)
      seedrl_group_torch_sources(${_target})
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY SEEDRL_AREAS ${area})
  set_property(GLOBAL PROPERTY SEEDRL_AREA_TARGET_${area} ${_target})
  set_property(GLOBAL PROPERTY SEEDRL_AREA_DEPS_${area} ${A_DEPS})
endfunction()

# Settings every LibTorch area compiles with alike, so that all of them can
# share one precompiled header.
function(seedrl_area_build_settings target)
  if(TARGET torch_cuda OR TORCH_CUDA_LIBRARIES)
    # CUDA-only code (util/cuda_graphs.cc) is compiled in only here.
    target_compile_definitions(${target} PRIVATE SEEDRL_WITH_CUDA=1)
    # Data-parallel learner on GPUs (src/learner/replica_group.cc): c10d's
    # NCCL backend, compiled in only with a CUDA LibTorch whose nccl.h can be
    # found. The CPU replicas use Gloo, whose headers the source detects by itself.
    if(SEEDRL_NCCL_INCLUDE_DIR)
      target_include_directories(${target} SYSTEM PRIVATE ${SEEDRL_NCCL_INCLUDE_DIR})
      target_compile_definitions(${target} PRIVATE SEEDRL_WITH_NCCL=1)
    endif()
  endif()
endfunction()
