// SAC's own flags, and the defaults SAC gives flags it shares with the other
// algorithms (--algo and the replay flags are r2d2_flags.h's).
#pragma once

#include <set>
#include <string>

#include <CLI/CLI.hpp>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

// --tau, --init-temperature, --target-entropy, --learn-temperature, --random-steps, --critic-threads.
void add_sac_flags(CLI::App& command, TrainConfig& config);
// With --algo sac: the learning rate, discount, batch, --hidden, the n-step,
// the replay's capacity, fill and ratio, and one actor with one env, unless given.
void apply_sac_defaults(const CLI::App& command, TrainConfig& config);
// With --algo sac, throws std::invalid_argument (one line) for flags SAC
// would ignore by their value or together: a --model other than the MLP,
// --target-entropy with --fixed-temperature, and --learn-temperature with
// --fixed-temperature. As check_algorithm_flags, only flags in `typed` (the
// command line) or set by `config_file` count, not a resumed run's own.
void check_sac_flags(const CLI::App& command, const TrainConfig& config, const std::set<std::string>& typed,
                     const std::string& config_file);

}  // namespace seedrl
