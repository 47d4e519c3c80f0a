// The trainer's own thread while a run goes on, shared by the V-trace and
// R2D2 trainers: a metrics line (metrics.jsonl and TensorBoard) every
// --log-interval seconds, the live progress line, and a checkpoint request to
// the learner every --checkpoint-every seconds; at the end, the final metrics
// line and the run summary.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "seedrl/actor/episode_stats.h"
#include "seedrl/io/metrics_writer.h"
#include "seedrl/io/progress_line.h"
#include "seedrl/util/clock.h"

namespace seedrl {

struct RunMonitorConfig {
  std::string logdir;
  std::int64_t max_frames = 0;
  double log_interval_s = 5;
  double checkpoint_every_s = 0;  // 0: never
  int atari_frames_per_frame = 0;  // > 0: also report atari_frames, frames x this
};

class RunMonitor {
 public:
  // Adds the algorithm's scalars to a metrics line that already holds the
  // run's: frames, fps, episodes, episode_return_mean, episode_length_mean,
  // learner_steps, wall_seconds.
  using AddScalars = std::function<void(Scalars&)>;

  RunMonitor(RunMonitorConfig config, const std::atomic<std::int64_t>& frames,
             const std::atomic<std::int64_t>& learner_steps, const EpisodeStats& episodes, AddScalars add);

  // Blocks until max_frames are reached or `stop` says so (polled every 50 ms).
  void watch(const std::function<bool()>& stop, std::atomic<bool>& checkpoint_due);
  // After every worker joined: ends the progress line and writes the final
  // metrics line and the summary ("completed" is 1 when max_frames were reached).
  // Returns the run's average frames/s.
  double finish();
  double elapsed_s() const { return seconds_since(t0_); }

 private:
  Scalars scalars(double fps) const;

  RunMonitorConfig config_;
  const std::atomic<std::int64_t>& frames_;
  const std::atomic<std::int64_t>& learner_steps_;
  const EpisodeStats& episodes_;
  AddScalars add_;
  MetricsWriter metrics_;
  ProgressLine progress_;
  SteadyClock::time_point t0_;
  std::int64_t start_frames_;
};

}  // namespace seedrl
