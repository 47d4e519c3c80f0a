// What `train --algo sac` sets up from a TrainConfig: the flag checks, the
// replayed sequence's layout and the replay's settings.
#pragma once

#include "seedrl/env/spec.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/trainer/train_config.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl {

// Throws std::invalid_argument naming the flag at fault.
void validate_sac_config(const TrainConfig& config);

// One transition per stored sequence: n_step + 1 entries, a new one every
// step; actions as the env's box, nothing else recorded. Throws
// std::invalid_argument naming --algo for an env without a continuous box.
UnrollLayout sac_sequence_layout(const TrainConfig& config, const EnvSpec& spec);

// Uniform replay (no priorities, unit importance weights) with R2D2's rate
// limiter: --replay-ratio transitions sampled per transition inserted.
r2d2::ReplayConfig sac_replay_config(const TrainConfig& config);

}  // namespace seedrl
