// R2D2's learner and replay flags, shared by `train` and `bench` so that a
// bench run's R2D2 learner is the one training would build.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

// --algo, taking `algos`, and R2D2's sequence, target and replay flags.
void add_r2d2_learner_flags(CLI::App& command, TrainConfig& config,
                            const std::vector<std::string>& algos = {"vtrace", "r2d2", "sac"});
// With --algo r2d2: --unroll-length, --learning-rate, --adam-eps, --discount
// and --batch-size get R2D2's defaults unless given (or absent from `command`).
void apply_r2d2_defaults(const CLI::App& command, TrainConfig& config);

}  // namespace seedrl
