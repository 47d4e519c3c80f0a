// Truncates episodes after a fixed number of steps (Gymnasium's TimeLimit):
// the last step reports truncated=true unless the env terminated on it.
#pragma once

#include "seedrl/env/env.h"
#include "seedrl/env/episode_outcome.h"
#include "seedrl/env/render.h"
#include "seedrl/env/training_progress.h"

namespace seedrl {

class TimeLimit final : public Env, public RgbRenderable, public EpisodeOutcome, public TrainingProgress {
 public:
  TimeLimit(EnvPtr inner, int max_steps);
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  StepResult step(const Action& action, void* obs) override;
  // The wrapped env's picture.
  bool render_rgb(RgbImage& out) override { return seedrl::render_rgb(*inner_, out); }
  double render_fps() const override { return seedrl::render_fps(*inner_); }
  const char* episode_outcome() const override { return seedrl::episode_outcome(*inner_); }
  std::span<const char* const> episode_outcomes() const override { return seedrl::episode_outcomes(*inner_); }
  void set_training_progress(double fraction) override { seedrl::set_training_progress(*inner_, fraction); }

 private:
  EnvPtr inner_;
  EnvSpec spec_;
  int max_steps_;
  int elapsed_ = 0;
};

}  // namespace seedrl
