#include "seedrl/env/classic/mountain_car.h"

#include "seedrl/env/render/classic_draw.h"

#include <cmath>

namespace seedrl {

MountainCar::MountainCar() {
  spec_.name = "mountaincar";
  spec_.observation = ArraySpec{{2}, DType::kFloat32};
  spec_.action = ActionSpec::discrete(3);
  spec_.action_names = {"accelerate_left", "no_acceleration", "accelerate_right"};
  spec_.observation_names = {"position", "velocity"};
}

StepResult MountainCar::step(const Action& action, void* obs) {
  advance((action.index - 1) * kForce + std::cos(3 * position()) * (-kGravity), obs);
  StepResult r;
  r.terminated = position() >= kGoalPosition && velocity() >= kGoalVelocity;
  r.reward = -1.0f;
  return r;
}

bool MountainCar::render_rgb(RgbImage& out) {
  classic_draw::mountain_car(position(), kGoalPosition, out);
  return true;
}

double MountainCar::render_fps() const { return classic_draw::kMountainCarFps; }

}  // namespace seedrl
