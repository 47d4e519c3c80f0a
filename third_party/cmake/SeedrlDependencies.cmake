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

add_library(seedrl_torch INTERFACE)
target_link_libraries(seedrl_torch INTERFACE ${TORCH_LIBRARIES})
target_include_directories(seedrl_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
if(TORCH_CXX_FLAGS)
  separate_arguments(_seedrl_torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
  target_compile_options(seedrl_torch INTERFACE ${_seedrl_torch_flags})
endif()
add_library(seedrl::torch ALIAS seedrl_torch)

add_library(seedrl_boost INTERFACE)
target_link_libraries(seedrl_boost INTERFACE Boost::headers)
target_compile_definitions(seedrl_boost INTERFACE BOOST_ASIO_NO_DEPRECATED)
add_library(seedrl::boost ALIAS seedrl_boost)

# MuJoCo is optional at build time so that a machine without libmujoco-dev
# still builds everything else; the mujoco:* environments then say so at run time.
add_library(seedrl_mujoco INTERFACE)
find_package(mujoco QUIET)
if(mujoco_FOUND)
  target_link_libraries(seedrl_mujoco INTERFACE mujoco::mujoco)
  target_compile_definitions(seedrl_mujoco INTERFACE SEEDRL_HAVE_MUJOCO=1)
endif()
add_library(seedrl::mujoco ALIAS seedrl_mujoco)

if(SEEDRL_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
if(SEEDRL_BUILD_BENCH)
  find_package(benchmark QUIET)
endif()
