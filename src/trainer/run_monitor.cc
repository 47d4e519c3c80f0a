#include "seedrl/trainer/run_monitor.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "seedrl/report/report.h"
#include "seedrl/util/error_text.h"

namespace seedrl {

namespace {
double seconds_between(SteadyClock::time_point a, SteadyClock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}
}  // namespace

RunMonitor::RunMonitor(RunMonitorConfig config, const std::atomic<std::int64_t>& frames,
                       const std::atomic<std::int64_t>& learner_steps, const EpisodeStats& episodes, AddScalars add)
    : config_(std::move(config)),
      frames_(frames),
      learner_steps_(learner_steps),
      episodes_(episodes),
      add_(std::move(add)),
      target_(config_.target_return, config_.target_before),
      metrics_(config_.logdir),
      progress_(stderr),
      t0_(SteadyClock::now()),
      start_frames_(frames.load()),
      start_episodes_(episodes.summary().episodes) {}

bool RunMonitor::has_return_mean(const EpisodeStats::Summary& ep) const {
  return ep.episodes > start_episodes_ || ep.restored > 0;
}

std::string outcome_column(const std::string& outcome) {
  std::string key = "ended_" + outcome;
  std::replace(key.begin(), key.end(), ' ', '_');
  return key;
}

// Where the envs say how episodes end (Football): each outcome's share of
// the window's episodes, e.g. ended_goal, the training goal rate.
void RunMonitor::add_outcome_shares(Scalars& out) const {
  const std::vector<std::string> names = episodes_.outcome_names();
  if (names.empty()) return;
  const std::vector<double> shares = episodes_.outcome_shares();
  for (std::size_t i = 0; i < names.size() && i < shares.size(); ++i) out[outcome_column(names[i])] = shares[i];
}

Scalars RunMonitor::scalars(double fps) const {
  const auto ep = episodes_.summary();
  // The window holds this process's episodes only (a resumed run starts it
  // empty): before the first one ends there is no mean, not a mean of 0.
  const bool ended = has_return_mean(ep);
  Scalars out{{"frames", static_cast<double>(frames_.load())},
              {"fps", fps},
              {"episodes", static_cast<double>(ep.episodes)},
              {"episode_return_mean", ended ? ep.return_mean : kNoValue},
              {"episode_length_mean", ended ? ep.length_mean : kNoValue},
              {"learner_steps", static_cast<double>(learner_steps_.load())},
              {"wall_seconds", elapsed_s()}};
  if (config_.atari_frames_per_frame > 0)
    out["atari_frames"] = static_cast<double>(frames_.load()) * config_.atari_frames_per_frame;
  add_outcome_shares(out);
  if (add_) add_(out);
  target_.add_to(out);
  return out;
}

void RunMonitor::add_rows_from(std::function<std::vector<Scalars>()> take_rows, AddScalars add_summary) {
  take_rows_ = std::move(take_rows);
  add_summary_ = std::move(add_summary);
}

// After the first of the monitor's own rows, whose keys are metrics.csv's
// columns: a taken row has only a few of them.
void RunMonitor::write_taken_rows() {
  if (!take_rows_ || !wrote_row_) return;
  for (Scalars row : take_rows_()) {
    row["frames"] = static_cast<double>(frames_.load());
    row["wall_seconds"] = elapsed_s();
    metrics_.write(row, unix_now());
  }
}

void RunMonitor::watch(const std::function<bool()>& stop, std::atomic<bool>& checkpoint_due) {
  t0_ = SteadyClock::now();
  start_frames_ = frames_.load();
  try {
    watch_until(stop, checkpoint_due);
  } catch (...) {
    progress_.finish();  // the error that ends the run gets a line of its own
    throw;
  }
}

void RunMonitor::progress(double fps) {
  const auto ep = episodes_.summary();
  Progress p;
  p.frames = frames_.load();
  p.max_frames = config_.max_frames;
  p.episodes = ep.episodes;
  p.learner_steps = learner_steps_.load();
  p.fps = fps;
  p.return_mean = has_return_mean(ep) ? ep.return_mean : kNoValue;
  p.elapsed_s = elapsed_s();
  p.return_count = ep.in_window;
  p.window = ep.window;
  if (std::vector<std::string> names = episodes_.outcome_names(); !names.empty()) {
    p.outcome = std::move(names[0]);
    p.outcome_share = episodes_.outcome_shares()[0];
  }
  progress_.update(p);
}

void RunMonitor::watch_until(const std::function<bool()>& stop, std::atomic<bool>& checkpoint_due) {
  auto last_log = t0_, last_ckpt = t0_, last_draw = t0_, last_report = t0_;
  std::int64_t last_frames = start_frames_;
  // The first metrics row goes out as soon as an episode has ended, not a
  // log interval in: with the last row at the end, even a run of a few
  // seconds has a curve of at least two points.
  bool first_row = true;
  while (frames_.load() < config_.max_frames && !stop() && !stopped_at_target()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    check_target();
    const auto now = SteadyClock::now();
    const double since_log = seconds_between(last_log, now);
    const bool first_due = first_row && episodes_.summary().episodes > start_episodes_;
    if (since_log >= config_.log_interval_s || first_due) {
      first_row = false;
      const std::int64_t f = frames_.load();
      const double fps = static_cast<double>(f - last_frames) / since_log;
      last_frames = f;
      last_log = now;
      metrics_.write(scalars(fps), unix_now());
      wrote_row_ = true;
      if (!progress_.interactive()) progress(fps);  // one plain line per interval
    }
    write_taken_rows();
    if (progress_.interactive() && seconds_between(last_draw, now) >= 0.5) {
      last_draw = now;
      progress(static_cast<double>(frames_.load() - start_frames_) / std::max(1e-9, run_s()));
    }
    if (config_.checkpoint_every_s > 0 && seconds_between(last_ckpt, now) >= config_.checkpoint_every_s) {
      last_ckpt = now;
      checkpoint_due.store(true);
    }
    if (config_.report_every_s > 0 && seconds_between(last_report, now) >= config_.report_every_s) {
      write_report();
      last_report = SteadyClock::now();  // a slow report does not make the next one due at once
    }
  }
}

// The first time the window's mean reaches the target: a line in the log and
// a metrics row of that moment (the report marks it).
void RunMonitor::check_target() {
  if (!target_.active()) return;
  const EpisodeStats::Summary ep = episodes_.summary();
  if (!target_.check(ep, frames_.load(), elapsed_s(), learner_steps_.load())) return;
  const TargetReached hit = *target_.reached();
  progress_.finish();
  spdlog::info(
      "target return {} reached: mean {:.2f} over the last {} episodes at {} frames, {:.1f} s, {} learner steps{}",
      hit.target, hit.mean_return, ep.window, hit.frames, hit.wall_seconds, hit.learner_steps,
      config_.stop_at_target ? " (--stop-at-target: ending the run)" : "");
  metrics_.write(scalars(kNoValue), unix_now());
  wrote_row_ = true;
}

// From this thread, between metrics lines: it reads the files the monitor
// writes, and never blocks on the run's other threads.
void RunMonitor::write_report() {
  const std::string path = report::default_report_path({config_.logdir});
  try {
    report::write_report({config_.logdir}, path);
    report_warning_.clear();
  } catch (const std::exception& e) {
    const std::string why = error_text(e);
    if (why != report_warning_) spdlog::warn("{} not written: {} (training goes on)", path, why);
    report_warning_ = why;
  }
}

Scalars RunMonitor::finish() {
  progress_.finish();
  const double fps = static_cast<double>(frames_.load() - start_frames_) / std::max(1e-9, run_s());
  Scalars final_scalars = scalars(fps);
  metrics_.write(final_scalars, unix_now());
  wrote_row_ = true;
  write_taken_rows();
  if (add_summary_) add_summary_(final_scalars);
  final_scalars["completed"] = frames_.load() >= config_.max_frames || stopped_at_target() ? 1 : 0;
  if (target_.active()) final_scalars["stopped_at_target"] = stopped_at_target() ? 1 : 0;
  metrics_.write_summary(final_scalars);
  metrics_.close();
  if (config_.report_every_s >= 0) write_report();
  return final_scalars;
}

std::string describe_run(const Scalars& s) {
  auto get = [&s](const char* key) {
    const auto it = s.find(key);
    return it == s.end() ? kNoValue : it->second;
  };
  const double ret = get("episode_return_mean");
  return fmt::format(
      "{:.0f} frames in {:.1f} s ({:.0f} fps), {:.0f} episodes, mean return (last 100) {}, {:.0f} "
      "learner steps",
      get("frames"), get("wall_seconds"), get("fps"), get("episodes"),
      std::isfinite(ret) ? fmt::format("{:.2f}", ret) : "- (no episode ended)", get("learner_steps"));
}

}  // namespace seedrl
