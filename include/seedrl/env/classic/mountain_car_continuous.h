// MountainCarContinuous-v0 with Gymnasium's constants: a force in [-1, 1]
// drives the car; reaching x >= 0.45 pays 100, every step costs 0.1 * a^2.
// The 999-step truncation comes from the TimeLimit wrapper the registry adds.
#pragma once

#include "seedrl/env/env.h"
#include "seedrl/util/rng.h"

namespace seedrl {

class MountainCarContinuous final : public Env {
 public:
  static constexpr double kMinAction = -1.0;
  static constexpr double kMaxAction = 1.0;
  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;
  static constexpr double kGoalPosition = 0.45;
  static constexpr double kGoalVelocity = 0.0;
  static constexpr double kPower = 0.0015;
  static constexpr double kGravity = 0.0025;
  static constexpr int kMaxEpisodeSteps = 999;

  MountainCarContinuous();
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  // Reads action.values[0].
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
