#if SEEDRL_HAVE_MUJOCO

#include "seedrl/env/mujoco/walker2d.h"

#include <mujoco/mujoco.h>

#include <algorithm>

#include "seedrl/env/mujoco/model_loader.h"

namespace seedrl {

namespace {
MujocoTaskConfig walker2d_config() {
  MujocoTaskConfig c;
  c.name = "mujoco:walker2d";
  c.xml_file = "walker2d.xml";
  c.nq = 9, c.nv = 9, c.nu = 6;
  c.frame_skip = Walker2d::kFrameSkip;
  c.obs_dim = Walker2d::kObsDim;
  c.reset_noise_scale = Walker2d::kResetNoiseScale;
  c.normal_qvel_noise = false;
  return c;
}
}  // namespace

Walker2d::Walker2d(std::shared_ptr<const mjModel_> model)
    : MujocoEnv(walker2d_config(), model ? std::move(model) : MujocoModelLoader::process_wide().load("walker2d.xml")) {}

bool Walker2d::is_healthy() const {
  const double z = qpos()[1], angle = qpos()[2];
  return kHealthyZMin < z && z < kHealthyZMax && -kHealthyAngleMax < angle && angle < kHealthyAngleMax;
}

StepResult Walker2d::score(double x_velocity, const float* action) const {
  // The healthy reward is paid on the terminating step too (Gymnasium's default).
  const double reward = kForwardRewardWeight * x_velocity + kHealthyReward - kCtrlCostWeight * action_sq_norm(action);
  return StepResult{static_cast<float>(reward), !is_healthy(), false};
}

void Walker2d::write_obs(float* obs) const {
  const double* p = qpos();
  const double* v = qvel();
  for (int i = 1; i < 9; ++i) *obs++ = static_cast<float>(p[i]);
  for (int i = 0; i < 9; ++i) {
    *obs++ = static_cast<float>(std::clamp(v[i], -kObsVelocityClip, kObsVelocityClip));
  }
}

}  // namespace seedrl

#endif  // SEEDRL_HAVE_MUJOCO
