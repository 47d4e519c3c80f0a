#if SEEDRL_HAVE_MUJOCO

#include "seedrl/env/mujoco/ant.h"

#include <mujoco/mujoco.h>

#include <cmath>
#include <stdexcept>

#include "seedrl/env/mujoco/model_loader.h"

namespace seedrl {

namespace {
MujocoTaskConfig ant_config() {
  MujocoTaskConfig c;
  c.name = "mujoco:ant";
  c.xml_file = "ant.xml";
  c.nq = 15, c.nv = 14, c.nu = 8;
  c.frame_skip = Ant::kFrameSkip;
  c.obs_dim = Ant::kObsDim;
  c.reset_noise_scale = Ant::kResetNoiseScale;
  c.normal_qvel_noise = true;
  return c;
}
}  // namespace

Ant::Ant(std::shared_ptr<const mjModel_> model)
    : MujocoEnv(ant_config(), model ? std::move(model) : MujocoModelLoader::process_wide().load("ant.xml")) {
  torso_body_ = mj_name2id(this->model(), mjOBJ_BODY, "torso");
  if (torso_body_ < 0) throw std::runtime_error("mujoco:ant: model has no body named 'torso'");
}

double Ant::forward_position() const {
  // Gymnasium reads the torso's frame position (xpos) as left by the last
  // mj_step, not recomputed from the final qpos; do the same.
  return data()->xpos[3 * torso_body_];
}

bool Ant::is_healthy() const {
  const mjModel* m = model();
  for (int i = 0; i < m->nq; ++i) {
    if (!std::isfinite(qpos()[i])) return false;
  }
  for (int i = 0; i < m->nv; ++i) {
    if (!std::isfinite(qvel()[i])) return false;
  }
  const double z = qpos()[2];
  return kHealthyZMin <= z && z <= kHealthyZMax;
}

StepResult Ant::score(double x_velocity, const float* action) const {
  const double reward = x_velocity + kHealthyReward - kCtrlCostWeight * action_sq_norm(action);
  return StepResult{static_cast<float>(reward), !is_healthy(), false};
}

void Ant::write_obs(float* obs) const {
  const double* p = qpos();
  const double* v = qvel();
  for (int i = 2; i < 15; ++i) *obs++ = static_cast<float>(p[i]);  // skip x, y
  for (int i = 0; i < 14; ++i) *obs++ = static_cast<float>(v[i]);
}

}  // namespace seedrl

#endif  // SEEDRL_HAVE_MUJOCO
