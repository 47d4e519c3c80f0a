#include "seedrl/env/classic/mountain_car_continuous.h"

#include "seedrl/env/render/classic_draw.h"

#include <algorithm>
#include <cmath>

namespace seedrl {

MountainCarContinuous::MountainCarContinuous() {
  spec_.name = "mountaincar-continuous";
  spec_.observation = ArraySpec{{2}, DType::kFloat32};
  spec_.action = ActionSpec::box({static_cast<float>(kMinAction)}, {static_cast<float>(kMaxAction)});
  spec_.observation_names = {"position", "velocity"};
}

StepResult MountainCarContinuous::step(const Action& action, void* obs) {
  const double a = action.values[0];
  const double force = std::min(std::max(a, kMinAction), kMaxAction);
  advance(force * kPower - kGravity * std::cos(3 * position()), obs);
  StepResult r;
  r.terminated = position() >= kGoalPosition && velocity() >= kGoalVelocity;
  // Gymnasium charges the action as given, before the clip to [-1, 1].
  r.reward = static_cast<float>((r.terminated ? 100.0 : 0.0) - a * a * 0.1);
  return r;
}

bool MountainCarContinuous::render_rgb(RgbImage& out) {
  classic_draw::mountain_car(position(), kGoalPosition, out);
  return true;
}

double MountainCarContinuous::render_fps() const { return classic_draw::kMountainCarFps; }

}  // namespace seedrl
