// MountainCar-v0 with Gymnasium's constants: push left / nothing / right to
// rock an underpowered car up to the flag at x = 0.5.
// The 200-step truncation comes from the TimeLimit wrapper the registry adds.
#pragma once

#include "seedrl/env/classic/mountain_car_physics.h"
#include "seedrl/env/render.h"

namespace seedrl {

class MountainCar final : public MountainCarPhysics, public RgbRenderable {
 public:
  static constexpr double kGoalPosition = 0.5;
  static constexpr double kForce = 0.001;
  static constexpr int kMaxEpisodeSteps = 200;

  MountainCar();
  StepResult step(const Action& action, void* obs) override;
  // As Gymnasium draws it (render/classic_draw.h), the flag at kGoalPosition.
  bool render_rgb(RgbImage& out) override;
  double render_fps() const override;
};

}  // namespace seedrl
