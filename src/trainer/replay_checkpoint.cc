#include "seedrl/trainer/replay_checkpoint.h"

#include <exception>
#include <filesystem>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "seedrl/learner/r2d2/replay_snapshot.h"
#include "seedrl/util/clock.h"

namespace seedrl {

std::string replay_snapshot_path(const std::string& logdir) {
  return (std::filesystem::path(logdir) / "replay.bin").string();
}

ReplayCheckpoint::ReplayCheckpoint(const TrainConfig& config, r2d2::Replay& replay)
    : path_(replay_snapshot_path(config.logdir)),
      enabled_(config.checkpoint_replay),
      min_replay_(config.r2d2.min_replay),
      replay_(replay) {}

std::int64_t ReplayCheckpoint::resume(bool checkpoint_loaded, std::int64_t learner_steps) {
  if (!checkpoint_loaded) return 0;
  auto refill = [&](std::int64_t n) {
    spdlog::info("replay refills {} sequences before learning", min_replay_);
    return n;
  };
  if (!enabled_) return refill(0);
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) {
    spdlog::info("--resume: no replay snapshot at {}", path_);
    return refill(0);
  }
  const std::string without = "; resume without it: --no-checkpoint-replay, or delete " + path_;
  try {
    const auto info = r2d2::read_replay_snapshot_info(path_, replay_);
    if (info.learner_steps < learner_steps) {
      spdlog::warn("--resume: replay snapshot {} is from learner step {}, older than the checkpoint's {}; not used",
                   path_, info.learner_steps, learner_steps);
      return refill(0);
    }
    if (info.learner_steps > learner_steps)
      spdlog::warn(
          "--resume: replay snapshot {} is from learner step {}, the checkpoint from {} (the run stopped "
          "between the two saves); using it",
          path_, info.learner_steps, learner_steps);
    const auto t0 = SteadyClock::now();
    const auto loaded = r2d2::load_replay_snapshot(replay_, path_);
    spdlog::info("resumed replay: {} sequences from {} ({:.1f} MiB in {:.2f} s)", loaded.sequences, path_,
                 static_cast<double>(loaded.bytes) / 1048576.0, seconds_since(t0));
    return loaded.sequences;
  } catch (const r2d2::ReplaySnapshotError& e) {
    throw std::invalid_argument("--resume: " + std::string(e.what()) + without);
  }
}

void ReplayCheckpoint::save(std::int64_t learner_steps, const std::function<void()>& save_checkpoint) {
  std::exception_ptr failed;
  if (enabled_) {
    try {
      const auto t0 = SteadyClock::now();
      const auto info = r2d2::save_replay_snapshot(replay_, path_, learner_steps);
      spdlog::info("saved replay: {} sequences to {} ({:.1f} MiB in {:.2f} s)", info.sequences, path_,
                   static_cast<double>(info.bytes) / 1048576.0, seconds_since(t0));
    } catch (const r2d2::ReplaySnapshotError& e) {
      failed = std::make_exception_ptr(
          r2d2::ReplaySnapshotError(std::string(e.what()) + " (--no-checkpoint-replay saves the checkpoint alone)"));
    }
  }
  save_checkpoint();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace seedrl
