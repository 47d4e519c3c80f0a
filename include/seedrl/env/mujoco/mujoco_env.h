// Shared machinery of the MuJoCo locomotion tasks (Gymnasium's MujocoEnv):
// a model shared between envs, an mjData per env, `frame_skip` physics steps
// per env step, and the reset-noise rule. Each task adds its observation,
// reward and termination rule.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "seedrl/env/env.h"
#include "seedrl/util/rng.h"

struct mjModel_;  // MuJoCo's mjModel / mjData; complete only where
struct mjData_;   // <mujoco/mujoco.h> is included

namespace seedrl {

// What sets one task's simulation apart; the numbers are Gymnasium v4's.
struct MujocoTaskConfig {
  std::string name;            // registry name, e.g. "mujoco:hopper"
  std::string xml_file;        // file under <assets>/mujoco/
  int nq = 0, nv = 0, nu = 0;  // expected model sizes, checked at load
  int frame_skip = 1;          // physics steps per env step
  int obs_dim = 0;
  double reset_noise_scale = 0.0;
  // qpos noise is always U(-scale, scale); qvel noise is scale * N(0, 1)
  // when set, U(-scale, scale) otherwise.
  bool normal_qvel_noise = false;
};

struct MjDataDeleter {
  void operator()(mjData_* data) const;
};

class MujocoEnv : public Env {
 public:
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  // Applies action.values (spec().action.dim floats) as the actuator controls.
  // Like Gymnasium, the control cost uses the action as given; MuJoCo itself
  // clamps the controls to the actuators' ctrlrange.
  StepResult step(const Action& action, void* obs) override;

  // Simulation access, for tests and diagnostics.
  const mjModel_* model() const { return model_.get(); }
  const mjData_* data() const { return data_.get(); }
  int frame_skip() const { return config_.frame_skip; }
  double dt() const;  // seconds per env step: timestep * frame_skip
  // Sets qpos (nq) and qvel (nv) and recomputes derived quantities, as
  // Gymnasium's set_state; then writes the observation.
  void set_state(std::span<const double> qpos, std::span<const double> qvel, void* obs);

 protected:
  MujocoEnv(MujocoTaskConfig config, std::shared_ptr<const mjModel_> model);

  // The coordinate whose rate of change is the forward reward (default qpos[0]).
  virtual double forward_position() const;
  // Reward and termination after a step that moved forward at `x_velocity`.
  virtual StepResult score(double x_velocity, const float* action) const = 0;
  virtual void write_obs(float* obs) const = 0;

  // sum(action^2) over the actuators.
  double action_sq_norm(const float* action) const;
  const double* qpos() const;
  const double* qvel() const;

 private:
  MujocoTaskConfig config_;
  std::shared_ptr<const mjModel_> model_;
  std::unique_ptr<mjData_, MjDataDeleter> data_;
  EnvSpec spec_;
  Rng rng_;
};

}  // namespace seedrl
