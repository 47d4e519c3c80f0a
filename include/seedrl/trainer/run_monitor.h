// The trainer's own thread while a run goes on, shared by the V-trace and
// R2D2 trainers: a metrics line (metrics.jsonl and TensorBoard) every
// --log-interval seconds, the live progress line, and a checkpoint request to
// the learner every --checkpoint-every seconds; at the end, the final metrics
// line and the run summary; and logdir/report.html (seedrl report) every
// --report-every-s seconds and at the end.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "seedrl/actor/episode_stats.h"
#include "seedrl/io/metrics_writer.h"
#include "seedrl/io/progress_line.h"
#include "seedrl/trainer/target_watch.h"
#include "seedrl/util/clock.h"

namespace seedrl {

// A scalar with no value yet (no episode ended, no learner step): null in
// metrics.jsonl and summary.json, absent from TensorBoard.
inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

struct RunMonitorConfig {
  std::string logdir;
  std::int64_t max_frames = 0;
  double log_interval_s = 5;
  double checkpoint_every_s = 0;   // 0: never
  int atari_frames_per_frame = 0;  // > 0: also report atari_frames, frames x this
  // logdir/report.html: < 0 never, 0 at the end only, else also every this
  // many seconds. A report that fails is a warning; the run goes on.
  double report_every_s = -1;
  // Wall time of the run before this process (a resume): wall_seconds and the
  // elapsed time go on from it; rates count this process's time only.
  double elapsed_before_s = 0;
  // --target-return (trainer/target_watch.h): none, or the return whose first
  // reaching is recorded; with stop_at_target the run ends there. A resumed
  // run's earlier moment comes in `target_before`.
  std::optional<double> target_return;
  bool stop_at_target = false;
  std::optional<TargetReached> target_before;
};

class RunMonitor {
 public:
  // Adds the algorithm's scalars to a metrics line that already holds the
  // run's: frames, fps, episodes, episode_return_mean, episode_length_mean,
  // learner_steps, wall_seconds, and where the envs say how episodes end
  // (Football) ended_<outcome>, each outcome's share of the window.
  using AddScalars = std::function<void(Scalars&)>;

  RunMonitor(RunMonitorConfig config, const std::atomic<std::int64_t>& frames,
             const std::atomic<std::int64_t>& learner_steps, const EpisodeStats& episodes, AddScalars add);

  // Blocks until max_frames are reached, the target with stop_at_target, or
  // `stop` says so (polled every 50 ms).
  // A metrics write that fails throws (std::system_error naming the file):
  // the caller's Pipeline then stops the run's threads.
  void watch(const std::function<bool()>& stop, std::atomic<bool>& checkpoint_due);
  // After every worker joined: ends the progress line, writes the final
  // metrics line and the summary ("completed": max_frames were reached, or
  // the target with stop_at_target; the target's keys) and closes the files. Returns the summary's scalars; their fps
  // and wall_seconds are this process's part of the run.
  Scalars finish();
  // Rows that another thread produced (V-trace's periodic evaluation): the
  // monitor takes them between its own lines and writes each with the run's
  // frames and wall_seconds. `add_summary` adds to summary.json only.
  void add_rows_from(std::function<std::vector<Scalars>()> take_rows, AddScalars add_summary);
  double elapsed_s() const { return config_.elapsed_before_s + run_s(); }
  double run_s() const { return seconds_since(t0_); }  // this process's part
  // When the mean return first reached --target-return (also for checkpoints).
  std::optional<TargetReached> target_reached() const { return target_.reached(); }
  // The run ended because it reached its target (stop_at_target).
  bool stopped_at_target() const { return config_.stop_at_target && target_.reached().has_value(); }

 private:
  Scalars scalars(double fps) const;
  void add_outcome_shares(Scalars& out) const;
  // Whether the window holds an episode of this run: one that ended in this
  // process, or one a resume restored (not one from before the monitor).
  bool has_return_mean(const EpisodeStats::Summary& ep) const;
  void watch_until(const std::function<bool()>& stop, std::atomic<bool>& checkpoint_due);
  void progress(double fps);
  void write_report();
  void write_taken_rows();
  void check_target();

  RunMonitorConfig config_;
  const std::atomic<std::int64_t>& frames_;
  const std::atomic<std::int64_t>& learner_steps_;
  const EpisodeStats& episodes_;
  AddScalars add_;
  TargetWatch target_;
  std::function<std::vector<Scalars>()> take_rows_;
  AddScalars add_summary_;
  MetricsWriter metrics_;
  ProgressLine progress_;
  SteadyClock::time_point t0_;
  std::int64_t start_frames_;
  std::int64_t start_episodes_;  // episodes of the run before this process (a resume)
  bool wrote_row_ = false;       // a row of the monitor's own scalars is in the metrics files
  std::string report_warning_;   // the last report failure logged, not repeated
};

// The metrics column of an episode outcome's share: "lost to the keeper" ->
// "ended_lost_to_the_keeper".
std::string outcome_column(const std::string& outcome);

// One line for the log: "N frames in T s (F fps), E episodes, mean return
// (last 100) R, S learner steps".
std::string describe_run(const Scalars& final_scalars);

}  // namespace seedrl
