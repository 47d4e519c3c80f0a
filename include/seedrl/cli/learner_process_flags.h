// The flags that make one `seedrl train` process a rank of a run over
// several learner processes (docs/cluster.md), each with torchrun's
// environment variable as its default: --rank (RANK), --world-size
// (WORLD_SIZE), --master-addr (MASTER_ADDR), --master-port (MASTER_PORT),
// and --collective-timeout-s.
#pragma once

#include <CLI/CLI.hpp>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

void add_learner_process_flags(CLI::App& command, TrainConfig& config);

// Gives each of those flags not on the command line its variable's value,
// checked as the flag is: a bad value is an error naming both (a
// std::invalid_argument), never the default in its place. Call once parsed.
void read_launcher_variables(CLI::App& command);

}  // namespace seedrl
