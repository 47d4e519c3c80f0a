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

}  // namespace seedrl
