// Per-env V-trace hyper-parameters (and envs per actor thread) that replace the global defaults when
// neither the command line nor --config sets them, as apply_r2d2_defaults does
// for --algo r2d2. `seedrl train --env cartpole` is the quick start, so the
// defaults must be what that env learns well with, not a compromise for all.
#pragma once

#include <CLI/CLI.hpp>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

// Applies the env's defaults to the flags `command` did not receive (a flag
// absent from `command` counts as not received). `train` prints the values it
// trains with at start.
void apply_env_defaults(const CLI::App& command, TrainConfig& config);

}  // namespace seedrl
