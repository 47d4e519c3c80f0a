#include "seedrl/io/progress_line.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace seedrl {

namespace {
std::string human(double v) {
  if (v >= 1e9) return fmt::format("{:.2f}G", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.2f}M", v / 1e6);
  if (v >= 1e3) return fmt::format("{:.1f}k", v / 1e3);
  return fmt::format("{:.0f}", v);
}
// NaN: no episode has ended yet in this run.
std::string mean(double v) { return std::isfinite(v) ? fmt::format("{:.1f}", v) : "-"; }
std::string clock(double s) {
  if (!(s >= 0) || s > 1e7) return "--:--";
  const auto t = static_cast<long>(s);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{}:{:02}", t / 60, t % 60);
}
}  // namespace

ProgressLine::ProgressLine(std::FILE* out) : out_(out), tty_(::isatty(::fileno(out)) != 0) {}

double ProgressLine::smoothed_rate(const Progress& p) {
  if (last_learner_steps_ == 0 && p.learner_steps > 0 && last_elapsed_s_ >= 0) {
    // Training has begun: the warm-up's rate is forgotten, and the next window seeds the new one.
    eta_rate_ = 0;
    last_elapsed_s_ = p.elapsed_s;
    last_frames_ = p.frames;
    last_learner_steps_ = p.learner_steps;
    return 0;
  }
  last_learner_steps_ = p.learner_steps;
  if (last_elapsed_s_ >= 0 && p.elapsed_s > last_elapsed_s_) {
    const double dt = p.elapsed_s - last_elapsed_s_;
    const double rate = static_cast<double>(p.frames - last_frames_) / dt;
    const double a = 1 - std::exp(-dt / kEtaSmoothingS);
    eta_rate_ = eta_rate_ > 0 ? eta_rate_ + a * (rate - eta_rate_) : rate;
  } else if (eta_rate_ <= 0) {
    eta_rate_ = p.fps;
  }
  last_elapsed_s_ = p.elapsed_s;
  last_frames_ = p.frames;
  return eta_rate_;
}

void ProgressLine::update(const Progress& p) {
  const double rate = smoothed_rate(p);
  // The actors finish their last batch of steps past max_frames: nothing is left then, not an unknown.
  const double left = static_cast<double>(std::max<std::int64_t>(p.max_frames - p.frames, 0));
  const double eta = rate > 0 && p.max_frames > 0 ? left / rate : -1;
  const std::string window = p.return_count < p.window && std::isfinite(p.return_mean)
                                 ? fmt::format("{} of {}", p.return_count, p.window)
                                 : fmt::format("{}", p.window);
  const std::string outcome =
      p.outcome.empty()
          ? std::string()
          : fmt::format(" | {} {}", p.outcome,
                        std::isfinite(p.outcome_share) ? fmt::format("{:.2f}", p.outcome_share) : std::string("-"));
  const std::string line =
      fmt::format("frames {}/{} | {} fps | episodes {} | return({}) {}{} | learner steps {} | elapsed {} | ETA {}",
                  human(static_cast<double>(p.frames)), human(static_cast<double>(p.max_frames)), human(p.fps),
                  p.episodes, window, mean(p.return_mean), outcome, p.learner_steps, clock(p.elapsed_s), clock(eta));
  if (tty_) {
    fmt::print(out_, "\r\033[2K{}", line);
    dirty_ = true;
  } else {
    fmt::print(out_, "{}\n", line);
  }
  std::fflush(out_);
}

void ProgressLine::finish() {
  if (dirty_) fmt::print(out_, "\n");
  dirty_ = false;
  std::fflush(out_);
}

}  // namespace seedrl
