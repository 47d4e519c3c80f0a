// The flags that shape the SEED pipeline, shared by `train` and `bench` so a
// bench run takes exactly the settings a training run would: envs per actor,
// seed and env options, the inference batcher, device, unrolls, model, learner
// batch and LibTorch threads. --env and --actors stay with each command (their
// ranges differ: train allows 0 actors with remote actors).
#pragma once

#include <CLI/CLI.hpp>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

void add_pipeline_flags(CLI::App& command, TrainConfig& config);

}  // namespace seedrl
