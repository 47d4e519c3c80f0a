// How an R2D2 or SAC run paces its learner against what the actors insert:
// --replay-ratio, --min-replay and SAC's --random-steps, checked against
// --batch-size and --max-frames once every default is applied. A setting
// that would stall the run (1e30 samples per insert) or leave the learner
// nothing to do in it (a replay that never fills, one update in the whole
// run, a policy that never acts) is refused in one line naming the flags,
// rather than found out after the run.
#pragma once

#include <CLI/CLI.hpp>

#include "seedrl/trainer/train_config.h"

namespace seedrl {

// At most this many learner updates per inserted sequence (R2D2) or
// transition (SAC): REDQ's 20 and the 128 of replay-ratio scaling studies
// fit, while every step waits a few seconds for its updates even on a GPU.
inline constexpr double kMaxUpdatesPerInsert = 1000;

// Throws std::invalid_argument (one line) for --algo r2d2 or sac when
// --min-replay exceeds --max-frames (each insert holds at least one new
// step), --replay-ratio exceeds kMaxUpdatesPerInsert x --batch-size or
// samples less than one batch over --max-frames, SAC's --batch-size exceeds
// --max-frames (its replay waits for a batch), or SAC's --random-steps
// reaches --max-frames. Names a default as such.
void check_replay_pacing(const CLI::App& command, const TrainConfig& config);

}  // namespace seedrl
