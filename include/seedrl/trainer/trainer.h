// Runs one training job in this process: actors, central inference, the
// trajectory store and the learner, plus logging, metrics and checkpoints.
// Owns every thread it starts and shuts them down in dependency order.
#pragma once

#include <torch/types.h>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

// "auto" picks CUDA when LibTorch sees a GPU. Throws std::invalid_argument
// naming --device for an unusable choice.
torch::Device resolve_device(const std::string& name);

// Returns the process exit status: 0 done, 130 interrupted (after a final
// checkpoint), 1 failed.
int train(TrainConfig config);

struct EvalResult {
  int episodes = 0;
  double return_mean = 0, return_std = 0, length_mean = 0;
};

// Plays `episodes` episodes with the policy of a checkpoint, one env, sampling
// actions (or taking the most likely with `greedy`).
EvalResult evaluate(const std::string& checkpoint, int episodes, std::uint64_t seed, bool greedy);

}  // namespace seedrl
