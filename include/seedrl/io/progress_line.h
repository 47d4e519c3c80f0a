// The live progress line: redrawn in place on a terminal, one plain line per
// update otherwise (logs, CI).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace seedrl {

struct Progress {
  std::int64_t frames = 0, max_frames = 0, episodes = 0, learner_steps = 0;
  double fps = 0, return_mean = 0, elapsed_s = 0;  // return_mean NaN: no episode ended yet
  // Episodes return_mean is over, of a window of `window`: shown while the
  // window is filling ("return(37 of 100)"), so a mean of few is not read as
  // one of 100.
  std::int64_t return_count = 0, window = 100;
  // Where the env says how episodes end (Football): its first ending
  // ("goal", a game's "won") and that ending's share of the window, shown
  // after the return ("goal 0.38"); empty: not shown.
  std::string outcome;
  double outcome_share = 0;  // NaN: no episode has said yet
};

class ProgressLine {
 public:
  explicit ProgressLine(std::FILE* out);
  // Ends a line left open, so that what follows (an error) starts on its own.
  ~ProgressLine() { finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  void update(const Progress& p);
  // Ends the in-place line so later output starts on a fresh one.
  void finish();
  bool interactive() const { return tty_; }

  // The time constant of the ETA's smoothed rate.
  static constexpr double kEtaSmoothingS = 60;

 private:
  double smoothed_rate(const Progress& p);

  std::FILE* out_;
  bool tty_;
  bool dirty_ = false;
  // The ETA's rate: frames/s smoothed over about a minute of updates, so that
  // one slow or fast window does not swing the ETA by hours. Restarted when
  // the learner takes its first step: a replay's warm-up (actors alone) runs
  // many times faster than training and says nothing of the time left.
  double eta_rate_ = 0;
  double last_elapsed_s_ = -1;
  std::int64_t last_frames_ = 0;
  std::int64_t last_learner_steps_ = 0;
};

}  // namespace seedrl
