// The env stage's bare-engine baseline for football:* envs (see
// EnvStageResult): per thread, `envs` engines started as football:<scenario>
// starts them, each step one random action of the 19 and the engine's step;
// an episode restarts where the env's would and set pieces are not held
// forever (the same rules and stalling rule, no observation, no rewards),
// so both loops play the same kind of game and the difference is our
// wrapper's cost.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "seedrl/trainer/train_config.h"

namespace seedrl::bench {

// Starts and resets the engines, calls `ready`, then steps until `stop`,
// storing the steps done so far in `steps` after every round over the envs.
// Throws when the build has no engine or the env is not football:*.
void run_raw_football_loop(const TrainConfig& config, int envs, std::uint64_t seed, const std::function<void()>& ready,
                           const std::atomic<bool>& stop, std::atomic<std::uint64_t>& steps);

}  // namespace seedrl::bench
