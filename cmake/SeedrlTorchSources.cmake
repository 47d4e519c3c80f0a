# seedrl_group_torch_sources(<target>): how <target>'s sources compile, by
# whether they reach LibTorch. LibTorch's headers and the templates they
# instantiate dominate the build (bench/RESULTS.md, "Building"):
# - a source that reaches no LibTorch header (directly, or through the project
#   headers it includes, followed recursively) compiles without the
#   precompiled header (src/pch.h), whose loading would cost it more than it
#   saves, and with SEEDRL_UNITY_BUILD in batches of its own kind;
# - the sources that reach LibTorch keep the precompiled header and, with
#   SEEDRL_UNITY_BUILD (on by default), compile SEEDRL_UNITY_BATCH at a time as
#   one translation unit (CMake's unity build, grouped in path order so that
#   neighbours share their headers): each template LibTorch, Boost.Asio or
#   Catch2 instantiates is then compiled once per batch, not once per source.
#   Names at namespace scope (anonymous namespaces included) must therefore be
#   unique across the sources of a target.
#
# Project includes are resolved as the compiler would find them: "x.h" beside
# the including file, then include/, src/, test/ and bench/; <seedrl/...> in
# include/. An include that cannot be resolved here (the standard library,
# Boost, Catch2, ...) is not LibTorch unless it names torch/, ATen/ or c10/.

option(SEEDRL_UNITY_BUILD "Compile the sources that use LibTorch in batches (unity build)" ON)
set(SEEDRL_UNITY_BATCH 8 CACHE STRING "Sources per unity batch (SEEDRL_UNITY_BUILD)")

# _seedrl_reaches_torch(<absolute file> <out var>), memoised per file in a
# global property (the include graph is a DAG in practice; a cycle is cut).
function(_seedrl_reaches_torch file out)
  string(MAKE_C_IDENTIFIER "${file}" _key)
  get_property(_known GLOBAL PROPERTY SEEDRL_REACHES_TORCH_${_key} SET)
  if(_known)
    get_property(_value GLOBAL PROPERTY SEEDRL_REACHES_TORCH_${_key})
    set(${out} ${_value} PARENT_SCOPE)
    return()
  endif()
  # Provisionally false: an include cycle back to this file ends here.
  set_property(GLOBAL PROPERTY SEEDRL_REACHES_TORCH_${_key} FALSE)
  file(STRINGS "${file}" _includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  get_filename_component(_dir "${file}" DIRECTORY)
  set(_result FALSE)
  foreach(_line IN LISTS _includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*$" "\\1" _name "${_line}")
    if(_name MATCHES "^(torch|ATen|c10)/")
      set(_result TRUE)
      break()
    endif()
    set(_found "")
    foreach(_root IN ITEMS "${_dir}" "${PROJECT_SOURCE_DIR}/include" "${PROJECT_SOURCE_DIR}/src"
                           "${PROJECT_SOURCE_DIR}/test" "${PROJECT_SOURCE_DIR}/bench")
      if(EXISTS "${_root}/${_name}" AND NOT IS_DIRECTORY "${_root}/${_name}")
        get_filename_component(_found "${_root}/${_name}" ABSOLUTE)
        break()
      endif()
    endforeach()
    if(_found)
      _seedrl_reaches_torch("${_found}" _inner)
      if(_inner)
        set(_result TRUE)
        break()
      endif()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY SEEDRL_REACHES_TORCH_${_key} ${_result})
  set(${out} ${_result} PARENT_SCOPE)
endfunction()

function(seedrl_group_torch_sources target)
  get_target_property(_sources ${target} SOURCES)
  get_target_property(_source_dir ${target} SOURCE_DIR)
  set(_torch_sources)
  set(_plain_sources)
  foreach(_source IN LISTS _sources)
    if(NOT _source MATCHES "\\.cc$")
      continue()
    endif()
    get_filename_component(_path "${_source}" ABSOLUTE BASE_DIR "${_source_dir}")
    _seedrl_reaches_torch("${_path}" _torch)
    if(_torch)
      list(APPEND _torch_sources "${_path}")
    else()
      list(APPEND _plain_sources "${_path}")
      set_source_files_properties("${_path}" TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
  if(NOT SEEDRL_UNITY_BUILD)
    return()
  endif()
  # Sources with their own compile definitions are left out by CMake itself.
  # The sources without LibTorch batch too, among themselves: CLI11, Catch2,
  # spdlog and Boost.Asio are header-only, and a source that includes one
  # spends most of its compile on that header's inline code.
  foreach(_kind IN ITEMS torch plain)
    list(SORT _${_kind}_sources)
    set(_index 0)
    foreach(_path IN LISTS _${_kind}_sources)
      math(EXPR _group "${_index} / ${SEEDRL_UNITY_BATCH}")
      set_source_files_properties("${_path}" TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP ${_kind}_${_group})
      math(EXPR _index "${_index} + 1")
      if(_kind STREQUAL "plain")
        # The batch CMake writes for them keeps out LibTorch's precompiled header too.
        get_target_property(_binary_dir ${target} BINARY_DIR)
        set_source_files_properties("${_binary_dir}/CMakeFiles/${target}.dir/Unity/unity_plain_${_group}_cxx.cxx"
                                    TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
      endif()
    endforeach()
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()
