// MountainCar-v0 with Gymnasium's constants: push left / nothing / right to
// rock an underpowered car up to the flag at x = 0.5.
// The 200-step truncation comes from the TimeLimit wrapper the registry adds.
#pragma once

#include "seedrl/env/env.h"
#include "seedrl/util/rng.h"

namespace seedrl {

class MountainCar final : public Env {
 public:
  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;
  static constexpr double kGoalPosition = 0.5;
  static constexpr double kGoalVelocity = 0.0;
  static constexpr double kForce = 0.001;
  static constexpr double kGravity = 0.0025;
  static constexpr int kMaxEpisodeSteps = 200;

  MountainCar();
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  StepResult step(const Action& action, void* obs) override;

  // State access for tests: position, velocity.
  const double* state() const { return state_; }
  void set_state(const double s[2]);

 private:
  void write_obs(void* obs) const;
  EnvSpec spec_;
  Rng rng_;
  double state_[2] = {0, 0};
};

}  // namespace seedrl
