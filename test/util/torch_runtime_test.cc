// --torch-threads beyond the CPUs the process may use is refused before
// LibTorch starts that many threads.
#include <catch2/catch.hpp>

#include <string>

#include "seedrl/util/cpu_affinity.h"
#include "seedrl/util/torch_runtime.h"

TEST_CASE("configure_torch_runtime refuses more threads than CPUs, naming --torch-threads", "[util]") {
  const int cpus = static_cast<int>(seedrl::thread_cpus().size());
  REQUIRE(cpus > 0);
  CHECK_THROWS_WITH(seedrl::configure_torch_runtime(cpus + 1, false), "--torch-threads: " + std::to_string(cpus + 1) +
                                                                          " is more than the " + std::to_string(cpus) +
                                                                          " CPU(s) this process may use");
}
