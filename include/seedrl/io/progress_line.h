// The live progress line: redrawn in place on a terminal, one plain line per
// update otherwise (logs, CI).
#pragma once

#include <cstdint>
#include <cstdio>

namespace seedrl {

struct Progress {
  std::int64_t frames = 0, max_frames = 0, episodes = 0, learner_steps = 0;
  double fps = 0, return_mean = 0, elapsed_s = 0;  // return_mean NaN: no episode ended yet
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

 private:
  std::FILE* out_;
  bool tty_;
  bool dirty_ = false;
};

}  // namespace seedrl
