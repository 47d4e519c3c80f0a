#include "seedrl/env/classic/mountain_car.h"

#include <algorithm>
#include <cmath>

namespace seedrl {

MountainCar::MountainCar() {
  spec_.name = "mountaincar";
  spec_.observation = ArraySpec{{2}, DType::kFloat32};
  spec_.action = ActionSpec::discrete(3);
}

void MountainCar::set_state(const double s[2]) {
  state_[0] = s[0];
  state_[1] = s[1];
}

void MountainCar::write_obs(void* obs) const {
  auto* o = static_cast<float*>(obs);
  o[0] = static_cast<float>(state_[0]);
  o[1] = static_cast<float>(state_[1]);
}

void MountainCar::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) rng_.reseed(*seed);
  state_[0] = rng_.uniform(-0.6, -0.4);
  state_[1] = 0.0;
  write_obs(obs);
}

StepResult MountainCar::step(const Action& action, void* obs) {
  double& position = state_[0];
  double& velocity = state_[1];
  // Gymnasium's order: velocity first, clipped, then position from the new velocity.
  velocity += (action.index - 1) * kForce + std::cos(3 * position) * (-kGravity);
  velocity = std::clamp(velocity, -kMaxSpeed, kMaxSpeed);
  position += velocity;
  position = std::clamp(position, kMinPosition, kMaxPosition);
  if (position == kMinPosition && velocity < 0) velocity = 0;  // inelastic left wall
  write_obs(obs);
  StepResult r;
  r.terminated = position >= kGoalPosition && velocity >= kGoalVelocity;
  r.reward = -1.0f;
  return r;
}

}  // namespace seedrl
