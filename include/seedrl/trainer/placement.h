// Which devices run inference and which run the (data-parallel) learner:
// parsing of --devices / --inference-devices / --learner-devices and the
// default split. Pure logic: the number of visible GPUs is an argument, so the
// split for 1, 2, 4 or 8 GPUs is testable on a CPU-only machine.
#pragma once

#include <string>
#include <vector>

#include <torch/types.h>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

struct InferenceFleetConfig;  // seedrl/inference/inference_fleet.h

struct Placement {
  std::vector<torch::Device> inference;  // one batcher + inference server per entry
  std::vector<torch::Device> learner;    // one learner replica per entry
  // "inference cuda:0 | learner cuda:1,cuda:2 (data-parallel, 2 replicas)"
  std::string describe() const;
};

// "all" (every visible GPU, else one CPU) or a comma list of cpu | cuda |
// cuda:N. "cpu" may repeat (several CPU replicas); a GPU may not. Throws
// std::invalid_argument naming `flag` for an empty, malformed or missing device.
std::vector<torch::Device> parse_device_list(const std::string& text, int visible_gpus, const std::string& flag);

// The default split of `devices`: one device is shared by inference and the
// learner; with N >= 2 devices the first serves inference and the other N-1
// learn data-parallel (1+1, 1+3, 1+7 for 2, 4, 8 GPUs): central inference of
// small policies is cheap next to the learner's backward pass.
Placement default_split(const std::vector<torch::Device>& devices);

// Resolves the three flags. Empty inference/learner strings take the default
// split of `devices`; giving only one of them gives the other the remaining
// devices (or the first device when none remain). A non-empty `single_device`
// other than "auto" (the older --device flag) places everything on that one
// device unless one of the new flags was given. Throws std::invalid_argument
// naming the flag at fault: a learner list mixing CPU and GPU, or a GPU
// listed twice on one side. "cpu" may repeat on either side (several CPU replicas or
// inference batchers, as CI tests the multi-device paths).
Placement resolve_placement(const std::string& devices, const std::string& inference_devices,
                            const std::string& learner_devices, int visible_gpus,
                            const std::string& single_device = "auto");

// The same for a run's flags, with the GPUs LibTorch sees.
Placement resolve_placement(const TrainConfig& config);

// How a run's inference devices batch: its local actors and envs, its
// inference batch, timeout and threads (per device), and `remote_envs` slots
// after the local ones.
InferenceFleetConfig inference_fleet_config(const TrainConfig& config, const ArraySpec& observation, int remote_envs);

}  // namespace seedrl
