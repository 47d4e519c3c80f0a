// logdir/best.pt: the weights that scored best in the run's periodic
// evaluations (trainer/periodic_eval.h), as an ordinary checkpoint that
// `seedrl eval` and `play --policy checkpoint:` read. The evaluation that
// earned it is stored in the checkpoint itself, under "best_eval" in its run
// config JSON (which train_config_from_json ignores), so that the file and
// its score cannot part: --resume reads the best so far back from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "seedrl/model/agent_net.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

struct EvalResult {
  double return_mean = 0, return_std = 0;
  int episodes = 0;
  std::int64_t frames = 0;         // the run's frame count when the weights were taken
  std::int64_t learner_steps = 0;  // the weights' learner step
  std::uint64_t seed = 0;          // the env seed of play_episodes: `seedrl eval --seed` replays it
  bool greedy = false;
};

std::string best_checkpoint_path(const std::string& logdir);

// Written atomically, like every checkpoint; with an optimizer that has no
// state (best.pt is for playing, not for resuming).
void save_best_checkpoint(const std::string& path, AgentNet model, const TrainConfig& config, const EvalResult& result);

// The evaluation best.pt records; none when there is no file or it records
// none. Throws CheckpointError naming the file when it cannot be read.
std::optional<EvalResult> read_best_eval(const std::string& path);

}  // namespace seedrl
