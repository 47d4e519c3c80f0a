// Thousands of actor threads can exceed what the machine allows (the kernel's
// memory-map limit stops a default Linux near 32k threads; an address-space
// limit much sooner). The pool must then name the flag at fault and leave
// the threads that did start able to stop, not abort or hang the trainer.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <string>

#include "seedrl/actor/actor_pool.h"
#include "seedrl/inference/request_batcher.h"

using namespace seedrl;

namespace {
// The process's mapped virtual memory, in bytes (VmSize).
std::uint64_t mapped_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  std::uint64_t kib = 0;
  while (status >> key) {
    if (key == "VmSize:") {
      status >> kib;
      break;
    }
  }
  return kib * 1024;
}
}  // namespace

TEST_CASE("an actor pool that cannot start every thread names its flag and the rest stop", "[actor]") {
  RequestBatcher batcher(ArraySpec{{4}, DType::kFloat32}, 8, std::chrono::microseconds(500), 2000, false);
  ActorPoolConfig c;
  c.env = "cartpole";
  c.actors = 2000;
  c.threads_flag = "--eval-envs";
  EpisodeStats stats;
  std::atomic<std::int64_t> frames{0};
  ActorPool pool(c, batcher, stats, frames);

  // Room for a few 8 MiB thread stacks, not for 2000 of them.
  rlimit old{};
  REQUIRE(getrlimit(RLIMIT_AS, &old) == 0);
  const rlimit tight{mapped_bytes() + (96u << 20), old.rlim_max};
  REQUIRE(setrlimit(RLIMIT_AS, &tight) == 0);
  std::string error;
  try {
    pool.start();
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  REQUIRE(setrlimit(RLIMIT_AS, &old) == 0);
  CHECK_THAT(error, Catch::StartsWith("--eval-envs: could not start actor thread") && Catch::Contains("of 2000"));
  // The threads that started wait on the batcher; closing it ends them.
  batcher.close();
  pool.join();
}
