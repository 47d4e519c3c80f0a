#include "seedrl/env/classic/mountain_car_continuous.h"

#include <algorithm>
#include <cmath>

namespace seedrl {

MountainCarContinuous::MountainCarContinuous() {
  spec_.name = "mountaincar-continuous";
  spec_.observation = ArraySpec{{2}, DType::kFloat32};
  spec_.action = ActionSpec::box({static_cast<float>(kMinAction)}, {static_cast<float>(kMaxAction)});
}

void MountainCarContinuous::set_state(const double s[2]) {
  state_[0] = s[0];
  state_[1] = s[1];
}

void MountainCarContinuous::write_obs(void* obs) const {
  auto* o = static_cast<float*>(obs);
  o[0] = static_cast<float>(state_[0]);
  o[1] = static_cast<float>(state_[1]);
}

void MountainCarContinuous::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) rng_.reseed(*seed);
  state_[0] = rng_.uniform(-0.6, -0.4);
  state_[1] = 0.0;
  write_obs(obs);
}

StepResult MountainCarContinuous::step(const Action& action, void* obs) {
  double& position = state_[0];
  double& velocity = state_[1];
  const double a = action.values[0];
  const double force = std::min(std::max(a, kMinAction), kMaxAction);
  velocity += force * kPower - kGravity * std::cos(3 * position);
  velocity = std::clamp(velocity, -kMaxSpeed, kMaxSpeed);
  position += velocity;
  position = std::clamp(position, kMinPosition, kMaxPosition);
  if (position == kMinPosition && velocity < 0) velocity = 0;  // inelastic left wall
  write_obs(obs);
  StepResult r;
  r.terminated = position >= kGoalPosition && velocity >= kGoalVelocity;
  // Gymnasium charges the action as given, before the clip to [-1, 1].
  r.reward = static_cast<float>((r.terminated ? 100.0 : 0.0) - a * a * 0.1);
  return r;
}

}  // namespace seedrl
