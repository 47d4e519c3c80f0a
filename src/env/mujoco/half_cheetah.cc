#if SEEDRL_HAVE_MUJOCO

#include "seedrl/env/mujoco/half_cheetah.h"

#include <mujoco/mujoco.h>

#include "seedrl/env/mujoco/model_loader.h"

namespace seedrl {

namespace {
MujocoTaskConfig half_cheetah_config() {
  MujocoTaskConfig c;
  c.name = "mujoco:halfcheetah";
  c.xml_file = "half_cheetah.xml";
  c.nq = 9, c.nv = 9, c.nu = 6;
  c.frame_skip = HalfCheetah::kFrameSkip;
  c.obs_dim = HalfCheetah::kObsDim;
  c.reset_noise_scale = HalfCheetah::kResetNoiseScale;
  c.normal_qvel_noise = true;
  return c;
}
}  // namespace

HalfCheetah::HalfCheetah(std::shared_ptr<const mjModel_> model)
    : MujocoEnv(half_cheetah_config(),
                model ? std::move(model) : MujocoModelLoader::process_wide().load("half_cheetah.xml")) {}

StepResult HalfCheetah::score(double x_velocity, const float* action) const {
  const double reward = kForwardRewardWeight * x_velocity - kCtrlCostWeight * action_sq_norm(action);
  return StepResult{static_cast<float>(reward), false, false};
}

void HalfCheetah::write_obs(float* obs) const {
  const double* p = qpos();
  const double* v = qvel();
  for (int i = 1; i < 9; ++i) *obs++ = static_cast<float>(p[i]);  // skip x position
  for (int i = 0; i < 9; ++i) *obs++ = static_cast<float>(v[i]);
}

}  // namespace seedrl

#endif  // SEEDRL_HAVE_MUJOCO
