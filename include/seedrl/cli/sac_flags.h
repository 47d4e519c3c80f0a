// SAC's own flags, and the defaults SAC gives flags it shares with the other
// algorithms (--algo and the replay flags are r2d2_flags.h's).
#pragma once

#include <CLI/CLI.hpp>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

// --tau, --init-temperature, --target-entropy, --learn-temperature, --random-steps, --critic-threads.
void add_sac_flags(CLI::App& command, TrainConfig& config);
// With --algo sac: the learning rate, discount, batch, --hidden, the n-step,
// the replay's capacity, fill and ratio, and one actor with one env, unless given.
void apply_sac_defaults(const CLI::App& command, TrainConfig& config);

}  // namespace seedrl
