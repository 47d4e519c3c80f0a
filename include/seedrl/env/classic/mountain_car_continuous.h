// MountainCarContinuous-v0 with Gymnasium's constants: a force in [-1, 1]
// drives the car; reaching x >= 0.45 pays 100, every step costs 0.1 * a^2.
// The 999-step truncation comes from the TimeLimit wrapper the registry adds.
#pragma once

#include "seedrl/env/classic/mountain_car_physics.h"
#include "seedrl/env/render.h"

namespace seedrl {

class MountainCarContinuous final : public MountainCarPhysics, public RgbRenderable {
 public:
  static constexpr double kMinAction = -1.0;
  static constexpr double kMaxAction = 1.0;
  static constexpr double kGoalPosition = 0.45;
  static constexpr double kPower = 0.0015;
  static constexpr int kMaxEpisodeSteps = 999;

  MountainCarContinuous();
  // Reads action.values[0].
  StepResult step(const Action& action, void* obs) override;
  // As Gymnasium draws it (render/classic_draw.h), the flag at kGoalPosition.
  bool render_rgb(RgbImage& out) override;
  double render_fps() const override;
};

}  // namespace seedrl
