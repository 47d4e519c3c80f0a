// Torsos turn observations [N, ...] into features [N, F]. New torsos (the
// MinAtar conv net, the IMPALA ResNet) are added in make_torso.
#pragma once

#include <torch/nn/modules/container/any.h>

#include "seedrl/env/spec.h"
#include "seedrl/model/model_config.h"

namespace seedrl {

struct Torso {
  torch::nn::AnyModule module;
  int features = 0;
};

// Throws std::invalid_argument for a torso that does not fit the observation.
Torso make_torso(const ArraySpec& observation, const ModelConfig& config);

}  // namespace seedrl
