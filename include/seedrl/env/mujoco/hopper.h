// Hopper-v4 (Gymnasium): hop forward without falling.
// obs = [qpos[1:6], clip(qvel, -10, 10)] (11);
// reward = x velocity + 1 (healthy) - 1e-3 * |a|^2; terminates when unhealthy:
// healthy means every qpos[2:] and qvel entry in (-100, 100), torso height
// qpos[1] > 0.7 and torso angle qpos[2] in (-0.2, 0.2).
#pragma once

#include "seedrl/env/mujoco/mujoco_env.h"

namespace seedrl {

class Hopper final : public MujocoEnv {
 public:
  static constexpr int kFrameSkip = 4;
  static constexpr double kForwardRewardWeight = 1.0;
  static constexpr double kCtrlCostWeight = 1e-3;
  static constexpr double kHealthyReward = 1.0;
  static constexpr double kHealthyStateMax = 100.0;  // |state| bound, exclusive
  static constexpr double kHealthyZMin = 0.7;
  static constexpr double kHealthyAngleMax = 0.2;
  static constexpr double kObsVelocityClip = 10.0;
  static constexpr double kResetNoiseScale = 5e-3;
  static constexpr int kObsDim = 11;
  static constexpr int kMaxEpisodeSteps = 1000;

  explicit Hopper(std::shared_ptr<const mjModel_> model = nullptr);
  bool is_healthy() const;

 private:
  StepResult score(double x_velocity, const float* action) const override;
  void write_obs(float* obs) const override;
};

}  // namespace seedrl
