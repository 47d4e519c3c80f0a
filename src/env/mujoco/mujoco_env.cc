#if SEEDRL_HAVE_MUJOCO

#include "seedrl/env/mujoco/mujoco_env.h"

#include <mujoco/mujoco.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

namespace seedrl {

void MjDataDeleter::operator()(mjData_* data) const { mj_deleteData(data); }

namespace {
void check_size(const MujocoTaskConfig& c, const char* what, int got, int want) {
  if (got != want) {
    throw std::runtime_error(c.name + ": model " + c.xml_file + " has " + what + "=" + std::to_string(got) +
                             ", expected " + std::to_string(want));
  }
}
}  // namespace

MujocoEnv::MujocoEnv(MujocoTaskConfig config, std::shared_ptr<const mjModel_> model)
    : config_(std::move(config)), model_(std::move(model)) {
  if (!model_) throw std::invalid_argument(config_.name + ": null MuJoCo model");
  const mjModel* m = model_.get();
  check_size(config_, "nq", m->nq, config_.nq);
  check_size(config_, "nv", m->nv, config_.nv);
  check_size(config_, "nu", m->nu, config_.nu);
  data_.reset(mj_makeData(m));
  if (!data_) throw std::runtime_error(config_.name + ": mj_makeData failed");

  spec_.name = config_.name;
  spec_.observation = ArraySpec{{config_.obs_dim}, DType::kFloat32};
  std::vector<float> low(m->nu), high(m->nu);
  for (int i = 0; i < m->nu; ++i) {
    const bool limited = m->actuator_ctrllimited[i] != 0;
    low[i] = limited ? static_cast<float>(m->actuator_ctrlrange[2 * i]) : -std::numeric_limits<float>::infinity();
    high[i] = limited ? static_cast<float>(m->actuator_ctrlrange[2 * i + 1]) : std::numeric_limits<float>::infinity();
  }
  spec_.action = ActionSpec::box(std::move(low), std::move(high));
}

double MujocoEnv::dt() const { return model_->opt.timestep * config_.frame_skip; }

const double* MujocoEnv::qpos() const { return data_->qpos; }
const double* MujocoEnv::qvel() const { return data_->qvel; }

double MujocoEnv::forward_position() const { return data_->qpos[0]; }

double MujocoEnv::action_sq_norm(const float* action) const {
  double sum = 0.0;
  for (int i = 0; i < model_->nu; ++i) sum += static_cast<double>(action[i]) * action[i];
  return sum;
}

void MujocoEnv::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) rng_.reseed(*seed);
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  mj_resetData(m, d);
  // Gymnasium: init_qpos (= qpos0) + U(-s, s) per coordinate, drawn before qvel.
  const double s = config_.reset_noise_scale;
  for (int i = 0; i < m->nq; ++i) d->qpos[i] = m->qpos0[i] + rng_.uniform(-s, s);
  for (int i = 0; i < m->nv; ++i) {
    d->qvel[i] = config_.normal_qvel_noise ? s * rng_.normal() : rng_.uniform(-s, s);
  }
  mj_forward(m, d);
  write_obs(static_cast<float*>(obs));
}

void MujocoEnv::set_state(std::span<const double> qpos, std::span<const double> qvel, void* obs) {
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  if (static_cast<int>(qpos.size()) != m->nq || static_cast<int>(qvel.size()) != m->nv) {
    throw std::invalid_argument(config_.name + ": set_state needs nq qpos and nv qvel values");
  }
  std::copy(qpos.begin(), qpos.end(), d->qpos);
  std::copy(qvel.begin(), qvel.end(), d->qvel);
  mj_forward(m, d);
  write_obs(static_cast<float*>(obs));
}

StepResult MujocoEnv::step(const Action& action, void* obs) {
  if (action.values == nullptr) {
    throw std::invalid_argument(config_.name + ": continuous action needs values");
  }
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  const double before = forward_position();
  for (int i = 0; i < m->nu; ++i) d->ctrl[i] = action.values[i];
  for (int k = 0; k < config_.frame_skip; ++k) mj_step(m, d);
  // Gymnasium also calls mj_rnePostConstraint here, which only fills contact
  // force fields (cfrc_ext) that the v4 defaults never read; skipped.
  const double x_velocity = (forward_position() - before) / dt();
  const StepResult r = score(x_velocity, action.values);
  write_obs(static_cast<float*>(obs));
  return r;
}

}  // namespace seedrl

#endif  // SEEDRL_HAVE_MUJOCO
