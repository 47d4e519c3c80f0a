// The env stage's bare-emulator baseline for atari:* envs (see
// EnvStageResult): per thread, `envs` ALE instances loaded and configured as
// atari:<game> would be, stepped by act() alone.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "seedrl/trainer/train_config.h"

namespace seedrl::bench {

// Makes and resets the emulators, calls `ready` (which may block until every
// thread is ready), then steps until `stop`, storing the steps done so far
// (each frame_skip act() calls) in `steps` after every round over the envs.
// Throws when the build has no ALE or the env is not atari:*.
void run_raw_atari_loop(const TrainConfig& config, int envs, std::uint64_t seed, const std::function<void()>& ready,
                        const std::atomic<bool>& stop, std::atomic<std::uint64_t>& steps);

}  // namespace seedrl::bench
