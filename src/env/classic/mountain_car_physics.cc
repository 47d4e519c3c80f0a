#include "seedrl/env/classic/mountain_car_physics.h"

#include <algorithm>

namespace seedrl {

void MountainCarPhysics::set_state(const double s[2]) {
  state_[0] = s[0];
  state_[1] = s[1];
}

void MountainCarPhysics::write_obs(void* obs) const {
  auto* o = static_cast<float*>(obs);
  o[0] = static_cast<float>(state_[0]);
  o[1] = static_cast<float>(state_[1]);
}

void MountainCarPhysics::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) rng_.reseed(*seed);
  state_[0] = rng_.uniform(-0.6, -0.4);
  state_[1] = 0.0;
  write_obs(obs);
}

void MountainCarPhysics::advance(double acceleration, void* obs) {
  double& position = state_[0];
  double& velocity = state_[1];
  velocity += acceleration;
  velocity = std::clamp(velocity, -kMaxSpeed, kMaxSpeed);
  position += velocity;
  position = std::clamp(position, kMinPosition, kMaxPosition);
  if (position == kMinPosition && velocity < 0) velocity = 0;  // inelastic left wall
  write_obs(obs);
}

}  // namespace seedrl
