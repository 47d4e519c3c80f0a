// CartPole-v1 with Gymnasium's constants, Euler integrator and termination
// rule. The 500-step truncation comes from the TimeLimit wrapper the registry adds.
#pragma once

#include "seedrl/env/env.h"
#include "seedrl/env/render.h"
#include "seedrl/util/rng.h"

namespace seedrl {

class CartPole final : public Env, public RgbRenderable {
 public:
  static constexpr double kGravity = 9.8;
  static constexpr double kMassCart = 1.0;
  static constexpr double kMassPole = 0.1;
  static constexpr double kTotalMass = kMassCart + kMassPole;
  static constexpr double kLength = 0.5;  // half the pole's length
  static constexpr double kPoleMassLength = kMassPole * kLength;
  static constexpr double kForceMag = 10.0;
  static constexpr double kTau = 0.02;
  static constexpr double kThetaThreshold = 12.0 * 2.0 * 3.14159265358979323846 / 360.0;
  static constexpr double kXThreshold = 2.4;
  static constexpr int kMaxEpisodeSteps = 500;

  CartPole();
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  StepResult step(const Action& action, void* obs) override;
  // As Gymnasium draws it (render/classic_draw.h).
  bool render_rgb(RgbImage& out) override;
  double render_fps() const override;

  // State access for tests: x, x_dot, theta, theta_dot.
  const double* state() const { return state_; }
  void set_state(const double s[4]);

 private:
  void write_obs(void* obs) const;
  EnvSpec spec_;
  Rng rng_;
  double state_[4] = {0, 0, 0, 0};
};

}  // namespace seedrl
