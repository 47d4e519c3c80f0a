# seedrl_skip_pch_where_torch_free(<target>): LibTorch's precompiled header
# (src/pch.h) is large; loading it costs every translation unit CPU time and
# slows its code generation (bench/RESULTS.md, "Building"), so it pays only
# where LibTorch is parsed anyway. Every source of <target> that reaches no
# LibTorch header (directly, or through the project headers it includes,
# followed recursively) compiles without it. A source that reaches LibTorch
# keeps it.
#
# Project includes are resolved as the compiler would find them: "x.h" beside
# the including file, then include/, src/, test/ and bench/; <seedrl/...> in
# include/. An include that cannot be resolved here (the standard library,
# Boost, Catch2, ...) is not LibTorch unless it names torch/, ATen/ or c10/.

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

function(seedrl_skip_pch_where_torch_free target)
  get_target_property(_sources ${target} SOURCES)
  get_target_property(_source_dir ${target} SOURCE_DIR)
  foreach(_source IN LISTS _sources)
    if(NOT _source MATCHES "\\.cc$")
      continue()
    endif()
    get_filename_component(_path "${_source}" ABSOLUTE BASE_DIR "${_source_dir}")
    _seedrl_reaches_torch("${_path}" _torch)
    if(NOT _torch)
      set_source_files_properties("${_path}" TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
