// What an ActorPool runs: which env, how many threads and envs per thread,
// where its slots start, its seed and its frame budget.
#pragma once

#include <cstdint>
#include <string>

#include "seedrl/env/registry.h"

namespace seedrl {

struct ActorPoolConfig {
  std::string env;
  EnvOptions env_options;
  int actors = 1;
  int envs_per_actor = 1;
  int nice = 0;  // lower_actor_thread_priority(nice) in each thread; 0: left as is
  int first_slot = 0;
  std::uint64_t seed = 0;
  std::int64_t max_frames = 0;            // 0: unlimited; actors stop once the shared counter reaches it
  std::string threads_flag = "--actors";  // the flag that set `actors`, for errors
  const EnvRegistry* registry = nullptr;  // where `env` is made; nullptr: EnvRegistry::builtin()
};

}  // namespace seedrl
