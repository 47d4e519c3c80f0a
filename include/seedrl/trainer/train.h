// `seedrl train`: one training job in this process with the algorithm its
// config names (--algo vtrace or r2d2), wired by the Pipeline.
#pragma once

#include "seedrl/trainer/train_config.h"

namespace seedrl {

// Returns the process exit status: 0 done (or, with --resume, a run that had
// already reached --max-frames: nothing written), 130 interrupted (after a
// final checkpoint), 1 failed. A metrics or summary file that cannot be
// written throws (naming the file), after every thread has stopped.
int train(TrainConfig config);

}  // namespace seedrl
