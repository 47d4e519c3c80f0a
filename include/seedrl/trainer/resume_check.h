// Whether a run may resume from a checkpoint written by another run config:
// the settings that shape the environment's observations and actions, the
// network and the optimizer state must be the same; the rest (actors,
// devices, learning rate, budget, ...) may change between runs.
#pragma once

#include <string>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

// Empty when `run` can resume from a checkpoint of `saved`; otherwise one
// line naming the first flag that differs, e.g. "--env acrobot differs from
// the checkpoint's cartpole".
std::string resume_mismatch(const TrainConfig& saved, const TrainConfig& run);

}  // namespace seedrl
