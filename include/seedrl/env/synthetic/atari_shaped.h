// An Atari-shaped stand-in for throughput work: 84x84x4 uint8 frames (the
// DQN/IMPALA preprocessing of a stacked Atari screen) and the full 18-action
// set, with trivial dynamics so that a benchmark measures the pipeline and
// the model, not an emulator. A bright 8x8 block sits at one of 18 positions
// (one per action); pressing the action that matches the block scores +1 and
// moves the block. Channel k shows the block as it was k steps ago, as a frame
// stack would. Episodes are truncated after kEpisodeSteps steps.
#pragma once

#include <array>

#include "seedrl/env/env.h"
#include "seedrl/util/rng.h"

namespace seedrl {

class AtariShaped final : public Env {
 public:
  static constexpr int kSide = 84;
  static constexpr int kStack = 4;
  static constexpr int kActions = 18;
  static constexpr int kBlock = 8;
  static constexpr int kEpisodeSteps = 1000;

  AtariShaped();
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  StepResult step(const Action& action, void* obs) override;

  // The action that scores on the next step (for tests).
  int target() const { return history_[0]; }
  // Top-left pixel of the block drawn for position p.
  static int block_row(int p) { return 6 + (p / 6) * 26; }
  static int block_col(int p) { return 4 + (p % 6) * 13; }

 private:
  void write_obs(void* obs) const;
  EnvSpec spec_;
  Rng rng_;
  std::array<int, kStack> history_{};  // block position now, 1 step ago, ...
  int steps_ = 0;
};

void register_synthetic(class EnvRegistry& registry);

}  // namespace seedrl
