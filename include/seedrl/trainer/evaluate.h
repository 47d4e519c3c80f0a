// A trained checkpoint played back: its policy as a PlayPolicy (seedrl play,
// eval, the videos) and a whole evaluation of it.
#pragma once

#include <cstdint>
#include <string>

#include "seedrl/env/play.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

// A checkpoint's policy as a PlayPolicy, with the run config it was trained
// with (env name, env options, model). Samples actions, or takes the most
// likely with `greedy`, from a random stream of its own seeded with `seed`
// (never LibTorch's global one, which a running trainer's actors draw from).
// Throws CheckpointError naming the file.
struct CheckpointPolicy {
  TrainConfig config;
  PlayPolicy policy;
};
CheckpointPolicy load_checkpoint_policy(const std::string& checkpoint, std::uint64_t seed, bool greedy);

// Plays `episodes` episodes of the checkpoint's environment with its policy.
// `rom_dir`: Atari ROM directory on this machine (--rom-dir; empty: the
// default lookup). Checkpoints do not keep it: it belongs to the machine.
PlayStats evaluate(const std::string& checkpoint, int episodes, std::uint64_t seed, bool greedy,
                   const std::string& rom_dir = "");

}  // namespace seedrl
