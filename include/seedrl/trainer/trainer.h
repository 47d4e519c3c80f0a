// Runs one training job in this process: actors, central inference, the
// trajectory store and the learner, plus logging, metrics and checkpoints.
// Owns every thread it starts and shuts them down in dependency order.
#pragma once

#include <torch/types.h>

#include "seedrl/env/play.h"
#include "seedrl/trainer/train_config.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl {

// Returns the process exit status: 0 done (or, with --resume, a run that had
// already reached --max-frames: nothing written), 130 interrupted (after a
// final checkpoint), 1 failed. A metrics or summary file that cannot be
// written throws (naming the file), after every thread has stopped.
int train(TrainConfig config);

// V-trace's unroll: unroll_length + 1 entries (the last bootstraps and starts
// the next unroll), the policy distribution's parameters and the LSTM state.
// `train` and the bench stages build their TrajectoryStore with it.
UnrollLayout vtrace_unroll_layout(const TrainConfig& config, const EnvSpec& spec);

// A checkpoint's policy as a PlayPolicy, with the run config it was trained
// with (env name, env options, model). Samples actions, or takes the most
// likely with `greedy`, from a random stream of its own seeded with `seed`
// (never LibTorch's global one, which a running trainer's actors draw from).
// Throws CheckpointError naming the file.
struct CheckpointPolicy {
  TrainConfig config;
  PlayPolicy policy;
};
CheckpointPolicy load_checkpoint_policy(const std::string& checkpoint, std::uint64_t seed, bool greedy);

// Plays `episodes` episodes of the checkpoint's environment with its policy.
// `rom_dir`: Atari ROM directory on this machine (--rom-dir; empty: the
// default lookup). Checkpoints do not keep it: it belongs to the machine.
PlayStats evaluate(const std::string& checkpoint, int episodes, std::uint64_t seed, bool greedy,
                   const std::string& rom_dir = "");

}  // namespace seedrl
