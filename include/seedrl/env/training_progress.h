// How far the training run is, for envs whose episodes change over a run (a
// curriculum: Football's --football-shot-hold-prob-final anneals the share of
// episodes that hold shots). Actors tell the env before each episode, as the
// run's frames so far over its --max-frames, so a resumed run goes on where
// it stopped. A mix-in like EpisodeOutcome: the wrappers forward to the env
// they wrap; envs that are not told (eval, play, remote actors) stay at 0.
#pragma once

#include <cstdint>

namespace seedrl {

class Env;

class TrainingProgress {
 public:
  // `fraction` in [0, 1]; takes effect from the next episode.
  virtual void set_training_progress(double fraction) = 0;

 protected:
  ~TrainingProgress() = default;
};

// Tells the env, through any wrappers; nothing when it does not follow it.
void set_training_progress(Env& env, double fraction);
// A run's progress after `frames` of its `max_frames` (> 0), capped at 1.
double training_progress(std::int64_t frames, std::int64_t max_frames);

}  // namespace seedrl
