// Acrobot-v1 with Gymnasium's "book" dynamics: a two-link pendulum driven by a
// torque at the elbow, integrated with one RK4 step of dt = 0.2, torque noise 0.
// The goal is to swing the tip above the bar: -cos(t1) - cos(t1 + t2) > 1.
// The 500-step truncation comes from the TimeLimit wrapper the registry adds.
#pragma once

#include "seedrl/env/env.h"
#include "seedrl/env/render.h"
#include "seedrl/util/rng.h"

namespace seedrl {

class Acrobot final : public Env, public RgbRenderable {
 public:
  static constexpr double kPi = 3.14159265358979323846;
  static constexpr double kDt = 0.2;
  static constexpr double kLinkLength1 = 1.0;
  static constexpr double kLinkMass1 = 1.0;
  static constexpr double kLinkMass2 = 1.0;
  static constexpr double kLinkComPos1 = 0.5;  // centre of mass of link 1
  static constexpr double kLinkComPos2 = 0.5;
  static constexpr double kLinkMoi = 1.0;  // moment of inertia of both links
  static constexpr double kGravity = 9.8;
  static constexpr double kMaxVel1 = 4 * kPi;
  static constexpr double kMaxVel2 = 9 * kPi;
  static constexpr double kTorques[3] = {-1.0, 0.0, 1.0};
  static constexpr int kMaxEpisodeSteps = 500;

  Acrobot();
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  StepResult step(const Action& action, void* obs) override;
  // As Gymnasium draws it (render/classic_draw.h).
  bool render_rgb(RgbImage& out) override;
  double render_fps() const override;

  // State access for tests: theta1, theta2, theta1_dot, theta2_dot.
  const double* state() const { return state_; }
  void set_state(const double s[4]);

 private:
  // Time derivative of the state under a constant torque.
  static void derivs(const double s[4], double torque, double out[4]);
  void write_obs(void* obs) const;
  EnvSpec spec_;
  Rng rng_;
  double state_[4] = {0, 0, 0, 0};
};

}  // namespace seedrl
