// Pendulum-v1 with Gymnasium's constants: swing a pendulum up and hold it with
// a torque in [-2, 2]. Never terminates; the 200-step truncation comes from
// the TimeLimit wrapper the registry adds.
#pragma once

#include "seedrl/env/env.h"
#include "seedrl/env/render.h"
#include "seedrl/util/rng.h"

namespace seedrl {

class Pendulum final : public Env, public RgbRenderable {
 public:
  static constexpr double kPi = 3.14159265358979323846;
  static constexpr double kMaxSpeed = 8.0;
  static constexpr double kMaxTorque = 2.0;
  static constexpr double kDt = 0.05;
  static constexpr double kGravity = 10.0;
  static constexpr double kMass = 1.0;
  static constexpr double kLength = 1.0;
  static constexpr int kMaxEpisodeSteps = 200;

  Pendulum();
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  // Reads action.values[0].
  StepResult step(const Action& action, void* obs) override;
  // As Gymnasium draws it (render/classic_draw.h).
  bool render_rgb(RgbImage& out) override;
  double render_fps() const override;

  // State access for tests: theta (not wrapped; 0 is upright), theta_dot.
  const double* state() const { return state_; }
  void set_state(const double s[2]);

  // Maps an angle into [-pi, pi) with a floored modulo, as Python's % does.
  static double angle_normalize(double x);

 private:
  void write_obs(void* obs) const;
  EnvSpec spec_;
  Rng rng_;
  double state_[2] = {0, 0};
};

}  // namespace seedrl
