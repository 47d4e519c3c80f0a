#if SEEDRL_HAVE_MUJOCO

#include "seedrl/env/mujoco/hopper.h"

#include <mujoco/mujoco.h>

#include <algorithm>

#include "seedrl/env/mujoco/model_loader.h"

namespace seedrl {

namespace {
MujocoTaskConfig hopper_config() {
  MujocoTaskConfig c;
  c.name = "mujoco:hopper";
  c.xml_file = "hopper.xml";
  c.nq = 6, c.nv = 6, c.nu = 3;
  c.frame_skip = Hopper::kFrameSkip;
  c.obs_dim = Hopper::kObsDim;
  c.reset_noise_scale = Hopper::kResetNoiseScale;
  c.normal_qvel_noise = false;
  return c;
}
}  // namespace

Hopper::Hopper(std::shared_ptr<const mjModel_> model)
    : MujocoEnv(hopper_config(), model ? std::move(model) : MujocoModelLoader::process_wide().load("hopper.xml")) {}

bool Hopper::is_healthy() const {
  const double* p = qpos();
  const double* v = qvel();
  // Strict comparisons, so a NaN anywhere is unhealthy.
  auto in_state_range = [](double s) { return -kHealthyStateMax < s && s < kHealthyStateMax; };
  for (int i = 2; i < 6; ++i) {
    if (!in_state_range(p[i])) return false;
  }
  for (int i = 0; i < 6; ++i) {
    if (!in_state_range(v[i])) return false;
  }
  const double z = p[1], angle = p[2];
  return z > kHealthyZMin && -kHealthyAngleMax < angle && angle < kHealthyAngleMax;
}

StepResult Hopper::score(double x_velocity, const float* action) const {
  // Gymnasium pays the healthy reward on every step while terminate_when_unhealthy
  // (its default), the terminating step included.
  const double reward = kForwardRewardWeight * x_velocity + kHealthyReward - kCtrlCostWeight * action_sq_norm(action);
  return StepResult{static_cast<float>(reward), !is_healthy(), false};
}

void Hopper::write_obs(float* obs) const {
  const double* p = qpos();
  const double* v = qvel();
  for (int i = 1; i < 6; ++i) *obs++ = static_cast<float>(p[i]);
  for (int i = 0; i < 6; ++i) {
    *obs++ = static_cast<float>(std::clamp(v[i], -kObsVelocityClip, kObsVelocityClip));
  }
}

}  // namespace seedrl

#endif  // SEEDRL_HAVE_MUJOCO
