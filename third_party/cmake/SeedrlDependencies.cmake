# Finds every external dependency from Debian 12 packages (see ../packages.txt)
# and exposes each under a seedrl:: alias so the rest of the build does not care
# where it came from. A CUDA LibTorch is found instead of Debian's when
# CMAKE_PREFIX_PATH points at a PyTorch install (torch.utils.cmake_prefix_path).
find_package(Threads REQUIRED)
find_package(Torch REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(tomlplusplus 3 REQUIRED)
# giflib (libgif-dev): the animated GIFs of `--record` (src/video/).
find_package(GIF 5 REQUIRED)

set(SEEDRL_TORCH_BUNDLES_FMT OFF)
foreach(_dir IN LISTS TORCH_INCLUDE_DIRS)
  # Debian's LibTorch lives in /usr/include beside Debian's own fmt: not bundled.
  if(EXISTS "${_dir}/fmt/format.h" AND NOT _dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
    set(SEEDRL_TORCH_BUNDLES_FMT ON)
  endif()
endforeach()

add_library(seedrl_torch INTERFACE)
if(SEEDRL_TORCH_BUNDLES_FMT)
  # A PyTorch wheel's libtorch_cpu.so also exports std::filesystem symbols of
  # the older libstdc++ it was built with; bound ahead of the system libstdc++
  # they crash (seen: create_directories). Listing libstdc++ before LibTorch
  # makes it the first library searched, so our calls bind to the library we
  # compiled against.
  target_link_libraries(seedrl_torch INTERFACE "-Wl,--push-state,--no-as-needed" stdc++ "-Wl,--pop-state")
endif()
target_link_libraries(seedrl_torch INTERFACE ${TORCH_LIBRARIES})
target_include_directories(seedrl_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
if(TORCH_CXX_FLAGS)
  separate_arguments(_seedrl_torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
  target_compile_options(seedrl_torch INTERFACE ${_seedrl_torch_flags})
endif()
add_library(seedrl::torch ALIAS seedrl_torch)

# spdlog: Debian's is compiled against Debian's fmt. A PyTorch 2.x LibTorch
# ships its own, newer fmt in its include directory, which shadows Debian's;
# against such a LibTorch, spdlog is used header-only on std::format instead
# (GCC 13's <format>; Debian 12's GCC 12 builds take the first branch).
add_library(seedrl_spdlog INTERFACE)
if(SEEDRL_TORCH_BUNDLES_FMT)
  message(STATUS "LibTorch bundles fmt: spdlog header-only with std::format")
  get_target_property(_spdlog_inc spdlog::spdlog INTERFACE_INCLUDE_DIRECTORIES)
  if(_spdlog_inc)
    target_include_directories(seedrl_spdlog SYSTEM INTERFACE ${_spdlog_inc})
  endif()
  # Our own fmt::format/print calls then use LibTorch's fmt, header-only.
  target_compile_definitions(seedrl_spdlog INTERFACE SPDLOG_HEADER_ONLY SPDLOG_USE_STD_FORMAT FMT_HEADER_ONLY)
else()
  target_link_libraries(seedrl_spdlog INTERFACE spdlog::spdlog)
endif()
add_library(seedrl::spdlog ALIAS seedrl_spdlog)

add_library(seedrl_boost INTERFACE)
target_link_libraries(seedrl_boost INTERFACE Boost::headers)
target_compile_definitions(seedrl_boost INTERFACE BOOST_ASIO_NO_DEPRECATED)
add_library(seedrl::boost ALIAS seedrl_boost)

# toml++ (--config files), header-only: Debian's imported target links its
# shared library and defines TOML_HEADER_ONLY=0 for every source of whatever
# links it, which would differ from the flags the shared precompiled header
# was built with. Header-only, only the file that includes it pays.
add_library(seedrl_toml INTERFACE)
get_target_property(_toml_inc tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(seedrl_toml SYSTEM INTERFACE ${_toml_inc})
add_library(seedrl::toml ALIAS seedrl_toml)

# MuJoCo is optional at build time so that a machine without libmujoco-dev
# still builds everything else; the mujoco:* environments then say so at run time.
add_library(seedrl_mujoco INTERFACE)
find_package(mujoco QUIET)
if(mujoco_FOUND)
  target_link_libraries(seedrl_mujoco INTERFACE mujoco::mujoco)
  target_compile_definitions(seedrl_mujoco INTERFACE SEEDRL_HAVE_MUJOCO=1)
endif()
add_library(seedrl::mujoco ALIAS seedrl_mujoco)

# oneDNN (libdnnl-dev), the library Debian's LibTorch already links, for the
# learner's float32 CPU matrix products (learner/cpu_matmul.h). Optional: found,
# only src/learner/cpu_matmul.cc sees its header and SEEDRL_HAVE_ONEDNN;
# without it those products are LibTorch's. Used only where LibTorch's
# libtorch_cpu links that same shared library: a PyTorch wheel carries its own
# oneDNN inside libtorch_cpu, and two oneDNNs in one process could bind our
# calls across versions. Found by header and library rather than
# dnnl-config.cmake, which would also want OpenCL's CMake package.
add_library(seedrl_onednn INTERFACE)
find_path(SEEDRL_ONEDNN_INCLUDE_DIR oneapi/dnnl/dnnl.hpp)
find_library(SEEDRL_ONEDNN_LIBRARY NAMES dnnl)
find_library(SEEDRL_TORCH_CPU_LIBRARY torch_cpu HINTS "${TORCH_INSTALL_PREFIX}/lib")
find_program(SEEDRL_READELF readelf)
set(SEEDRL_HAVE_ONEDNN OFF)
if(SEEDRL_ONEDNN_INCLUDE_DIR AND SEEDRL_ONEDNN_LIBRARY AND SEEDRL_TORCH_CPU_LIBRARY AND SEEDRL_READELF)
  execute_process(COMMAND "${SEEDRL_READELF}" -d "${SEEDRL_TORCH_CPU_LIBRARY}" OUTPUT_VARIABLE _torch_needs
                  ERROR_QUIET RESULT_VARIABLE _readelf_status)
  get_filename_component(_onednn_name "${SEEDRL_ONEDNN_LIBRARY}" NAME)
  if(_readelf_status EQUAL 0 AND _torch_needs MATCHES "\\[${_onednn_name}")
    set(SEEDRL_HAVE_ONEDNN ON)
    target_link_libraries(seedrl_onednn INTERFACE ${SEEDRL_ONEDNN_LIBRARY})
  endif()
endif()
message(STATUS "seedrl: oneDNN for the learner's CPU matmuls: ${SEEDRL_HAVE_ONEDNN}")
add_library(seedrl::onednn ALIAS seedrl_onednn)

# The Arcade Learning Environment's C++ library (third_party/install-ale.sh) is
# optional too: found, it compiles the atari:* environments in;
# -DALE_ROOT=PREFIX or CMAKE_PREFIX_PATH point at an install elsewhere than
# /opt/ale or a system prefix. seedrl::ale only links it: the few files that
# use ALE get its headers and SEEDRL_WITH_ALE through seedrl_use_ale(), so
# every other file compiles the same with or without ALE (compiler caches
# stay shared).
add_library(seedrl_ale INTERFACE)
set(SEEDRL_HAVE_ALE OFF)
find_package(ale 0.12 CONFIG QUIET HINTS ${ALE_ROOT} $ENV{ALE_ROOT} /opt/ale)
if(ale_FOUND AND TARGET ale::ale-lib)
  set(SEEDRL_HAVE_ALE ON)
  # ALE's exported include directory is <prefix>/include/ale, yet its headers
  # include "ale/...": the prefix's include directory is needed as well.
  get_filename_component(_ale_prefix "${ale_DIR}/../../.." ABSOLUTE)
  set(SEEDRL_ALE_COMPILE_OPTIONS "-isystem${_ale_prefix}/include" "-isystem${_ale_prefix}/include/ale")
  target_link_libraries(seedrl_ale INTERFACE "$<LINK_ONLY:ale::ale-lib>")
  message(STATUS "ALE ${ale_VERSION} found in ${_ale_prefix}: atari:* environments on")
else()
  message(STATUS "ALE not found: no atari:* environments (third_party/install-ale.sh, then -DALE_ROOT=PREFIX)")
endif()
add_library(seedrl::ale ALIAS seedrl_ale)
# ALE's headers and SEEDRL_WITH_ALE=1 for these sources (of the calling
# directory's targets), when ALE was found.
function(seedrl_use_ale)
  if(SEEDRL_HAVE_ALE)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS ${SEEDRL_ALE_COMPILE_OPTIONS})
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_DEFINITIONS SEEDRL_WITH_ALE=1)
  endif()
endfunction()
# Where atari:* looks for ROMs when neither --rom-dir nor SEEDRL_ATARI_ROMS
# says: this, else ../shared/ale/roms beside the source tree when it exists.
set(SEEDRL_ATARI_ROMS "" CACHE PATH "Default Atari ROM directory")
set(SEEDRL_ATARI_ROM_DIR "${SEEDRL_ATARI_ROMS}")
if(NOT SEEDRL_ATARI_ROM_DIR AND EXISTS "${PROJECT_SOURCE_DIR}/../shared/ale/roms")
  get_filename_component(SEEDRL_ATARI_ROM_DIR "${PROJECT_SOURCE_DIR}/../shared/ale/roms" ABSOLUTE)
endif()

# Google Research Football's C++ engine (third_party/install-football.sh) is
# optional as well: -DFOOTBALL_ROOT=PREFIX or CMAKE_PREFIX_PATH point at an
# install elsewhere than /opt/football or a system prefix. As with ALE,
# seedrl::football only links it (with SDL2, Boost, EGL and GL): the engine's
# headers (which bring `using namespace blunted` and their macros along) and
# SEEDRL_WITH_FOOTBALL go only to the files named in seedrl_use_football().
add_library(seedrl_football INTERFACE)
set(SEEDRL_HAVE_FOOTBALL OFF)
set(_football_data_dir "")
set(_football_font "")
find_package(football 2 CONFIG QUIET HINTS ${FOOTBALL_ROOT} $ENV{FOOTBALL_ROOT} /opt/football)
if(football_FOUND AND TARGET football::engine)
  set(SEEDRL_HAVE_FOOTBALL ON)
  get_target_property(_football_inc football::engine INTERFACE_INCLUDE_DIRECTORIES)
  set(SEEDRL_FOOTBALL_COMPILE_OPTIONS)
  foreach(_dir IN LISTS _football_inc)
    list(APPEND SEEDRL_FOOTBALL_COMPILE_OPTIONS "-isystem${_dir}")
  endforeach()
  target_link_libraries(seedrl_football INTERFACE "$<LINK_ONLY:football::engine>")
  set(_football_data_dir "${FOOTBALL_DATA_DIR}")
  set(_football_font "${FOOTBALL_FONT}")
  get_filename_component(_football_prefix "${football_DIR}/../../.." ABSOLUTE)
  message(STATUS "Google Research Football ${football_VERSION} found in ${_football_prefix}: engine available")
else()
  message(STATUS "Google Research Football not found: no football environments "
                 "(third_party/install-football.sh, then -DFOOTBALL_ROOT=PREFIX)")
endif()
add_library(seedrl::football ALIAS seedrl_football)
# The engine's headers and SEEDRL_WITH_FOOTBALL=1 for these sources (of the
# calling directory's targets), when the engine was found.
function(seedrl_use_football)
  if(SEEDRL_HAVE_FOOTBALL)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS ${SEEDRL_FOOTBALL_COMPILE_OPTIONS})
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_DEFINITIONS SEEDRL_WITH_FOOTBALL=1)
  endif()
endfunction()
# What the engine loads at run time: its data folder (GameConfig::data_dir)
# and font ($GFOOTBALL_FONT). Each follows the install found unless set on the
# command line (set empty, it follows again); empty without the engine.
function(_seedrl_football_path var type value doc)
  if("${${var}}" STREQUAL "" OR "${${var}}" STREQUAL "${_${var}_AUTO}")
    set(${var} "${value}" CACHE ${type} "${doc}" FORCE)
    set(_${var}_AUTO "${value}" CACHE INTERNAL "")
  else()
    set_property(CACHE ${var} PROPERTY TYPE ${type})
    set_property(CACHE ${var} PROPERTY HELPSTRING "${doc}")
  endif()
endfunction()
_seedrl_football_path(SEEDRL_FOOTBALL_DATA_DIR PATH "${_football_data_dir}"
                      "Google Research Football data directory (default: the found install's)")
_seedrl_football_path(SEEDRL_FOOTBALL_FONT FILEPATH "${_football_font}"
                      "Google Research Football font file (default: the found install's)")

# dygraphs (libjs-dygraphs), the charts `seedrl report` inlines into its
# pages; read at run time (src/report/dygraphs_assets.cc), which also looks in
# /usr/share/javascript/dygraphs when it was not found here.
find_file(SEEDRL_DYGRAPHS_JS dygraph.min.js PATHS /usr/share /usr/local/share PATH_SUFFIXES javascript/dygraphs
          NO_CMAKE_FIND_ROOT_PATH)
set(SEEDRL_DYGRAPHS_DIR "")
if(SEEDRL_DYGRAPHS_JS)
  get_filename_component(SEEDRL_DYGRAPHS_DIR "${SEEDRL_DYGRAPHS_JS}" DIRECTORY)
else()
  message(STATUS "libjs-dygraphs not found: `seedrl report` needs it at run time (apt-get install libjs-dygraphs)")
endif()

if(SEEDRL_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
if(SEEDRL_BUILD_BENCH)
  find_package(benchmark QUIET)
endif()
