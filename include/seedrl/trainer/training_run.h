// One training run of any algorithm, around its Pipeline: the run
// directory, resume, the log lines, checkpoints, the metrics and progress
// line (RunMonitor), Ctrl-C, the live dashboard and the checkpoint videos.
#pragma once

#include "seedrl/trainer/algorithm.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

// Returns the process exit status: 0 done (or, with --resume, a run that had
// already reached --max-frames: nothing written), 130 interrupted (after a
// final checkpoint), 1 failed. A metrics or summary file that cannot be
// written throws (naming the file), after every thread has stopped.
int run_training(const TrainConfig& config, Algorithm& algorithm);

}  // namespace seedrl
