// Ant-v4 (Gymnasium) with its defaults (use_contact_forces=False, so no
// contact forces in the observation and no contact cost).
// obs = [qpos[2:15], qvel[0:14]] (27);
// reward = torso x velocity + 1 (healthy) - 0.5 * |a|^2, the torso position
// read from mjData.xpos as Gymnasium's get_body_com does; terminates when
// unhealthy: healthy means qpos and qvel all finite and torso z in [0.2, 1.0].
#pragma once

#include "seedrl/env/mujoco/mujoco_env.h"

namespace seedrl {

class Ant final : public MujocoEnv {
 public:
  static constexpr int kFrameSkip = 5;
  static constexpr double kCtrlCostWeight = 0.5;
  static constexpr double kHealthyReward = 1.0;
  static constexpr double kHealthyZMin = 0.2, kHealthyZMax = 1.0;  // inclusive
  static constexpr double kResetNoiseScale = 0.1;
  static constexpr int kObsDim = 27;
  static constexpr int kMaxEpisodeSteps = 1000;

  explicit Ant(std::shared_ptr<const mjModel_> model = nullptr);
  bool is_healthy() const;

 private:
  double forward_position() const override;
  StepResult score(double x_velocity, const float* action) const override;
  void write_obs(float* obs) const override;
  int torso_body_ = 0;
};

}  // namespace seedrl
