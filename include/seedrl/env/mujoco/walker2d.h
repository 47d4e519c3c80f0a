// Walker2d-v4 (Gymnasium): walk forward on two legs without falling.
// obs = [qpos[1:9], clip(qvel, -10, 10)] (17);
// reward = x velocity + 1 (healthy) - 1e-3 * |a|^2; terminates when unhealthy:
// healthy means torso height qpos[1] in (0.8, 2.0) and angle qpos[2] in (-1, 1).
#pragma once

#include "seedrl/env/mujoco/mujoco_env.h"

namespace seedrl {

class Walker2d final : public MujocoEnv {
 public:
  static constexpr int kFrameSkip = 4;
  static constexpr double kForwardRewardWeight = 1.0;
  static constexpr double kCtrlCostWeight = 1e-3;
  static constexpr double kHealthyReward = 1.0;
  static constexpr double kHealthyZMin = 0.8, kHealthyZMax = 2.0;
  static constexpr double kHealthyAngleMax = 1.0;
  static constexpr double kObsVelocityClip = 10.0;
  static constexpr double kResetNoiseScale = 5e-3;
  static constexpr int kObsDim = 17;
  static constexpr int kMaxEpisodeSteps = 1000;

  explicit Walker2d(std::shared_ptr<const mjModel_> model = nullptr);
  bool is_healthy() const;

 private:
  StepResult score(double x_velocity, const float* action) const override;
  void write_obs(float* obs) const override;
};

}  // namespace seedrl
