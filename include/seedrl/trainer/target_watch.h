// `train --target-return R`: the first moment the mean return of the last 100
// episodes (a full window, not the first lucky few) reached R, with the
// frames, wall time, learner steps and episodes of that moment. The monitor
// checks it between metrics lines; the checkpoint keeps it, so a resumed run
// reports the first time, not the resume.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>

#include "seedrl/actor/episode_stats.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/io/metrics_writer.h"

namespace seedrl {

class TargetWatch {
 public:
  // `target`: none, or the return to reach. `before`: a resumed run's earlier
  // moment, kept only when it was for the same target.
  TargetWatch(std::optional<double> target, std::optional<TargetReached> before);

  bool active() const { return target_.has_value(); }
  // True exactly once: the first call whose window is full and whose mean
  // return is at least the target.
  bool check(const EpisodeStats::Summary& episodes, std::int64_t frames, double wall_seconds,
             std::int64_t learner_steps);
  // Thread-safe (the learner thread saves checkpoints while the monitor checks).
  std::optional<TargetReached> reached() const;
  // target_return, target_frames, target_wall_seconds, target_learner_steps,
  // target_episodes and target_mean_return; the moment's keys null (NaN)
  // until it is reached. Nothing without a target.
  void add_to(Scalars& out) const;

 private:
  std::optional<double> target_;
  mutable std::mutex mu_;
  std::optional<TargetReached> reached_;
};

}  // namespace seedrl
