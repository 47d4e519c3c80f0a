// HalfCheetah-v4 (Gymnasium): run forward; never terminates.
// obs = [qpos[1:9], qvel[0:9]] (17); reward = x velocity - 0.1 * |a|^2.
#pragma once

#include "seedrl/env/mujoco/mujoco_env.h"

namespace seedrl {

class HalfCheetah final : public MujocoEnv {
 public:
  static constexpr int kFrameSkip = 5;
  static constexpr double kForwardRewardWeight = 1.0;
  static constexpr double kCtrlCostWeight = 0.1;
  static constexpr double kResetNoiseScale = 0.1;
  static constexpr int kObsDim = 17;
  static constexpr int kMaxEpisodeSteps = 1000;

  // Without a model, loads half_cheetah.xml through the process-wide loader.
  explicit HalfCheetah(std::shared_ptr<const mjModel_> model = nullptr);

 private:
  StepResult score(double x_velocity, const float* action) const override;
  void write_obs(float* obs) const override;
};

}  // namespace seedrl
