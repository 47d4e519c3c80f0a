// A checkpoint's network rebuilt from its own run config and loaded, on the
// CPU: V-trace's AgentNet, R2D2's online QNet or SAC's SacNet (actor, critics,
// targets, temperature). For tools that need the
// module itself (seedrl export) rather than a policy to play with.
#pragma once

#include <memory>
#include <string>

#include <torch/nn/module.h>

#include "seedrl/env/spec.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

struct CheckpointModel {
  TrainConfig config;
  EnvSpec spec;
  CheckpointCounters counters;
  std::shared_ptr<torch::nn::Module> module;
};

// Throws CheckpointError naming the file: a missing, damaged or crafted file,
// or one whose config does not build the network its tensors describe.
CheckpointModel load_checkpoint_model(const std::string& checkpoint);

}  // namespace seedrl
