// Repeats each action `repeat` times, summing rewards and stopping early at an
// episode end (the "frame skip" of Atari agents, without max-pooling).
#pragma once

#include "seedrl/env/env.h"
#include "seedrl/env/episode_outcome.h"
#include "seedrl/env/render.h"
#include "seedrl/env/training_progress.h"

namespace seedrl {

class ActionRepeat final : public Env, public RgbRenderable, public EpisodeOutcome, public TrainingProgress {
 public:
  ActionRepeat(EnvPtr inner, int repeat);
  const EnvSpec& spec() const override { return inner_->spec(); }
  void reset(std::optional<std::uint64_t> seed, void* obs) override { inner_->reset(seed, obs); }
  StepResult step(const Action& action, void* obs) override;
  // The wrapped env's picture; `repeat` of its frames pass in one step.
  bool render_rgb(RgbImage& out) override { return seedrl::render_rgb(*inner_, out); }
  double render_fps() const override { return seedrl::render_fps(*inner_) / repeat_; }
  const char* episode_outcome() const override { return seedrl::episode_outcome(*inner_); }
  std::span<const char* const> episode_outcomes() const override { return seedrl::episode_outcomes(*inner_); }
  void set_training_progress(double fraction) override { seedrl::set_training_progress(*inner_, fraction); }

 private:
  EnvPtr inner_;
  int repeat_;
};

}  // namespace seedrl
