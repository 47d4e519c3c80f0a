// What `train --algo r2d2` and `bench --algo r2d2` set up the same way from a
// TrainConfig: the flag checks, the replayed sequence's layout and the
// replay's settings.
#pragma once

#include <string>

#include "seedrl/env/spec.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/trainer/train_config.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl {

// Throws std::invalid_argument naming the flag at fault.
void validate_r2d2_config(const TrainConfig& config);

// The replay flags R2D2 and SAC share (--min-replay, --batch-size against
// --replay-capacity); `algo` names the caller in the --normalize-obs refusal.
void validate_replay_flags(const TrainConfig& config, const std::string& algo);

// A sequence of burn_in + unroll_length + 1 entries, a new one every
// unroll_length - sequence_overlap steps; the policy field holds the previous
// action and the acting Q-values (inference/q_value_step.h). Throws
// std::invalid_argument naming --algo for an env without discrete actions.
UnrollLayout r2d2_sequence_layout(const TrainConfig& config, const EnvSpec& spec);

r2d2::ReplayConfig r2d2_replay_config(const TrainConfig& config);

}  // namespace seedrl
