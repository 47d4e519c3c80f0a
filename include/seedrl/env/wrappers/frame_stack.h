// Stacks the last k observations along the last axis: [D] -> [D*k] for
// vectors, [H,W,C] -> [H,W,C*k] for images (newest last). At reset the first
// observation fills every slot. Frames live in a ring allocated once.
#pragma once

#include <cstdint>
#include <vector>

#include "seedrl/env/env.h"
#include "seedrl/env/episode_outcome.h"
#include "seedrl/env/render.h"
#include "seedrl/env/training_progress.h"

namespace seedrl {

class FrameStack final : public Env, public RgbRenderable, public EpisodeOutcome, public TrainingProgress {
 public:
  FrameStack(EnvPtr inner, int k);
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
  void write(void* obs) const;

  EnvPtr inner_;
  EnvSpec spec_;
  int k_;
  std::size_t frame_bytes_, elem_bytes_, channels_, pixels_;
  std::vector<std::uint8_t> ring_;  // k frames
  int newest_ = 0;
};

}  // namespace seedrl
