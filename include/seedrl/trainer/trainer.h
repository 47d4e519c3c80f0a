// Runs one training job in this process: actors, central inference, the
// trajectory store and the learner, plus logging, metrics and checkpoints.
// Owns every thread it starts and shuts them down in dependency order.
#pragma once

#include <torch/types.h>

#include "seedrl/env/play.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

// Returns the process exit status: 0 done, 130 interrupted (after a final
// checkpoint), 1 failed.
int train(TrainConfig config);

// A checkpoint's policy as a PlayPolicy, with the run config it was trained
// with (env name, env options, model). Samples actions, or takes the most
// likely with `greedy`. Throws CheckpointError naming the file.
struct CheckpointPolicy {
  TrainConfig config;
  PlayPolicy policy;
};
CheckpointPolicy load_checkpoint_policy(const std::string& checkpoint, std::uint64_t seed, bool greedy);

// Plays `episodes` episodes of the checkpoint's environment with its policy.
PlayStats evaluate(const std::string& checkpoint, int episodes, std::uint64_t seed, bool greedy);

}  // namespace seedrl
