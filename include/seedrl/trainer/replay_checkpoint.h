// R2D2's replay saved with the run's checkpoint (--checkpoint-replay) as
// replay.bin in --logdir, and restored on --resume, so a killed run goes on
// with its sequences and priorities instead of refilling --min-replay.
//
// Each save writes replay.bin first, then checkpoint.pt, each atomically, and
// stamps replay.bin with the learner step the checkpoint gets. A run killed
// between the two renames leaves a replay one save newer than the checkpoint:
// still this run's experience, which resume takes with a warning. A replay
// older than the checkpoint (its save failed, or a run since saved with
// --no-checkpoint-replay) is skipped with a warning and the replay refills.
// A damaged or mismatched replay.bin stops --resume with one line.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

std::string replay_snapshot_path(const std::string& logdir);

class ReplayCheckpoint {
 public:
  ReplayCheckpoint(const TrainConfig& config, r2d2::Replay& replay);

  const std::string& path() const { return path_; }

  // After RunCheckpoint::resume: with `checkpoint_loaded` (at
  // `learner_steps`), restores replay.bin when there is a fitting one. Logs
  // "resumed replay: N sequences" or that the replay refills. Returns the
  // sequences restored. Throws std::invalid_argument (one line) for a damaged
  // or mismatched file.
  std::int64_t resume(bool checkpoint_loaded, std::int64_t learner_steps);

  // Saves replay.bin (with --checkpoint-replay), then `save_checkpoint` even
  // when the replay's save failed; then rethrows that failure, which ends the
  // run with the checkpoint safe.
  void save(std::int64_t learner_steps, const std::function<void()>& save_checkpoint);

 private:
  std::string path_;
  bool enabled_;
  std::int64_t min_replay_;
  r2d2::Replay& replay_;
};

}  // namespace seedrl
