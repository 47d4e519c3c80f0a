// `seedrl train --algo r2d2`: the same actors, batcher and trajectory store
// as V-trace, with R2D2's Q-network inference (epsilon-greedy per env),
// a central prioritised replay fed by an inserter thread, and the R2D2
// learner. train() dispatches here.
#pragma once

#include "seedrl/trainer/train_config.h"

namespace seedrl {

// Returns the process exit status like train(): 0 done, 130 interrupted, 1 failed.
int train_r2d2(TrainConfig config);

}  // namespace seedrl
